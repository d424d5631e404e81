#!/usr/bin/python3
"""The benchmark harness of issue 5: measures workout against SPEC §8 and against termdown.

    /usr/bin/python3 benchmarks/bench.py [--workout PATH] [--tiny] [--markdown FILE] [--json FILE]

`make bench` runs it on the release build and writes BENCHMARKS.md; `make bench-smoke`
(part of `make test`) runs it with `--tiny`, which measures every figure on small sizes in
a few seconds, so the harness cannot rot. Standard library only, for Debian's python3.

Processes are measured precisely: the harness reaps each child with `os.wait4`, whose
rusage has CPU time in microseconds (/usr/bin/time rounds to 10 ms), voluntary context
switches (each one a wake-up from sleep) and peak RSS. A program under tmux is reaped by
`rusage.py` inside the pane instead. Steady-state figures, which leave start-up and exit
out, come from sampling /proc/PID/task/* of the running process at two moments.
"""

import argparse
import contextlib
import datetime
import json
import math
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUSAGE = ROOT / "benchmarks" / "rusage.py"
VENV = ROOT / ".build-bench" / "venv"
TERMDOWN_VERSION = "2.0.0"
# Debian's interpreter, not whatever python3 is first on PATH (pyenv, a venv): it runs the
# wrapper in the pane and makes termdown's venv, so every machine measures the same thing.
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
MARK_BEGIN = "<!-- bench:begin -->"
MARK_END = "<!-- bench:end -->"
MIB = 1024 * 1024
# workout refuses a higher --speed.
MAX_SPEED = 10000.0
# Bells in the last seconds of each segment: the default of a routine without `countdown`.
COUNTDOWN_BELLS = 3
# The live display shows tenths in a segment's last 10 seconds, whole seconds before.
TENTHS_FROM = 10.0


class BenchError(Exception):
    """A measurement that could not be made: the harness stops and says why (exit 1)."""


# --- Sizes -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Sizes:
    """How big each benchmark is. `--tiny` keeps every figure but shrinks every size."""
    countdown_s: float          # the countdown shown live (workout and termdown) and run with --json
    sample_margin_s: float      # steady state leaves this much out at each end
    lateness_segments: int      # 1 s segments per lateness run
    lateness_speed: float
    program_seconds: float      # each bundled program runs about this long (real seconds)
    scale_segments: int
    scale_runs: int
    startup_runs: int
    startup_warmup: int
    hook_segments: int
    hook_runs: int


FULL = Sizes(countdown_s=20, sample_margin_s=1, lateness_segments=1000, lateness_speed=100,
             program_seconds=1.5, scale_segments=100_000, scale_runs=3, startup_runs=30,
             startup_warmup=3, hook_segments=100_000, hook_runs=5)
TINY = Sizes(countdown_s=2, sample_margin_s=0.5, lateness_segments=60, lateness_speed=100,
             program_seconds=0.2, scale_segments=2_000, scale_runs=1, startup_runs=5,
             startup_warmup=1, hook_segments=5_000, hook_runs=3)


# --- Figures and targets ---------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    """A SPEC §8 target: its wording, and the test of it (on the value, or on the ratio to termdown)."""
    text: str
    test: object
    on_ratio: bool = False

    def met(self, figure):
        if self.test is None:
            return None
        subject = figure.ratio if self.on_ratio else figure.value
        if subject is None or not math.isfinite(subject):
            return False
        return bool(self.test(subject))


def below(limit, unit=""):
    return Target(f"< {limit:g}{pad(unit)}", lambda v: v < limit)


def at_most(limit, text):
    return Target(text, lambda v: v <= limit)


def magnitude_below(limit, unit=""):
    return Target(f"|x| < {limit:g}{pad(unit)}", lambda v: abs(v) < limit)


def at_least(limit, unit=""):
    return Target(f"≥ {limit:g}{pad(unit)}", lambda v: v >= limit)


def reference(text):
    """A bound shown beside a figure but not judged (a whole-process count includes start-up)."""
    return Target(text, None)


def plural(count, word):
    return f"{count} {word}" + ("" if count == 1 else "s")


@dataclass
class Figure:
    """One measured number, with what it is held to and termdown's number where there is one."""
    name: str
    group: str
    label: str
    value: float
    unit: str
    target: Target = None
    termdown: float = None

    @property
    def ratio(self):
        if self.termdown is None or self.termdown == 0 or not math.isfinite(self.termdown):
            return None
        return self.value / self.termdown

    @property
    def met(self):
        """True or False against the target; None when there is none to judge by."""
        return None if self.target is None else self.target.met(self)

    def as_json(self):
        return {"name": self.name, "group": self.group, "label": self.label,
                "value": self.value, "unit": self.unit,
                "target": None if self.target is None else self.target.text,
                "met": self.met, "termdown": self.termdown, "ratio": self.ratio}


# --- Pure helpers (unit-tested) ---------------------------------------------------------

def percentile(values, p):
    """The p-th percentile (0–100) by linear interpolation between closest ranks (numpy's default)."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def slope(xs, ys):
    """Least-squares slope of ys over xs: a lateness that grows with each fire would be drift."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("slope needs two or more points")
    mean_x = sum(xs) / len(xs)
    mean_y = sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        raise ValueError("slope of points that share one x")
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread


def replace_between_markers(text, generated):
    """The file with only the part between the markers replaced, so hand-written notes survive.

    `text` None (no file yet) gives a short intro and the markers; a file without markers
    keeps its text and gets the markers appended.
    """
    block = f"{MARK_BEGIN}\n{generated.strip()}\n{MARK_END}"
    if text is None:
        return ("# Benchmarks\n\n"
                "Measured by `make bench` (`benchmarks/bench.py`); the tables between the markers are\n"
                "rewritten by each run, everything else in this file is kept.\n\n"
                f"{block}\n")
    begin = text.find(MARK_BEGIN)
    end = text.find(MARK_END, begin + len(MARK_BEGIN)) if begin >= 0 else -1
    if begin < 0 or end < 0:
        return text.rstrip("\n") + ("\n\n" if text.strip() else "") + block + "\n"
    return text[:begin] + block + text[end + len(MARK_END):]


def display_changes(duration, start, end):
    """How often the live display's text changes in the workout-time window (start, end].

    A segment of `duration` seconds shows whole seconds until its last 10, then tenths:
    the countdown changes at each whole second before that, and at each tenth after.
    """
    changes = 0
    for tenth in range(1, int(round(duration * 10)) + 1):
        moment = tenth / 10
        if not start < moment <= end:
            continue
        remaining = duration - moment
        if remaining < TENTHS_FROM - 1e-9 or tenth % 10 == 0:
            changes += 1
    return changes


def timers_in(duration, start, end, bells=COUNTDOWN_BELLS):
    """The timers of a one-segment workout in (start, end]: its countdown bells and its end."""
    moments = [duration - k for k in range(1, bells + 1) if duration - k > 0] + [duration]
    return sum(1 for moment in moments if start < moment <= end)


def fmt(value):
    """A number with the digits that mean something here: three significant, no exponent."""
    if value is None:
        return "—"
    if isinstance(value, int) or (math.isfinite(value) and value == int(value) and abs(value) >= 100):
        return f"{int(value):,}"
    if not math.isfinite(value):
        return str(value)
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    if value == 0:
        return "0"
    digits = 2 - math.floor(math.log10(abs(value)))
    return f"{value:.{digits}f}"


def pad(unit):
    return f" {unit}" if unit else ""


# --- Measuring processes ---------------------------------------------------------------

@dataclass
class Usage:
    """What one process cost, from its own rusage (whole process: start-up to exit)."""
    status: int
    wall_s: float
    cpu_s: float
    voluntary_switches: int
    max_rss_kib: int
    samples: list = field(default_factory=list)
    spawned: float = None       # monotonic moment of the spawn, the origin of the samples

    def window(self):
        """The sampled window as seconds since the spawn: (first sample, last sample)."""
        return self.samples[0][0] - self.spawned, self.samples[-1][0] - self.spawned

    @property
    def rss_mib(self):
        return self.max_rss_kib / 1024

    def steady(self):
        """CPU ms and voluntary switches per second between the first and last /proc sample."""
        if len(self.samples) < 2 or None in (self.samples[0], self.samples[-1]):
            raise BenchError("the process ended before it could be sampled twice")
        (t0, cpu0, switches0), (t1, cpu1, switches1) = self.samples[0], self.samples[-1]
        window = t1 - t0
        return (cpu1 - cpu0) / 1e6 / window, (switches1 - switches0) / window, window


def sample_process(pid):
    """(now, ns on CPU, voluntary switches) summed over the process's threads, None if it is gone.

    schedstat's first field is the thread's time on CPU in ns, exact where rusage is
    reported in ticks for a running process.
    """
    now = time.monotonic()
    cpu_ns = switches = 0
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/schedstat") as file:
                cpu_ns += int(file.read().split()[0])
            with open(f"/proc/{pid}/task/{task}/status") as file:
                for line in file:
                    if line.startswith("voluntary_ctxt_switches:"):
                        switches += int(line.split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return None
    return now, cpu_ns, switches


class Sampler(threading.Thread):
    """Samples a running process at given monotonic moments, beside whatever waits for it."""

    def __init__(self, pid, moments):
        super().__init__(daemon=True)
        self.pid, self.moments, self.samples = pid, moments, []

    def run(self):
        for moment in self.moments:
            delay = moment - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self.samples.append(sample_process(self.pid))


def reap(process, started):
    """Waits for a child with `os.wait4`, which gives its rusage; subprocess's wait would not."""
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    process.returncode = code  # so Popen does not wait for it again
    return Usage(code, wall, usage.ru_utime + usage.ru_stime, usage.ru_nvcsw, usage.ru_maxrss)


def measure(argv, env, timeout, interrupt_after=None, expect=(0,)):
    """Runs a command to its end (or SIGINT after `interrupt_after` s) with output discarded."""
    with tempfile.TemporaryFile() as errors:
        started = time.monotonic()
        process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=errors)
        with watchdog(process, timeout), interrupter(process, interrupt_after):
            usage = reap(process, started)
        errors.seek(0)
        check_status(argv, usage.status, expect, errors.read().decode(errors="replace"))
    return usage


def check_status(argv, status, expect, stderr=""):
    if status not in expect:
        raise BenchError(f"{shlex.join(map(str, argv))} exited {status} (expected {expect})\n{stderr[-2000:]}")


@contextlib.contextmanager
def watchdog(process, timeout):
    """Kills a child that runs past `timeout`, so a hung workout cannot hang the benchmark."""
    timer = threading.Timer(timeout, lambda: kill_quietly(process, signal.SIGKILL))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


@contextlib.contextmanager
def interrupter(process, after):
    """Sends SIGINT after `after` seconds (Ctrl-C), for a routine that never ends by itself."""
    if after is None:
        yield
        return
    timer = threading.Timer(after, lambda: kill_quietly(process, signal.SIGINT))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def kill_quietly(process, sig):
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, sig)


@dataclass
class Stream:
    """A `--json` run read line by line: each event and the moment it arrived (monotonic s)."""
    events: list
    arrivals: list
    usage: Usage


def stream_events(argv, env, timeout, sample_at=()):
    """Runs a `--json` workout with stdout a pipe, timestamping each line as it arrives.

    `sample_at` are offsets from the spawn at which /proc is sampled (steady state).
    """
    started = time.monotonic()
    process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    sampler = Sampler(process.pid, [started + offset for offset in sample_at])
    sampler.start()
    events, arrivals = [], []
    with watchdog(process, timeout):
        for line in iter(process.stdout.readline, b""):
            arrivals.append(time.monotonic())
            events.append(json.loads(line))
        stderr = process.stderr.read().decode(errors="replace")
        usage = reap(process, started)
    process.stdout.close()
    process.stderr.close()
    sampler.join()
    usage.samples, usage.spawned = sampler.samples, started
    check_status(argv, usage.status, (0,), stderr)
    return Stream(events, arrivals, usage)


# --- tmux -------------------------------------------------------------------------------

class TmuxServer:
    """A private tmux server (own socket, no config) whose panes are real terminals.

    Every tmux command gets /dev/null for stdin, stdout and stderr: the first one starts
    the server, which daemonizes and would keep an inherited pipe open for ever.
    """

    def __init__(self, scratch):
        self.socket = f"bench-{os.getpid()}"
        self.scratch = scratch

    def tmux(self, *arguments, stdout=subprocess.DEVNULL):
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *arguments],
                              stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.DEVNULL,
                              timeout=20).returncode

    def close(self):
        self.tmux("kill-server")

    def screen(self, session):
        """The pane's text, for an error message when a run goes wrong."""
        path = self.scratch / f"{session}.screen"
        with open(path, "w") as file:
            self.tmux("capture-pane", "-p", "-t", session, stdout=file)
        return path.read_text()

    def run(self, session, argv, env, duration, margin):
        """Runs `argv` in a fresh 80×24 pane through rusage.py; its usage and /proc samples."""
        out = self.scratch / f"{session}.json"
        assignments = [f"{key}={value}" for key, value in env.items()]
        command = ["env", *assignments, PYTHON, str(RUSAGE), str(out), "--", *map(str, argv)]
        if self.tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", session, *command) != 0:
            raise BenchError(f"tmux could not start a session for {argv[0]}")
        spawn = wait_for_json(Path(f"{out}.pid"), 10, lambda: self.screen(session))
        sampler = Sampler(spawn["pid"], [spawn["spawned"] + margin, spawn["spawned"] + duration - margin])
        sampler.start()
        result = wait_for_json(out, duration + 30, lambda: self.screen(session))
        sampler.join()
        usage = Usage(result["status"], result["wall_s"], result["cpu_s"],
                      result["voluntary_switches"], result["max_rss_kib"], sampler.samples, spawn["spawned"])
        check_status(argv, usage.status, (0,))
        return usage


def wait_for_json(path, timeout, describe):
    """Polls for a file the pane's wrapper writes (atomically) and reads it."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise BenchError(f"{path.name} did not appear within {timeout:.0f} s; the pane shows:\n{describe()}")
        time.sleep(0.005)
    return json.loads(path.read_text())


# --- Routines the benchmarks generate ----------------------------------------------------

def write_routine(directory, name, source):
    path = directory / f"{name}.lua"
    path.write_text(source)
    return path


def countdown_routine(directory, seconds):
    """The countdown both timers show: one work segment, default countdown bells."""
    return write_routine(directory, "countdown",
                         f'return workout {{ name = "countdown", work({seconds}, "Countdown") }}\n')


def segments_routine(directory, name, count, duration, hooks=False, payload=False):
    """`count` work segments in one list (built by a loop: the routine stays small)."""
    info = ', { i = i }' if payload else ''
    hook_fields = ("\n  on_segment_start = function(seg) calls = calls + 1 end,"
                   "\n  on_segment_end = function(seg) calls = calls + 1 end,") if hooks else ""
    return write_routine(directory, name, f"""local steps = {{}}
for i = 1, {count} do steps[i] = work({duration}, "w" .. i{info}) end
local calls = 0
return workout {{ name = "{name}", countdown = 0, rounds(1, steps),{hook_fields}
}}
""")


# --- The benchmarks -------------------------------------------------------------------

@dataclass
class Context:
    """What every benchmark needs: the binary, sizes, a scratch directory, an environment."""
    workout: Path
    sizes: Sizes
    scratch: Path
    env: dict
    termdown: Path = None

    def run_argv(self, routine, *options):
        return [str(self.workout), "run", str(routine), "--no-notify", "--no-history", *options]


def lateness_figures(events, arrivals, speed, prefix, group, targets):
    """p50/p99/max of `late_ms` and of the lateness seen from outside, over segment fires.

    Segment 1 starts the workout (no timer), so only segment_start events with `late_ms`
    count. Outside: the origin is workout_start's arrival minus its t, and a fire is late
    by its arrival minus (origin + at/speed), pipe and reader included.
    """
    fires = fire_events(events, arrivals)
    inside = [event["late_ms"] for event, _ in fires]
    outside = outside_lateness(events, arrivals, speed)
    figures = [Figure(f"{prefix}.fires", group, f"{prefix.split('.')[-1]}: segment fires", len(fires), "",
                      at_least(500))]
    for source, values, note in (("late_ms", inside, "`late_ms`"), ("outside", outside, "outside")):
        for stat, p in (("p50", 50), ("p99", 99), ("max", 100)):
            figures.append(Figure(f"{prefix}.{source}.{stat}", group,
                                  f"{prefix.split('.')[-1]}: {note} {stat}", percentile(values, p), "ms",
                                  targets.get(stat)))
    return figures


def fire_events(events, arrivals):
    return [(event, arrival) for event, arrival in zip(events, arrivals)
            if event["event"] == "segment_start" and "late_ms" in event]


def outside_lateness(events, arrivals, speed):
    origin = start_arrival(events, arrivals) - events[0]["t"] / speed
    return [(arrival - (origin + event["at"] / speed)) * 1000 for event, arrival in fire_events(events, arrivals)]


def start_arrival(events, arrivals):
    if events[0]["event"] != "workout_start":
        raise BenchError(f"the first event is {events[0]['event']}, not workout_start")
    return arrivals[0]


def bench_lateness(context):
    """Timer lateness idle and with both cores busy, and drift, from N 1 s segments at --speed."""
    sizes = context.sizes
    routine = segments_routine(context.scratch, "lateness", sizes.lateness_segments, 1)
    argv = context.run_argv(routine, "--json", "--speed", str(sizes.lateness_speed), "--no-bell")
    timeout = sizes.lateness_segments / sizes.lateness_speed + 30
    group = "lateness"
    progress(f"lateness: {sizes.lateness_segments} segments at --speed {sizes.lateness_speed:g}, idle")
    idle = stream_events(argv, context.env, timeout)
    progress("lateness: the same with both cores busy")
    with spinners(2):
        busy = stream_events(argv, context.env, timeout)
    figures = lateness_figures(idle.events, idle.arrivals, sizes.lateness_speed, "lateness.idle", group,
                               {"p50": below(0.3, "ms"), "p99": below(1, "ms"), "max": below(5, "ms")})
    figures += lateness_figures(busy.events, busy.arrivals, sizes.lateness_speed, "lateness.busy", group,
                                {"p99": below(5, "ms")})
    return figures + drift_figures(idle, sizes.lateness_speed)


def drift_figures(stream, speed):
    """End-of-workout error (inside and outside), and the trend of lateness over the fires."""
    events, arrivals = stream.events, stream.arrivals
    start, end = events[0], events[-1]
    if end["event"] != "workout_end" or not end.get("completed"):
        raise BenchError(f"the lateness run did not end with a completed workout_end: {end}")
    real_duration = start["duration"] / speed
    inside = (end["t"] - start["duration"]) / speed * 1000
    outside = (arrivals[-1] - arrivals[0] - real_duration) * 1000
    fires = fire_events(events, arrivals)
    indices = [event["index"] for event, _ in fires]
    group = "drift"
    return [
        Figure("drift.end_error_ms", group, f"end error after {start['segments']:,} segments (`t` of workout_end)",
               inside, "ms", magnitude_below(1, "ms")),
        Figure("drift.outside_end_error_ms", group, "end error seen from outside", outside, "ms",
               magnitude_below(1, "ms")),
        Figure("drift.late_ms_slope", group, "slope of `late_ms` over the fires",
               slope(indices, [event["late_ms"] for event, _ in fires]) * 1000, "ms per 1,000 fires",
               magnitude_below(0.1, "ms per 1,000")),
        Figure("drift.outside_slope", group, "slope of outside lateness over the fires",
               slope(indices, outside_lateness(events, arrivals, speed)) * 1000, "ms per 1,000 fires",
               magnitude_below(0.1, "ms per 1,000")),
    ]


@contextlib.contextmanager
def spinners(count):
    """`count` busy loops, one per core, killed (and reaped) however the block ends."""
    processes = [subprocess.Popen(["sh", "-c", "while :; do :; done"], stdin=subprocess.DEVNULL)
                 for _ in range(count)]
    try:
        time.sleep(0.2)  # let them reach the CPU first
        yield
    finally:
        for process in processes:
            process.kill()
            process.wait()


def bench_display(context, server):
    """The countdown with the live display under tmux, then termdown on the same countdown."""
    sizes = context.sizes
    routine = countdown_routine(context.scratch, fmt_seconds(sizes.countdown_s))
    pane_env = {"TERM": "xterm-256color", "LANG": "C.UTF-8",
                "XDG_DATA_HOME": context.env["XDG_DATA_HOME"],
                "XDG_CONFIG_HOME": context.env["XDG_CONFIG_HOME"]}
    progress(f"display: workout, {sizes.countdown_s:g} s countdown in tmux")
    workout = server.run("workout", context.run_argv(routine), pane_env, sizes.countdown_s,
                         sizes.sample_margin_s)
    progress(f"display: termdown {TERMDOWN_VERSION}, the same countdown")
    termdown = server.run("termdown", [context.termdown, fmt_seconds(sizes.countdown_s)], pane_env,
                          sizes.countdown_s, sizes.sample_margin_s)
    return display_figures(workout, termdown, sizes)


def display_figures(workout, termdown, sizes):
    duration = sizes.countdown_s
    cpu, switches, window = workout.steady()
    td_cpu, td_switches, _ = termdown.steady()
    # The bound of SPEC §8: one wake-up per change of the displayed text, plus the timers.
    changes = display_changes(duration, 0, duration)
    timers = timers_in(duration, 0, duration)
    start, end = workout.window()
    window_changes = display_changes(duration, start, end)
    window_timers = timers_in(duration, start, end)
    steady_bound = (window_changes + window_timers) / window
    group = "display"
    return [
        Figure("display.cpu_total_s", group, "CPU, whole process", workout.cpu_s, "s",
               Target("≤ 1/10 of termdown", lambda r: r <= 0.1, on_ratio=True), termdown.cpu_s),
        Figure("display.cpu_steady_ms_per_s", group, "CPU, steady state", cpu, "ms/s", None, td_cpu),
        Figure("display.wakeups_total", group, "wake-ups (voluntary switches), whole process",
               workout.voluntary_switches, "",
               reference(f"steady state judged; the run's bound: {changes + timers} ({plural(changes, 'change')} "
                         f"+ {plural(timers, 'timer')}) + start-up and exit"),
               termdown.voluntary_switches),
        Figure("display.wakeups_steady_per_s", group, "wake-ups, steady state", switches, "/s",
               at_most(steady_bound, f"≤ {fmt(steady_bound)}/s ({plural(window_changes, 'change')} + "
                                     f"{plural(window_timers, 'timer')} in {window:.1f} s)"), td_switches),
        Figure("display.rss_mib", group, "peak RSS", workout.rss_mib, "MiB", below(24, "MiB"), termdown.rss_mib),
        Figure("display.end_error_ms", group, "end error (wall time − countdown)",
               (workout.wall_s - duration) * 1000, "ms", None, (termdown.wall_s - duration) * 1000),
    ]


def fmt_seconds(seconds):
    return f"{seconds:g}"


def bench_json(context):
    """CPU and wake-ups of the same countdown with `--json` to a pipe: no display at all."""
    sizes = context.sizes
    duration = sizes.countdown_s
    routine = countdown_routine(context.scratch, fmt_seconds(duration))
    progress(f"json: {duration:g} s countdown with --json")
    margin = sizes.sample_margin_s
    stream = stream_events(context.run_argv(routine, "--json"), context.env, duration + 30,
                           sample_at=(margin, duration - margin))
    usage = stream.usage
    cpu, switches, window = usage.steady()
    window_timers = timers_in(duration, *usage.window())
    timers = timers_in(duration, 0, duration)
    group = "json"
    return [
        Figure("json.cpu_total_s", group, "CPU, whole process", usage.cpu_s, "s"),
        Figure("json.cpu_steady_ms_per_s", group, "CPU, steady state", cpu, "ms/s", below(0.1, "ms/s")),
        Figure("json.wakeups_total", group, "wake-ups (voluntary switches), whole process",
               usage.voluntary_switches, "",
               reference(f"steady state judged; the run's bound: {plural(timers, 'timer')} + start-up and exit")),
        Figure("json.wakeups_steady_per_s", group, "wake-ups, steady state", switches, "/s",
               at_most(window_timers / window, f"≤ {fmt(window_timers / window)}/s "
                                               f"({plural(window_timers, 'timer')} in {window:.1f} s)")),
    ]


def bench_memory(context):
    """Peak RSS of a real run of each bundled program, at a speed that keeps it short."""
    figures, group = [], "memory"
    for program in sorted((ROOT / "programs").glob("*.lua")):
        plan = json.loads(subprocess.run([str(context.workout), "plan", str(program), "--json"],
                                         env=context.env, stdin=subprocess.DEVNULL, capture_output=True,
                                         check=True, timeout=60).stdout)
        seconds = context.sizes.program_seconds
        speed = min(MAX_SPEED, max(1.0, plan["duration"] / seconds))
        never_ends = plan.get("open_ended") and not plan.get("complete")
        progress(f"memory: {program.name} at --speed {speed:g}" + (" (then Ctrl-C)" if never_ends else ""))
        usage = measure(context.run_argv(program, "--json", "--speed", f"{speed:g}"), context.env,
                        timeout=plan["duration"] / speed + 30,
                        interrupt_after=seconds if never_ends else None,
                        expect=(130,) if never_ends else (0,))
        figures.append(Figure(f"memory.run.{program.stem}", group, f"`run {program.name}`", usage.rss_mib,
                              "MiB", below(24, "MiB")))
    hiit = ROOT / "programs" / "hiit.lua"
    for command in ("check", "plan"):
        usage = measure([str(context.workout), command, str(hiit)], context.env, timeout=60)
        figures.append(Figure(f"memory.{command}.hiit", group, f"`{command} hiit.lua`", usage.rss_mib,
                              "MiB", below(24, "MiB")))
    figures.append(Figure("memory.max", group, "the largest of these", max(f.value for f in figures), "MiB",
                          below(24, "MiB")))
    return figures


def bench_scale(context):
    """A generated routine of many segments, each with a payload: `plan` and a dry run."""
    sizes = context.sizes
    routine = segments_routine(context.scratch, "scale", sizes.scale_segments, 30, payload=True)
    progress(f"scale: {sizes.scale_segments:,} segments, plan and dry run ×{sizes.scale_runs}")
    plans = [measure([str(context.workout), "plan", str(routine)], context.env, timeout=120)
             for _ in range(sizes.scale_runs)]
    dry_runs = [measure(context.run_argv(routine, "--dry-run"), context.env, timeout=120)
                for _ in range(sizes.scale_runs)]
    group = "scale"
    return [
        Figure("scale.plan_s", group, "`plan` wall time (median)", percentile([u.wall_s for u in plans], 50),
               "s", below(1, "s")),
        Figure("scale.plan_rss_mib", group, "`plan` peak RSS", max(u.rss_mib for u in plans), "MiB",
               below(100, "MiB")),
        Figure("scale.dry_run_s", group, "`run --dry-run` wall time (median)",
               percentile([u.wall_s for u in dry_runs], 50), "s", below(3, "s")),
        Figure("scale.dry_run_rss_mib", group, "`run --dry-run` peak RSS", max(u.rss_mib for u in dry_runs),
               "MiB"),
    ]


def bench_startup(context):
    """`workout check programs/hiit.lua`: hyperfine's median when installed, else our own."""
    sizes = context.sizes
    argv = [str(context.workout), "check", str(ROOT / "programs" / "hiit.lua")]
    hyperfine = shutil.which("hyperfine")
    progress(f"start-up: {shlex.join(argv[1:])} ×{sizes.startup_runs}"
             + (" (hyperfine)" if hyperfine else " (no hyperfine: own loop)"))
    if hyperfine:
        median, method = hyperfine_median(hyperfine, argv, context), "hyperfine"
    else:
        median = percentile([measure(argv, context.env, timeout=60).wall_s
                             for _ in range(sizes.startup_runs)], 50)
        method = "own loop"
    return [Figure("startup.check_hiit_ms", "startup", f"`check hiit.lua`, median of {sizes.startup_runs} "
                   f"({method})", median * 1000, "ms", below(50, "ms"))]


def hyperfine_median(hyperfine, argv, context):
    export = context.scratch / "hyperfine.json"
    subprocess.run([hyperfine, "--warmup", str(context.sizes.startup_warmup), "--runs",
                    str(context.sizes.startup_runs), "--shell=none", "--style", "none",
                    "--export-json", str(export), shlex.join(argv)],
                   env=context.env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=True, timeout=300)
    return json.loads(export.read_text())["results"][0]["median"]


def bench_hooks(context):
    """The cost of one Lua hook call: dry runs with and without two trivial hooks per segment.

    The difference of the median CPU times over the 2·M calls is the hook call: building
    `seg`, the pcall with its instruction and time limits, the counter increment.
    """
    sizes = context.sizes
    count = sizes.hook_segments
    plain = segments_routine(context.scratch, "nohooks", count, 30)
    hooked = segments_routine(context.scratch, "hooks", count, 30, hooks=True)
    progress(f"hooks: {count:,} segments with and without hooks, ×{sizes.hook_runs}")
    cpu_without, cpu_with = [], []
    for _ in range(sizes.hook_runs):  # interleaved, so a slow spell touches both
        cpu_without.append(measure(context.run_argv(plain, "--dry-run"), context.env, timeout=120).cpu_s)
        cpu_with.append(measure(context.run_argv(hooked, "--dry-run"), context.env, timeout=120).cpu_s)
    cost = (percentile(cpu_with, 50) - percentile(cpu_without, 50)) / (2 * count) * 1e6
    return [Figure("hooks.call_us", "hooks", "one hook call", cost, "µs", below(10, "µs"))]


# --- termdown ---------------------------------------------------------------------------

def ensure_termdown():
    """termdown 2.0.0 in .build-bench/venv (made once with Debian's python3 and pip)."""
    termdown = VENV / "bin" / "termdown"
    if termdown.exists() and termdown_version() == TERMDOWN_VERSION:
        return termdown
    progress(f"termdown: installing {TERMDOWN_VERSION} into {VENV.relative_to(ROOT)}")
    subprocess.run([PYTHON, "-m", "venv", str(VENV)], check=True, stdin=subprocess.DEVNULL, timeout=300)
    subprocess.run([str(VENV / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check",
                    f"termdown=={TERMDOWN_VERSION}"], check=True, stdin=subprocess.DEVNULL, timeout=600)
    return termdown


def termdown_version():
    result = subprocess.run([str(VENV / "bin" / "python"), "-c",
                             "import importlib.metadata as m; print(m.version('termdown'))"],
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    return result.stdout.strip() if result.returncode == 0 else None


# --- Report -------------------------------------------------------------------------------

GROUPS = {
    "lateness": ("Timer lateness", "lateness_note"),
    "drift": ("Drift", "drift_note"),
    "display": ("CPU and wake-ups: the countdown with the live display", "display_note"),
    "json": ("CPU and wake-ups: `--json`, no display", "json_note"),
    "memory": ("Memory", "memory_note"),
    "scale": ("Scale", "scale_note"),
    "startup": ("Start-up", "startup_note"),
    "hooks": ("Lua hook call", "hooks_note"),
}


def notes(sizes):
    """One paragraph per group: how it was measured, so a reader can judge the number."""
    countdown = f"{fmt_seconds(sizes.countdown_s)} s"
    return {
        "lateness_note": (
            f"A generated routine of {sizes.lateness_segments:,} segments of 1 s, "
            f"`run --json --speed {sizes.lateness_speed:g} --no-bell`, stdout a pipe. `late_ms` is what workout "
            "reports for each `segment_start` caused by a timer (the first segment starts the workout and is not "
            "counted). *Outside* is what a reader sees: each line is timestamped on the harness's monotonic clock "
            "as it arrives; the origin is workout_start's arrival minus its `t`, and a fire's lateness is its "
            "arrival minus (origin + `at`/speed), so it includes the pipe and the Python reader. *Busy*: the same "
            "run with two `sh` busy loops, one per core."),
        "drift_note": (
            "From the idle lateness run. End error: workout_end's `t` minus the routine's duration, in real ms "
            "(÷ speed); from outside: arrival(workout_end) − arrival(workout_start) − duration/speed. "
            "\"None accumulates\" is judged by the least-squares slope of lateness over the fire index: the "
            "outside slope is the one that would show timers set from \"now + duration\" (`late_ms` is measured "
            "against each timer's own fire date). Target taken as under a tenth of the drift budget."),
        "display_note": (
            f"`return workout{{ name = \"countdown\", work({countdown.split()[0]}, \"Countdown\") }}` run with "
            f"`run --no-notify --no-history` in an 80×24 tmux pane (TERM=xterm-256color, LANG=C.UTF-8), and "
            f"`termdown {countdown.split()[0]}` ({TERMDOWN_VERSION}, PyPI) in the same pane size in the same run. "
            "Whole process: the child's rusage from `wait4` (in `benchmarks/rusage.py`), start-up and exit "
            "included. Steady state: /proc/PID/task/*/schedstat (ns on CPU) and voluntary_ctxt_switches sampled "
            f"{fmt(sizes.sample_margin_s)} s after the start and {fmt(sizes.sample_margin_s)} s before the end. "
            "A wake-up is a voluntary context switch. The bound counts the display's changes (whole seconds, "
            "then tenths in the last 10 s) and the timers (countdown bells, the segment's end). End error: wall "
            "time of the process minus the countdown, start-up and exit included for both."),
        "json_note": (
            f"The same {countdown} countdown, `run --json --no-notify --no-history`, stdout a pipe the harness "
            "reads; steady state sampled as above (start-up excluded). SPEC: < 0.1 ms of CPU per second of "
            "workout."),
        "memory_note": (
            "Peak RSS (`ru_maxrss` from `wait4`) of `run --json` of each bundled program at a speed that keeps it "
            f"near {fmt(sizes.program_seconds)} s (at most 10,000); `amrap` never ends and gets SIGINT (exit "
            "130) after that time. Then `check` and `plan` of hiit."),
        "scale_note": (
            f"A generated routine of {sizes.scale_segments:,} `work(30, \"w\"..i, {{ i = i }})` segments in one "
            f"`rounds` list. `plan` (text to /dev/null) and `run --dry-run` (plain lines to /dev/null): wall "
            f"time from spawn to reap, median of {sizes.scale_runs}; RSS the largest."),
        "startup_note": (
            f"hyperfine `--shell=none --warmup {sizes.startup_warmup} --runs {sizes.startup_runs}` (its median), "
            f"or the harness's own loop of {sizes.startup_runs} runs when hyperfine is missing."),
        "hooks_note": (
            f"Two generated routines of {sizes.hook_segments:,} segments, one with `on_segment_start` and "
            "`on_segment_end` hooks that increment an upvalue, run with `--dry-run` (plain lines to /dev/null): "
            f"(median CPU with hooks − median CPU without) ÷ (2 × {sizes.hook_segments:,}) calls; "
            f"{sizes.hook_runs} runs of each, interleaved. CPU is user + system from `wait4`."),
    }


def machine():
    """uname, CPU model, cores and memory: what the numbers depend on."""
    uname = os.uname()
    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory = "?"
    with contextlib.suppress(OSError):
        match = re.search(r"MemTotal:\s+(\d+) kB", Path("/proc/meminfo").read_text())
        memory = f"{int(match.group(1)) / 1024 / 1024:.1f} GiB" if match else "?"
    return f"{uname.sysname} {uname.release} {uname.machine}; {model}; {os.cpu_count()} cores; {memory} memory"


def commit():
    """The commit the measured sources are at, marked when Sources/ has local changes."""
    def git(*arguments):
        result = subprocess.run(["git", "-C", str(ROOT), *arguments], stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=30)
        return result.stdout.strip() if result.returncode == 0 else ""
    head = git("rev-parse", "--short=12", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "Sources", "Package.swift")
    return head + (" with uncommitted changes to Sources/" if dirty else "")


def command_line():
    """The exact command, as run from the repository's root (what `make bench` runs)."""
    script = Path(sys.argv[0]).absolute()
    with contextlib.suppress(ValueError):
        script = script.relative_to(ROOT)
    return shlex.join([sys.executable, str(script), *sys.argv[1:]])


def command_text(info):
    """`make bench` → `…` when make ran it (the Makefile sets BENCH_VIA), else the command."""
    return (f"`{info['via']}` → " if info["via"] else "") + f"`{info['command']}`"


def header(info):
    return "\n".join([
        f"- **Machine:** {info['machine']}",
        f"- **Date:** {info['date']}",
        f"- **Command:** {command_text(info)}",
        f"- **workout:** commit {info['commit']}, binary `{info['workout']}`",
        f"- **termdown:** {info['termdown']} (PyPI, in `.build-bench/venv`)",
    ] + (["- **Size:** `--tiny` (a smoke test: small sizes, figures not comparable with the targets)"]
         if info["tiny"] else []))


def met_text(met):
    return "—" if met is None else ("yes" if met else "**no**")


def value_text(value, unit):
    return "—" if value is None else fmt(value) + pad(unit)


def markdown(figures, info, sizes):
    """The generated part of BENCHMARKS.md: the header and one table per group."""
    parts = [f"## Results\n\n{header(info)}\n\n"
             "Targets are SPEC §8's; *met?* says whether this run met them. *workout/termdown* is the ratio "
             "of the two figures in the same run (below 1: workout uses less)."]
    group_notes = notes(sizes)
    for group, (title, note) in GROUPS.items():
        rows = [f for f in figures if f.group == group]
        if not rows:
            continue
        lines = [f"### {title}", "", group_notes[note], "",
                 "| figure | workout | target (SPEC §8) | met? | termdown | workout/termdown |",
                 "|---|---:|---|:---:|---:|---:|"]
        for f in rows:
            lines.append(f"| {f.label} | {value_text(f.value, f.unit)} | "
                         f"{'—' if f.target is None else f.target.text} | {met_text(f.met)} | "
                         f"{value_text(f.termdown, f.unit)} | {'—' if f.ratio is None else fmt(f.ratio)} |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def text_table(figures):
    """The same figures for the terminal, aligned."""
    rows = [("figure", "workout", "target", "met?", "termdown", "ratio")]
    for f in figures:
        rows.append((f.name, value_text(f.value, f.unit), "—" if f.target is None else f.target.text,
                     {None: "—", True: "yes", False: "NO"}[f.met], value_text(f.termdown, f.unit),
                     "—" if f.ratio is None else fmt(f.ratio)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)


def write_markdown(path, generated):
    existing = path.read_text() if path.exists() else None
    path.write_text(replace_between_markers(existing, generated))


def write_json(path, figures, info):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**info, "figures": [f.as_json() for f in figures]}, indent=2,
                               ensure_ascii=False) + "\n")


# --- Main ---------------------------------------------------------------------------------

def progress(message):
    print(f"bench: {message}", file=sys.stderr, flush=True)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workout", type=Path,
                        default=Path(os.environ.get("WORKOUT_BIN") or ROOT / ".build" / "release" / "workout"),
                        help="the workout binary (default: $WORKOUT_BIN, else .build/release/workout)")
    parser.add_argument("--tiny", action="store_true",
                        help="small sizes: every figure in a few seconds (the smoke test)")
    parser.add_argument("--markdown", type=Path,
                        help="the report to update between its markers (default: BENCHMARKS.md; "
                             "with --tiny a temporary file)")
    parser.add_argument("--json", type=Path, help="also write every figure as JSON here")
    arguments = parser.parse_args(argv)
    benchmarks_md = ROOT / "BENCHMARKS.md"
    if arguments.markdown is None:
        arguments.markdown = (Path(tempfile.mkstemp(prefix="bench-tiny-", suffix=".md")[1])
                              if arguments.tiny else benchmarks_md)
    elif arguments.tiny and arguments.markdown.resolve() == benchmarks_md.resolve():
        parser.error("--tiny must not overwrite BENCHMARKS.md: its figures are not comparable")
    if not os.access(arguments.workout, os.X_OK):
        parser.error(f"{arguments.workout} is not an executable (build it: swift build -c release)")
    return arguments


def run_all(context):
    """Every benchmark, in an order that keeps the noisy ones (busy cores) apart from the rest."""
    figures = []
    figures += bench_lateness(context)
    server = TmuxServer(context.scratch)
    try:
        figures += bench_display(context, server)
    finally:
        server.close()
    figures += bench_json(context)
    figures += bench_memory(context)
    figures += bench_scale(context)
    figures += bench_startup(context)
    figures += bench_hooks(context)
    return figures


def main(argv):
    arguments = parse_arguments(argv)
    sizes = TINY if arguments.tiny else FULL
    termdown = ensure_termdown()
    with tempfile.TemporaryDirectory(prefix="workout-bench-") as scratch:
        scratch = Path(scratch)
        env = {key: value for key, value in os.environ.items()
               if key not in ("TMUX", "DBUS_SESSION_BUS_ADDRESS", "NO_COLOR")}
        # The benchmark must never write the user's history or read their routines.
        env.update(XDG_DATA_HOME=str(scratch / "data"), XDG_CONFIG_HOME=str(scratch / "config"), LANG="C.UTF-8")
        context = Context(Path(os.path.abspath(arguments.workout)), sizes, scratch, env, termdown)
        try:
            figures = run_all(context)
        except BenchError as error:
            print(f"bench: {error}", file=sys.stderr)
            return 1
    info = {"machine": machine(), "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "command": command_line(), "via": os.environ.get("BENCH_VIA"), "commit": commit(), "workout": display_path(arguments.workout),
            "termdown": termdown_version(), "tiny": arguments.tiny}
    print(text_table(figures))
    write_markdown(arguments.markdown, markdown(figures, info, sizes))
    progress(f"wrote {arguments.markdown}")
    if arguments.json:
        write_json(arguments.json, figures, info)
        progress(f"wrote {arguments.json}")
    return 0


def display_path(path):
    """The binary as given (not through its links), relative to the repository when inside it."""
    absolute = Path(os.path.abspath(path))
    with contextlib.suppress(ValueError):
        return str(absolute.relative_to(ROOT))
    return str(absolute)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
