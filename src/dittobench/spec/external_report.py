"""The report of an external suite's run: per question, per source type and overall, with the
part graded by rules and the part the judge scored kept apart, and never a dittobench score.

``rules`` covers the value and decline questions (fixed rules, recomputed by anyone from the
suite and the transcript); ``judged`` the open questions (the locked judge's verdicts, recomputed
by rules from the replies the transcript records; unjudged when no judge was asked). ``sha256``
is the SHA-256 of the RFC 8785 bytes of ``to_json()``; the receipt binds it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

from dittobench.core.hashing import canonical_sha256
from dittobench.spec.external import SUITE_BENCHMARK, Selection
from dittobench.spec.judging import NuanceScore
from dittobench.spec.vocab import ExternalReason, GradedBy, JudgedStatus

ExternalStatus = Literal["graded", JudgedStatus]
"""An external verdict's status: graded by rules, or the judge's case status."""

EXTERNAL_GRADING: Final = "external-grading-1"
"""Names the rules that grade value and decline questions (``grade.external``): a change to
them is a new name."""

LABEL: Final = "external suite, not a dittobench score"
"""What every summary of an external run says it is."""


@dataclass(frozen=True, slots=True)
class ExternalVerdict:
    """One question as graded. ``status``: ``graded`` (by rules), or the judge's case status
    (``spec.judging.CASE_STATUSES``) for an open question; ``score`` is None while unjudged or
    after a judge error; ``reason`` says why a rules-graded question lost credit ("" when it
    passed)."""

    question_id: str
    source_type: str
    graded_by: GradedBy
    abstention: bool
    status: ExternalStatus
    score: float | None
    reason: Literal["", ExternalReason] = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "question_id": self.question_id,
            "source_type": self.source_type,
            "graded_by": self.graded_by,
            "abstention": self.abstention,
            "status": self.status,
            "score": self.score,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Part:
    """A mean over some questions: how many there are, how many were scored, their mean and
    standard error (None and 0 when none was scored)."""

    n: int
    scored: int
    mean: float | None
    stderr: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "scored": self.scored, "mean": self.mean, "stderr": self.stderr}


@dataclass(frozen=True, slots=True)
class TypeSummary:
    """One source type or category: all its questions, the rules-graded part, the judged part
    and how many open questions ended in a judge error or went unjudged."""

    source_type: str
    n: int
    rules: Part
    judged: Part
    judge_errors: int = 0
    not_judged: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "source_type": self.source_type,
            "n": self.n,
            "rules": self.rules.to_json(),
            "judged": self.judged.to_json(),
            "judge_errors": self.judge_errors,
            "not_judged": self.not_judged,
        }


@dataclass(frozen=True, slots=True)
class ExternalReport:
    format: str
    release: str
    source_sha256: str
    suite_sha256: str
    transcript_sha256: str
    harness: str
    grading: str
    rules: Part
    judged: Part
    per_type: tuple[TypeSummary, ...]
    per_question: tuple[ExternalVerdict, ...]
    nuance: NuanceScore
    allow_unknown: bool = False
    identity: dict[str, str] | None = None
    selection: Selection = field(default_factory=Selection)

    def to_json(self) -> dict[str, Any]:
        return {
            "benchmark": SUITE_BENCHMARK,
            "label": LABEL,
            "format": self.format,
            "release": self.release,
            "allow_unknown": self.allow_unknown,
            "selection": self.selection.to_json(),
            "source_sha256": self.source_sha256,
            "suite_sha256": self.suite_sha256,
            "transcript_sha256": self.transcript_sha256,
            "harness": self.harness,
            "identity": dict(sorted((self.identity or {}).items())),
            "grading": self.grading,
            "rules": self.rules.to_json(),
            "judged": self.judged.to_json(),
            "judge": {
                "id": self.nuance.judge_id,
                "model": self.nuance.judge_model,
                "protocol_sha256": self.nuance.protocol_sha256,
                "official": self.nuance.official,
                "judge_errors": self.nuance.judge_errors,
            },
            "per_type": [t.to_json() for t in self.per_type],
            "per_question": [v.to_json() for v in self.per_question],
        }

    @property
    def sha256(self) -> str:
        return canonical_sha256(self.to_json())


__all__ = [
    "EXTERNAL_GRADING",
    "LABEL",
    "ExternalReport",
    "ExternalVerdict",
    "Part",
    "TypeSummary",
]
