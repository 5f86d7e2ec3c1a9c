"""The per-category chart: one horizontal bar per category (its mean score, 0 to 1) with a
standard-error whisker, as inline SVG (no script, no external file; ``templates/parts.html``
``chart``). Each bar carries a ``<title>`` so screen readers and hover show the exact figures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dittobench.spec.report import CategoryStat

ROW = 18
LABEL_W = 210
BAR_W = 420
PAD = 24
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)


@dataclass(frozen=True, slots=True)
class Bar:
    """One category's bar, in the chart's coordinates."""

    stat: CategoryStat
    y: int
    width: float
    low: float
    high: float
    mid: float
    colour: str
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    title: str
    width: int
    height: int
    ticks: tuple[tuple[float, float], ...]
    """(x, tick value) of each vertical line."""
    bars: tuple[Bar, ...]
    label_w: int = LABEL_W
    bar_w: int = BAR_W
    row: int = ROW


def _bar(index: int, stat: CategoryStat) -> Bar:
    y = PAD + index * ROW
    label = f"{stat.category} ({stat.kind}, n={stat.count}): {stat.mean:.3f} ± {stat.std_err:.3f}"
    return Bar(
        stat,
        y,
        max(0.0, min(1.0, stat.mean)) * BAR_W,
        max(0.0, stat.mean - stat.std_err) * BAR_W + LABEL_W,
        min(1.0, stat.mean + stat.std_err) * BAR_W + LABEL_W,
        y + ROW / 2 - 1,
        "#2f6fb3" if stat.kind == "tool" else "#6b4fa3",
        label,
    )


def category_chart(stats: Sequence[CategoryStat], title: str = "Score per category") -> Chart:
    """The bars of ``stats`` in the given order (none: the template draws nothing)."""
    height = PAD + ROW * len(stats) + 8
    ticks = tuple((LABEL_W + tick * BAR_W, tick) for tick in TICKS)
    bars = tuple(_bar(index, stat) for index, stat in enumerate(stats))
    return Chart(title, LABEL_W + BAR_W + 110, height, ticks, bars)


__all__ = ["Bar", "Chart", "category_chart"]
