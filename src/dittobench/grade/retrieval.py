"""Retrieval diagnostics: how well a harness's memory found the pairs that hold each answer.

A harness may list, in its ``/run`` reply, the pair ids its memory retrieved for the answer, best
first (``RunResponse.retrieved``, the ids ``/seed`` showed it). For every memory case whose answer
key names evidence pairs (``MemoryCase.evidence_pair_ids``) and whose reply lists at least one id:

- ``recall@k`` = |evidence among the first k ids| / |evidence|, for k = 1, 5, 10;
- ``hit@k`` = 1 when any evidence pair is among the first k ids, else 0.

Ids are mapped back to the dataset's through the run's wire ids and compared normalised; an id the
harness was never shown is a miss that still takes its place in the ranking. The report's block
holds the means of these over the cases that listed ids, overall and per question type, with how
many cases listed ids and how many did not. It is a diagnostic, reported beside the score and never
in the composite or any mean (docs/grading.md, "Retrieval diagnostics"). Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from dittobench.core.text import normalize
from dittobench.grade.stats import mean
from dittobench.spec.memory import QUESTION_TYPES, MemoryCase
from dittobench.spec.report import RetrievalReport, RetrievalStat
from dittobench.spec.wire import RunResponse

KS: tuple[int, ...] = (1, 5, 10)
"""The cut-offs recall and hit are measured at."""


@dataclass(frozen=True, slots=True)
class CaseRetrieval:
    """One case's retrieval: ``recall[i]`` and ``hit[i]`` at ``KS[i]``."""

    case_id: str
    question_type: str
    recall: tuple[float, ...]
    hit: tuple[bool, ...]


def recall_at(ranked: Sequence[str], evidence: frozenset[str], k: int) -> float:
    """The share of ``evidence`` among the first ``k`` of ``ranked`` (both already comparable
    ids); 0.0 when there is no evidence."""
    if not evidence:
        return 0.0
    return len(evidence.intersection(ranked[:k])) / len(evidence)


def hit_at(ranked: Sequence[str], evidence: frozenset[str], k: int) -> bool:
    """Whether any of ``evidence`` is among the first ``k`` of ``ranked``."""
    return not evidence.isdisjoint(ranked[:k])


def case_retrieval(
    case: MemoryCase, retrieved: Sequence[str], dataset_id: Callable[[str], str]
) -> CaseRetrieval | None:
    """``case``'s retrieval from the ids a harness listed (as shown to it; ``dataset_id`` maps
    one back to the dataset's), or None when the case has no evidence or nothing was listed."""
    if not case.evidence_pair_ids or not retrieved:
        return None  # (most replies list nothing: no evidence normalised for them)
    evidence = frozenset(normalize(p) for p in case.evidence_pair_ids)
    ranked = [normalize(dataset_id(shown)) for shown in retrieved]
    return CaseRetrieval(
        case_id=case.id,
        question_type=case.question_type,
        recall=tuple(recall_at(ranked, evidence, k) for k in KS),
        hit=tuple(hit_at(ranked, evidence, k) for k in KS),
    )


def retrieval_report(
    cases: Sequence[MemoryCase],
    responses: Mapping[str, RunResponse | None],
    dataset_id: Callable[[str], str],
) -> RetrievalReport | None:
    """The report's ``retrieval`` block over ``cases`` (their replies by case id), or None when
    no case with evidence listed any retrieved id (so a run without lists reports as before)."""
    scored = [c for c in cases if c.evidence_pair_ids]
    found: dict[str, CaseRetrieval] = {}
    for case in scored:
        response = responses.get(case.id)
        listed = response.retrieved if response is not None else ()
        result = case_retrieval(case, listed, dataset_id)
        if result is not None:
            found[case.id] = result
    if not found:
        return None
    overall = _stat("", scored, found)
    per_type = tuple(
        _stat(name, [c for c in scored if c.question_type == name], found)
        for name in QUESTION_TYPES
        if any(c.question_type == name for c in scored)
    )
    return RetrievalReport(
        reported=overall.reported,
        unreported=overall.unreported,
        recall_at_1=overall.recall_at_1 or 0.0,
        recall_at_5=overall.recall_at_5 or 0.0,
        recall_at_10=overall.recall_at_10 or 0.0,
        hit_at_1=overall.hit_at_1 or 0.0,
        hit_at_5=overall.hit_at_5 or 0.0,
        hit_at_10=overall.hit_at_10 or 0.0,
        per_type=per_type,
    )


def _stat(
    name: str, cases: Sequence[MemoryCase], found: Mapping[str, CaseRetrieval]
) -> RetrievalStat:
    """Means over those of ``cases`` that listed ids (None when none did)."""
    listed = [found[c.id] for c in cases if c.id in found]
    unreported = len(cases) - len(listed)
    if not listed:
        return RetrievalStat(name, 0, unreported)
    recall = [round(mean([r.recall[i] for r in listed]), 6) for i in range(len(KS))]
    hit = [round(mean([1.0 if r.hit[i] else 0.0 for r in listed]), 6) for i in range(len(KS))]
    return RetrievalStat(
        question_type=name,
        reported=len(listed),
        unreported=unreported,
        recall_at_1=recall[0],
        recall_at_5=recall[1],
        recall_at_10=recall[2],
        hit_at_1=hit[0],
        hit_at_5=hit[1],
        hit_at_10=hit[2],
    )
