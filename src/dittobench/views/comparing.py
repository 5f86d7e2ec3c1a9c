"""Two stored runs compared: paired when they graded the same dataset, unpaired otherwise
(``views.compare`` holds the maths), with the sentence that says which and why, and the same
comparison as JSON for ``dittobench compare --json``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dittobench.spec.report import ScoreReport
from dittobench.spec.versions import UnknownVersionError, get_policy
from dittobench.views.compare import Comparison, Delta, Side, compare


@dataclass(frozen=True, slots=True)
class RunComparison:
    a_id: str
    b_id: str
    a: ScoreReport
    b: ScoreReport
    result: Comparison
    why: str
    """Why the comparison is paired or not, in one sentence."""


def side_of(report: ScoreReport) -> Side:
    return Side(
        scores={c.case_id: c.score for c in report.per_case},
        kinds={c.case_id: c.kind for c in report.per_case},
        categories={c.case_id: c.category for c in report.per_case},
        composite=report.composite,
        composite_stderr=report.composite_stderr,
        base=report.details.base,
        category_means={c.category: (c.mean, c.std_err, c.count) for c in report.per_category},
    )


def _halves(report: ScoreReport) -> dict[str, float]:
    try:
        grading = get_policy(report.bench_version).grading
    except UnknownVersionError:
        return {"tool": 0.5, "memory": 0.5}
    return {"tool": grading.tool_half, "memory": grading.memory_half}


def compare_reports(a_id: str, a: ScoreReport, b_id: str, b: ScoreReport) -> RunComparison:
    """B against A. Paired only when both graded the same dataset (same hash)."""
    paired = a.dataset_sha256 == b.dataset_sha256
    if paired:
        why = (
            f"Paired: both runs graded the same dataset (seed {a.seed}, {a.run_size}, bench "
            f"{a.bench_version}), so each case is compared with itself."
        )
    else:
        differences = [
            f"{name} {x} vs {y}"
            for name, x, y in (
                ("seed", a.seed, b.seed),
                ("run size", a.run_size, b.run_size),
                ("bench version", a.bench_version, b.bench_version),
            )
            if x != y
        ] or ["the content pack"]
        why = (
            "Unpaired: the runs graded different datasets ("
            + ", ".join(differences)
            + "), so no case can be matched with another; the delta's interval is wider and "
            "comes from the two reports' standard errors."
        )
    result = compare(side_of(a), side_of(b), paired=paired, halves=_halves(a))
    return RunComparison(a_id, b_id, a, b, result, why)


def _delta(delta: Delta) -> dict[str, float]:
    return {
        "value": round(delta.value, 6),
        "std_err": round(delta.std_err, 6),
        "ci95_low": round(delta.low, 6),
        "ci95_high": round(delta.high, 6),
    }


def _run_json(run_id: str, report: ScoreReport) -> dict[str, Any]:
    """One side: its composite and, beside it (never in it or in the delta), its nuance score
    without the per-case verdicts, when its version has open questions."""
    out: dict[str, Any] = {
        "run_id": run_id,
        "composite": report.composite,
        "composite_stderr": report.composite_stderr,
        "seed": str(report.seed),
    }
    if report.nuance is not None:
        nuance = report.nuance.to_json()
        nuance.pop("per_case")
        out["nuance"] = nuance
    return out


def comparison_json(made: RunComparison) -> dict[str, Any]:
    r = made.result
    return {
        "a": _run_json(made.a_id, made.a),
        "b": _run_json(made.b_id, made.b),
        "paired": r.paired,
        "why": made.why,
        "wins": r.wins,
        "losses": r.losses,
        "ties": r.ties,
        "only_a": r.only_a,
        "only_b": r.only_b,
        "composite_delta": _delta(r.composite),
        "categories": [
            {
                "category": c.category,
                "kind": c.kind,
                "count": c.count,
                "mean_a": round(c.mean_a, 6),
                "mean_b": round(c.mean_b, 6),
                **_delta(c.delta),
            }
            for c in r.categories
        ],
    }


__all__ = ["RunComparison", "compare_reports", "comparison_json", "side_of"]
