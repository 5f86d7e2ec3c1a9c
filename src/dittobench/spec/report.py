"""The score report: what grading a transcript against its dataset produces.

Field names follow the reference engine's report where one exists (``composite``,
``composite_stderr``, ``tool_mean``, ``memory_mean``, ``median_ms``, ``n``, ``per_case``,
``per_category``, ``details``), so tooling written for it reads ours. Scores are rounded to six
decimal places. docs/grading.md explains every number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dittobench.core.prng import seed_text
from dittobench.spec.wire import to_wire


@dataclass(frozen=True, slots=True)
class CaseScore:
    """One graded case. ``tool_score`` is the trajectory part of a tool case; ``reason`` says why
    a case lost credit ("" when fully credited)."""

    case_id: str
    category: str
    kind: str
    score: float
    correct: bool
    reason: str = ""
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
    kind: str
    count: int
    mean: float
    std_err: float


@dataclass(frozen=True, slots=True)
class ScoreReport:
    benchmark: str
    bench_version: str
    grading_policy: str
    run_size: str
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
    dimensions: dict[str, float] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
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
            "details": dict(self.details),
        }
