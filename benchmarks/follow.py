#!/usr/bin/python3
"""Coach boundary → follower boundary on loopback, for BENCHMARKS.md: a coach
(`workout run --mqtt`) and followers (`workout follow`) on a private mosquitto.

    /usr/bin/python3 benchmarks/follow.py --workout .build/release/workout [--segments 60] [--followers 3]

Each process prints its `--json` lines as each boundary's timer fires (40 ms ahead of the
moment, the same for both); the harness stamps each line's arrival on CLOCK_MONOTONIC
(time.monotonic). For every segment_start the coach and a follower both made on their
own timers (`at` present), the difference of the arrivals is how far the follower's
boundary is from the coach's on the one machine's clock: the clock measure's error plus
both timers' lateness. Prints p50, p99 and the largest of |difference| in ms.

Every process it starts it stops.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

QUIET = ["--json", "--no-sound"]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Reader:
    """A process whose stdout lines are stamped on arrival."""

    def __init__(self, argv, env):
        self.lines = []
        self.process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        stdin=subprocess.DEVNULL)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for raw in self.process.stdout:
            self.lines.append((time.monotonic(), raw.decode("utf-8", "replace")))

    def starts(self):
        """index → arrival of each segment_start its own timer made."""
        found = {}
        for arrived, line in self.lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "segment_start" and "at" in event:
                found[event["index"]] = arrived
        return found

    def stop(self, timeout=10):
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.thread.join(timeout=2)
        return self.process.returncode


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workout", default=".build/release/workout")
    parser.add_argument("--segments", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=0.5, help="each segment's length")
    parser.add_argument("--followers", type=int, default=3)
    args = parser.parse_args()
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    scratch = tempfile.mkdtemp(prefix="workout-bench-follow-")
    port = free_port()
    conf = os.path.join(scratch, "mosquitto.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        if os.geteuid() == 0:
            f.write("user root\n")
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(scratch, "config"), XDG_DATA_HOME=os.path.join(scratch, "data"),
               DBUS_SESSION_BUS_ADDRESS="unix:path=" + os.path.join(scratch, "no-bus"))
    routine = os.path.join(scratch, "class.lua")
    with open(routine, "w") as f:
        f.write(f'return workout {{ name = "Bench", countdown = 0, rounds({args.segments}, {{ work({args.seconds}) }}) }}\n')
    broker = subprocess.Popen([mosquitto, "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes = []
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit("mosquitto did not start")
                time.sleep(0.02)
        url = f"mqtt://127.0.0.1:{port}/bench"
        followers = [Reader([args.workout, "follow", url, "--name", f"p{n}", "--no-sensors"] + QUIET, env)
                     for n in range(args.followers)]
        processes += followers
        time.sleep(0.5)
        coach = Reader([args.workout, "run", routine, "--mqtt", url, "--no-history", "--no-notify",
                        "--allow-sleep", "--no-sensors"] + QUIET, env)
        processes.append(coach)
        if coach.stop(timeout=args.segments * args.seconds + 30) != 0:
            sys.exit("the coach failed: " + coach.process.stderr.read().decode())
        differences = []
        coach_starts = coach.starts()
        for follower in followers:
            follower.stop()
            for index, arrived in follower.starts().items():
                if index in coach_starts and index > 1:
                    differences.append(abs(arrived - coach_starts[index]) * 1000)
        if not differences:
            sys.exit("no boundary to compare")
        print(f"| coach boundary → follower boundary, loopback ({args.followers} followers, "
              f"{len(differences)} boundaries) | p50 {percentile(differences, 50):.2f} ms, "
              f"p99 {percentile(differences, 99):.2f} ms, max {max(differences):.2f} ms |")
    finally:
        for process in processes:
            if process.process.poll() is None:
                process.process.kill()
                process.process.wait()
        broker.terminate()
        broker.wait()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
