"""Running and measuring processes: rusage from `wait4`, /proc samples, tmux panes, busy cores.

Each program runs under `rusage` (benchmarks/rusage.c, built on first use into
.build-bench), which reaps it with `wait4`: CPU time in microseconds (/usr/bin/time rounds
to 10 ms), voluntary context switches (each one a wake-up from sleep) and peak RSS. It is a
small C parent because Linux carries a process's peak RSS across fork and exec: a child of
this interpreter would report at least the interpreter's 20 MiB. Under tmux it runs in the
pane. Steady state, without start-up and exit, comes from /proc samples of the running
process. Every wait has a time limit: a hung program fails the benchmark, never hangs it.
"""

import contextlib
import json
import os
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

HERE = Path(__file__).resolve().parent
RUSAGE_SOURCE = HERE / "rusage.c"
RUSAGE = HERE.parent / ".build-bench" / "rusage"
# Debian's interpreter, not whatever python3 is first on PATH (pyenv, a venv): it runs the
# wrapper in the pane and makes termdown's venv, so every machine measures the same thing.
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


class BenchError(Exception):
    """A measurement that could not be made: the harness stops and says why (exit 1)."""


@dataclass
class Usage:
    """What one process cost, from its own rusage (whole process: start-up to exit)."""
    status: int
    wall_s: float
    cpu_s: float
    voluntary_switches: int
    max_rss_kib: int
    samples: list = field(default_factory=list)  # (monotonic s, ns on CPU, voluntary switches)
    spawned: float = None                        # monotonic moment of the spawn

    @property
    def rss_mib(self):
        return self.max_rss_kib / 1024

    def window(self):
        """The sampled window in seconds since the spawn: (first sample, last sample)."""
        return self.samples[0][0] - self.spawned, self.samples[-1][0] - self.spawned

    def steady(self):
        """CPU ms and voluntary switches per second between the first and last sample, and the window."""
        if len(self.samples) < 2 or None in (self.samples[0], self.samples[-1]):
            raise BenchError("the process ended before it could be sampled twice")
        (t0, cpu0, switches0), (t1, cpu1, switches1) = self.samples[0], self.samples[-1]
        window = t1 - t0
        return (cpu1 - cpu0) / 1e6 / window, (switches1 - switches0) / window, window


def sample_process(pid):
    """(now, ns on CPU, voluntary switches) summed over the process's threads; None once it is gone.

    schedstat's first field is a thread's time on CPU in ns: exact, where a running
    process's rusage is only available in clock ticks.
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


def rusage_tool():
    """The `rusage` wrapper, compiled from rusage.c with the C compiler at hand when missing
    or older than its source."""
    if RUSAGE.exists() and RUSAGE.stat().st_mtime >= RUSAGE_SOURCE.stat().st_mtime:
        return RUSAGE
    compiler = next((c for c in ("cc", "clang", "gcc") if shutil.which(c)), None)
    if compiler is None:
        raise BenchError("no C compiler (cc, clang or gcc) to build benchmarks/rusage.c")
    RUSAGE.parent.mkdir(parents=True, exist_ok=True)
    built = subprocess.run([compiler, "-O2", "-o", str(RUSAGE), str(RUSAGE_SOURCE)], stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=120)
    if built.returncode != 0:
        raise BenchError(f"{compiler} could not build {RUSAGE_SOURCE.name}:\n{built.stderr[-2000:]}")
    return RUSAGE


def usage_from(result, samples=(), spawned=None):
    """A `Usage` from what `rusage` wrote."""
    return Usage(result["status"], result["wall_s"], result["cpu_s"], result["voluntary_switches"],
                 result["max_rss_kib"], list(samples), spawned)


@contextlib.contextmanager
def under_rusage(argv, env, stdout, errors):
    """Starts `argv` under `rusage`, in a process group of its own (`rusage` ignores Ctrl-C,
    the command does not, so signals go to the group); yields the wrapper's process and
    the file `rusage` writes the usage to."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "usage.json"
        process = subprocess.Popen([str(rusage_tool()), str(out), "--", *map(str, argv)], env=env,
                                   stdin=subprocess.DEVNULL, stdout=stdout, stderr=errors, start_new_session=True)
        try:
            yield process, out
        finally:
            if process.poll() is None:
                send(process, signal.SIGKILL)
            process.wait()


def usage_written(process, out, argv, errors, samples=(), spawned=None):
    """Waits for the wrapper and reads the usage it wrote."""
    process.wait()
    if not out.exists():
        errors.seek(0)
        raise BenchError(f"rusage exited {process.returncode} without measuring {shlex.join(map(str, argv))}\n"
                         + errors.read().decode(errors="replace")[-2000:])
    return usage_from(json.loads(out.read_text()), samples, spawned)


def measure(argv, env, timeout, interrupt_after=None, expect=(0,)):
    """Runs a command to its end (or Ctrl-C after `interrupt_after` s), output discarded."""
    with tempfile.TemporaryFile() as errors, under_rusage(argv, env, subprocess.DEVNULL, errors) as (process, out):
        with signal_after(process, timeout, signal.SIGKILL), signal_after(process, interrupt_after, signal.SIGINT):
            usage = usage_written(process, out, argv, errors)
        check_status(argv, usage.status, expect, errors)
    return usage


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
    with tempfile.TemporaryFile() as errors, under_rusage(argv, env, subprocess.PIPE, errors) as (process, out):
        spawn = wait_for_json(Path(f"{out}.pid"), 10, 0.001, lambda: "(no output)")
        sampler = Sampler(spawn["pid"], [spawn["spawned"] + offset for offset in sample_at])
        sampler.start()
        events, arrivals = [], []
        with signal_after(process, timeout, signal.SIGKILL):
            for line in iter(process.stdout.readline, b""):
                arrivals.append(time.monotonic())
                events.append(json.loads(line))
            process.stdout.close()
            sampler.join()
            usage = usage_written(process, out, argv, errors, sampler.samples, spawn["spawned"])
        check_status(argv, usage.status, (0,), errors)
    return Stream(events, arrivals, usage)


def check_status(argv, status, expect, errors=None):
    """Stops the benchmark, with the end of the program's stderr, when it exited unexpectedly."""
    if status in expect:
        return
    stderr = ""
    if errors is not None:
        errors.seek(0)
        stderr = errors.read().decode(errors="replace")[-2000:]
    raise BenchError(f"{shlex.join(map(str, argv))} exited {status} (expected {expect})\n{stderr}")


@contextlib.contextmanager
def signal_after(process, seconds, sig):
    """Sends `sig` to the child after `seconds` unless the block is done by then (None: never).

    SIGKILL is the time limit that keeps a hung program from hanging the benchmark;
    SIGINT is Ctrl-C for a routine that never ends by itself.
    """
    if seconds is None:
        yield
        return
    timer = threading.Timer(seconds, lambda: send(process, sig))
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def send(process, sig):
    """To the child's process group when it leads one (`measure`), else to the child."""
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            if os.getpgid(process.pid) == process.pid:
                os.killpg(process.pid, sig)
            else:
                os.kill(process.pid, sig)


@contextlib.contextmanager
def spinners(count):
    """`count` busy loops, one per core, killed (and reaped) however the block ends."""
    processes = [subprocess.Popen(["sh", "-c", "while :; do :; done"], stdin=subprocess.DEVNULL)
                 for _ in range(count)]
    try:
        time.sleep(0.2)  # let them reach the CPUs first
        yield
    finally:
        for process in processes:
            process.kill()
            process.wait()


class TmuxServer:
    """A private tmux server (own socket, no config) whose panes are real terminals.

    Every tmux command gets /dev/null for stdin, stdout and stderr: the first one starts
    the server, which daemonizes and would keep an inherited pipe open for ever. Use it
    in a `with` block: the server is killed however the block ends. Its socket is in the
    scratch directory (`-S`), since tmux leaves the file behind when the server ends.
    """

    def __init__(self, scratch):
        self.socket = scratch / f"tmux-bench-{os.getpid()}"
        self.scratch = scratch

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.tmux("kill-server")

    def tmux(self, *arguments, stdout=subprocess.DEVNULL):
        return subprocess.run(["tmux", "-S", str(self.socket), "-f", "/dev/null", *arguments],
                              stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.DEVNULL,
                              timeout=20).returncode

    def screen(self, session):
        """The pane's text, for the error message when a run goes wrong."""
        path = self.scratch / f"{session}.screen"
        with open(path, "w") as file:
            self.tmux("capture-pane", "-p", "-t", session, stdout=file)
        return path.read_text()

    def run(self, session, argv, env, duration, margin, size=(80, 24)):
        """Runs `argv` in a fresh pane of `size` (columns, rows) through `rusage`: its usage,
        with /proc samples `margin` s after the spawn and `margin` s before `duration` is up."""
        out = self.scratch / f"{session}.json"
        assignments = [f"{key}={value}" for key, value in env.items()]
        command = ["env", *assignments, str(rusage_tool()), str(out), "--", *map(str, argv)]
        columns, rows = size
        if self.tmux("new-session", "-d", "-x", str(columns), "-y", str(rows), "-s", session, *command) != 0:
            raise BenchError(f"tmux could not start a session for {argv[0]}")
        spawn = wait_for_json(Path(f"{out}.pid"), 10, 0.002, lambda: self.screen(session))
        sampler = Sampler(spawn["pid"], [spawn["spawned"] + margin, spawn["spawned"] + duration - margin])
        sampler.start()
        # A slow poll: the wrapper times the run itself, and the harness should not be load.
        result = wait_for_json(out, duration + 30, 0.1, lambda: self.screen(session))
        sampler.join()
        usage = usage_from(result, sampler.samples, spawn["spawned"])
        check_status(argv, usage.status, (0,))
        return usage


def wait_for_json(path, timeout, interval, describe):
    """Polls for a file the pane's wrapper writes (atomically) and reads it."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > deadline:
            raise BenchError(f"{path.name} did not appear within {timeout:.0f} s; the pane shows:\n{describe()}")
        time.sleep(interval)
    return json.loads(path.read_text())
