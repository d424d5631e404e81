"""Figures, the targets they are held to, and the arithmetic behind them (all pure, unit-tested)."""

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    """A target of docs/design.md: its wording, and the test of it (on the value, or on the ratio to termdown).

    A target without a test is a reference shown beside the figure but not judged.
    """
    text: str
    test: object
    on_ratio: bool = False

    def met(self, figure):
        if self.test is None:
            return None
        subject = figure.ratio if self.on_ratio else figure.value
        if subject is None or not math.isfinite(subject):
            return False  # no number (say, no termdown figure) cannot meet a target
        return bool(self.test(subject))


def below(limit, unit=""):
    return Target(f"< {limit:g}{pad(unit)}", lambda v: v < limit)


def at_most(limit, text):
    return Target(text, lambda v: v <= limit)


def magnitude_below(limit, unit=""):
    return Target(f"within ±{limit:g}{pad(unit)}", lambda v: abs(v) < limit)


def at_least(limit, unit=""):
    return Target(f"≥ {limit:g}{pad(unit)}", lambda v: v >= limit)


def reference(text):
    """A bound shown but not judged: a whole-process count also holds start-up and exit."""
    return Target(text, None)


@dataclass
class Figure:
    """One measured number, with what it is held to and termdown's number where there is one."""
    name: str           # stable, for the JSON and the tests: "lateness.idle.late_ms.p99"
    group: str          # the table it belongs to
    label: str          # what the markdown row says
    value: float
    unit: str
    target: Target = None
    termdown: float = None

    @property
    def ratio(self):
        """workout / termdown, None without a termdown figure to divide by."""
        if self.termdown is None or self.termdown == 0 or not math.isfinite(self.termdown):
            return None
        return self.value / self.termdown

    @property
    def met(self):
        """True or False against the target; None when there is none to judge by."""
        return None if self.target is None else self.target.met(self)

    def as_json(self):
        return {"name": self.name, "group": self.group, "label": self.label,
                "value": self.value, "unit": self.unit,
                "target": None if self.target is None else self.target.text,
                "met": self.met, "termdown": self.termdown, "ratio": self.ratio}


def percentile(values, p):
    """The p-th percentile (0–100) by linear interpolation between closest ranks (numpy's default)."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    rank = (len(ordered) - 1) * p / 100
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def slope(xs, ys):
    """Least-squares slope of ys over xs: a lateness that grows with each fire would be drift."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("slope needs two or more points")
    mean_x = sum(xs) / len(xs)
    mean_y = sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        raise ValueError("slope of points that share one x")
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread


def fmt(value):
    """A number with the digits that mean something here: three significant, no exponent."""
    if value is None:
        return "—"
    if not math.isfinite(value):
        return str(value)
    if isinstance(value, int) or (value == int(value) and abs(value) >= 100):
        return f"{int(value):,}"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    if value == 0:
        return "0"
    digits = 2 - math.floor(math.log10(abs(value)))
    return f"{value:.{digits}f}"


def pad(unit):
    return f" {unit}" if unit else ""


def plural(count, word):
    return f"{count} {word}" + ("" if count == 1 else "s")
