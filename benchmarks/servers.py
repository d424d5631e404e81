"""Sound on the servers desktops run (issue 36): a long run of sounds on PulseAudio and on
PipeWire (pipewire-pulse), each beside `paplay` spawned at planned moments in the same
recording, and a hook's sound beside the planned ones of the same run.

bench.py runs it as one of its groups (`bench_servers`); `bench.py --only servers` runs it
alone. The servers, the recording and the onsets are sound.py's.
"""

import os

from figures import Figure, at_least, below, percentile, reference
from processes import BenchError
from sound import PaplayTimer, SoundServer, recorded_run, tone_file

# BENCH_SERVERS=pipewire (or pulseaudio) measures one server alone; BENCH_SERVERS_RUNS=hooks
# (or long) one of the two runs.
KINDS = tuple(os.environ.get("BENCH_SERVERS", "pulseaudio pipewire").split())
RUNS = tuple(os.environ.get("BENCH_SERVERS_RUNS", "long hooks").split())
PIP_HZ, HOOK_HZ, PAPLAY_HZ = 1000, 523, 2000


def bench_servers(context, progress):
    figures = []
    tone = tone_file(context.scratch / "servers-tone.wav", hz=PAPLAY_HZ)
    for kind in KINDS:
        with SoundServer(context.scratch, kind) as server:
            env = {**context.env, **server.env}
            server.spawn(["paplay", str(tone)]).wait(30)  # the server's first stream, unmeasured
            seconds = context.sizes.long_sound_seconds
            if "long" in RUNS:
                progress(f"servers: {kind}, {seconds} s of pips at every second, paplay half-way between every other")
                figures += long_figures(kind, long_run(context, server, env, tone, seconds), seconds)
            count = context.sizes.hook_sounds
            if "hooks" in RUNS:
                progress(f"servers: {kind}, {count} hooks' sounds between planned pips")
                figures += hook_figures(kind, hook_run(context, server, env, count), count)
    return figures


def write(context, name, source):
    path = context.scratch / f"{name}.lua"
    path.write_text(source)
    return path


def argv(context, routine):
    """`run --json`, no music lowered (the harness's own players would be)."""
    return context.run_argv(routine, "--json", "--music", "off")


def sounds(events, name):
    return [event["at"] for event in events if event["event"] == "alert" and event.get("type") == "sound"
            and event.get("text") == name and event["at"] >= 0.5]


def nearest_offsets(plans, heard, hz, tolerance):
    """ms from each plan (monotonic) to the onset of pitch `hz` nearest it, within 0.3 s."""
    found = []
    candidates = [moment for moment, pitch in heard if abs(pitch - hz) < tolerance]
    for plan in plans:
        nearest = min(candidates, key=lambda moment: abs(moment - plan), default=None)
        if nearest is not None and abs(nearest - plan) < 0.3:
            found.append((nearest - plan) * 1000)
    return found


def long_run(context, server, env, tone, seconds):
    routine = write(context, "servers-long",
                    f'return workout {{ name = "long", countdown = 0, sounds = {{ work = "pip", rest = "pip" }}, '
                    f'rounds({seconds // 2}, {{ work(1, "w"), rest(1, "r") }}) }}\n')
    start = lambda origin: PaplayTimer(server, tone, [origin + k + 0.5 for k in range(1, seconds - 1, 2)])
    run = recorded_run(server, argv(context, routine), env, seconds, start)
    plans = [run.origin + at for at in sounds(run.events, "pip")]
    return {"ours": nearest_offsets(plans, run.heard, PIP_HZ, 100), "planned": len(plans),
            "paplay": nearest_offsets(run.extra.moments, run.heard, PAPLAY_HZ, 200), "spawned": len(run.extra.moments)}


def long_figures(kind, run, seconds):
    ours, theirs = run["ours"], run["paplay"]
    if not ours or not theirs:
        raise BenchError(f"servers ({kind}): no onsets matched the plan ({len(ours)} of workout's, "
                         f"{len(theirs)} of paplay's)")
    group = "servers"
    middle = percentile(ours, 50)
    spread = [abs(offset - middle) for offset in ours]
    figures = [Figure(f"servers.{kind}.heard", group, f"{kind}, {seconds} s: workout's pips heard of {run['planned']}",
                      len(ours), "", at_least(run["planned"]))]
    figures += spread_figures(f"servers.{kind}.onset_ms", f"{kind}, {seconds} s: workout, onset from the plan", spread)
    tail = ours[len(ours) * 9 // 10:] or ours
    figures.append(Figure(f"servers.{kind}.last_tenth_ms", group,
                          f"{kind}, {seconds} s: workout, median onset of the last tenth from the whole run's",
                          percentile(tail, 50) - middle, "ms", reference("(drift: 0 when nothing moves)")))
    late = [offset - middle for offset in theirs]
    figures.append(Figure(f"servers.{kind}.paplay_heard", group, f"{kind}, {seconds} s: paplay's tones heard of "
                          f"{run['spawned']}", len(theirs), "", reference("(paplay, for comparison)")))
    for stat, p in (("p50", 50), ("p99", 99)):
        figures.append(Figure(f"servers.{kind}.paplay_ms.{stat}", group,
                              f"{kind}, {seconds} s: paplay, onset from the plan {stat}", percentile(late, p), "ms",
                              reference("(compare workout's row)")))
    return figures


def hook_run(context, server, env, count):
    routine = write(context, "servers-hooks",
                    f'return workout {{ name = "hooks", countdown = 0, sounds = {{ work = "pip" }}, '
                    f'rounds({count}, {{ segment {{ kind = "work", duration = 1, '
                    f'cues = {{ [0.5] = function() sound("pause") end }} }} }}) }}\n')
    run = recorded_run(server, argv(context, routine), env, count)
    planned = [run.origin + at for at in sounds(run.events, "pip")]
    hooks = [run.origin + at for at in sounds(run.events, "pause")]
    return {"ours": nearest_offsets(planned, run.heard, PIP_HZ, 100),
            "hooks": nearest_offsets(hooks, run.heard, HOOK_HZ, 50), "count": len(hooks)}


def hook_figures(kind, run, count):
    ours, hooks = run["ours"], run["hooks"]
    if not ours or not hooks:
        raise BenchError(f"servers ({kind}): hooks' run matched {len(ours)} planned and {len(hooks)} hooks' sounds")
    group = "servers"
    middle = percentile(ours, 50)
    spread = [abs(offset - middle) for offset in hooks]
    figures = [Figure(f"servers.{kind}.hooks_heard", group, f"{kind}: hooks' sounds heard of {run['count']}",
                      len(hooks), "", at_least(run["count"]))]
    return figures + spread_figures(f"servers.{kind}.hook_ms", f"{kind}: a hook's sound from the planned sounds' landing",
                                    spread)


def spread_figures(name, label, spread):
    """p50, p99 (judged: ≤ 5 ms, issue 36) and max of a spread of onsets, in ms."""
    return [Figure(f"{name}.{stat}", "servers", f"{label} {stat}", percentile(spread, p), "ms",
                   below(5, "ms") if stat == "p99" else None)
            for stat, p in (("p50", 50), ("p99", 99), ("max", 100))]


def method(sizes):
    return (f"Each server started by the harness: a private `pulseaudio -n`, and PipeWire 0.3 (`pipewire`, "
            "`wireplumber`, `pipewire-pulse` on a private session bus in a private runtime directory, the null sink "
            "loaded with `pactl load-module module-null-sink`, the graph's quantum set to a desktop's default of 1024 "
            "frames with `pw-metadata -n settings 0 clock.force-quantum 1024`), each with a silent `pacat` and `parec` recording "
            f"`null.monitor` as in *Sound*. Long run: {sizes.long_sound_seconds} one-second segments, a 1 kHz `pip` "
            "at each boundary, and `paplay` of a 2 kHz tone spawned half-way through every other second; onsets as "
            "distance from workout's median landing (the recording's delay is unknown), paplay's on the same footing. "
            f"Hooks: {sizes.hook_sounds} one-second segments, a pip planned at each boundary and a cue at 0.5 s whose "
            "function calls `sound(\"pause\")` (523 Hz), run 40 ms ahead of its moment; its onsets measured from the "
            "planned pips' median landing. Target (issue 36): p99 ≤ 5 ms for both, on both servers.")
