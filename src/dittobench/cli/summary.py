"""Plain-text renderings of a score report: readable in a terminal and in a CI log alike."""

from __future__ import annotations

from typing import Any

from dittobench.spec.report import ScoreReport

WEAKEST = 8


def _number(details: dict[str, Any], key: str, default: float, places: int) -> str:
    """A detail as a number; ``?`` when a stored report holds something else there (details
    are free-form, so a damaged report must not stop the summary)."""
    value = details.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "?"
    return f"{value:.{places}f}"


def report_lines(report: ScoreReport) -> list[str]:
    d = report.details
    tool_cases = [c for c in report.per_case if c.kind == "tool"]
    memory_cases = [c for c in report.per_case if c.kind == "memory"]
    dims = " · ".join(f"{k} {v:.3f}" for k, v in report.dimensions.items())
    lines = [
        f"{report.benchmark} {report.bench_version} · {report.run_size} · seed {report.seed}",
        f"dataset {report.dataset_sha256[:16]}…  transcript {report.transcript_sha256[:16]}…",
        "",
        f"composite    {report.composite:.4f} ± {report.composite_stderr:.4f}"
        f"   (base {_number(d, 'base', 0, 4)} × efficiency {_number(d, 'efficiency', 1, 3)}"
        f" × consistency {_number(d, 'consistency', 1, 3)}"
        f" × token {_number(d, 'token_factor', 1, 2)})",
        f"tool mean    {report.tool_mean:.4f}   ({len(tool_cases)} cases: "
        f"{d.get('observed_tool_cases', 0)} observed, {d.get('capped_tool_cases', 0)} capped)",
        f"memory mean  {report.memory_mean:.4f}   ({len(memory_cases)} cases: "
        f"{d.get('disqualified_memory_cases', 0)} disqualified by scans)",
    ]
    if dims:
        lines.append(f"dimensions   {dims}   (beside the composite, not in it)")
    lines.append(f"median       {report.median_ms} ms per case")
    weakest = sorted(report.per_category, key=lambda c: (c.mean, c.category))[:WEAKEST]
    if weakest:
        lines += ["", "weakest categories:"]
        width = max(len(c.category) for c in weakest)
        for c in weakest:
            lines.append(
                f"  {c.category:<{width}}  {c.kind:<6}  n={c.count:<3}  "
                f"mean {c.mean:.3f} ± {c.std_err:.3f}"
            )
    return lines
