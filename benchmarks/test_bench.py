"""Tests of the benchmark harness, so `make bench` cannot rot between full runs.

    /usr/bin/python3 -m unittest -v benchmarks/test_bench.py     (`make bench-smoke`)

The pure helpers are checked against numbers worked out by hand; then one `--tiny` run
of the whole harness must produce every figure, the JSON and the markdown, and keep the
hand-written text of an existing report. The binary is $WORKOUT_BIN (the debug build in
`make test`), else the release build.
"""

import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402
import elf  # noqa: E402
import figures  # noqa: E402
import processes  # noqa: E402
import report  # noqa: E402
import sound_drift  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "bench.py"

# Every figure a run must produce: a name missing here or there fails the smoke test.
EXPECTED = [
    *(f"lateness.{load}.{name}" for load in ("idle", "busy")
      for name in ("fires", "late_ms.p50", "late_ms.p99", "late_ms.max",
                   "outside.p50", "outside.p99", "outside.max")),
    "drift.end_error_ms", "drift.outside_end_error_ms", "drift.late_ms_slope", "drift.outside_slope",
    *(f"{group}.{name}" for group in ("display", "display_tenths", "display_large")
      for name in ("cpu_total_s", "cpu_steady_ms_per_s", "wakeups_total", "wakeups_steady_per_s", "rss_mib",
                   "end_error_ms")),
    "json.cpu_total_s", "json.cpu_steady_ms_per_s", "json.wakeups_total", "json.wakeups_steady_per_s",
    *(f"memory.run.{program.stem}" for program in sorted((ROOT / "programs").glob("*.lua"))),
    "memory.check.hiit", "memory.plan.hiit", "memory.max",
    "scale.plan_s", "scale.plan_rss_mib", "scale.dry_run_s", "scale.dry_run_rss_mib",
    "startup.check_hiit_ms",
    "hooks.call_us",
    "history.stats_s", "history.jq_s", "history.stats_over_jq", "history.stats_rss_mib",
    "history.list_s", "history.list_rss_mib",
    "activity.export_fit_ms", "activity.fit_kb", "activity.export_tcx_ms", "activity.tcx_kb",
    "size.binary_mib",
    "serving.late_ms.none.p99", "serving.late_ms.viewers.p99", "serving.late_ms.viewers.max",
    "serving.viewers_to_the_end", "serving.cpu_s", "serving.rss_mib",
    "serving.page.boundaries", "serving.page.p50_ms", "serving.page.p99_ms",
    *(f"sound.{load}.{name}" for load in ("idle", "busy")
      for name in ("sounds", "onset_ms.p50", "onset_ms.p99", "onset_ms.max",
                   "file_onset_ms.p50", "file_onset_ms.p99", "file_onset_ms.max",
                   "paplay_ms.p50", "paplay_ms.p99", "paplay_ms.max", "recorded_ms", "recording_ppm")),
    "sound.decode.ogg30_ms", "sound.decode.ogg30_rss_mib",
    *(f"sound.{state}.{name}" for state in ("on", "off") for name in ("cpu_ms_per_s", "wakeups_per_s", "rss_mib")),
    *(f"press.{way}.{name}" for way in ("key", "post") for name in ("heard", "ms.p50", "ms.p99", "ms.max")),
    *(f"servers.{kind}.{name}" for kind in ("pulseaudio", "pipewire")
      for name in ("heard", "onset_ms.p50", "onset_ms.p99", "onset_ms.max", "last_tenth_ms", "paplay_heard",
                   "paplay_ms.p50", "paplay_ms.p99", "hooks_heard", "hook_ms.p50", "hook_ms.p99", "hook_ms.max")),
]
# The figures measured on termdown too, in the same run.
WITH_TERMDOWN = [f"{group}.{name}" for group in ("display", "display_tenths", "display_large")
                 for name in ("cpu_total_s", "cpu_steady_ms_per_s", "wakeups_total", "wakeups_steady_per_s",
                              "rss_mib", "end_error_ms")]


def workout_binary():
    return os.environ.get("WORKOUT_BIN") or str(ROOT / ".build" / "release" / "workout")


class PercentileTests(unittest.TestCase):
    def test_interpolates_between_ranks(self):
        self.assertEqual(figures.percentile([4, 1, 3, 2], 50), 2.5)

    def test_ends_are_min_and_max(self):
        self.assertEqual(figures.percentile([7, 3, 9], 0), 3)
        self.assertEqual(figures.percentile([7, 3, 9], 100), 9)

    def test_p99_of_one_to_a_hundred(self):
        self.assertAlmostEqual(figures.percentile(list(range(1, 101)), 99), 99.01)

    def test_a_single_value(self):
        self.assertEqual(figures.percentile([0.2], 99), 0.2)

    def test_no_values_is_an_error(self):
        with self.assertRaises(ValueError):
            figures.percentile([], 50)


class SlopeTests(unittest.TestCase):
    def test_a_line(self):
        self.assertAlmostEqual(figures.slope([1, 2, 3, 4, 5], [3, 5, 7, 9, 11]), 2)

    def test_flat_is_zero(self):
        self.assertEqual(figures.slope([1, 2, 3], [0.2, 0.2, 0.2]), 0)

    def test_least_squares_of_scattered_points(self):
        # mean x 1, mean y 2: Σ(dx·dy) = 2 + 0 + 3 = 5, Σdx² = 2.
        self.assertAlmostEqual(figures.slope([0, 1, 2], [0, 1, 5]), 2.5)

    def test_needs_two_distinct_xs(self):
        with self.assertRaises(ValueError):
            figures.slope([1], [1])
        with self.assertRaises(ValueError):
            figures.slope([2, 2], [1, 3])


class OutsideLatenessTests(unittest.TestCase):
    # Time zero at 100 s on the reader's clock, speed 10: a fire at `at` = 5 is due at 100.5 s.
    EVENTS = [{"event": "workout_start", "t": 0.0},
              {"event": "segment_start", "t": 0.001, "index": 1},
              {"event": "segment_start", "t": 5.002, "at": 5, "late_ms": 0.2, "index": 2},
              {"event": "segment_start", "t": 10.01, "at": 10, "late_ms": 1.0, "index": 3}]

    def test_the_origin_is_the_line_that_waited_least(self):
        # workout_start waited 9 ms; the first fire's line arrived the moment it was written.
        arrivals = [100.009, 100.0092, 100.5002, 101.0111]
        self.assertAlmostEqual(bench.outside_origin(self.EVENTS, arrivals, 10), 100.0)

    def test_lateness_is_arrival_minus_due_time(self):
        arrivals = [100.0001, 100.0003, 100.5003, 101.0011]
        origin = bench.outside_origin(self.EVENTS, arrivals, 10)
        self.assertAlmostEqual(origin, 100.0001 - 0.0)
        lateness = bench.outside_lateness(self.EVENTS, arrivals, 10)
        self.assertEqual(len(lateness), 2)  # segment 1 starts the workout: no timer
        self.assertAlmostEqual(lateness[0], 0.2, places=6)
        self.assertAlmostEqual(lateness[1], 1.0, places=6)


class MarkerTests(unittest.TestCase):
    def test_replaces_only_between_the_markers(self):
        text = f"# Notes\nintro\n{report.MARK_BEGIN}\nold table\n{report.MARK_END}\n## Profiling\nkept\n"
        result = report.replace_between_markers(text, "new table")
        self.assertEqual(result, f"# Notes\nintro\n{report.MARK_BEGIN}\nnew table\n{report.MARK_END}\n"
                                 "## Profiling\nkept\n")

    def test_a_missing_file_gets_an_intro_and_the_markers(self):
        result = report.replace_between_markers(None, "table")
        self.assertTrue(result.startswith("# Benchmarks\n"))
        self.assertIn(f"{report.MARK_BEGIN}\ntable\n{report.MARK_END}\n", result)

    def test_a_file_without_markers_keeps_its_text_and_gains_them(self):
        result = report.replace_between_markers("# Mine\nhand-written\n", "table")
        self.assertEqual(result, f"# Mine\nhand-written\n\n{report.MARK_BEGIN}\ntable\n{report.MARK_END}\n")

    def test_a_second_run_replaces_the_first(self):
        once = report.replace_between_markers("# Mine\n", "first")
        twice = report.replace_between_markers(once, "second")
        self.assertNotIn("first", twice)
        self.assertEqual(twice.count(report.MARK_BEGIN), 1)


class SoundDriftTests(unittest.TestCase):
    """The pure arithmetic of `--only drift` (sound_drift.py), worked out by hand."""

    def test_each_plan_takes_the_onset_nearest_it_and_a_lost_pip_is_left_out(self):
        # Plans at 1, 2 and 3 s on a clock whose origin is 100 s; nothing near the third.
        plans = [(1, 101.0), (2, 102.0), (3, 103.0)]
        heard = [101.0015, 101.5, 101.998, 103.6]
        errors = sound_drift.pip_errors(plans, heard)
        self.assertEqual([at for at, _ in errors], [1, 2])
        self.assertAlmostEqual(errors[0][1], 1.5, places=6)
        self.assertAlmostEqual(errors[1][1], -2.0, places=6)

    def test_less_the_median(self):
        self.assertEqual(sound_drift.less_median([(1, 4.0), (2, 5.0), (3, 9.0)]), [(1, -1.0), (2, 0.0), (3, 4.0)])

    def test_the_largest_step_is_between_neighbours_either_way(self):
        # Steps 0.2, −1.5, +0.4: the largest is 1.5, though the spread is 1.3 either side of 0.
        errors = [(1, 0.0), (2, 0.2), (3, -1.3), (4, -0.9)]
        self.assertAlmostEqual(sound_drift.largest_step(errors), 1.5)

    def test_one_pip_has_no_step(self):
        self.assertEqual(sound_drift.largest_step([(1, 3.0)]), 0.0)

    def test_drift_is_the_last_minutes_median_less_the_firsts(self):
        # Three minutes: the first minute's median 0.5, the last's 2.0 (the middle one ignored).
        errors = [(1, 0.0), (30, 0.5), (59, 1.0), (90, 9.0), (120, 1.0), (150, 2.0), (179, 3.0)]
        self.assertAlmostEqual(sound_drift.minute_drift(errors, 180), 1.5)

    def test_a_one_minute_run_has_no_drift(self):
        self.assertEqual(sound_drift.minute_drift([(1, 0.3), (2, -0.1), (59, 0.8)], 60), 0)

    def test_no_pip_in_a_minute_is_an_error(self):
        with self.assertRaises(processes.BenchError):
            sound_drift.minute_drift([(1, 0.3), (2, 0.1)], 180)

    def test_the_figures_of_a_run(self):
        # Six pips of seven heard, one step of 1.2 ms; the sink's rate not yet told (null).
        run = {"errors": [(1, 10.0), (2, 10.2), (3, 10.1), (4, 11.3), (5, 11.2), (6, 11.0)], "planned": 7,
               "seconds": 60, "ppm": 12.5, "sound": {"event": "sound", "rate_ppm": None,
                                                     "largest_correction_ms": 0.25, "underruns": 0,
                                                     "clock_restarts": 1}}
        found = {f.name: f for f in sound_drift.drift_figures("pipewire", run)}
        self.assertEqual(found["sound_drift.pipewire.heard"].value, 6)
        self.assertIs(found["sound_drift.pipewire.heard"].met, False)
        self.assertAlmostEqual(found["sound_drift.pipewire.step_ms"].value, 1.2)
        self.assertIs(found["sound_drift.pipewire.step_ms"].met, False)
        # The median is 10.6 (between 10.2 and 11.0): the largest distance from it is 11.3's, 0.7.
        self.assertAlmostEqual(found["sound_drift.pipewire.error_ms.max"].value, 0.7)
        self.assertIs(found["sound_drift.pipewire.error_ms.max"].met, True)
        self.assertEqual(found["sound_drift.pipewire.drift_ms"].value, 0)
        self.assertIsNone(found["sound_drift.pipewire.rate_ppm"].value)
        self.assertEqual(found["sound_drift.pipewire.clock_restarts"].value, 1)

    def test_the_table_has_a_column_pair_per_server_and_six_cells_a_row(self):
        run = {"errors": [(1, 0.0), (2, 0.1)], "planned": 2, "seconds": 60, "ppm": 1.0,
               "sound": {"rate_ppm": 3.5, "largest_correction_ms": 0.1, "underruns": 0, "clock_restarts": 0}}
        figures = sound_drift.drift_figures("pulseaudio", run) + sound_drift.drift_figures("pipewire", run)
        rows = sound_drift.table(figures).splitlines()
        self.assertEqual(rows[0], "| figure | target | PulseAudio | met? | PipeWire, default quantum | met? |")
        self.assertEqual(len(rows), 2 + len(figures) // 2)
        for row in rows:
            self.assertEqual(row.replace("\\|", "").count("|"), 7)
        self.assertIn("| pips heard | all planned | 2 | yes | 2 | yes |", rows)

    def test_its_markers_leave_the_full_runs_alone(self):
        text = (f"# B\n{report.MARK_BEGIN}\nfull\n{report.MARK_END}\n## Drift\n"
                f"{report.DRIFT_BEGIN}\nold\n{report.DRIFT_END}\nkept\n")
        result = report.replace_between_markers(text, "new", report.DRIFT_BEGIN, report.DRIFT_END)
        self.assertEqual(result, text.replace("\nold\n", "\nnew\n"))
        self.assertEqual(report.replace_between_markers(result, "table"),
                         result.replace("\nfull\n", "\ntable\n"))


class MedianRunTests(unittest.TestCase):
    def usage(self, cpu_s):
        return processes.Usage(0, 20.0, cpu_s, 30, 16000, [], None)

    def test_the_run_of_median_cpu_is_reported(self):
        runs = [self.usage(0.030), self.usage(0.016), self.usage(0.019)]
        self.assertIs(bench.median_run(runs), runs[2])

    def test_an_even_number_takes_the_lower_middle_and_one_run_is_itself(self):
        runs = [self.usage(0.4), self.usage(0.1), self.usage(0.3), self.usage(0.2)]
        self.assertIs(bench.median_run(runs), runs[3])
        self.assertIs(bench.median_run(runs[:1]), runs[0])


class DisplayBoundTests(unittest.TestCase):
    def test_a_twenty_second_countdown_changes_each_second(self):
        # 0:19 … 0:00 (20 whole seconds).
        self.assertEqual(bench.display_changes(20, 0, 20), 20)

    def test_with_tenths_it_changes_47_times(self):
        # 0:19 … 0:03.0 (17 whole seconds), then 2.9 … 0.0 in tenths (30).
        self.assertEqual(bench.display_changes(20, 0, 20, tenths=True), 47)

    def test_a_window_counts_only_its_changes(self):
        # Whole seconds 2 … 19 (18); with tenths, 2 … 17 (16), then the tenths 17.1 … 19.0 (20).
        self.assertEqual(bench.display_changes(20, 1, 19), 18)
        self.assertEqual(bench.display_changes(20, 1, 19, tenths=True), 36)

    def test_a_short_countdown_with_tenths_is_all_tenths(self):
        self.assertEqual(bench.display_changes(2, 0, 2, tenths=True), 20)
        self.assertEqual(bench.display_changes(2, 0, 2), 2)

    def test_flash_ends_fall_between_changes_unless_on_a_tenth(self):
        # The flashes at 0, 17, 18 and 19 s end at 0.2, 17.2, 18.2 and 19.2 s: between
        # whole seconds; with tenths, those of the countdown seconds end on a tenth.
        self.assertEqual(bench.flash_ends(20, 0, 20), 4)
        self.assertEqual(bench.flash_ends(20, 1, 19), 2)
        self.assertEqual(bench.flash_ends(20, 0, 20, tenths=True), 1)
        self.assertEqual(bench.flash_ends(20, 1, 19, tenths=True), 0)
        self.assertEqual(bench.flash_ends(2, 0, 2, tenths=True), 0)

    def test_timers_are_the_bells_and_the_end(self):
        self.assertEqual(bench.timers_in(20, 0, 20), 4)
        self.assertEqual(bench.timers_in(20, 1, 17.5), 1)
        self.assertEqual(bench.timers_in(2, 0, 2), 2)


class FormatTests(unittest.TestCase):
    def test_three_significant_digits(self):
        self.assertEqual(figures.fmt(0.17432), "0.174")
        self.assertEqual(figures.fmt(2.449), "2.45")
        self.assertEqual(figures.fmt(22.44), "22.4")
        self.assertEqual(figures.fmt(1234.5), "1,234")
        self.assertEqual(figures.fmt(110), "110")
        self.assertEqual(figures.fmt(None), "—")

    def test_a_ratio_target_judges_the_ratio(self):
        target = figures.Target("≤ 1/10 of termdown", lambda r: r <= 0.1, on_ratio=True)
        self.assertTrue(figures.Figure("x", "g", "x", 0.5, "s", target, termdown=10).met)
        self.assertFalse(figures.Figure("x", "g", "x", 2, "s", target, termdown=10).met)
        self.assertFalse(figures.Figure("x", "g", "x", 0.5, "s", target).met)  # no termdown: not met


class ElfTests(unittest.TestCase):
    def test_a_binary_with_symbols_and_its_stripped_copy(self):
        with tempfile.TemporaryDirectory(prefix="bench-elf-") as directory:
            original = Path(directory) / "with-symbols"
            stripped = Path(directory) / "stripped"
            # The C parent of every measurement, built with symbols, then stripped with binutils' strip.
            compiler = next(c for c in ("cc", "clang", "gcc") if shutil.which(c))
            subprocess.run([compiler, "-g", "-o", str(original), str(ROOT / "benchmarks" / "rusage.c")], check=True)
            subprocess.run(["strip", "-o", str(stripped), str(original)], check=True)
            self.assertIn(".symtab", elf.section_names(original))
            self.assertIn(".text", elf.section_names(stripped))
            self.assertFalse(elf.is_stripped(original))
            self.assertTrue(elf.is_stripped(stripped))

    def test_not_an_elf_file(self):
        with self.assertRaises(ValueError):
            elf.section_names(ROOT / "benchmarks" / "rusage.c")


class MeasureTests(unittest.TestCase):
    """`rusage`, the small C parent every program runs under."""

    def test_peak_memory_is_the_programs_not_the_interpreters(self):
        # A child of this interpreter would carry its peak (over 9 MiB) through fork and exec.
        usage = processes.measure(["/bin/true"], dict(os.environ), timeout=30)
        self.assertEqual(usage.status, 0)
        self.assertLess(usage.rss_mib, 4)
        self.assertGreater(usage.max_rss_kib, 0)

    def test_exit_status_and_cpu(self):
        usage = processes.measure(["sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; exit 3"],
                                  dict(os.environ), timeout=30, expect=(3,))
        self.assertEqual(usage.status, 3)
        self.assertGreater(usage.cpu_s, 0.001)
        self.assertGreater(usage.wall_s, 0)

    def test_ctrl_c_reaches_the_program(self):
        usage = processes.measure(["sleep", "30"], dict(os.environ), timeout=20, interrupt_after=0.3,
                                  expect=(-2,))
        self.assertEqual(usage.status, -2)
        self.assertLess(usage.wall_s, 10)


class TinyRunTests(unittest.TestCase):
    """One `bench.py --tiny` run, checked for every figure and for the report it updates."""

    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory(prefix="bench-test-")
        directory = Path(cls.directory.name)
        cls.markdown = directory / "BENCHMARKS.md"
        cls.json_path = directory / "figures.json"
        cls.markdown.write_text(f"# Benchmarks\n\nIntro written by hand.\n\n{report.MARK_BEGIN}\n"
                                f"stale table from an older run\n{report.MARK_END}\n\n"
                                "## Profiling notes\n\nA callgrind note to keep.\n")
        cls.result = subprocess.run([sys.executable, str(SCRIPT), "--tiny", "--workout", workout_binary(),
                                  "--markdown", str(cls.markdown), "--json", str(cls.json_path)],
                                 cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                 timeout=600)
        # A run that failed is one error that shows why, not a hundred missing figures.
        if cls.result.returncode != 0:
            cls.directory.cleanup()
            raise AssertionError(f"bench.py --tiny exited {cls.result.returncode}:\n{cls.result.stderr[-3000:]}")
        cls.report = json.loads(cls.json_path.read_text())
        cls.figures = {figure["name"]: figure for figure in cls.report["figures"]}
        cls.text = cls.markdown.read_text()

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_every_figure_is_a_finite_number(self):
        for name in EXPECTED:
            with self.subTest(name=name):
                self.assertIn(name, self.figures)
                value = self.figures[name]["value"]
                self.assertIsInstance(value, (int, float))
                self.assertTrue(math.isfinite(value), f"{name} = {value}")

    def test_no_unexpected_figures(self):
        self.assertEqual(sorted(set(self.figures) - set(EXPECTED)), [])

    def test_the_sound_drift_benchmark_is_not_in_it(self):
        # Ten minutes on each server: only `--only drift` runs it.
        self.assertEqual([name for name in self.figures if name.startswith("sound_drift.")], [])

    def test_termdown_figures_and_ratios(self):
        for name in WITH_TERMDOWN:
            with self.subTest(name=name):
                figure = self.figures[name]
                self.assertTrue(math.isfinite(figure["termdown"]))
                self.assertGreater(figure["termdown"], 0)
                self.assertAlmostEqual(figure["ratio"], figure["value"] / figure["termdown"])
        self.assertEqual(self.report["termdown"], "2.0.0")

    def test_targets_are_judged(self):
        self.assertIn(self.figures["lateness.idle.late_ms.p99"]["met"], (True, False))
        self.assertEqual(self.figures["lateness.idle.late_ms.p99"]["target"], "< 1 ms")
        self.assertEqual(self.figures["scale.plan_rss_mib"]["target"], "< 100 MiB")
        # Seen from outside, the pipe and the reader add to the fire: shown, not judged.
        self.assertIsNone(self.figures["lateness.idle.outside.p99"]["met"])
        self.assertIn("< 1 ms", self.figures["lateness.idle.outside.p99"]["target"])
        # 60 fires are fewer than the 500 the targets ask for: a tiny run must say so, not pass.
        self.assertIs(self.figures["lateness.idle.fires"]["met"], False)

    def test_the_markdown_has_the_header(self):
        generated = self.text[self.text.index(report.MARK_BEGIN):self.text.index(report.MARK_END)]
        for line in ("- **Machine:** Linux", "- **Date:** 20", "- **Command:** `",
                     "bench.py --tiny", "- **workout:** commit ", "- **termdown:** 2.0.0"):
            with self.subTest(line=line):
                self.assertIn(line, generated)

    def test_the_markdown_has_a_row_for_every_figure(self):
        rows = [line for line in self.text.splitlines() if line.startswith("| ")]
        for figure in self.report["figures"]:
            with self.subTest(name=figure["name"]):
                self.assertTrue(any(row.startswith(f"| {figure['label']} | ") for row in rows))
        self.assertEqual(len(rows) - rows.count("| figure | workout | target | met? | termdown | "
                                                "workout/termdown |"), len(EXPECTED))

    def test_every_row_has_six_cells(self):
        # A stray "|" in a label or a target would split a cell and shift the columns.
        rows = [line for line in self.text.splitlines() if line.startswith("|")]
        self.assertGreater(len(rows), len(EXPECTED))
        for row in rows:
            with self.subTest(row=row):
                self.assertEqual(row.replace("\\|", "").count("|"), 7)

    def test_text_outside_the_markers_survives(self):
        self.assertTrue(self.text.startswith("# Benchmarks\n\nIntro written by hand.\n\n" + report.MARK_BEGIN))
        self.assertTrue(self.text.endswith(f"{report.MARK_END}\n\n## Profiling notes\n\nA callgrind note to keep.\n"))
        self.assertNotIn("stale table", self.text)
        self.assertEqual(self.text.count(report.MARK_BEGIN), 1)

    def test_prints_the_table(self):
        self.assertIn("hooks.call_us", self.result.stdout)
        self.assertIn("display.cpu_total_s", self.result.stdout)


class ArgumentTests(unittest.TestCase):
    def test_one_benchmark_alone_refuses_to_write_benchmarks_md(self):
        path = ROOT / "BENCHMARKS.md"
        before = path.read_text() if path.exists() else None
        run = subprocess.run([sys.executable, str(SCRIPT), "--only", "sound", "--workout", workout_binary(),
                              "--markdown", str(path)], cwd=ROOT, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 2)
        self.assertIn("--only must not overwrite BENCHMARKS.md", run.stderr)
        self.assertEqual(path.read_text() if path.exists() else None, before)

    def test_minutes_are_for_the_drift_benchmark_alone(self):
        run = subprocess.run([sys.executable, str(SCRIPT), "--minutes", "1", "--workout", workout_binary()],
                             cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 2)
        self.assertIn("--minutes is for --only drift", run.stderr)

    def test_a_short_drift_run_refuses_to_write_benchmarks_md(self):
        path = ROOT / "BENCHMARKS.md"
        before = path.read_text() if path.exists() else None
        run = subprocess.run([sys.executable, str(SCRIPT), "--only", "drift", "--minutes", "1",
                              "--workout", workout_binary()], cwd=ROOT, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 2)
        self.assertIn("must not overwrite BENCHMARKS.md's 10-minute table", run.stderr)
        self.assertEqual(path.read_text() if path.exists() else None, before)

    def test_a_tiny_run_refuses_to_write_benchmarks_md(self):
        path = ROOT / "BENCHMARKS.md"
        before = path.read_text() if path.exists() else None
        run = subprocess.run([sys.executable, str(SCRIPT), "--tiny", "--workout", workout_binary(),
                              "--markdown", str(path)], cwd=ROOT, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(run.returncode, 2)
        self.assertIn("must not overwrite BENCHMARKS.md", run.stderr)
        self.assertEqual(path.read_text() if path.exists() else None, before)


if __name__ == "__main__":
    unittest.main()
