"""The per-category chart: one horizontal bar per category (its mean score, 0 to 1) with a
standard-error whisker, as inline SVG (no script, no external file). Each bar carries a
``<title>`` so screen readers and hover show the exact figures."""

from __future__ import annotations

from collections.abc import Sequence

from dittobench.spec.report import CategoryStat
from dittobench.views.html import esc

ROW = 18
LABEL_W = 210
BAR_W = 420
PAD = 24


def category_chart(stats: Sequence[CategoryStat], title: str = "Score per category") -> str:
    """SVG bars of ``stats`` in the given order; an empty string when there are none."""
    if not stats:
        return ""
    height = PAD + ROW * len(stats) + 8
    width = LABEL_W + BAR_W + 110
    parts = [
        f'<svg class=chart role="img" aria-labelledby="chart-title" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}">',
        f'<title id="chart-title">{esc(title)}</title>',
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = LABEL_W + tick * BAR_W
        parts.append(
            f'<line x1="{x:.1f}" y1="14" x2="{x:.1f}" y2="{height - 6}" stroke="#cfd5dc"/>'
            f'<text x="{x:.1f}" y="11" text-anchor="middle">{tick:g}</text>'
        )
    for index, stat in enumerate(stats):
        y = PAD + index * ROW
        width_bar = max(0.0, min(1.0, stat.mean)) * BAR_W
        low = max(0.0, stat.mean - stat.std_err) * BAR_W + LABEL_W
        high = min(1.0, stat.mean + stat.std_err) * BAR_W + LABEL_W
        mid = y + ROW / 2 - 1
        colour = "#2f6fb3" if stat.kind == "tool" else "#6b4fa3"
        label = (
            f"{stat.category} ({stat.kind}, n={stat.count}): {stat.mean:.3f} ± {stat.std_err:.3f}"
        )
        parts.append(
            f"<g><title>{esc(label)}</title>"
            f'<text x="{LABEL_W - 6}" y="{mid + 4:.1f}" text-anchor="end">'
            f"{esc(stat.category)}</text>"
            f'<rect x="{LABEL_W}" y="{y + 3}" width="{width_bar:.1f}" height="{ROW - 6}" '
            f'fill="{colour}"/>'
            f'<line x1="{low:.1f}" y1="{mid:.1f}" x2="{high:.1f}" y2="{mid:.1f}" stroke="#111" '
            'stroke-width="1.5"/>'
            f'<line x1="{low:.1f}" y1="{mid - 4:.1f}" x2="{low:.1f}" y2="{mid + 4:.1f}" '
            'stroke="#111"/>'
            f'<line x1="{high:.1f}" y1="{mid - 4:.1f}" x2="{high:.1f}" y2="{mid + 4:.1f}" '
            'stroke="#111"/>'
            f'<text x="{LABEL_W + BAR_W + 8}" y="{mid + 4:.1f}">{stat.mean:.2f} ± '
            f"{stat.std_err:.2f}</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["category_chart"]
