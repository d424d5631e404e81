#!/usr/bin/env python3
"""`make test`'s test runner: every test, in lanes (docs/development.md, Tests).

    Tests/lanes.py --plain .build/debug/workoutPackageTests.xctest --plain-bin .build/debug/workout \
                   --asan .build-asan/debug/workoutPackageTests.xctest --asan-bin .build-asan/debug/workout \
                   --fuzz-seconds 20 --workers 5

The XCTest bundle is an executable that takes `Module.Class` and `Module.Class/method`
filters. The runner lists its tests and makes jobs of them, each one process:

- **The parallel lane**, `--workers` processes at a time, longest first (by the durations
  the last run kept in `.build/lanes/times.json`): the release build (`--release-build`)
  and the sanitizer's build (`--asan-build`) first, each job that needs one waiting for
  it (RELEASE below; the sanitizer's tests and the fuzzers); the unit tests (in-process, on the
  virtual clock) in two processes; each system test class in a process of its own; the
  same under AddressSanitizer where it finds things (ASAN below); the fuzzers; the
  benchmark script's smoke test. `Tests/lanes-times.json` keeps the durations of a
  clean run for a checkout that has none of its own.
- **The serial lane**, afterwards, one process at a time and nothing else of the suite
  running: the tests that time real sound servers and timers (SERIAL below).

Every process gets its own TMPDIR and HOME, so two classes never share a scratch folder,
a history file, a socket or a server's runtime directory; servers (a broker, a bus with
its player, a sound server, Chromium) are shared within a class at most.

At the end it prints each failure with the end of its process's output, the lanes' wall
time, the ten slowest test cases, and the closing line `N passed, N failed`. It exits 1
when a test failed, a process crashed or timed out, or a listed test did not report.
Each process's whole output is kept in `.build/lanes/LABEL/NAME.log`.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

# The tests that measure real time against real servers: run alone, after the rest, so
# that no other test's processes share the two cores with them (Class or Class/method).
SERIAL = [
    "SoundTimingTests",          # sound onsets against the plan, PulseAudio and PipeWire
    "FollowSoundTests",          # a follower's sounds on the coach's seconds
    "RunLoopTests",              # timers of 50 ms segments firing on time
    "SoundServerTests/testEachSoundPlaysOnceOnItsPlannedMoment",
    "SoundServerTests/testFileSoundsPlayOnTheirPlannedSecondBesideTheTones",
    "SoundServerTests/testWithEspeakTheSpokenCountdownLandsOnTheSeconds",
    "FollowTests/testFollowersBoundariesFollowTheCoach",
]

# Under AddressSanitizer: every in-process test (the decoders of outside bytes — GATT, FIT,
# ZWO, intervals.icu text, history lines, HTTP requests, MQTT payloads — and Lua), and the
# system classes that cross a boundary with C or feed the binary outside bytes: Lua and
# the history (EndToEndTests), libpulse (SoundServerTests), libsndfile (SoundFileTests,
# SpeechWAVTests), sd-bus (SensorRunTests, SensorMisbehaviourTests, SleepInhibitorTests,
# NotificationTests, MisbehavingDesktopTests), libmosquitto and its payloads (MQTTTests,
# ClassViewTests, FollowParticipantTests), libqrencode (InvitationTests), HTTP requests
# (ServeHTTPTests, ServeHostileTests), imported and exported files (FITWorkoutTests,
# ActivityFileTests, CourseFileTests), a full disk (HistoryFullDiskTests, WriteFailureTests),
# libcurl and intervals.icu's answers (IntervalsTests, IntervalsUploadTests).
# Left out, as they only drive those paths again: the installation and the .deb (the
# release binary), the docs' examples and links, lint, completion scripts, the display in
# tmux (its frames and keys run under it in the unit tests), the browser, the athlete's
# runs, the music and sound timing runs, the followers' whole classes, the process
# hygiene tests, the runners' machines on the BlueZ stand-in (RunnerSensorTests: the same
# sd-bus link as SensorRunTests, and two and a half minutes of real time; their decoders
# run under it in the unit tests and the sensors fuzzer). Left out too: SoundServerTests' floods and MQTTTests' hundred-megabyte
# command, whose bounds on the process's peak memory would measure the sanitizer's
# quarantine, not workout (the command's read 245 MB under it, 31 MB plain).
ASAN_SYSTEM = [
    "EndToEndTests", "SoundServerTests", "SoundFileTests", "SpeechWAVTests", "SensorRunTests",
    "SensorMisbehaviourTests", "SleepInhibitorTests", "NotificationTests", "MisbehavingDesktopTests",
    "MQTTTests", "ClassViewTests", "FollowParticipantTests", "InvitationTests", "ServeHTTPTests",
    "ServeHostileTests", "FITWorkoutTests", "ActivityFileTests", "CourseFileTests",
    "HistoryFullDiskTests", "WriteFailureTests", "IntervalsTests", "IntervalsUploadTests",
]
# Left out too, of the unit tests: the run line's generated agreement with ArgumentParser
# (QuickRunArgumentsTests), pure Swift on strings it makes itself, no C and no outside
# bytes: 72 s of both cores under the sanitizer (33 s plain) put a clean clone's make test
# at 12 min 2 s.
ASAN_SKIP = (r"SoundServerTests/testAFloodOf|SoundServerTests/testAToneFlood|MQTTTests/testAHundredMegabyteCommand"
             r"|QuickRunArgumentsTests/testGeneratedLinesAgreeWithArgumentParser")
# While the release and sanitizer builds keep both cores busy (about three minutes), only
# these run beside them: the unit tests, the benchmark script's smoke test and system
# classes that hold no bound of time. Every other class waits for the builds: beside them,
# runs read late_ms 43-56 ms against 20 under the sanitizer (SensorMisbehaviourTests),
# lost the display's flash (TerminalTests) and took 2.4 s to end on SIGTERM against 2
# (SoundServerTests).
BESIDE_BUILDS = [
    "UnitTests", "bench-smoke", "EndToEndTests", "DocsTests", "DocLinksTests",
    "LintTests", "CompletionScriptTests", "CourseFileTests", "FITWorkoutTests", "ActivityFileTests",
    "HistoryFullDiskTests", "WriteFailureTests", "SpeechWAVTests", "SpokenSoundsTests",
    "InvitationTests",
]
# The classes that install the release binary and its manual, or build the .deb from them:
# they wait for the release build, which runs in the parallel lane.
RELEASE = ["InstalledTests", "DebianPackageTests"]
# The in-process tests' module, run in two processes of its own.
UNIT = "UnitTests"
FUZZERS = ["routine", "files", "sensors", "mqtt"]  # Fuzz/run.sh runs them in this order

CASE = re.compile(r"^Test Case '(?:-\[)?([\w.]+?)[ .](\w+)\]?' (passed|failed|skipped) \((\d+(?:\.\d+)?) seconds\)")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def listed(bundle):
    """The bundle's tests as (module, class, method)."""
    output = subprocess.run([bundle, "--list-tests"], capture_output=True, text=True, check=True).stdout
    return [match.groups() for match in (re.match(r"^(\w+)\.(\w+)/(\w+)$", line.strip())
                                         for line in output.splitlines()) if match]


def matches(patterns, klass, method):
    return any(pattern == klass or pattern == "%s/%s" % (klass, method) for pattern in patterns)


class Job:
    """One process: part of a bundle's tests, or a command."""

    def __init__(self, label, name, command, count, environment, serial=False, needs=(), provides=None):
        self.needs = set(needs)  # the builds that must have succeeded before it starts
        self.provides = provides  # the build it is
        self.label = label
        self.name = name
        self.command = command
        self.count = count  # the test cases it must report; 0 for a command judged by its exit
        self.environment = environment
        self.serial = serial
        self.expected = 30.0
        self.seconds = 0.0
        self.cpu = 0.0  # processor seconds, user and system
        self.began = 0.0  # when it started, seconds into the lanes
        self.status = None
        self.output = ""
        self.cases = []  # (class, method, result, seconds)

    @property
    def key(self):
        return "%s %s" % (self.label, self.name)

    def failures(self):
        failed = [case for case in self.cases if case[2] == "failed"]
        why = []
        if failed:
            why.append("%d failed: %s" % (len(failed), ", ".join("%s.%s" % case[:2] for case in failed)))
        if self.status != 0 and not failed:
            why.append("exit %s" % self.status)
        if self.count and len(self.cases) != self.count:
            why.append("%d of %d tests reported" % (len(self.cases), self.count))
        return why


def bundle_jobs(label, bundle, binary, environment, tests, keep, serial_allowed):
    """Jobs for the tests of `bundle` that `keep(module, class, method)` keeps."""
    environment = dict(environment, WORKOUT_BIN=binary)
    classes = {}
    everything = {}
    for module, klass, method in tests:
        everything.setdefault((module, klass), []).append(method)
        if keep(module, klass, method):
            classes.setdefault((module, klass), []).append(method)
    jobs = []
    unit = [[], []]
    for (module, klass), methods in sorted(classes.items()):
        serial = [m for m in methods if serial_allowed and matches(SERIAL, klass, m)]
        rest = [m for m in methods if m not in serial]
        for part, is_serial in ((rest, False), (serial, True)):
            if not part:
                continue
            name = "%s.%s" % (module, klass)
            filters = [name] if len(part) == len(everything[(module, klass)]) else ["%s/%s" % (name, m) for m in part]
            if module == UNIT and not is_serial:
                # Two processes, the classes dealt alternately (sorted by name).
                half = unit[0] if sum(1 for _ in unit[0]) <= sum(1 for _ in unit[1]) else unit[1]
                half.append((filters, len(part)))
                continue
            jobs.append(Job(label, name + (" (timing)" if is_serial and rest else ""),
                            [bundle, ",".join(filters)], len(part), environment, serial=is_serial))
    for number, half in enumerate(unit):
        if half:
            jobs.append(Job(label, "%s %d of 2" % (UNIT, number + 1),
                            [bundle, ",".join(f for filters, _ in half for f in filters)],
                            sum(count for _, count in half), environment))
    return jobs


LANES_STARTED = time.monotonic()
RUNNING = set()  # the process groups of the jobs running now
RUNNING_LOCK = threading.Lock()


def stop_running(signum, frame):
    """Stopped (Ctrl-C, a timeout around make): the running jobs' process groups go too."""
    with RUNNING_LOCK:
        for group in RUNNING:
            try:
                os.killpg(group, 9)
            except OSError:
                pass
    sys.exit(128 + signum)


def run(job, scratch, timeout, logs):
    folder = tempfile.mkdtemp(prefix="", dir=scratch)
    home = os.path.join(folder, "home")
    os.makedirs(home)
    env = dict(os.environ)
    env.update(job.environment)
    if not job.provides:
        # A build keeps the user's HOME: git finds the packages' copies through its config.
        env["TMPDIR"] = folder
        env["HOME"] = home
    started = time.monotonic()
    job.began = started - LANES_STARTED
    try:
        # A process group of its own, killable whole, in the runner's session: in a session
        # of its own (setsid) a run flooded with tones took 2.4 s to end on SIGTERM, not
        # 0.05 s (SoundServerTests; not understood yet).
        process = subprocess.Popen(job.command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                   stdin=subprocess.DEVNULL, cwd=ROOT, process_group=0)
        with RUNNING_LOCK:
            RUNNING.add(process.pid)
        # Waited for with wait4, not communicate: its resource usage is the processor
        # time the job took (with the children it waited for), which the report sums up.
        expired = threading.Event()

        def expire():
            expired.set()
            try:
                os.killpg(process.pid, 9)
            except OSError:
                pass

        timer = threading.Timer(timeout, expire)
        timer.start()
        output = process.stdout.read()
        _, waited, usage = os.wait4(process.pid, 0)
        timer.cancel()
        process.returncode = os.waitstatus_to_exitcode(waited)
        job.cpu = usage.ru_utime + usage.ru_stime
        job.status = "timed out after %d s" % timeout if expired.is_set() else process.returncode
        job.output = output.decode("utf-8", "replace")
    finally:
        job.seconds = time.monotonic() - started
        # A daemon a test left behind in its process group is stopped with it.
        try:
            os.killpg(process.pid, 9)
        except (OSError, UnboundLocalError):
            pass
        with RUNNING_LOCK:
            RUNNING.discard(getattr(locals().get("process"), "pid", None))
        shutil.rmtree(folder, ignore_errors=True)
    for line in job.output.splitlines():
        match = CASE.match(line)
        if match:
            job.cases.append((match.group(1).split(".")[-1], match.group(2), match.group(3), float(match.group(4))))
    path = os.path.join(logs, job.label, re.sub(r"[^\w.+-]+", "-", job.name) + ".log")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as file:
        file.write(job.output)


def lane(jobs, workers, each, skip, built, broken, wider=0):
    """Runs `jobs`, longest expected first, `workers` at a time, or `wider` at a time once
    the lane's builds are done; a job waits for the builds it needs, and is skipped
    (`skip`) when one of them failed. `built` and `broken` are the builds done so far, in
    this lane or an earlier one, and are added to."""
    queue = sorted(jobs, key=lambda job: -job.expected)
    ready = threading.Condition()
    builds = {job.provides for job in jobs if job.provides}
    running = 0  # jobs started and not yet done

    def width():
        return workers if builds - built - broken else max(workers, wider)

    def worker():
        nonlocal running
        while True:
            with ready:
                while True:
                    for job in [job for job in queue if job.needs & broken]:
                        queue.remove(job)
                        skip(job, sorted(job.needs & broken))
                    job = next((job for job in queue if job.needs <= built), None) if running < width() else None
                    if job or not queue:
                        break
                    ready.wait()
                if not job:
                    ready.notify_all()
                    return
                queue.remove(job)
                running += 1
            each(job)
            with ready:
                running -= 1
                if job.provides:
                    (built if not job.failures() else broken).add(job.provides)
                ready.notify_all()

    threads = [threading.Thread(target=worker) for _ in range(max(1, min(max(workers, wider), len(queue))))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plain", required=True, help="the debug build's XCTest bundle")
    parser.add_argument("--plain-bin", required=True, help="the debug build's workout")
    parser.add_argument("--asan", help="the AddressSanitizer build's XCTest bundle")
    parser.add_argument("--asan-bin", help="the AddressSanitizer build's workout")
    parser.add_argument("--fuzz-seconds", type=int, default=0, help="seconds for each fuzzer (0: none)")
    parser.add_argument("--bench-smoke", action="store_true", help="the benchmark script's own tests")
    parser.add_argument("--release-build", help="the command that builds the release binary and its manual, "
                        "run in the parallel lane before the tests that install them")
    parser.add_argument("--asan-build", help="the command that builds --asan, run in the parallel lane "
                        "before the sanitizer's tests and the fuzzers")
    parser.add_argument("--workers", type=int, default=5)
    parser.add_argument("--workers-after-builds", type=int, default=0,
                        help="processes at a time once the builds are done (most of the system "
                        "tests wait on real time and servers, not on the processor)")
    parser.add_argument("--only", default="", help="regex over Class/method: only these tests")
    parser.add_argument("--timeout", type=int, default=420, help="seconds one process may take (the longest take 170 s)")
    parser.add_argument("--logs", default=os.path.join(ROOT, ".build", "lanes"))
    arguments = parser.parse_args()

    signal.signal(signal.SIGTERM, stop_running)
    signal.signal(signal.SIGINT, stop_running)
    only = re.compile(arguments.only) if arguments.only else None
    picked = lambda klass, method: not only or only.search("%s/%s" % (klass, method))
    tests = listed(arguments.plain)
    jobs = bundle_jobs("plain", arguments.plain, arguments.plain_bin, {}, tests,
                       lambda module, klass, method: picked(klass, method), True)
    builds = []
    if arguments.release_build:
        builds.append(Job("build", "release", ["/bin/sh", "-c", arguments.release_build], 0, {}, provides="release"))
        for job in jobs:
            if any(job.name.endswith("." + klass) for klass in RELEASE):
                job.needs.add("release")
    asan_needs = ()
    if arguments.asan_build:
        builds.append(Job("build", "asan", ["/bin/sh", "-c", arguments.asan_build], 0, {}, provides="asan"))
        asan_needs = ("asan",)
    builds_named = {job.provides for job in builds}
    if arguments.asan:
        # The same sources as the debug build, so the same tests (listed from it: the
        # sanitizer's bundle may not be built yet).
        asan_skip = re.compile(ASAN_SKIP)
        asan = bundle_jobs("asan", arguments.asan, arguments.asan_bin, {"ASAN_OPTIONS": "detect_leaks=0"}, tests,
                           lambda module, klass, method: picked(klass, method) and (module == UNIT or klass in ASAN_SYSTEM)
                           and not asan_skip.search("%s/%s" % (klass, method)), False)
        for job in asan:
            job.needs.update(asan_needs)
        jobs += asan
    for job in jobs:
        klass = job.name.split(" ")[0].split(".")[-1]
        if job.label not in ("build", "fuzz") and klass not in BESIDE_BUILDS and job.label not in BESIDE_BUILDS:
            job.needs.update(builds_named)
    if arguments.fuzz_seconds and not only:
        # One after the other in one job: each fuzzer keeps a core busy for its seconds.
        jobs.append(Job("fuzz", " ".join(FUZZERS), ["Fuzz/run.sh", str(arguments.fuzz_seconds)], 0, {},
                        needs=asan_needs))
    if arguments.bench_smoke and not only:
        jobs.append(Job("bench-smoke", "benchmarks/test_bench.py",
                        ["/usr/bin/python3", "-m", "unittest", "-v", "benchmarks/test_bench.py"], 0,
                        {"WORKOUT_BIN": arguments.plain_bin}))

    # How long each job took last time: this checkout's last run, else the durations kept
    # beside this script (a clean clone's first run starts the longest jobs first too).
    times_path = os.path.join(arguments.logs, "times.json")
    previous = {}
    for path in (os.path.join(ROOT, "Tests", "lanes-times.json"), times_path):
        try:
            with open(path) as file:
                previous.update(json.load(file))
        except (OSError, ValueError):
            pass
    for job in jobs:
        job.expected = previous.get(job.key, job.expected)
    # The builds first: the jobs that wait for them are most of the lane.
    for job in builds:
        job.expected = 10_000 + previous.get(job.key, 100)
    jobs = builds + jobs

    os.makedirs(arguments.logs, exist_ok=True)
    # Short: a socket's path (a sound server's, a bus's) must stay under 108 bytes, and Lua
    # shortens a chunk name over 59.
    scratch = tempfile.mkdtemp(prefix="wl")
    lock = threading.Lock()
    done = []

    def each(job):
        run(job, scratch, arguments.timeout, arguments.logs)
        with lock:
            done.append(job)
            passed = sum(1 for case in job.cases if case[2] == "passed")
            why = job.failures()
            print("[%-11s] %-52s %4d passed %6.1f s  cpu %6.1f s  from %5.0f s  %s" % (
                job.label, job.name, passed, job.seconds, job.cpu, job.began, "FAILED: " + "; ".join(why) if why else "ok"), flush=True)

    def skip(job, missing):
        job.status = "not run: the %s build failed" % ", ".join(missing)
        each_done(job)

    def each_done(job):
        with lock:
            done.append(job)
            print("[%-11s] %-52s %s" % (job.label, job.name, job.status), flush=True)

    walls = []
    started = time.monotonic()
    parallel = [job for job in jobs if not job.serial]
    built, broken = set(), set()
    lane(parallel, arguments.workers, each, skip, built, broken, arguments.workers_after_builds)
    walls.append(("parallel: %d processes, %d at a time%s" % (
        len(parallel), arguments.workers, ", %d after the builds" % arguments.workers_after_builds
        if arguments.workers_after_builds > arguments.workers else ""), time.monotonic() - started))
    serial_started = time.monotonic()
    serial = [job for job in jobs if job.serial]
    lane(serial, 1, each, skip, built, broken)
    walls.append(("serial: %d processes, one at a time" % len(serial), time.monotonic() - serial_started))
    walls.append(("both", time.monotonic() - started))
    shutil.rmtree(scratch, ignore_errors=True)

    report = []
    failed_jobs = [job for job in sorted(done, key=lambda job: job.key) if job.failures()]
    for job in failed_jobs:
        report.append("=== %s: %s" % (job.key, "; ".join(job.failures())))
        lines = job.output.splitlines()
        report.extend("  " + line for line in [line for line in lines if ": error: " in line][:40])
        report.extend("  | " + line for line in lines[-30:])
    cases = [(job.label,) + case for job in done for case in job.cases]
    report.append("")
    report.append("Lanes (wall time):")
    report.extend("  %-62s %7.1f s" % wall for wall in walls)
    report.append("The ten slowest test cases:")
    report.extend("  %7.1f s  %s %s.%s" % (case[4], case[0], case[1], case[2])
                  for case in sorted(cases, key=lambda case: -case[4])[:10])
    report.append("The five slowest processes:")
    report.extend("  %7.1f s  %s" % (job.seconds, job.key) for job in sorted(done, key=lambda job: -job.seconds)[:5])
    # The parallel lane is bound by the two cores' work: where the processor time goes.
    report.append("Processor time, %.0f s in all; the eight largest:" % sum(job.cpu for job in done))
    report.extend("  %7.1f s  %s" % (job.cpu, job.key) for job in sorted(done, key=lambda job: -job.cpu)[:8])
    for label in sorted({job.label for job in jobs}):
        mine = [job for job in jobs if job.label == label]
        tests = sum(job.count for job in mine)
        report.append("%-12s %s" % (label + ":", "%d tests in %d processes" % (tests, len(mine)) if tests
                                    else "%d processes" % len(mine)))
    passed = sum(1 for case in cases if case[3] == "passed") + sum(1 for job in done if not job.count and not job.failures())
    failed = sum(1 for case in cases if case[3] == "failed") + sum(
        1 for job in failed_jobs if not any(case[2] == "failed" for case in job.cases))
    report.append("%d passed, %d failed" % (passed, failed))
    print("\n".join(report), flush=True)
    # CI shows only the end of what make test prints: phase.sh prints this file last, one line
    # a failure with its first assertion, so the name of what failed is never cut off.
    with open(os.path.join(os.path.dirname(times_path), "failed.txt"), "w") as file:
        for job in failed_jobs:
            errors = [line.strip() for line in job.output.splitlines() if ": error: " in line]
            file.write("FAILED %s: %s\n" % (job.key, "; ".join(job.failures())))
            file.writelines("  %s\n" % line[:300] for line in errors[:3])

    previous.update({job.key: round(job.seconds, 1) for job in done})
    with open(times_path, "w") as file:
        json.dump(previous, file, indent=1, sort_keys=True)
    return 1 if failed_jobs else 0


if __name__ == "__main__":
    sys.exit(main())
