"""Plain-text renderings of a score report: readable in a terminal and in a CI log alike."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from dittobench.spec.judging import NuanceScore
from dittobench.spec.report import CaseScore, ScoreReport
from dittobench.spec.vocab import ReasonCode
from dittobench.views.delivery import undelivered_text
from dittobench.views.identity import DECLARED, identity_text
from dittobench.views.nuance import NOT_IN_COMPOSITE, nuance_text

WEAKEST = 8


def report_lines(report: ScoreReport, transcript: Mapping[str, Any] | None = None) -> list[str]:
    """The summary; with the run's ``transcript`` (as JSON), also how many cases got no answer,
    by outcome, when any did."""
    d = report.details
    tool_cases = [c for c in report.per_case if c.kind == "tool"]
    memory_cases = [c for c in report.per_case if c.kind == "memory"]
    dims = " · ".join(f"{k} {v:.3f}" for k, v in report.dimensions.items())
    lines = [
        f"{report.benchmark} {report.bench_version} · {report.run_size} · seed {report.seed}",
        f"dataset {report.dataset_sha256[:16]}…  transcript {report.transcript_sha256[:16]}…",
        *_measured(report),
        "",
        f"composite    {report.composite:.4f} ± {report.composite_stderr:.4f}"
        f"   (base {d.base:.4f} × efficiency {d.efficiency:.3f}"
        f" × consistency {d.consistency:.3f} × integrity {d.token_factor:.2f})",
        f"tool mean    {report.tool_mean:.4f}   ({len(tool_cases)} cases: "
        f"{d.observed_tool_cases} observed, {d.capped_tool_cases} capped)",
        f"memory mean  {report.memory_mean:.4f}   ({len(memory_cases)} cases: "
        f"{d.disqualified_memory_cases} disqualified by scans)",
    ]
    ruled = disqualified_text(report)
    if ruled:
        lines.append(f"disqualified {ruled}")
    missing = undelivered_text(transcript)
    if missing:
        lines.append(f"undelivered  {missing}")
    if dims:
        lines.append(f"dimensions   {dims}   (beside the composite, not in it)")
    lines += retrieval_lines(report)
    if report.nuance is not None:
        lines += nuance_lines(report.nuance, report.bench_version)
    lines.append(f"median       {report.median_ms} ms per case")
    weakest = sorted(report.per_category, key=lambda c: (c.mean, c.category))[:WEAKEST]
    if weakest:
        marks = disqualified_by_category(report)
        lines += ["", "weakest categories:"]
        width = max(len(c.category) for c in weakest)
        for c in weakest:
            mark = f"  ({marks[c.category]} disqualified)" if c.category in marks else ""
            lines.append(
                f"  {c.category:<{width}}  {c.kind:<6}  n={c.count:<3}  "
                f"mean {c.mean:.3f} ± {c.std_err:.3f}{mark}"
            )
    return lines


DISQUALIFYING: Final[tuple[ReasonCode, ...]] = (
    "forbidden",
    "distractor",
    "dump_guard",
    "wrongful_decline",
)
"""The memory reasons a disqualifying scan writes, in grading order (``grade.memory``): the
cases ``details.disqualified_memory_cases`` counts."""


def _disqualified(report: ScoreReport) -> list[CaseScore]:
    return [c for c in report.per_case if c.kind == "memory" and c.reason in DISQUALIFYING]


def disqualified_text(report: ScoreReport) -> str:
    """Which rules disqualified how many memory cases ("3 cases: 2 forbidden (2 leaked),
    1 distractor"); "" when none was."""
    cases = _disqualified(report)
    if not cases:
        return ""
    counts = Counter(c.reason for c in cases)
    leaked = report.details.leaked_memory_cases
    parts = [
        f"{counts[rule]} {rule}" + (f" ({leaked} leaked)" if rule == "forbidden" and leaked else "")
        for rule in DISQUALIFYING
        if counts[rule]
    ]
    return f"{len(cases)} case{'s' if len(cases) != 1 else ''}: " + ", ".join(parts)


def disqualified_by_category(report: ScoreReport) -> dict[str, int]:
    """category -> how many of its cases a disqualifying scan zeroed (only those with any)."""
    return dict(Counter(c.category for c in _disqualified(report)))


def _measured(report: ScoreReport) -> list[str]:
    if not report.identity:
        return []
    return [f"measured     {identity_text(report.identity)} ({DECLARED})"]


def nuance_lines(nuance: NuanceScore, bench_version: str) -> list[str]:
    """The judged score of the open questions, on its own line beside the composite (never in
    it), and the open questions whose judging failed."""
    lines = [
        f"nuance       {nuance_text(nuance, bench_version, 'run with --judge-url')}",
        f"             ({NOT_IN_COMPOSITE})",
    ]
    failed = [v.case_id for v in nuance.per_case if v.status == "judge_error"]
    if failed:
        shown = ", ".join(failed[:5]) + (f" and {len(failed) - 5} more" if len(failed) > 5 else "")
        lines.append(f"judge errors {len(failed)}: {shown} (no reply parsed after the retries)")
    return lines


def retrieval_lines(report: ScoreReport) -> list[str]:
    """The retrieval diagnostics on one line beside the composite (never in it); none when no
    memory case listed the pairs its memory retrieved."""
    r = report.retrieval
    if r is None:
        return []
    return [
        f"retrieval    recall@5 {r.recall_at_5:.2f} · recall@10 {r.recall_at_10:.2f}"
        f" · hit@1 {r.hit_at_1:.2f} (n={r.reported} of {r.reported + r.unreported} memory cases"
        " reported; beside the composite, never in it)"
    ]
