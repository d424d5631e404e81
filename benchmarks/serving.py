"""The benchmarks of `run --serve` (issue 15): what viewers cost the timers, what serving
costs in CPU and memory, and how soon a page in Chromium shows a boundary.

Viewers are the page's event stream (`GET /events`) read by threads of this harness over
loopback sockets; the page is the real one, in headless Chromium driven by Selenium
(Debian's chromium, chromium-driver and python3-selenium).
"""

import json
import socket
import subprocess
import tempfile
import threading
import time
from urllib.parse import parse_qs, urlsplit

from figures import Figure, at_least, below, percentile, reference
from processes import BenchError, check_status, signal_after, under_rusage, usage_written

VIEWERS = 20


def waiting_routine(directory, name, wait, count, duration):
    """A first segment of `wait` seconds (for viewers to arrive), then `count` segments."""
    path = directory / f"{name}.lua"
    path.write_text(f"""local steps = {{ work({wait}, "Wait") }}
for i = 1, {count} do steps[#steps + 1] = work({duration}, "w" .. i, {{ i = i }}) end
return workout {{ name = "{name}", countdown = 0, rounds(1, steps) }}
""")
    return path


def address(url):
    parts = urlsplit(url)
    return parts.port, parse_qs(parts.query)["token"][0]


class Viewer(threading.Thread):
    """One viewer of the event stream, read to its end."""

    def __init__(self, port, token):
        super().__init__(daemon=True)
        self.connection = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.connection.sendall(f"GET /events?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        self.received = bytearray()

    def run(self):
        try:
            while chunk := self.connection.recv(65536):
                self.received += chunk
        except OSError:
            pass
        finally:
            self.connection.close()

    @property
    def saw_the_end(self):
        return b'"event":"workout_end"' in self.received


def serving_run(context, routine, speed, viewers):
    """`run --json --serve` under rusage with `viewers` readers from the `serve` line on:
    the events after it, and the usage."""
    argv = context.run_argv(routine, "--json", "--no-bell", "--speed", f"{speed:g}", "--serve", "127.0.0.1:0")
    readers = []
    with tempfile.TemporaryFile() as errors, \
            under_rusage(argv, context.env, subprocess.PIPE, errors) as (process, out):
        events = []
        with signal_after(process, 600, 9):
            for line in iter(process.stdout.readline, b""):
                event = json.loads(line)
                if event["event"] == "serve":
                    port, token = address(event["url"])
                    readers = [Viewer(port, token) for _ in range(viewers)]
                    for reader in readers:
                        reader.start()
                    continue
                events.append(event)
            process.stdout.close()
            usage = usage_written(process, out, argv, errors)
        check_status(argv, usage.status, (0,), errors)
    for reader in readers:
        reader.join(30)
    return events, usage, readers


def plain_run(context, routine, speed):
    """The same routine with `--json` and no server, for comparison."""
    argv = context.run_argv(routine, "--json", "--no-bell", "--speed", f"{speed:g}")
    with tempfile.TemporaryFile() as errors, \
            under_rusage(argv, context.env, subprocess.PIPE, errors) as (process, out):
        with signal_after(process, 600, 9):
            events = [json.loads(line) for line in iter(process.stdout.readline, b"")]
            process.stdout.close()
            usage = usage_written(process, out, argv, errors)
        check_status(argv, usage.status, (0,), errors)
    return events, usage


def late_ms(events):
    """`late_ms` of the fires after the waiting segment (the viewers are in by then)."""
    return [event["late_ms"] for event in events
            if event["event"] == "segment_start" and "late_ms" in event and event["index"] > 2]


def bench_viewers(context, progress):
    """Timer lateness with 20 viewers and with no server; CPU and peak RSS of serving."""
    sizes = context.sizes
    routine = waiting_routine(context.scratch, "viewers", sizes.serve_speed, sizes.serve_segments, 1)
    progress(f"serving: {sizes.serve_segments} segments at --speed {sizes.serve_speed:g}, no server")
    plain_events, plain_usage = plain_run(context, routine, sizes.serve_speed)
    progress(f"serving: the same with --serve and {VIEWERS} viewers")
    events, usage, readers = serving_run(context, routine, sizes.serve_speed, VIEWERS)
    none, viewed = late_ms(plain_events), late_ms(events)
    if not none or not viewed:
        raise BenchError("the serving runs had no timer fires")
    group = "serving"
    return [
        Figure("serving.late_ms.none.p99", group, "no server: `late_ms` p99", percentile(none, 99), "ms",
               below(1, "ms")),
        Figure("serving.late_ms.viewers.p99", group, f"{VIEWERS} viewers: `late_ms` p99", percentile(viewed, 99),
               "ms", below(1, "ms")),
        Figure("serving.late_ms.viewers.max", group, f"{VIEWERS} viewers: `late_ms` max", max(viewed), "ms",
               reference(f"(no server: {max(none):.3g} ms)")),
        Figure("serving.viewers_to_the_end", group, "viewers that got every event to workout_end",
               sum(reader.saw_the_end for reader in readers), "", at_least(VIEWERS)),
        Figure("serving.cpu_s", group, f"CPU, whole process, {VIEWERS} viewers", usage.cpu_s, "s",
               reference(f"(no server: {plain_usage.cpu_s:.3g} s)")),
        Figure("serving.rss_mib", group, f"peak RSS, {VIEWERS} viewers", usage.rss_mib, "MiB",
               below(32, "MiB")),
    ]


class EventReader(threading.Thread):
    """A workout's `--json` lines, each stamped with the wall clock as it arrives (the
    browser's clock is the wall clock too)."""

    def __init__(self, process):
        super().__init__(daemon=True)
        self.process = process
        self.lines = []
        self.served = threading.Event()
        self.url = None

    def run(self):
        for line in iter(self.process.stdout.readline, b""):
            event = json.loads(line)
            if event["event"] == "serve":
                self.url = event["url"]
                self.served.set()
            else:
                self.lines.append((time.time(), event))


def browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as error:
        raise BenchError(f"python3-selenium is missing ({error}): make test-deps installs it") from error
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=390,844"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def bench_page(context, progress):
    """From a boundary to the page in Chromium showing it: the page notes the moment each new
    segment reaches the screen (the animation frame after its update); the boundary is its
    `segment_start`'s `at` on the wall clock, the origin being the earliest arrival − t/speed."""
    sizes = context.sizes
    speed = 2
    routine = waiting_routine(context.scratch, "page", 20, sizes.page_boundaries, 1)
    argv = context.run_argv(routine, "--json", "--no-bell", "--speed", f"{speed:g}", "--serve", "127.0.0.1:0")
    progress(f"serving: {sizes.page_boundaries} boundaries shown by Chromium")
    process = subprocess.Popen(argv, env=context.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    reader = EventReader(process)
    reader.start()
    driver = None
    try:
        if not reader.served.wait(30):
            raise BenchError("the page benchmark's workout never said where it serves")
        driver = browser()
        driver.get(reader.url)
        process.wait(timeout=60 + sizes.page_boundaries / speed)
        reader.join(10)
        shown = driver.execute_script("return window.workoutShown")
    finally:
        if driver is not None:
            driver.quit()
        if process.poll() is None:
            process.kill()
            process.wait()
    origin = min(arrival - event["t"] / speed for arrival, event in reader.lines)
    starts = {event["index"]: event for _, event in reader.lines if event["event"] == "segment_start"}
    # The first entry is whatever was on when the page opened: not a boundary it saw.
    delays = [(entry["painted"] / 1000 - (origin + starts[entry["index"]]["at"] / speed)) * 1000
              for entry in shown[1:] if entry.get("painted") and entry["index"] in starts
              and "at" in starts[entry["index"]]]
    if not delays:
        raise BenchError(f"the page showed no boundary: {shown}")
    group = "serving"
    return [
        Figure("serving.page.boundaries", group, "boundaries the page showed", len(delays), "",
               at_least(sizes.page_boundaries)),
        Figure("serving.page.p50_ms", group, "boundary → page shows it, p50", percentile(delays, 50), "ms"),
        Figure("serving.page.p99_ms", group, "boundary → page shows it, p99", percentile(delays, 99), "ms",
               below(20, "ms")),
    ]


def method(sizes):
    return (f"Viewers: a routine of a {sizes.serve_speed:g} s segment (for the viewers to connect) and "
            f"{sizes.serve_segments:,} segments of 1 s with a small `info`, `run --json --no-bell --speed "
            f"{sizes.serve_speed:g}`, once without a server and once with `--serve 127.0.0.1:0` and {VIEWERS} "
            "viewers: threads of the harness that each read `GET /events` over a loopback socket from the "
            "`serve` line on. `late_ms` of the fires after the first; CPU and peak RSS from `wait4` "
            "(rusage.c). Page: the real page in headless Chromium (Selenium, 390×844), following a routine "
            f"of {sizes.page_boundaries} segments of 1 s at --speed 2 after a 20 s one; the page notes, in the "
            "animation frame after it updated, when each new segment reached the screen "
            "(`performance.timeOrigin + performance.now()`); the boundary is its `segment_start`'s `at` on "
            "the wall clock (origin: the earliest arrival − t/speed of the JSON lines). The delay includes "
            "the timer's own lateness, the boundary's work, the feed, the socket and Chromium's update.")
