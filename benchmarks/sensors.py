#!/usr/bin/python3
"""The sensor rows of BENCHMARKS.md: a release workout against the tests' fake BlueZ
(Tests/SystemTests/Fixtures/bluez_server.py) on a private system bus.

    /usr/bin/python3 benchmarks/sensors.py --workout .build/release/workout

- notification → display and → page: the strap notifies every 1.1 s (so that each
  notification passes the one-sample-a-second limit) with a new heart rate; the fake logs
  when it sent each (CLOCK_MONOTONIC), and the harness when the value reached it: the
  display's bytes through a pty (the title row's `N bpm`), and the page's event feed
  (`GET /events`, the `sample` event).
- ERG write vs the boundary: 1-s segments alternating 150 and 250 W; each boundary's
  moment on CLOCK_MONOTONIC is the origin (the smallest arrival − t over the --json lines)
  plus its `at`, and the fake logs each Set Target Power write's moment.
- timer lateness with 3 sensors notifying at 4 Hz each, beside none: `late_ms` of 300
  segments of 0.1 s (`--speed 10`), each run 3 times, interleaved.

Every process it starts it stops. Prints the Markdown rows.
"""
import argparse
import fcntl
import json
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
import urllib.parse
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "SystemTests", "Fixtures")
QUIET = ["--no-sound", "--no-notify", "--allow-sleep", "--no-history"]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Bus:
    """dbus-daemon with the system bus's policy and the fake BlueZ, in a scratch directory."""

    def __init__(self, devices):
        self.dir = tempfile.mkdtemp(prefix="workout-bench-bluez-")
        with open(os.path.join(FIXTURES, "system-bus.conf")) as file:
            config = file.read().replace("@SOCKET@", os.path.join(self.dir, "bus"))
        with open(os.path.join(self.dir, "bus.conf"), "w") as file:
            file.write(config)
        with open(os.path.join(self.dir, "devices.json"), "w") as file:
            json.dump({"devices": devices}, file)
        os.mkfifo(os.path.join(self.dir, "control"))
        self.log = os.path.join(self.dir, "log")
        self.daemon = subprocess.Popen(["/usr/bin/dbus-daemon", "--config-file=" + os.path.join(self.dir, "bus.conf"),
                                        "--nofork", "--print-address=1"], stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, text=True)
        self.address = self.daemon.stdout.readline().strip()
        self.env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address, HOME=self.dir,
                        XDG_CONFIG_HOME=os.path.join(self.dir, "config"), XDG_DATA_HOME=os.path.join(self.dir, "data"))
        self.env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        self.server = subprocess.Popen(["/usr/bin/python3", os.path.join(FIXTURES, "bluez_server.py"), self.log,
                                        os.path.join(self.dir, "devices.json"), os.path.join(self.dir, "control")],
                                       env=self.env, stdout=subprocess.PIPE, text=True)
        if self.server.stdout.readline().strip() != "ready":
            self.close()
            raise SystemExit("the fake BlueZ did not start")

    def lines(self):
        with open(self.log) as file:
            return file.read().splitlines()

    def close(self):
        for process in (self.server, self.daemon):
            process.terminate()
            process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def strap(address, every, values, times=False):
    return {"address": address, "name": "Strap", "known": True, "paired": True, "services": ["180d"],
            "times": times, "notify": {"2a37": {"every": every, "values": values}}}


def routine(directory, name, body):
    path = os.path.join(directory, name)
    with open(path, "w") as file:
        file.write(body)
    return path


def sent_times(bus):
    """Heart rate → the moments the fake sent it."""
    sent = {}
    for line in bus.lines():
        parts = line.split()
        if parts[:2] == ["time", "sent"] and parts[2].startswith("16"):
            sent.setdefault(int(parts[2][2:4], 16), []).append(float(parts[3]))
    return sent


def latencies(sent, arrived):
    """Each arrival of a heart rate, less the latest send of it before the arrival."""
    result = []
    for hr, moment in arrived:
        before = [s for s in sent.get(hr, []) if s <= moment]
        if before:
            result.append((moment - before[-1]) * 1000)
    return result


VALUES = ["16%02x" % hr for hr in range(100, 180)]


def display_latency(workout):
    bus = Bus([strap("C0:FF:EE:00:00:01", 1.1, VALUES, times=True)])
    try:
        path = routine(bus.dir, "ride.lua", 'return workout { name = "Ride", countdown = 0, work(25) }\n')
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
            os.environ.update(bus.env, TERM="xterm-256color", LANG="C.UTF-8")
            os.execv(workout, [workout, "run", path, "--sensor", "C0:FF:EE:00:00:01"] + QUIET)
        arrived, seen, buffer = [], set(), b""
        end = time.monotonic() + 30
        while time.monotonic() < end:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            now = time.monotonic()
            buffer = (buffer + chunk)[-4096:]
            for match in re.finditer(rb"(\d+) bpm", buffer):
                hr = int(match.group(1))
                if hr not in seen:
                    seen.add(hr)
                    arrived.append((hr, now))
        os.kill(pid, signal.SIGTERM)
        os.waitpid(pid, 0)
        os.close(fd)
        return latencies(sent_times(bus), arrived)
    finally:
        bus.close()


def page_latency(workout):
    bus = Bus([strap("C0:FF:EE:00:00:01", 1.1, VALUES, times=True)])
    try:
        path = routine(bus.dir, "ride.lua", 'return workout { name = "Ride", countdown = 0, work(25) }\n')
        process = subprocess.Popen([workout, "run", path, "--json", "--serve", "127.0.0.1:0",
                                    "--sensor", "C0:FF:EE:00:00:01"] + QUIET,
                                   env=bus.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        serve = json.loads(process.stdout.readline())
        url = urllib.parse.urlsplit(serve["url"])
        token = urllib.parse.parse_qs(url.query)["token"][0]
        threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
        request = urllib.request.Request(f"http://{url.netloc}/events", headers={"Authorization": "Bearer " + token})
        arrived = []
        with urllib.request.urlopen(request) as feed:
            for raw in feed:
                now = time.monotonic()
                line = raw.decode().strip()
                if line.startswith("data: ") and '"event":"sample"' in line:
                    arrived.append((json.loads(line[6:])["hr"], now))
                if '"event":"workout_end"' in line:
                    break
        process.wait()
        return latencies(sent_times(bus), arrived)
    finally:
        bus.close()


def json_lines(process):
    """(arrival, event) for each line of a run's --json output."""
    lines = []
    for line in process.stdout:
        lines.append((time.monotonic(), json.loads(line)))
    process.wait()
    return lines


def erg_lateness(workout):
    trainer = {"address": "C0:FF:EE:00:00:02", "name": "Trainer", "known": True, "paired": True,
               "services": ["1826"], "times": True, "notify": {}}
    bus = Bus([trainer])
    try:
        steps = ",\n".join('  work(1, "W%d", { watts = %d })' % (i, 150 if i % 2 else 250) for i in range(40))
        path = routine(bus.dir, "erg.lua", 'return workout { name = "ERG", countdown = 0,\n%s }\n' % steps)
        process = subprocess.Popen([workout, "run", path, "--json", "--sensor", "C0:FF:EE:00:00:02"] + QUIET,
                                   env=bus.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        lines = json_lines(process)
        origin = min(arrival - event["t"] for arrival, event in lines)
        boundaries = [origin + event["at"] for _, event in lines
                      if event["event"] == "segment_start" and "at" in event]
        writes = [float(line.split()[3]) for line in bus.lines()
                  if line.startswith("time write 05")]
        late = []
        for boundary in boundaries:
            after = [w for w in writes if w >= boundary - 0.5]
            if after:
                late.append((after[0] - boundary) * 1000)
        return late
    finally:
        bus.close()


def timer_lateness(workout, sensors):
    devices = [strap("C0:FF:EE:00:00:0%d" % n, 0.25, ["1648", "1696"]) for n in range(1, sensors + 1)]
    bus = Bus(devices)
    try:
        steps = ",\n".join('  work(1, "W%d")' % i for i in range(300))
        path = routine(bus.dir, "many.lua", 'return workout { name = "Many", countdown = 0,\n%s }\n' % steps)
        arguments = [workout, "run", path, "--json", "--speed", "10"] + QUIET
        for n in range(1, sensors + 1):
            arguments += ["--sensor", "C0:FF:EE:00:00:0%d" % n]
        if not sensors:
            arguments.append("--no-sensors")
        process = subprocess.Popen(arguments, env=bus.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        lines = json_lines(process)
        samples = sum(1 for _, event in lines if event["event"] == "sample")
        if sensors and samples == 0:
            raise SystemExit("no samples with sensors")
        return [event["late_ms"] for _, event in lines if event["event"] == "segment_start" and "late_ms" in event]
    finally:
        bus.close()


def recording_cost(workout, record):
    """CPU seconds and voluntary context switches (wake-ups) of a run with 3 sensors at
    4 Hz: 60 one-second segments at --speed 10 (6 s), its samples kept in the session's
    activity file (`record`) or not (`--no-history`, which keeps neither)."""
    devices = [strap("C0:FF:EE:00:00:0%d" % n, 0.25, ["1648", "1696"]) for n in range(1, 4)]
    bus = Bus(devices)
    try:
        steps = ",\n".join('  work(1, "W%d")' % i for i in range(60))
        path = routine(bus.dir, "sixty.lua", 'return workout { name = "Sixty", countdown = 0,\n%s }\n' % steps)
        quiet = [flag for flag in QUIET if flag != "--no-history"] + ([] if record else ["--no-history"])
        arguments = [workout, "run", path, "--json", "--speed", "10"] + quiet
        for n in range(1, 4):
            arguments += ["--sensor", "C0:FF:EE:00:00:0%d" % n]
        process = subprocess.Popen(arguments, env=bus.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(process.pid, 0)
        process.returncode = 0
        kept = os.path.isdir(os.path.join(bus.dir, "data", "workout", "activities"))
        if record and not kept:
            raise SystemExit("no activity file was kept")
        return usage.ru_utime + usage.ru_stime, usage.ru_nvcsw
    finally:
        bus.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workout", default=os.path.join(ROOT, ".build", "release", "workout"))
    workout = os.path.abspath(parser.parse_args().workout)
    display = display_latency(workout)
    page = page_latency(workout)
    erg = erg_lateness(workout)
    none, three = [], []
    recorded, unrecorded = [], []
    for _ in range(3):
        none += timer_lateness(workout, 0)
        three += timer_lateness(workout, 3)
        recorded.append(recording_cost(workout, True))
        unrecorded.append(recording_cost(workout, False))
    cost = lambda runs, i: statistics.median(run[i] for run in runs)
    rows = [
        ("notification → display, p50 / p99", "%.2f / %.2f ms (%d)" % (percentile(display, 50), percentile(display, 99), len(display)), "—"),
        ("notification → page, p50 / p99", "%.2f / %.2f ms (%d)" % (percentile(page, 50), percentile(page, 99), len(page)), "—"),
        ("ERG target written vs the boundary, p50 / p99", "%.2f / %.2f ms (%d)" % (percentile(erg, 50), percentile(erg, 99), len(erg)), "p99 ≤ 50 ms"),
        ("timer `late_ms` p99, no sensors", "%.3f ms (%d)" % (percentile(none, 99), len(none)), "—"),
        ("timer `late_ms` p99, 3 sensors at 4 Hz", "%.3f ms (%d)" % (percentile(three, 99), len(three)), "within 0.1 ms of none"),
        ("a 6 s run with 3 sensors, samples kept: CPU / wake-ups (median of 3)",
         "%.3f s / %d" % (cost(recorded, 0), cost(recorded, 1)), "—"),
        ("the same, samples not kept (`--no-history`): CPU / wake-ups",
         "%.3f s / %d" % (cost(unrecorded, 0), cost(unrecorded, 1)), "—"),
    ]
    print("| figure | workout (fires) | target |")
    print("|---|---:|---|")
    for row in rows:
        print("| %s | %s | %s |" % row)
    print("\nmedian late_ms: none %.3f, 3 sensors %.3f" % (statistics.median(none), statistics.median(three)))


if __name__ == "__main__":
    main()
