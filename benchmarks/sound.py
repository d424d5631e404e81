"""Sound onsets: a private PulseAudio server, a recording of what its sink plays, and where
each sound starts in it (issue 13).

The server is `pulseaudio -n` with only a null sink and the native protocol in the scratch
directory (its own XDG_RUNTIME_DIR and HOME), a silent `pacat` keeping the sink's clock
running at a low latency, and `parec` recording `null.monitor` to a pipe the harness reads.
Onsets are found in the 16-bit samples: a sound starts where the signal rises above a
threshold after 60 ms of silence; its pitch is the zero crossings of its first 40 ms.
"""

import array
import json
import math
import os
import signal
import shutil
import subprocess
import tempfile
import threading
import time
import wave
from pathlib import Path
from types import SimpleNamespace

from processes import BenchError, under_rusage, usage_written

RATE = 48_000
QUANTUM = 1024  # PipeWire's default graph quantum on a desktop (frames)
THRESHOLD = 1_000
GAP_S = 0.06


class SoundServer:
    """The private server, for a `with` block: killed however the block ends. `kind` is
    "pulseaudio" (`pulseaudio -n`) or "pipewire" (pipewire, wireplumber and pipewire-pulse
    on a private session bus, the null sink loaded through `pactl`, as on a desktop).
    `quantum`: PipeWire's graph forced to cycles of this many frames; None leaves it as the
    server starts, as the tests' private PipeWire does (the drift benchmark measures that)."""

    def __init__(self, scratch, kind="pulseaudio", quantum=QUANTUM):
        self.kind, self.quantum = kind, quantum
        # A directory of its own each time: a server started earlier in the same scratch
        # directory leaves its socket behind, which would pass for this one's before it listens.
        self.directory = Path(tempfile.mkdtemp(prefix=f"{kind}-", dir=scratch))
        self.processes = []

    @property
    def socket(self):
        return self.directory / ("native" if self.kind == "pulseaudio" else "run/pulse/native")

    @property
    def env(self):
        env = {"PULSE_SERVER": f"unix:{self.socket}", "HOME": str(self.directory / "home"),
               "XDG_RUNTIME_DIR": str(self.directory / "run")}
        if self.kind == "pipewire":
            env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={self.directory / 'run' / 'bus'}"
        return env

    def __enter__(self):
        # A `with` block whose __enter__ raises never calls __exit__: the daemons already
        # started are stopped here (a server that did not settle was once left running).
        try:
            return self.start()
        except BaseException:
            self.__exit__(None, None, None)
            raise

    def start(self):
        programs = ("pacat", "parec", "paplay", "pactl") + (
            ("pulseaudio",) if self.kind == "pulseaudio" else ("pipewire", "wireplumber", "pipewire-pulse", "pw-metadata", "dbus-daemon"))
        for program in programs:
            if shutil.which(program) is None:
                raise BenchError(f"{program} is not installed (make bench installs pulseaudio, pulseaudio-utils, "
                                 "pipewire, wireplumber and pipewire-pulse)")
        for folder in ("run", "home"):
            (self.directory / folder).mkdir(parents=True, exist_ok=True, mode=0o700)
        if self.kind == "pipewire":
            self.start_pipewire()
            return self
        script = self.directory / "server.pa"
        script.write_text(f"load-module module-null-sink sink_name=null rate={RATE}\n"
                          f"load-module module-native-protocol-unix socket={self.directory / 'native'} "
                          "auth-anonymous=1\nset-default-sink null\n")
        self.processes.append(self.spawn(["pulseaudio", "-n", "-F", str(script), "--daemonize=no",
                                          "--exit-idle-time=-1", "--use-pid-file=no"]))
        deadline = time.monotonic() + 10
        while not (self.directory / "native").exists():
            if time.monotonic() > deadline or self.processes[0].poll() is not None:
                raise BenchError("pulseaudio did not start")
            time.sleep(0.02)
        self.processes.append(self.spawn(["pacat", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=1",
                                          "--latency-msec=20"], stdin=open("/dev/zero", "rb")))
        self.settle()
        return self

    def start_pipewire(self):
        bus = self.directory / "run" / "bus"
        self.processes.append(self.spawn(["dbus-daemon", "--session", f"--address=unix:path={bus}", "--nofork",
                                          "--nopidfile"]))
        self.wait_for(bus, "dbus-daemon")
        self.processes.append(self.spawn(["pipewire"]))
        self.wait_for(self.directory / "run" / "pipewire-0", "pipewire")
        self.processes.append(self.spawn(["wireplumber"]))
        self.processes.append(self.spawn(["pipewire-pulse"]))
        self.wait_for(self.socket, "pipewire-pulse")
        deadline = time.monotonic() + 10
        while "on PipeWire" not in self.pactl("info"):
            if time.monotonic() > deadline:
                raise BenchError("pipewire-pulse did not answer pactl info")
            time.sleep(0.05)
        self.pactl("load-module", "module-null-sink", "sink_name=null", f"rate={RATE}")
        self.pactl("set-default-sink", "null")
        # The graph in cycles of a desktop's default quantum (1024 frames, 21 ms): the null
        # sink alone would run in far smaller ones, which hide how pipewire-pulse's read
        # index moves (once a cycle).
        if self.quantum is not None:
            forced = subprocess.run(["pw-metadata", "-n", "settings", "0", "clock.force-quantum", str(self.quantum)],
                                    env={**os.environ, **self.env}, capture_output=True, text=True, timeout=10)
            if forced.returncode != 0:
                raise BenchError(f"pw-metadata could not set the quantum: {forced.stderr.strip()}")
        self.processes.append(self.spawn(["pacat", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=1",
                                          "--latency-msec=20"], stdin=open("/dev/zero", "rb")))
        self.settle()

    def wait_for(self, path, name):
        deadline = time.monotonic() + 10
        while not Path(path).exists():
            if time.monotonic() > deadline:
                raise BenchError(f"{name} did not start")
            time.sleep(0.02)

    def pactl(self, *arguments):
        return subprocess.run(["pactl", *arguments], env={**os.environ, **self.env}, capture_output=True,
                              text=True, timeout=10).stdout

    def __exit__(self, *exception):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.kill()
            process.wait()

    def spawn(self, argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL):
        return subprocess.Popen(argv, env={**os.environ, **self.env}, stdin=stdin, stdout=stdout,
                                stderr=subprocess.DEVNULL)

    def settle(self):
        """A new null sink renders 2 s ahead until a stream asks for less, then plays that out."""
        deadline = time.monotonic() + 10
        while True:
            sinks = subprocess.run(["pactl", "list", "sinks"], env={**os.environ, **self.env}, capture_output=True,
                                   text=True, timeout=10).stdout
            latencies = [int(line.split("Latency:")[1].split()[0]) for line in sinks.splitlines() if "Latency:" in line]
            if latencies and latencies[0] < 50_000:
                return
            if time.monotonic() > deadline:
                raise BenchError(f"the null sink's latency stayed at {latencies} µs")
            time.sleep(0.1)


class Recorder(threading.Thread):
    """`parec` on the sink's monitor, read as it comes: the samples, and for each chunk the
    moment it arrived and how many samples came before its end."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.process = server.spawn(["parec", "-d", "null.monitor", "--raw", "--format=s16le", f"--rate={RATE}",
                                     "--channels=1", "--latency-msec=5"], stdout=subprocess.PIPE)
        self.data = bytearray()
        self.chunks = []  # (monotonic arrival, samples so far)
        self.start()

    def run(self):
        while True:
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                return
            self.data += chunk
            self.chunks.append((time.monotonic(), len(self.data) // 2))

    def stop(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self.join(5)
        samples = array.array("h")
        samples.frombytes(bytes(self.data[:len(self.data) // 2 * 2]))
        return samples

    def clock(self):
        """(moment, ppm): the monotonic moment sample i was captured, as a function of i, and
        how far the recording's sample clock runs from RATE per second of the monotonic clock.

        Each chunk arrives after it was captured, so arrival − samples/RATE is above the true
        origin by the reader's delay; its lowest value in each second of the recording is
        within a fraction of a millisecond of it. A line fitted through those lowest values
        is the recording's clock. Counting samples alone (a fixed origin, RATE per second)
        is not: with workout's stream playing, the null sink's monitor hands `parec` about
        230 samples per million more than the monotonic clock's seconds (with the silent
        `pacat` alone, about 10), which read as a drift of 0.2 ms per sound a second apart.
        """
        lowest = {}
        for arrival, count in self.chunks:
            second, origin = int(count / RATE), arrival - count / RATE
            if second not in lowest or origin < lowest[second][1]:
                lowest[second] = (count, origin)
        points = sorted(lowest.values())[1:-1]  # the first and last seconds are partial
        if len(points) < 3:
            start = min(arrival - count / RATE for arrival, count in self.chunks)
            return (lambda index: start + index / RATE), 0.0
        mean_count = sum(count for count, _ in points) / len(points)
        mean_origin = sum(origin for _, origin in points) / len(points)
        slope = (sum((count - mean_count) * (origin - mean_origin) for count, origin in points)
                 / sum((count - mean_count) ** 2 for count, _ in points))
        intercept = mean_origin - slope * mean_count
        return (lambda index: intercept + index * (1 / RATE + slope)), -slope * RATE * 1e6


def onsets(samples):
    """(sample index, Hz) of each sound."""
    found, last = [], -10**9
    gap = int(GAP_S * RATE)
    for index, sample in enumerate(samples):
        if sample > THRESHOLD or sample < -THRESHOLD:
            if index - last > gap:
                found.append((index, pitch(samples, index + RATE // 200)))
            last = index
    return found


def pitch(samples, start):
    window = samples[start:start + RATE // 25]
    if len(window) < 2:
        return 0.0
    crossings = sum(1 for a, b in zip(window, window[1:]) if (a < 0) != (b < 0))
    return crossings / 2 / (len(window) / RATE)


def tone_file(path, hz=2000, seconds=0.1):
    """A short tone for paplay, faded in and out like workout's."""
    count, fade = int(seconds * RATE), int(0.005 * RATE)
    frames = array.array("h")
    for index in range(count):
        envelope = min(1.0, index / fade, (count - 1 - index) / fade)
        frames.append(int(0.8 * 32767 * envelope * math.sin(2 * math.pi * hz * index / RATE)))
    with wave.open(str(path), "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(RATE)
        file.writeframes(frames.tobytes())
    return path


class PaplayTimer(threading.Thread):
    """What a shell timer does: `paplay` of a short tone spawned at planned moments
    (monotonic seconds), each reaped by the thread."""

    def __init__(self, server, tone, moments):
        super().__init__(daemon=True)
        self.server, self.tone, self.moments = server, tone, moments
        self.start()

    def run(self):
        spawned = []
        for moment in self.moments:
            delay = moment - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            spawned.append(self.server.spawn(["paplay", str(self.tone)]))
        for process in spawned:
            process.wait()


def recorded_run(server, argv, env, seconds, on_start=None):
    """A `run --json` (`argv`) while the sink's monitor is recorded. `on_start(origin)` is
    called at workout_start and may return a thread (a PaplayTimer), joined before the
    recording stops. Gives the events, the workout's origin on this process's monotonic
    clock (arrival − t of workout_start), the heard (moment, Hz), the recording's ppm, the
    run's usage and what `on_start` returned."""
    recorder = Recorder(server)
    time.sleep(0.3)
    events, origin, extra = [], None, None
    with tempfile.TemporaryFile() as errors, under_rusage(argv, env, subprocess.PIPE, errors) as (process, out):
        for line in iter(process.stdout.readline, b""):
            arrival = time.monotonic()
            event = json.loads(line)
            events.append(event)
            if event["event"] == "workout_start":
                origin = arrival - event["t"]
                extra = on_start(origin) if on_start else None
        process.stdout.close()
        usage = usage_written(process, out, argv, errors)
    if origin is None:
        raise BenchError("the run printed no workout_start")
    if extra is not None:
        extra.join(seconds + 30)
    time.sleep(2)  # the last sound (a finish chime) rings out
    samples = recorder.stop()
    moment, ppm = recorder.clock()
    return SimpleNamespace(events=events, origin=origin, heard=[(moment(index), hz) for index, hz in onsets(samples)],
                           ppm=ppm, usage=usage, extra=extra)
