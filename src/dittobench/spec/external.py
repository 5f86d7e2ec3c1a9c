"""An external suite: a published memory benchmark (LongMemEval, LoCoMo) read into the engine's
shapes, so any harness is driven through it like a dittobench run and scored apart from the
dittobench score, never blended into it (docs/external.md).

A suite is the users, each with the waves of pairs they are seeded with (``spec.wire``
``SeedRequest``/``Pair``, the session's date as each pair's timestamp), and the questions asked
after a user's last wave. Each question carries its gold answer, its source type or category,
whether it asks for a decline, and how it is graded: ``value`` (a short answer, fixed rules),
``decline`` (an abstention question, fixed rules) or ``open`` (the locked judge, against a rubric
made from the gold answer). ``sha256`` is the SHA-256 of the RFC 8785 bytes of ``to_json()``, so
a receipt binds exactly what was asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

from dittobench.core.hashing import canonical_sha256
from dittobench.spec import vocab
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.vocab import GradedBy
from dittobench.spec.wire import SeedRequest, to_wire

FORMATS: Final = vocab.EXTERNAL_FORMATS
"""The external formats read: LongMemEval's JSON files and LoCoMo's ``locomo10.json``."""

GRADED_BY: Final = vocab.GRADED_BY
"""How an external question is graded: a short gold value by rules, an abstention question by
the decline rules, the rest by the locked judge."""

LONGMEMEVAL_TYPES: Final = (
    "single-session-user",
    "single-session-assistant",
    "single-session-preference",
    "multi-session",
    "knowledge-update",
    "temporal-reasoning",
)
"""LongMemEval's question types (``question_type``), in report order."""

LOCOMO_CATEGORIES: Final = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
"""LoCoMo's question categories by number, named as its own evaluation reads them
(task_eval/evaluation.py), in report order."""

SOURCE_TYPES: Final = {
    "longmemeval": LONGMEMEVAL_TYPES,
    "locomo": tuple(LOCOMO_CATEGORIES.values()),
}
"""Each format's source types, in report order."""

LOADER: Final = "dittobench-external-1"
"""Names the mapping from a source file to a suite (ids, waves, pairs, grading classes): a
change to it is a new name, so a suite hash never changes meaning."""

SUITE_BENCHMARK: Final = "dittobench-external"
"""What every external suite, transcript, report and receipt says it is: not dittobench."""


@dataclass(frozen=True, slots=True)
class SourceFile:
    """The file a suite was read from: its format, SHA-256 and size, the known release it
    matched ("" when none) and whether an unknown file was allowed on purpose."""

    format: str
    sha256: str
    bytes: int
    release: str = ""
    allow_unknown: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "sha256": self.sha256,
            "bytes": self.bytes,
            "release": self.release,
            "allow_unknown": self.allow_unknown,
        }


@dataclass(frozen=True, slots=True)
class Selection:
    """Which of the file's questions were kept: the source types asked for (all when empty),
    then the first ``limit`` in file order (all when 0)."""

    types: tuple[str, ...] = ()
    limit: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"types": list(self.types), "limit": self.limit}


@dataclass(frozen=True, slots=True)
class ExternalQuestion:
    """One question. ``gold`` is the source's answer as text; ``question_date`` the moment it is
    asked, RFC 3339 in UTC ("" when the source gives none); ``source_type`` the LongMemEval
    question type or the LoCoMo category's name; ``source_id`` where it is in the file;
    ``facts`` the rubric facts of an open question (what a good answer states);
    ``not_answers`` values a reply must not assert (LoCoMo's adversarial answer);
    ``evidence`` the source's evidence ids (LongMemEval session ids, LoCoMo dialog ids)."""

    id: str
    user_id: str
    question: str
    gold: str
    question_date: str
    source_type: str
    source_id: str
    abstention: bool
    graded_by: GradedBy
    facts: tuple[str, ...] = ()
    not_answers: tuple[str, ...] = ()
    evidence: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "user_id": self.user_id,
            "question": self.question,
            "gold": self.gold,
            "question_date": self.question_date,
            "source_type": self.source_type,
            "source_id": self.source_id,
            "abstention": self.abstention,
            "graded_by": self.graded_by,
            "facts": list(self.facts),
            "not_answers": list(self.not_answers),
            "evidence": list(self.evidence),
        }


@dataclass(frozen=True, slots=True)
class ExternalUser:
    """One user of a suite (a LongMemEval instance, a LoCoMo sample) and the waves they are
    seeded with, in order (``wave`` 0, 1, 2…)."""

    id: str
    waves: tuple[SeedRequest, ...]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "waves": [to_wire(w) for w in self.waves]}


@dataclass(frozen=True)
class ExternalSuite:
    """A source file read into users and questions. ``skipped_sessions`` counts the source's
    sessions that held no turn (no wave is made of them)."""

    source: SourceFile
    selection: Selection
    users: tuple[ExternalUser, ...]
    questions: tuple[ExternalQuestion, ...]
    skipped_sessions: int = 0
    loader: str = LOADER

    def to_json(self) -> dict[str, Any]:
        return {
            "benchmark": SUITE_BENCHMARK,
            "loader": self.loader,
            "source": self.source.to_json(),
            "selection": self.selection.to_json(),
            "skipped_sessions": self.skipped_sessions,
            "users": [u.to_json() for u in self.users],
            "questions": [q.to_json() for q in self.questions],
        }

    @cached_property
    def sha256(self) -> str:
        """The suite hash a transcript, a report and a receipt name (computed once: a
        LongMemEval suite's JSON is hundreds of megabytes)."""
        return canonical_sha256(self.to_json())

    def user(self, user_id: str) -> ExternalUser:
        """The user of that id (``KeyError`` when the suite has none)."""
        for user in self.users:
            if user.id == user_id:
                return user
        raise KeyError(user_id)

    @classmethod
    def from_json(cls, data: Any) -> ExternalSuite:
        """A suite read back from its JSON; ``DecodeError`` naming the path of the first
        problem."""
        if not isinstance(data, dict) or data.get("benchmark") != SUITE_BENCHMARK:
            raise DecodeError(f"$.benchmark: expected {SUITE_BENCHMARK!r}")
        suite = decode(cls, data)
        check_suite(suite)
        return suite


def check_suite(suite: ExternalSuite) -> None:
    """``DecodeError`` naming the first field that no loader makes: an unknown format or grading
    class, a question whose user is missing, a repeated id."""
    if suite.source.format not in FORMATS:
        raise DecodeError(f"$.source.format: {suite.source.format!r} is not one of {FORMATS}")
    users = [u.id for u in suite.users]
    if len(set(users)) != len(users):
        raise DecodeError("$.users: a user id appears twice")
    ids = [q.id for q in suite.questions]
    if len(set(ids)) != len(ids):
        raise DecodeError("$.questions: a question id appears twice")
    known = set(users)
    for index, question in enumerate(suite.questions):
        where = f"$.questions[{index}]"
        if question.graded_by not in GRADED_BY:
            raise DecodeError(
                f"{where}.graded_by: {question.graded_by!r} is not one of {GRADED_BY}"
            )
        if question.user_id not in known:
            raise DecodeError(f"{where}.user_id: no user {question.user_id!r} in the suite")


__all__ = [
    "FORMATS",
    "GRADED_BY",
    "LOADER",
    "LOCOMO_CATEGORIES",
    "LONGMEMEVAL_TYPES",
    "SOURCE_TYPES",
    "SUITE_BENCHMARK",
    "ExternalQuestion",
    "ExternalSuite",
    "ExternalUser",
    "Selection",
    "SourceFile",
    "check_suite",
]
