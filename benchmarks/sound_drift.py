"""Sound drift over a long run on both servers: a pip at every second for N minutes (10 by
default), each pip's onset against its planned moment, beside the rate the sink showed.

    /usr/bin/python3 benchmarks/bench.py --only drift [--minutes N]

Not part of the full run (ten minutes on each server is too long for it): `--only drift`
runs it alone and rewrites its own table in BENCHMARKS.md, between markers of its own
(report.DRIFT_BEGIN and DRIFT_END), leaving the full run's tables as they are. The servers,
the recording, its clock and the onsets are sound.py's.
"""

from figures import Figure, Target, at_most, fmt, percentile, reference
from processes import BenchError
from report import header, met_text, value_text
from sound import RATE, SoundServer, recorded_run

# PulseAudio, then the private PipeWire as the tests start it: no quantum forced.
KINDS = (("pulseaudio", "PulseAudio"), ("pipewire", "PipeWire, default quantum"))
PIP_HZ = 1000
# A pip's onset belongs to the plan nearest it within this (pips are a second apart).
WITHIN_S = 0.3
# Issue: every pip within 5 ms of its second, no step over 1 ms between neighbours.
ERROR_LIMIT_MS, STEP_LIMIT_MS = 5, 1
GROUP = "sound_drift"


def bench_sound_drift(context, progress, minutes):
    figures = []
    for kind, _ in KINDS:
        # quantum=None: PipeWire's graph as the private server starts it, as in the tests.
        with SoundServer(context.scratch, kind, quantum=None) as server:
            env = {**context.env, **server.env}
            progress(f"sound drift: {kind}, {minutes:g} min of pips at every second")
            figures += drift_figures(kind, drift_run(context, server, env, minutes))
    return figures


def drift_routine(context, minutes):
    """A pip (1 kHz) at every second: work and rest of 1 s each, both starting with `pip`."""
    path = context.scratch / "sound-drift.lua"
    path.write_text(f'return workout {{ name = "Drift", countdown = 0, sounds = {{ work = "pip", rest = "pip" }}, '
                    f'rounds({round(minutes * 30)}, {{ work(1, "w"), rest(1, "r") }}) }}\n')
    return path


def drift_run(context, server, env, minutes):
    """One recorded run: (planned `at`, error in ms) of each pip heard, how many were planned,
    the recording's ppm and workout's closing `sound` line."""
    argv = context.run_argv(drift_routine(context, minutes), "--json", "--music", "off")
    run = recorded_run(server, argv, env, minutes * 60)
    # The pip at 0 starts the workout, with no time to plan it ahead: not counted.
    planned = [event["at"] for event in run.events if event["event"] == "alert" and event.get("type") == "sound"
               and event.get("text") == "pip" and event["at"] >= 0.5]
    heard = [moment for moment, hz in run.heard if abs(hz - PIP_HZ) < 100]
    lines = [event for event in run.events if event["event"] == "sound"]
    if not lines:
        raise BenchError("sound drift: the run printed no `sound` line (did it reach the server?)")
    return {"errors": pip_errors([(at, run.origin + at) for at in planned], heard), "planned": len(planned),
            "seconds": minutes * 60, "ppm": run.ppm, "sound": lines[-1]}


def pip_errors(plans, heard):
    """(at, ms) for each plan (at, monotonic moment) with an onset within WITHIN_S: the onset
    nearest it minus the moment, in the plans' order. A plan with none is a pip lost."""
    errors = []
    for at, moment in plans:
        nearest = min(heard, key=lambda onset: abs(onset - moment), default=None)
        if nearest is not None and abs(nearest - moment) < WITHIN_S:
            errors.append((at, (nearest - moment) * 1000))
    return errors


def less_median(errors):
    """The errors less their median: the fixed delays (the pipe to the harness, the monitor,
    the reader) are the same for every pip and not known to the millisecond; what moves is
    the error."""
    middle = percentile([ms for _, ms in errors], 50)
    return [(at, ms - middle) for at, ms in errors]


def largest_step(errors):
    """The largest change of error between neighbouring pips heard (ms, absolute): a sound
    placed by a clock that stepped instead of slewing shows here, however small its spread."""
    values = [ms for _, ms in errors]
    return max((abs(b - a) for a, b in zip(values, values[1:])), default=0.0)


def minute_drift(errors, seconds):
    """The median error of the last minute (planned at or after `seconds` − 60) minus the
    first minute's (before 60 s): how far the pips moved over the run, free of the spread
    within each minute. A run of one minute compares that minute with itself (0)."""
    first = [ms for at, ms in errors if at < 60]
    last = [ms for at, ms in errors if at >= seconds - 60]
    if not first or not last:
        raise BenchError(f"sound drift: no pip heard in the first or the last minute ({len(first)}, {len(last)})")
    return percentile(last, 50) - percentile(first, 50)


def drift_figures(kind, run):
    errors = run["errors"]
    if not errors:
        raise BenchError(f"sound drift ({kind}): none of the {run['planned']} pips was heard")
    errors = less_median(errors)
    spread = [abs(ms) for _, ms in errors]
    sound = run["sound"]
    planned = run["planned"]
    name = f"{GROUP}.{kind}"

    def figure(suffix, label, value, unit, target=None):
        return Figure(f"{name}.{suffix}", GROUP, label, value, unit, target)

    figures = [figure("planned", "pips planned", planned, ""),
               figure("heard", "pips heard", len(errors), "", Target("all planned", lambda v: v >= planned))]
    for stat, p in (("p50", 50), ("p99", 99), ("max", 100)):
        figures.append(figure(f"error_ms.{stat}", f"error from the median {stat} (absolute)", percentile(spread, p),
                              "ms", at_most(ERROR_LIMIT_MS, f"≤ {ERROR_LIMIT_MS} ms") if stat == "max" else None))
    return figures + [
        figure("step_ms", "largest step between neighbouring pips' errors", largest_step(errors), "ms",
               at_most(STEP_LIMIT_MS, f"≤ {STEP_LIMIT_MS} ms")),
        figure("drift_ms", "drift: the last minute's median error − the first minute's",
               minute_drift(errors, run["seconds"]), "ms", reference("0 when nothing moves")),
        figure("recording_ppm", f"the recording's rate: samples beyond {RATE:,} per second (harness)", run["ppm"],
               "ppm"),
        figure("rate_ppm", "the sink's rate as workout measured it (`rate_ppm`)", sound.get("rate_ppm"), "ppm"),
        figure("largest_correction_ms", "the largest correction (`largest_correction_ms`)",
               sound.get("largest_correction_ms"), "ms"),
        figure("underruns", "underruns (`underruns`)", sound.get("underruns"), ""),
        figure("clock_restarts", "the stream clock's restarts (`clock_restarts`)", sound.get("clock_restarts"), ""),
    ]


def table(figures):
    """The figures as one row per measure and a column per server, with its target and
    whether each server met it (— where nothing is judged)."""
    by_kind = {kind: {f.name.split(".", 2)[2]: f for f in figures if f.name.startswith(f"{GROUP}.{kind}.")}
               for kind, _ in KINDS}
    kinds = [(kind, title) for kind, title in KINDS if by_kind[kind]]
    lines = ["| figure | target | " + " | ".join(f"{title} | met?" for _, title in kinds) + " |",
             "|---|---|" + "---:|:---:|" * len(kinds)]
    suffixes = list(dict.fromkeys(suffix for kind, _ in kinds for suffix in by_kind[kind]))
    for suffix in suffixes:
        present = [by_kind[kind].get(suffix) for kind, _ in kinds]
        first = next(f for f in present if f is not None)
        cells = [first.label, "—" if first.target is None else first.target.text]
        for f in present:
            cells += ["—", "—"] if f is None else [value_text(f.value, f.unit), met_text(f.met)]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)


def markdown(figures, info, minutes):
    """What goes between the drift markers of BENCHMARKS.md: the run's conditions, the
    method and the table."""
    return f"### Results\n\n{header(info, termdown=False)}\n\n{method(minutes)}\n\n{table(figures)}\n"


def method(minutes):
    count = round(minutes * 30)
    return (f"Each server started by the harness as in *Sound on PulseAudio and PipeWire*, one after the other: a "
            "private `pulseaudio -n`, then PipeWire (`pipewire`, `wireplumber`, `pipewire-pulse` on a private session "
            "bus) with its graph's quantum left as it starts, as the tests' private PipeWire runs (none forced); a "
            "silent `pacat` and `parec` recording `null.monitor`. "
            f"`return workout {{ name = \"Drift\", countdown = 0, sounds = {{ work = \"pip\", rest = \"pip\" }}, "
            f"rounds({count}, {{ work(1, \"w\"), rest(1, \"r\") }}) }}` with `run --json --no-history --no-notify "
            f"--music off`: a 1 kHz `pip` at every second for {fmt(minutes)} min; the pip at 0 starts the workout "
            "and is not counted. A planned pip is an `alert` event of `type` \"sound\", `text` \"pip\"; its moment "
            "is the workout's origin on the harness's monotonic clock (arrival − `t` of workout_start) + its `at`. "
            "Its onset (the signal above 1,000 after 60 ms of silence, at about 1 kHz, the nearest within "
            f"{WITHIN_S * 1000:g} ms) is placed on the same clock by the recording's own clock (a line through the "
            "lowest arrival − samples/48,000 of each second, fitted over the run). A pip's error is its onset minus "
            "its moment, less the median of all (the fixed delays of the pipe, the monitor and the reader); the "
            "spread is its absolute value, a step the change between neighbouring pips heard, the drift the last "
            "minute's median error minus the first minute's. *The recording's rate* is that line's slope; the "
            "four rows after it are workout's own `sound` line, the last of its `--json` (docs/events.md): the "
            "sink's rate as the stream's clock followed it, the furthest the placing line slewed, and how often "
            "the stream ran dry or its clock restarted. Targets (the issue): every pip within 5 ms of its second, "
            "no step over 1 ms.")
