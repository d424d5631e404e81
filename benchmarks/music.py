#!/usr/bin/python3
"""Music under the cues (`run --music`): how long before a planned cue the music player's
volume is lowered, and how long after the cue it is back, as a listener on the bus sees
the player announce it.

    /usr/bin/python3 benchmarks/music.py [--workout PATH] [--cues N] [--mode duck|pause]
    /usr/bin/python3 benchmarks/music.py --stream pipewire|pulseaudio [--workout PATH] [--cues N]

A private `dbus-daemon --session`, Debian's `mpv` with `mpv-mpris` looping a tone sox
makes (to `--ao=null`), and `playerctl --follow volume` (or `status`) whose lines are
timestamped on this process's monotonic clock as they arrive. The workout runs one segment
with a text cue every 3 s (`--voice --no-sound`: a fake spd-say says them, so nothing
waits for audio); its `--json` lines give each cue's planned moment (`at`) on the same
clock, through the origin bench.py uses (the smallest arrival − `t` over all lines).
*Lowered ahead* is the cue's moment − the lowering's arrival; *back after* is the
restoring's arrival − (the moment + the words' estimated speaking time, 1 s for a short
word). By design they are 400 ms and 300 ms (MusicUnderCues.lead and .tail); the rest is
the timer's lateness, the bus calls (ListNames, GetAll, Set) and mpv-mpris's signal.

With `--stream SERVER` the music is a stream on a private sound server (sound.py's: PipeWire
through pipewire-pulse, or PulseAudio), mpv without its MPRIS script, as a browser tab is;
`pactl subscribe` announces each change of its sink input, timestamped as it arrives, and
each change is read back (`pactl list sink-inputs`) to tell a lowering from a restoring.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from figures import percentile
from sound import SoundServer

CUE_EVERY_S = 3
SPEAKING_S = 1.0
VOLUME = 0.9


def program(name):
    path = shutil.which(name)
    if path is None:
        sys.exit(f"music.py: {name} is not installed (make test-deps installs mpv, mpv-mpris, playerctl, sox, dbus)")
    return path


class Follower:
    """Lines of a process's standard output, each with its arrival time."""

    def __init__(self, argv, env):
        self.lines = []
        self.process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        for line in self.process.stdout:
            self.lines.append((time.monotonic(), line.strip()))


def tone_file(scratch):
    """Thirty seconds of a quiet 440 Hz tone, for mpv to loop."""
    tone = scratch / "tone.ogg"
    subprocess.run([program("sox"), "-n", "-r", "44100", "-c", "2", str(tone), "synth", "30", "sine", "440",
                    "vol", "0.1"], check=True)
    return tone


def cue_routine(scratch, cues):
    """The routine (one segment, "Go" said every CUE_EVERY_S) and a folder with a silent
    spd-say to put first on PATH: nothing waits for audio."""
    bin_dir = scratch / "bin"
    bin_dir.mkdir()
    (bin_dir / "spd-say").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "spd-say").chmod(0o755)
    said = ", ".join(f'[{CUE_EVERY_S * (n + 1)}] = "Go"' for n in range(cues))
    routine = scratch / "music.lua"
    routine.write_text(f'return workout {{ name = "Music", countdown = 0,\n'
                       f'  sounds = {{ countdown = false, start = false, work = false, rest = false, finish = false }},\n'
                       f'  segment{{ kind = "work", duration = {CUE_EVERY_S * (cues + 1)}, cues = {{ {said} }} }} }}\n')
    return routine, bin_dir


def leads_and_backs(workout_run, lowered, raised):
    """Each cue's moment (from the run's `--json` lines, through the origin bench.py uses),
    and for each the ms the music was lowered ahead of it and back after its words."""
    events = [(arrival, json.loads(line)) for arrival, line in workout_run.lines if line.startswith("{")]
    origin = min(arrival - event["t"] for arrival, event in events if "t" in event)
    moments = [origin + event["at"] for _, event in events
               if event.get("event") == "alert" and event.get("type") == "say" and event.get("text") == "Go"]
    leads, backs = [], []
    for moment in moments:
        before = [t for t in lowered if moment - CUE_EVERY_S / 2 < t <= moment + 0.5]
        after = [t for t in raised if moment < t < moment + CUE_EVERY_S / 2]
        if before:
            leads.append((moment - before[0]) * 1000)
        if after:
            backs.append((after[0] - moment - SPEAKING_S) * 1000)
    return len(moments), leads, backs


def run(workout, cues, mode):
    scratch = Path(tempfile.mkdtemp(prefix="workout-music-bench-"))
    processes = []
    try:
        tone = tone_file(scratch)
        socket = scratch / "bus"
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=f"unix:path={socket}")
        processes.append(subprocess.Popen([program("dbus-daemon"), "--session", "--nofork",
                                           f"--address=unix:path={socket}"], stderr=subprocess.DEVNULL))
        while not socket.exists():
            time.sleep(0.01)
        processes.append(subprocess.Popen([program("mpv"), "--no-config", "--ao=null", "--no-video", "--loop-file=inf",
                                           "--script=/etc/mpv/scripts/mpris.so", f"--volume={VOLUME * 100}",
                                           str(tone)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        playerctl = program("playerctl")
        while subprocess.run([playerctl, "-p", "mpv", "status"], env=env, capture_output=True,
                             text=True).stdout.strip() != "Playing":
            time.sleep(0.05)
        follower = Follower([playerctl, "-p", "mpv", "--follow", "volume" if mode == "duck" else "status"], env)
        processes.append(follower.process)
        routine, bin_dir = cue_routine(scratch, cues)
        run_env = dict(env, PATH=f"{bin_dir}:/usr/bin:/bin", XDG_STATE_HOME=str(scratch / "state"))
        workout_run = Follower([workout, "run", str(routine), "--json", "--no-history", "--no-sound", "--no-notify",
                                "--voice", "--music", mode], run_env)
        workout_run.process.wait()
        workout_run.thread.join()
        low, high = ("0.300000", "0.900000") if mode == "duck" else ("Paused", "Playing")
        lowered = [arrival for arrival, line in follower.lines if line == low]
        raised = [arrival for arrival, line in follower.lines if line == high]
        return leads_and_backs(workout_run, lowered, raised)
    finally:
        for process in reversed(processes):
            process.kill()
            process.wait()
        shutil.rmtree(scratch, ignore_errors=True)


def stream_volume(server, process):
    """The volume (first channel, raw) of `process`'s sink input, or None."""
    text = server.pactl("list", "sink-inputs")
    for block in text.split("Sink Input #")[1:]:
        if f'application.process.id = "{process}"' in block:
            for line in block.splitlines():
                if "Volume:" in line and "front" in line:
                    return int(line.split(":")[2].split("/")[0])
    return None


def run_stream(workout, cues, kind):
    scratch = Path(tempfile.mkdtemp(prefix="workout-music-bench-"))
    processes = []
    try:
        with SoundServer(scratch, kind) as server:
            tone = tone_file(scratch)
            mpv = server.spawn([program("mpv"), "--no-config", "--ao=pulse", "--no-video", "--loop-file=inf",
                                "--load-scripts=no", str(tone)])
            processes.append(mpv)
            while stream_volume(server, mpv.pid) is None:
                time.sleep(0.05)
            full = stream_volume(server, mpv.pid)
            follower = Follower(["pactl", "subscribe"], {**os.environ, **server.env})
            processes.append(follower.process)
            routine, bin_dir = cue_routine(scratch, cues)
            run_env = {"DBUS_SESSION_BUS_ADDRESS": f"unix:path={scratch}/no-bus", **os.environ, **server.env,
                       "PATH": f"{bin_dir}:/usr/bin:/bin", "XDG_STATE_HOME": str(scratch / "state")}
            changes = []  # (arrival, volume) of mpv's stream, read back after each announced change

            def watch():
                seen = 0
                while workout_run.process.poll() is None or seen < len(follower.lines):
                    while seen < len(follower.lines):
                        arrival, line = follower.lines[seen]
                        seen += 1
                        if "'change' on sink-input" in line:
                            changes.append((arrival, stream_volume(server, mpv.pid)))
                    time.sleep(0.002)

            workout_run = Follower([workout, "run", str(routine), "--json", "--no-history", "--no-sound", "--no-notify",
                                    "--voice", "--music", "duck"], run_env)
            watcher = threading.Thread(target=watch, daemon=True)
            watcher.start()
            workout_run.process.wait()
            workout_run.thread.join()
            time.sleep(0.5)
            watcher.join(10)
            lowered = [arrival for arrival, volume in changes if volume is not None and volume < full * 0.9]
            raised = [arrival for arrival, volume in changes if volume == full]
            return leads_and_backs(workout_run, lowered, raised)
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.kill()
            process.wait()
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workout", default=".build/release/workout")
    parser.add_argument("--cues", type=int, default=20)
    parser.add_argument("--mode", choices=["duck", "pause"], default="duck")
    parser.add_argument("--stream", choices=["pipewire", "pulseaudio"],
                        help="the music is a stream without MPRIS on this private sound server")
    arguments = parser.parse_args()
    if arguments.stream:
        count, leads, backs = run_stream(arguments.workout, arguments.cues, arguments.stream)
    else:
        count, leads, backs = run(arguments.workout, arguments.cues, arguments.mode)
    print(f"cues: {count}, lowered before: {len(leads)}, back after: {len(backs)}")
    for name, values in (("lowered ahead of the cue", leads), ("back after the cue", backs)):
        if values:
            print(f"{name}: p50 {percentile(values, 50):.1f} ms, p99 {percentile(values, 99):.1f} ms, "
                  f"min {min(values):.1f} ms, max {max(values):.1f} ms")
    return 0 if count and len(leads) == count and len(backs) == count else 1


if __name__ == "__main__":
    sys.exit(main())
