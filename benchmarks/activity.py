"""The activity files' rows: `history export --format fit|tcx` of a generated one-hour
session with heart rate, power and cadence every second (its history line and sample file
as a run with sensors writes them): the wall time of the whole command, and the file's size."""

import datetime
import json

from figures import Figure, below, percentile
from processes import measure

# The one-hour session: a 10-minute warm-up, 10 × (3 min hard, 2 min easy), a 10-minute
# cool-down: 22 laps, 3,600 seconds of samples.
SEGMENTS = [("Warm up", "warmup", 600)] + [("Hard", "work", 180), ("Easy", "rest", 120)] * 10 + \
    [("Cool down", "cooldown", 600)]


def session(directory):
    """Writes the history and the sample file under `directory` (an XDG_DATA_HOME)."""
    workout = directory / "workout"
    (workout / "activities").mkdir(parents=True, exist_ok=True)
    start = datetime.datetime(2026, 11, 21, 7, tzinfo=datetime.timezone.utc)
    laps, t = [], 0
    for index, (name, kind, seconds) in enumerate(SEGMENTS, start=1):
        laps.append({"index": index, "name": name, "kind": kind, "start": t, "elapsed": seconds, "timer": seconds})
        t += seconds
    line = {"program": "Over-unders", "file": "/home/u/.config/workout/programs/ou.lua", "sha256": "0" * 64,
            "started": start.isoformat(), "ended": (start + datetime.timedelta(seconds=t)).isoformat(),
            "completed": True, "elapsed": t, "segments_done": len(SEGMENTS), "segments": len(SEGMENTS),
            "work_seconds": 1800, "speed": 1, "scores": {}, "active": t, "laps": laps,
            "activity": "2026-11-21T07-00-00.csv"}
    (workout / "history.jsonl").write_text(json.dumps(line, separators=(",", ":")) + "\n")
    epoch = start.timestamp()
    with (workout / "activities" / "2026-11-21T07-00-00.csv").open("w") as out:
        out.write("t,time,segment,hr,power,cadence,speed\n")
        segment, ends = 0, 0
        for second in range(t):
            while second >= ends:
                ends += SEGMENTS[segment][2]
                segment += 1
            hard = SEGMENTS[segment - 1][1] == "work"
            out.write(f"{second},{epoch + second + 0.5:.3f},{segment},{120 + second % 50},"
                      f"{(280 if hard else 150) + second % 17},{85 + second % 11},\n")


def bench_activity(context, runs, progress):
    data = context.scratch / "activity-data"
    session(data)
    env = dict(context.env, XDG_DATA_HOME=str(data), TZ="UTC")
    progress(f"activity: history export of a one-hour session with samples as FIT and TCX, ×{runs}")
    figures, group = [], "activity"
    for form, target in (("fit", below(50, "ms")), ("tcx", None)):
        output = context.scratch / f"session.{form}"
        argv = [str(context.workout), "history", "export", "last", "--format", form, "-o", str(output)]
        wall = percentile([measure(argv, env, timeout=60).wall_s for _ in range(runs)], 50)
        figures.append(Figure(f"activity.export_{form}_ms", group,
                              f"`history export last --format {form}` wall time (median)", wall * 1000, "ms", target))
        figures.append(Figure(f"activity.{form}_kb", group, f"the {form.upper()} file's size",
                              output.stat().st_size / 1000, "kB", below(100, "kB") if form == "fit" else None))
    return figures


def method(runs):
    return ("A generated session of one hour as a run with sensors leaves it: a history line with 22 laps (a "
            "10-minute warm-up, 10 × 3 min hard and 2 min easy, a 10-minute cool-down) and its sample file of 3,600 "
            "seconds with heart rate, power and cadence. `history export last --format fit` (and `tcx`) `-o` a "
            f"file: wall time of the whole command from spawn to reap (start-up included), median of {runs} runs; "
            "the file's size in kB (1,000 bytes). Targets: under 50 ms and under 100 kB for FIT.")
