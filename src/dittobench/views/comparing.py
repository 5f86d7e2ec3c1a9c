"""Two stored runs compared: paired when they graded the same dataset, unpaired otherwise
(``views.compare`` holds the maths), with the sentence that says which and why, the cases whose
score changed (what was asked, both answers, both rules in words with the answer key's values
that decided them: ``views.report.case_texts``, as the run and case pages explain a case), and
the same comparison as JSON for ``dittobench compare --json``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from dittobench.spec.dataset import Dataset
from dittobench.spec.report import ScoreReport
from dittobench.spec.versions import UnknownVersionError, get_policy
from dittobench.spec.vocab import ReasonCode
from dittobench.views.compare import Comparison, Delta, Flip, Side, compare, flips
from dittobench.views.explain import Why, explain
from dittobench.views.report import CaseText, case_texts

Records = Mapping[str, dict[str, object]]
"""case id -> the run's recorded case (``RunStore.recorded_cases``)."""


@dataclass(frozen=True, slots=True)
class CaseChange:
    """One case of a paired comparison: its scores, what it asked, each run's answer as graded
    and each run's rule in words (``Why``: the answer key's values that decided it, and the
    expected answer), and each run's case page ("" where there is none)."""

    flip: Flip
    asked: str
    answer_a: str
    answer_b: str
    why_a: Why
    why_b: Why
    href_a: str = ""
    href_b: str = ""


@dataclass(frozen=True, slots=True)
class RunComparison:
    a_id: str
    b_id: str
    a: ScoreReport
    b: ScoreReport
    result: Comparison
    why: str
    """Why the comparison is paired or not, in one sentence."""
    cases: tuple[CaseChange, ...] = ()
    """The cases listed, worst first (``with_cases``); none until asked for, and none unpaired."""
    all_cases: bool = False
    """``cases`` holds every case both runs graded, not only those whose score changed."""
    cases_note: str = ""
    """Why the case list is short of words (the dataset could not be rebuilt), or ""."""


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


def _text(texts: Mapping[str, CaseText], case_id: str, reason: ReasonCode) -> CaseText:
    return texts.get(case_id) or CaseText("", "", explain(reason))


def with_cases(
    made: RunComparison,
    dataset: Dataset | None,
    records_a: Records,
    records_b: Records,
    *,
    all_cases: bool = False,
    link: Callable[[str, str], str] | None = None,
    note: str = "",
) -> RunComparison:
    """``made`` with its case list: the cases whose score changed (every case both graded
    with ``all_cases``), worst first, each with the words ``case_texts`` gives the run page
    (``dataset``: both runs' dataset, None when it cannot be rebuilt: no question or answer
    key then). ``link(run_id, case_id)``: a case's page. Unpaired runs list no case."""
    if not made.result.paired:
        return replace(made, all_cases=all_cases, cases_note=note)
    texts_a = case_texts(dataset, records_a, made.a)
    texts_b = case_texts(dataset, records_b, made.b)
    reasons_a = {c.case_id: c.reason for c in made.a.per_case}
    reasons_b = {c.case_id: c.reason for c in made.b.per_case}
    changes = []
    for flip in flips(side_of(made.a), side_of(made.b), changed_only=not all_cases):
        one = _text(texts_a, flip.case_id, reasons_a[flip.case_id])
        two = _text(texts_b, flip.case_id, reasons_b[flip.case_id])
        changes.append(
            CaseChange(
                flip, one.asked or two.asked, one.answered, two.answered, one.why, two.why,
                link(made.a_id, flip.case_id) if link else "",
                link(made.b_id, flip.case_id) if link else "",
            )
        )  # fmt: skip
    return replace(made, cases=tuple(changes), all_cases=all_cases, cases_note=note)


def _delta(delta: Delta) -> dict[str, float | None]:
    shown = delta.interval
    return {
        "value": round(delta.value, 6),
        "std_err": round(delta.std_err, 6) if shown else None,
        "ci95_low": round(delta.low, 6) if shown else None,
        "ci95_high": round(delta.high, 6) if shown else None,
    }


def _why_json(why: Why) -> dict[str, Any]:
    return {"rule": why.rule or "ok", "says": why.line(), "named": list(why.named)}


def case_json(change: CaseChange) -> dict[str, Any]:
    """One listed case as ``compare --json`` prints it."""
    f = change.flip
    return {
        "case_id": f.case_id,
        "kind": f.kind,
        "category": f.category,
        "score_a": round(f.score_a, 6),
        "score_b": round(f.score_b, 6),
        "delta": round(f.delta, 6),
        "question": change.asked,
        "expected": change.why_a.expected or change.why_b.expected,
        "answer_a": change.answer_a,
        "answer_b": change.answer_b,
        "why_a": _why_json(change.why_a),
        "why_b": _why_json(change.why_b),
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
        "cases_listed": "all" if made.all_cases else "changed",
        "cases": [case_json(change) for change in made.cases],
    }


__all__ = [
    "CaseChange",
    "Records",
    "RunComparison",
    "case_json",
    "compare_reports",
    "comparison_json",
    "side_of",
    "with_cases",
]
