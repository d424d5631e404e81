#!/usr/bin/python3
"""Runs one command and writes what it cost, for a program the harness cannot reap itself.

A program under tmux is the pane's child, not the harness's, so the harness cannot
`wait4` it for its resource usage. This wrapper runs inside the pane instead: it spawns
the command (which inherits the pane's terminal), writes the child's pid at once to
`OUT.pid` so the harness can sample /proc while it runs, reaps it with `os.wait4` (µs CPU
resolution, unlike /usr/bin/time's 10 ms) and writes the result to `OUT` as JSON.

    rusage.py OUT -- COMMAND [ARGUMENT...]

Both files are written to a temporary name and renamed, so the harness never reads half
of one. The wrapper's own start-up is not counted: only the child's usage is reported.
"""

import json
import os
import sys
import time


def write_atomically(path, value):
    """Writes JSON to `path` by renaming a finished file, so a poller sees all or nothing."""
    temporary = path + ".tmp"
    with open(temporary, "w") as file:
        json.dump(value, file)
    os.replace(temporary, path)


def exit_status(status):
    """The exit code, or the negated signal number when the child was killed (as subprocess)."""
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def main(arguments):
    if len(arguments) < 3 or arguments[1] != "--":
        sys.stderr.write("usage: rusage.py OUT -- COMMAND [ARGUMENT...]\n")
        return 64
    out, command = arguments[0], arguments[2:]
    started = time.monotonic()
    pid = os.posix_spawnp(command[0], command, os.environ)
    # CLOCK_MONOTONIC is system-wide, so the harness can compare `spawned` with its own clock.
    write_atomically(out + ".pid", {"pid": pid, "spawned": started})
    _, status, usage = os.wait4(pid, 0)
    ended = time.monotonic()
    write_atomically(out, {
        "pid": pid,
        "status": exit_status(status),
        "wall_s": ended - started,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "user_s": usage.ru_utime,
        "system_s": usage.ru_stime,
        "voluntary_switches": usage.ru_nvcsw,
        "involuntary_switches": usage.ru_nivcsw,
        "max_rss_kib": usage.ru_maxrss,
    })
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
