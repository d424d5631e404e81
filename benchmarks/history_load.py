#!/usr/bin/env python3
"""Load time of `couch-to-5k` against histories of 0, 1,000 and 100,000 sessions.

Writes the history files (half of them another routine's, as a real history is), then
counts the instructions of `workout check couch-to-5k --history-file F` with callgrind
(repeatable whatever the machine's load) and times it with hyperfine. The routine reads
only its last session (`h.last()`), which is read from the end of the file.

    python3 benchmarks/history_load.py .build/release/workout
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def session(i, name):
    week, day = 1 + (i // 3) % 9, 1 + i % 3
    return json.dumps({"program": name, "file": "/x/couch-to-5k.lua", "sha256": "",
                       "started": "2026-01-01T07:00:00+00:00", "ended": "2026-01-01T07:30:00+00:00",
                       "completed": True, "elapsed": 1800, "segments_done": 17, "segments": 17,
                       "work_seconds": 480, "speed": 1, "scores": {}, "active": 1800,
                       "params": {"week": week, "day": day, "warmup": 300}}, separators=(",", ":"))


def instructions(workout, arguments):
    with tempfile.NamedTemporaryFile() as out:
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}", workout] + arguments,
                             capture_output=True, text=True, check=True)
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1))


def main():
    workout = sys.argv[1]
    directory = tempfile.mkdtemp()
    rows = [("none (`--no-history`)", ["--no-history"])]
    for count in (0, 1000, 100000):
        path = os.path.join(directory, f"h{count}.jsonl")
        with open(path, "w") as f:
            for i in range(count):
                f.write(session(i, "Couch to 5K" if i % 2 == 0 else "Tabata") + "\n")
        rows.append((f"{count:,} sessions ({os.path.getsize(path):,} bytes)", ["--history-file", path]))
    base = None
    print("| history | instructions | × empty history |")
    print("|---|---:|---:|")
    for name, extra in rows:
        count = instructions(workout, ["check", "couch-to-5k"] + extra)
        if name.startswith("0 "):
            base = count
        ratio = f"{count / base:.2f}" if base else "—"
        print(f"| {name} | {count / 1e6:.2f} M | {ratio} |")


if __name__ == "__main__":
    main()
