#!/usr/bin/python3
"""The broker's rows of BENCHMARKS.md (issue 40): a release workout's timer lateness with
`run --mqtt` publishing to a private mosquitto, beside the same run without it and the same
run with a class of 30 participants at 1 Hz; and a participant's heart rate → the class
page in headless Chromium.

    /usr/bin/python3 benchmarks/mqtt.py --workout .build/release/workout [--runs 3] [--segments 300]

Debian's `mosquitto` on a free loopback port with a config of its own, and
`mosquitto_sub -t 'bench/#' -t 'homeassistant/#'` reading everything it is sent (so the
broker delivers every message, as it would to Home Assistant). Each run: SEGMENTS work
segments of 0.1 s at `--speed 10` with `--json`; `late_ms` of every timer-caused
`segment_start`. The runs alternate without `--mqtt`, with it, and with it while 30
`mosquitto_pub -l` participants each publish a reading a second on
`bench/participants/pNN`; RUNS of each. The page: `run --serve --mqtt` and the tests'
Fixtures/class_check.py (30 participants at 1 Hz for SECONDS, Chromium reading `/class`),
which notes when each reading was published and when the page showed it. Every process it
starts it stops. Prints the Markdown rows.
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

QUIET = ["--no-sound", "--no-notify", "--allow-sleep", "--no-history", "--music", "off"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLASS_CHECK = os.path.join(ROOT, "Tests", "SystemTests", "Fixtures", "class_check.py")


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


class Participants:
    """30 participants, each a `mosquitto_pub -l` sending a reading a second until stopped."""

    def __init__(self, port, count=30):
        self.people = [subprocess.Popen(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port),
                                         "-t", f"bench/participants/p{i:02}", "-l"], stdin=subprocess.PIPE, text=True)
                       for i in range(count)]
        self.running = True
        self.thread = threading.Thread(target=self.publish, daemon=True)
        self.thread.start()

    def publish(self):
        second = 0
        while self.running:
            start = time.monotonic()
            for i, person in enumerate(self.people):
                hr = 100 + (i * 3 + second) % 80
                person.stdin.write(json.dumps({"name": f"Rider {i:02}", "hr": hr, "power": 150 + i}) + "\n")
                person.stdin.flush()
            second += 1
            time.sleep(max(0, 1 - (time.monotonic() - start)))

    def stop(self):
        self.running = False
        self.thread.join()
        for person in self.people:
            person.stdin.close()
            person.wait(10)


def page_latencies(workout, scratch, env, port, seconds):
    """ms from a participant's reading published to the class page showing it."""
    path = os.path.join(scratch, "class.lua")
    with open(path, "w") as file:
        file.write('return workout { name = "class", countdown = 0, work(600, "Class") }\n')
    argv = [workout, "run", path, "--json", *QUIET, "--serve", "127.0.0.1:0", "--mqtt", f"mqtt://127.0.0.1:{port}/bench"]
    run = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
    try:
        serve = json.loads(run.stdout.readline() or "{}")
        if serve.get("event") != "serve":
            raise SystemExit(f"mqtt.py: the run printed no serve line: {serve}")
        threading.Thread(target=lambda: run.stdout.read(), daemon=True).start()
        url = serve["url"].replace("/?token=", "/class?sort=hr&token=")
        checked = subprocess.run(["/usr/bin/python3", CLASS_CHECK, url, str(port), "bench", str(seconds)],
                                 capture_output=True, text=True, timeout=seconds + 120)
        if checked.returncode != 0:
            raise SystemExit(f"mqtt.py: class_check.py failed: {checked.stderr[-2000:]}")
        return json.loads(checked.stdout)["latencies"]
    finally:
        run.terminate()
        run.wait(10)


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
    parser.add_argument("--page-seconds", type=int, default=20)
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
        none, publishing, classes = [], [], []
        mqtt = ["--mqtt", f"mqtt://127.0.0.1:{broker.port}/bench"]
        for _ in range(arguments.runs):
            none += lateness(workout, path, env, [])
            publishing += lateness(workout, path, env, mqtt)
            participants = Participants(broker.port)
            try:
                classes += lateness(workout, path, env, mqtt)
            finally:
                participants.stop()
        time.sleep(0.5)  # the subscriber's last lines
        received = broker.messages()
        page = page_latencies(workout, scratch, env, broker.port, arguments.page_seconds)
    finally:
        broker.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    load = os.getloadavg()[0]
    print("| figure | without --mqtt | with --mqtt (mosquitto on loopback) | with --mqtt and 30 participants at 1 Hz |")
    print("|---|---|---|---|")
    print(f"| timer fires | {len(none)} | {len(publishing)} | {len(classes)} |")
    for name, p in (("p50", 50), ("p99", 99), ("max", 100)):
        print(f"| `late_ms` {name} | {percentile(none, p):.3f} ms | {percentile(publishing, p):.3f} ms "
              f"| {percentile(classes, p):.3f} ms |")
    print(f"\np99 moved by {percentile(publishing, 99) - percentile(none, 99):+.3f} ms publishing, "
          f"{percentile(classes, 99) - percentile(none, 99):+.3f} ms with the class (target: at most 0.1 ms); "
          f"messages the subscriber received: {received}; load average at the end {load:.2f}")
    print(f"\nA participant's reading → the class page ({len(page)} readings): p50 {percentile(page, 50):.0f} ms, "
          f"p99 {percentile(page, 99):.0f} ms, max {max(page):.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
