#!/usr/bin/python3
"""The athlete's press to the rest's sound (issue 26): from the moment the athlete ends a
set — Enter's byte written to the pty of the live display, or `POST /control
{"action":"done"}` sent — to the onset of the rest's start sound in the null sink's
recording.

    /usr/bin/python3 benchmarks/press.py [--workout PATH] [--presses N]

`bench.py` runs it as one of its groups (`bench_press`); run alone it measures only this
and prints the rows. The sound server, the recording and the onsets are sound.py's.
"""

import argparse
import fcntl
import json
import os
import pty
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from figures import Figure, at_least, at_most, percentile
from processes import BenchError
from sound import Recorder, SoundServer, onsets

# The rest after each set, in seconds; the rest's sound (880 Hz, then 587 Hz) is told from
# the set's `go` (1500 Hz) by its pitch.
REST_S = 1.0
REST_HZ = 880
# A press counts from a second into a set (a bouncing pedal's second press does not): the
# next press comes this long after the set is expected to start.
INTO_THE_SET_S = 1.4
# The onset must come within this long of the press to be the press's.
WITHIN_S = 0.5


def press_routine(directory, presses, name="press"):
    """`presses` open sets, each followed by a rest of REST_S."""
    path = Path(directory) / f"{name}.lua"
    path.write_text(f'return workout {{ name = "press", countdown = 0, rounds({presses}, '
                    f'{{ work{{ open = true, name = "Set" }}, rest({REST_S:g}, "Rest") }}) }}\n')
    return path


class Drain(threading.Thread):
    """Reads a file descriptor to its end (a display's pty, a `--json` pipe), so the writer
    never blocks; `seen` is set once `marker` has come."""

    def __init__(self, descriptor, marker):
        super().__init__(daemon=True)
        self.descriptor, self.marker = descriptor, marker
        self.data = bytearray()
        self.seen = threading.Event()
        self.start()

    def run(self):
        while True:
            try:
                chunk = os.read(self.descriptor, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.data += chunk
            if not self.seen.is_set() and self.marker in self.data:
                self.seen.set()


def pace(presses, first, press):
    """Calls `press()` `presses` times, the first at `first` (monotonic), each next one a
    rest and INTO_THE_SET_S later; the monotonic moment of each call."""
    moments = []
    due = first
    for _ in range(presses):
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        moments.append(press())
        due = moments[-1] + REST_S + INTO_THE_SET_S
    return moments


def key_run(workout, env, routine, presses):
    """The live display in an 80×24 pty; Enter (CR) written to it at each press."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    argv = [str(workout), "run", str(routine), "--no-notify", "--no-history"]
    process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, start_new_session=True,
                               env={**env, "TERM": "xterm-256color"})
    os.close(slave)
    drain = Drain(master, b"Set")
    try:
        if not drain.seen.wait(20):
            raise BenchError("the display never showed the set")

        def press():
            moment = time.monotonic()
            os.write(master, b"\r")
            return moment

        moments = pace(presses, time.monotonic() + INTO_THE_SET_S, press)
        wait(process, REST_S + 10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(master)
    return moments


def post_run(workout, env, routine, presses):
    """`run --serve --json`; `POST /control {"action":"done"}` at each press, the moment
    taken as the request is sent on a connection already open."""
    argv = [str(workout), "run", str(routine), "--no-notify", "--no-history", "--json", "--serve", "127.0.0.1:0"]
    # Unbuffered: the serve line is read here, the rest by `Drain` from the same descriptor,
    # so no line may wait in a reader's buffer.
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               env=env, bufsize=0)
    try:
        serve = json.loads(process.stdout.readline() or b"{}")
        if serve.get("event") != "serve":
            raise BenchError(f"the run printed no serve line: {serve}")
        parts = urlsplit(serve["url"])
        port, token = parts.port, parse_qs(parts.query)["token"][0]
        drain = Drain(process.stdout.fileno(), b'"segment_start"')
        if not drain.seen.wait(20):
            raise BenchError("the run never started its first set")
        body = b'{"action":"done"}'
        request = (f"POST /control HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {token}\r\n"
                   f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body
        statuses = []

        def press():
            with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
                moment = time.monotonic()
                connection.sendall(request)
                statuses.append(connection.recv(64).split(b" ")[1:2])
            return moment

        moments = pace(presses, time.monotonic() + INTO_THE_SET_S, press)
        if any(status != [b"204"] for status in statuses):
            raise BenchError(f"POST /control answered {statuses}")
        wait(process, REST_S + 10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return moments


def wait(process, seconds):
    """The run ends by itself after the last rest: waited for, killed if it does not."""
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise BenchError("the run did not end after its last rest")


def latencies(run, server, workout, env, routine, presses):
    """One run (`key_run` or `post_run`) with the recorder on: ms from each press to the
    rest's onset after it (presses with none within WITHIN_S are left out)."""
    recorder = Recorder(server)
    time.sleep(0.3)
    moments = run(workout, env, routine, presses)
    time.sleep(1)  # the finish chime rings out
    samples = recorder.stop()
    moment, _ = recorder.clock()
    rests = [moment(index) for index, hz in onsets(samples) if abs(hz - REST_HZ) < 150]
    found = []
    for press in moments:
        after = [onset for onset in rests if press - 0.05 < onset < press + WITHIN_S]
        if after:
            found.append((min(after) - press) * 1000)
    return found


def press_figures(workout, env, scratch, presses, progress):
    routine = press_routine(scratch, presses)
    figures = []
    with SoundServer(scratch) as server:
        env = {**env, **server.env}
        # The server's first stream is not what a run pays: one unmeasured run first.
        progress("press: one short run to warm the sound server")
        latencies(key_run, server, workout, env, press_routine(scratch, 1, "warm"), 1)
        for name, run, label in (("key", key_run, "Enter in the display's pty"),
                                 ("post", post_run, "`POST /control` done")):
            progress(f"press: {presses} presses, {label}, to the rest's sound")
            found = latencies(run, server, workout, env, routine, presses)
            if not found:
                raise BenchError(f"press ({name}): no rest sound heard after any press")
            group = "press"
            figures.append(Figure(f"press.{name}.heard", group, f"{label}: presses whose rest sound was heard",
                                  len(found), "", at_least(presses)))
            for stat, p in (("p50", 50), ("p99", 99), ("max", 100)):
                target = at_most(20, "≤ 20 ms") if stat == "p99" else None
                figures.append(Figure(f"press.{name}.ms.{stat}", group, f"{label} → rest's onset, as recorded {stat}",
                                      percentile(found, p), "ms", target))
    return figures


def bench_press(context, progress):
    """bench.py's group: the release binary, its environment and scratch directory."""
    return press_figures(context.workout, context.env, context.scratch, context.sizes.presses, progress)


def method(sizes):
    return (f"`rounds({sizes.presses}, {{ work{{ open = true }}, rest({REST_S:g}) }})` with sound on, the private "
            "`pulseaudio -n` and the `parec` recording of *Sound* above. A press: Enter's byte (CR) written to the "
            "master of an 80×24 pty running the live display, or `POST /control {\"action\":\"done\"}` sent on a "
            "loopback connection already open (`run --serve --json`); its moment is the harness's monotonic clock "
            f"just before the write. Presses come {INTO_THE_SET_S:g} s into each set (a press in a set's first second "
            "is taken as a bounce). The rest's start sound is the onset at 880 Hz after the press (within "
            f"{WITHIN_S * 1000:g} ms); its moment is the recording's own clock, fitted as for *Sound*, so it is when "
            "the null sink rendered it, the monitor's and the reader's delays included. One unmeasured run first "
            "warms the server. Target (issue 26): p99 ≤ 20 ms.")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    root = Path(__file__).resolve().parent.parent
    parser.add_argument("--workout", type=Path, default=root / ".build" / "release" / "workout")
    parser.add_argument("--presses", type=int, default=50)
    arguments = parser.parse_args(argv)
    progress = lambda message: print(f"press: {message}", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory(prefix="workout-press-") as scratch:
        env = {key: value for key, value in os.environ.items()
               if key not in ("TMUX", "DBUS_SESSION_BUS_ADDRESS", "NO_COLOR")}
        env.update(XDG_DATA_HOME=f"{scratch}/data", XDG_CONFIG_HOME=f"{scratch}/config", LANG="C.UTF-8")
        try:
            figures = press_figures(arguments.workout.resolve(), env, Path(scratch), arguments.presses, progress)
        except BenchError as error:
            print(f"press: {error}", file=sys.stderr)
            return 1
    for figure in figures:
        print(f"{figure.label}: {figure.value:.3g} {figure.unit}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
