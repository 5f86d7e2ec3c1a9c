"""The score report: what grading a transcript against its dataset produces.

Field names follow the reference engine's report where one exists (``composite``,
``composite_stderr``, ``tool_mean``, ``memory_mean``, ``median_ms``, ``n``, ``per_case``,
``per_category``, ``details``), so tooling written for it reads ours. Scores are rounded to six
decimal places. docs/grading.md explains every number.

``ScoreReport.from_json`` reads back what ``to_json`` wrote. As everywhere in the spec, keys it does
not know are ignored (a report from a later version with one more detail still reads); a missing
key without a default (every key of ``details``) or a value of the wrong type is a ``DecodeError``
naming its path.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dittobench.core.prng import SeedError, parse_seed, seed_text
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.dataset import PackRef
from dittobench.spec.judging import NuanceScore
from dittobench.spec.vocab import ReasonCode, RunCaseKind, RunSizeName
from dittobench.spec.wire import to_wire


@dataclass(frozen=True, slots=True)
class CaseScore:
    """One graded case. ``tool_score`` is the trajectory part of a tool case; ``reason`` says why
    a case lost credit ("" when fully credited; ``spec.vocab.ReasonCode``)."""

    case_id: str
    category: str
    kind: RunCaseKind
    score: float
    correct: bool
    reason: ReasonCode = ""
    tool_score: float = 0.0
    latency_ms: int = 0
    called: tuple[str, ...] = ()
    expected: tuple[str, ...] = ()
    observed: bool = False
    capped: bool = False
    user_id: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "category": self.category,
            "kind": self.kind,
            "score": self.score,
            "correct": self.correct,
            "reason": self.reason,
            "tool_score": self.tool_score,
            "latency_ms": self.latency_ms,
            "called": list(self.called),
            "expected": list(self.expected),
            "observed": self.observed,
            "capped": self.capped,
            "user_id": self.user_id,
        }


@dataclass(frozen=True, slots=True)
class CategoryStat:
    category: str
    kind: RunCaseKind
    count: int
    mean: float
    std_err: float


@dataclass(frozen=True, slots=True)
class ReportDetails:
    """The composite's factors and the counts behind them (docs/grading.md, "The composite").

    ``base`` is the weighted mean of the two halves before the factors; ``efficiency``,
    ``consistency`` and ``token_factor`` multiply it. ``efficiency_cases`` are the observed,
    correct tool cases efficiency was measured over; ``split_families`` of the
    ``paraphrase_families`` were answered right in one wording and wrong in another.
    ``telemetry`` is the dataset's generation telemetry, copied as it is.
    """

    base: float
    efficiency: float
    efficiency_cases: int
    consistency: float
    paraphrase_families: int
    split_families: int
    token_factor: float
    observed_tool_cases: int
    capped_tool_cases: int
    undelivered_cases: int
    disqualified_memory_cases: int
    leaked_memory_cases: int
    isolation_cases: int
    telemetry: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {
            "base": self.base,
            "efficiency": self.efficiency,
            "efficiency_cases": self.efficiency_cases,
            "consistency": self.consistency,
            "paraphrase_families": self.paraphrase_families,
            "split_families": self.split_families,
            "token_factor": self.token_factor,
            "observed_tool_cases": self.observed_tool_cases,
            "capped_tool_cases": self.capped_tool_cases,
            "undelivered_cases": self.undelivered_cases,
            "disqualified_memory_cases": self.disqualified_memory_cases,
            "leaked_memory_cases": self.leaked_memory_cases,
            "isolation_cases": self.isolation_cases,
            "telemetry": dict(self.telemetry),
        }


@dataclass(frozen=True, slots=True)
class RetrievalStat:
    """Retrieval over the memory cases of one question type that have evidence pairs:
    ``reported`` listed retrieved ids, ``unreported`` did not; the means (over the reported
    ones) are absent when none did."""

    question_type: str
    reported: int
    unreported: int
    recall_at_1: float | None = None
    recall_at_5: float | None = None
    recall_at_10: float | None = None
    hit_at_1: float | None = None
    hit_at_5: float | None = None
    hit_at_10: float | None = None


@dataclass(frozen=True, slots=True)
class RetrievalReport:
    """How well the harness's memory found the evidence pairs, from the ids it listed in
    ``RunResponse.retrieved`` (``grade.retrieval``, docs/grading.md "Retrieval diagnostics"):
    means of recall@k and hit@k over the ``reported`` memory cases with evidence that listed ids
    (``unreported`` of them did not), overall and per question type. Beside the composite, never
    in it."""

    reported: int
    unreported: int
    recall_at_1: float
    recall_at_5: float
    recall_at_10: float
    hit_at_1: float
    hit_at_5: float
    hit_at_10: float
    per_type: tuple[RetrievalStat, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "reported": self.reported,
            "unreported": self.unreported,
            "recall_at_1": self.recall_at_1,
            "recall_at_5": self.recall_at_5,
            "recall_at_10": self.recall_at_10,
            "hit_at_1": self.hit_at_1,
            "hit_at_5": self.hit_at_5,
            "hit_at_10": self.hit_at_10,
            "per_type": [to_wire(stat) for stat in self.per_type],
        }


@dataclass(frozen=True, slots=True)
class ScoreReport:
    benchmark: str
    bench_version: str
    grading_policy: str
    run_size: RunSizeName
    seed: int
    dataset_sha256: str
    transcript_sha256: str
    composite: float
    composite_stderr: float
    tool_mean: float
    memory_mean: float
    median_ms: int
    n: int
    per_case: tuple[CaseScore, ...]
    per_category: tuple[CategoryStat, ...]
    details: ReportDetails
    dimensions: dict[str, float] = field(default_factory=dict)
    pack: PackRef | None = None
    """The content pack of the run (from the transcript)."""
    nuance: NuanceScore | None = None
    """The judged score of the open cases (bench 8.0), beside the composite and never in it;
    absent when the dataset has no open cases."""
    identity: dict[str, str] = field(default_factory=dict)
    """What the harness declared it is (from the transcript, ``spec.identity``); unchecked, and
    absent when it declared nothing."""
    retrieval: RetrievalReport | None = None
    """Retrieval diagnostics (``grade.retrieval``), beside the composite and never in it; absent
    when no memory case with evidence pairs listed the pairs its memory retrieved."""

    def to_json(self) -> dict[str, Any]:
        return {
            **({"pack": self.pack.to_json()} if self.pack else {}),
            "benchmark": self.benchmark,
            "bench_version": self.bench_version,
            "grading_policy": self.grading_policy,
            "run_size": self.run_size,
            "seed": seed_text(self.seed),
            "dataset_sha256": self.dataset_sha256,
            "transcript_sha256": self.transcript_sha256,
            "composite": self.composite,
            "composite_stderr": self.composite_stderr,
            "tool_mean": self.tool_mean,
            "memory_mean": self.memory_mean,
            "median_ms": self.median_ms,
            "n": self.n,
            "dimensions": dict(self.dimensions),
            "per_case": [c.to_json() for c in self.per_case],
            "per_category": [to_wire(c) for c in self.per_category],
            "details": self.details.to_json(),
            **({"nuance": self.nuance.to_json()} if self.nuance else {}),
            **({"identity": dict(sorted(self.identity.items()))} if self.identity else {}),
            **({"retrieval": self.retrieval.to_json()} if self.retrieval else {}),
        }

    def to_rows(self) -> list[dict[str, Any]]:
        """One flat dict per case, in report order: the run's ``seed``, ``bench_version``,
        ``run_size`` and ``dataset_sha256``, then the case's fields (``called`` and ``expected``
        joined by ``;``). Plain values only, so a DataFrame is
        ``pandas.DataFrame(report.to_rows())`` and a CSV ``csv.DictWriter`` of them."""
        run = {
            "seed": self.seed,
            "bench_version": self.bench_version,
            "run_size": self.run_size,
            "dataset_sha256": self.dataset_sha256,
        }
        return [
            {
                **run,
                "case_id": c.case_id,
                "kind": c.kind,
                "category": c.category,
                "score": c.score,
                "correct": c.correct,
                "reason": c.reason,
                "tool_score": c.tool_score,
                "latency_ms": c.latency_ms,
                "called": ";".join(c.called),
                "expected": ";".join(c.expected),
                "observed": c.observed,
                "capped": c.capped,
            }
            for c in self.per_case
        ]

    @classmethod
    def from_json(cls, data: Any) -> ScoreReport:
        """The report ``to_json`` wrote (parsed JSON); ``DecodeError`` naming the path of the
        first missing or mistyped value, e.g. ``$.seed`` or ``$.details.efficiency``."""
        if not isinstance(data, dict):
            return decode(cls, data)  # raises, naming what was found instead of an object
        if "seed" not in data:
            raise DecodeError("$.seed: missing")
        try:
            seed = parse_seed(data["seed"])
        except SeedError as exc:
            raise DecodeError(f"$.seed: {exc}") from None
        return decode(cls, {**data, "seed": seed})
