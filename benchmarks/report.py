"""The report: a table on stdout, BENCHMARKS.md between its markers, and the figures as JSON.

BENCHMARKS.md also holds hand-written notes (profiling, before and after), so a run
replaces only what lies between `<!-- bench:begin -->` and `<!-- bench:end -->`. The sound
drift benchmark, run alone (`--only drift`), has markers of its own further down, so either
run leaves the other's tables as they are.
"""

import contextlib
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from figures import fmt, pad

MARK_BEGIN = "<!-- bench:begin -->"
MARK_END = "<!-- bench:end -->"
DRIFT_BEGIN = "<!-- bench:drift:begin -->"
DRIFT_END = "<!-- bench:drift:end -->"
ROOT = Path(__file__).resolve().parent.parent


def replace_between_markers(text, generated, begin_mark=MARK_BEGIN, end_mark=MARK_END):
    """The file with only the part between the markers replaced, so hand-written notes survive.

    `text` None (no file yet) gives a short intro and the markers; a file without markers
    keeps its text and gets the markers appended.
    """
    block = f"{begin_mark}\n{generated.strip()}\n{end_mark}"
    if text is None:
        return ("# Benchmarks\n\n"
                "Measured by `make bench` (`benchmarks/bench.py`); the tables between the markers are\n"
                "rewritten by each run, everything else in this file is kept.\n\n"
                f"{block}\n")
    begin = text.find(begin_mark)
    end = text.find(end_mark, begin + len(begin_mark)) if begin >= 0 else -1
    if begin < 0 or end < 0:
        return text.rstrip("\n") + ("\n\n" if text.strip() else "") + block + "\n"
    return text[:begin] + block + text[end + len(end_mark):]


def machine():
    """uname, CPU model, cores and memory: what the numbers depend on."""
    uname = os.uname()
    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    memory = "?"
    with contextlib.suppress(OSError):
        match = re.search(r"MemTotal:\s+(\d+) kB", Path("/proc/meminfo").read_text())
        memory = f"{int(match.group(1)) / 1024 / 1024:.1f} GiB" if match else "?"
    return f"{uname.sysname} {uname.release} {uname.machine}; {model}; {os.cpu_count()} cores; {memory} memory"


def load_average():
    """/proc/loadavg's 1, 5 and 15 minute figures: whether the machine was really idle."""
    with contextlib.suppress(OSError):
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return "?"


def commit():
    """The commit the measured sources are at, marked when Sources/ has local changes."""
    def git(*arguments):
        result = subprocess.run(["git", "-C", str(ROOT), *arguments], stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=30)
        return result.stdout.strip() if result.returncode == 0 else ""
    head = git("rev-parse", "--short=12", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--", "Sources", "Package.swift")
    return head + (" with uncommitted changes to Sources/" if dirty else "")


def command_line():
    """The exact command, as run from the repository's root (what `make bench` runs)."""
    script = Path(sys.argv[0]).absolute()
    with contextlib.suppress(ValueError):
        script = script.relative_to(ROOT)
    return shlex.join([sys.executable, str(script), *sys.argv[1:]])


def command_text(info):
    """`make bench` → `…` when make ran it (the Makefile sets BENCH_VIA), else the command."""
    return (f"`{info['via']}` → " if info["via"] else "") + f"`{info['command']}`"


def header(info, termdown=True):
    """The run's conditions; `termdown` False for a table with no termdown column."""
    lines = [
        f"- **Machine:** {info['machine']}",
        f"- **Date:** {info['date']} (load average before the run: {info['load']})",
        f"- **Command:** {command_text(info)}",
        f"- **workout:** commit {info['commit']}, binary `{info['workout']}`",
    ]
    if termdown:
        lines.append(f"- **termdown:** {info['termdown']} (PyPI, in `.build-bench/venv`)")
    if info["tiny"]:
        lines.append("- **Size:** `--tiny`, a smoke test: small sizes (fewer fires than the targets ask for), "
                     "a debug build perhaps; not figures to judge workout by")
    return "\n".join(lines)


def met_text(met):
    return "—" if met is None else ("yes" if met else "**no**")


def value_text(value, unit):
    return "—" if value is None else fmt(value) + pad(unit)


def ratio_text(ratio):
    return "—" if ratio is None else fmt(ratio)


def markdown(figures, info, sections):
    """The generated part of BENCHMARKS.md: the header, then per group its method and its table.

    `sections` are (group, title, note) in the order the tables appear.
    """
    parts = [f"## Results\n\n{header(info)}\n\n"
             "Targets are those of docs/design.md; *met?* says whether this run met them (— where there is nothing to "
             "judge). *workout/termdown* is the ratio of the two figures in the same run: below 1, workout "
             "uses less."]
    for group, title, note in sections:
        rows = [figure for figure in figures if figure.group == group]
        if not rows:
            continue
        lines = [f"### {title}", "", note, "",
                 "| figure | workout | target | met? | termdown | workout/termdown |",
                 "|---|---:|---|:---:|---:|---:|"]
        for f in rows:
            cells = [f.label, value_text(f.value, f.unit), "—" if f.target is None else f.target.text,
                     met_text(f.met), value_text(f.termdown, f.unit), ratio_text(f.ratio)]
            lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def text_table(figures):
    """The same figures for the terminal, aligned, by their stable names."""
    rows = [("figure", "workout", "target", "met?", "termdown", "ratio")]
    for f in figures:
        rows.append((f.name, value_text(f.value, f.unit), "—" if f.target is None else f.target.text,
                     {None: "—", True: "yes", False: "NO"}[f.met], value_text(f.termdown, f.unit),
                     ratio_text(f.ratio)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows)


def write_markdown(path, generated, begin_mark=MARK_BEGIN, end_mark=MARK_END):
    """Updates the report in place; an empty file (a fresh temporary one) counts as missing."""
    existing = path.read_text() if path.exists() and path.stat().st_size else None
    path.write_text(replace_between_markers(existing, generated, begin_mark, end_mark))


def write_json(path, figures, info):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**info, "figures": [f.as_json() for f in figures]}, indent=2,
                               ensure_ascii=False) + "\n")


def display_path(path):
    """The binary as given (not through its links), relative to the repository when inside it."""
    absolute = Path(os.path.abspath(path))
    with contextlib.suppress(ValueError):
        return str(absolute.relative_to(ROOT))
    return str(absolute)
