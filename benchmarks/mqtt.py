#!/usr/bin/python3
"""The broker's rows of BENCHMARKS.md (issue 40): a release workout's timer lateness with
`run --mqtt` publishing to a private mosquitto, beside the same run without it.

    /usr/bin/python3 benchmarks/mqtt.py --workout .build/release/workout [--runs 3] [--segments 300]

Debian's `mosquitto` on a free loopback port with a config of its own, and
`mosquitto_sub -t 'bench/#' -t 'homeassistant/#'` reading everything it is sent (so the
broker delivers every message, as it would to Home Assistant). Each run: SEGMENTS work
segments of 0.1 s at `--speed 10` with `--json`; `late_ms` of every timer-caused
`segment_start`. The runs alternate without and with `--mqtt`, RUNS of each. Every process
it starts it stops. Prints the Markdown rows.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

QUIET = ["--no-sound", "--no-notify", "--allow-sleep", "--no-history", "--music", "off"]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Broker:
    """mosquitto on a private port, and a subscriber reading every topic the run uses."""

    def __init__(self, scratch):
        self.port = free_port()
        config = os.path.join(scratch, "mosquitto.conf")
        with open(config, "w") as file:
            file.write(f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        self.broker = subprocess.Popen(["/usr/sbin/mosquitto", "-c", config], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.PIPE, text=True)
        # Ready when it accepts a connection.
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or self.broker.poll() is not None:
                    raise SystemExit(f"mqtt.py: mosquitto did not start: {self.broker.stderr.read()}")
                time.sleep(0.02)
        self.received = os.path.join(scratch, "received")
        self.subscriber = subprocess.Popen(["mosquitto_sub", "-p", str(self.port), "-t", "bench/#",
                                            "-t", "homeassistant/#", "-v"],
                                           stdout=open(self.received, "w"), stderr=subprocess.DEVNULL)

    def messages(self):
        with open(self.received, errors="replace") as file:
            return sum(1 for _ in file)

    def stop(self):
        for process in (self.subscriber, self.broker):
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def routine(scratch, segments):
    path = os.path.join(scratch, "lateness.lua")
    with open(path, "w") as file:
        file.write(f'local steps = {{}}\nfor i = 1, {segments} do steps[i] = work(1, "w" .. i) end\n'
                   f'return workout {{ name = "lateness", countdown = 0, rounds(1, steps) }}\n')
    return path


def lateness(workout, path, env, options):
    """`late_ms` of the timer-caused segment starts of one run."""
    argv = [workout, "run", path, "--json", "--speed", "10", *QUIET, *options]
    result = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise SystemExit(f"mqtt.py: {' '.join(argv)} exited {result.returncode}: {result.stderr}")
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return [event["late_ms"] for event in events if event["event"] == "segment_start" and "late_ms" in event]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workout", default=".build/release/workout")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--segments", type=int, default=300)
    arguments = parser.parse_args(argv)
    workout = os.path.abspath(arguments.workout)
    for program in ("/usr/sbin/mosquitto", shutil.which("mosquitto_sub")):
        if not program or not os.path.exists(program):
            raise SystemExit("mqtt.py: needs Debian's mosquitto and mosquitto-clients")
    scratch = tempfile.mkdtemp(prefix="workout-bench-mqtt-")
    env = {key: value for key, value in os.environ.items() if key not in ("DBUS_SESSION_BUS_ADDRESS",)}
    env.update(XDG_DATA_HOME=f"{scratch}/data", XDG_CONFIG_HOME=f"{scratch}/config",
               XDG_STATE_HOME=f"{scratch}/state", LANG="C.UTF-8")
    broker = Broker(scratch)
    try:
        path = routine(scratch, arguments.segments)
        none, publishing = [], []
        for _ in range(arguments.runs):
            none += lateness(workout, path, env, [])
            publishing += lateness(workout, path, env, ["--mqtt", f"mqtt://127.0.0.1:{broker.port}/bench"])
        time.sleep(0.5)  # the subscriber's last lines
        received = broker.messages()
    finally:
        broker.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    load = os.getloadavg()[0]
    print(f"| figure | without --mqtt | with --mqtt (mosquitto on loopback) |")
    print(f"|---|---|---|")
    print(f"| timer fires | {len(none)} | {len(publishing)} |")
    for name, p in (("p50", 50), ("p99", 99), ("max", 100)):
        print(f"| `late_ms` {name} | {percentile(none, p):.3f} ms | {percentile(publishing, p):.3f} ms |")
    print(f"\np99 moved by {percentile(publishing, 99) - percentile(none, 99):+.3f} ms (target: at most 0.1 ms); "
          f"messages the subscriber received: {received}; load average at the end {load:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
