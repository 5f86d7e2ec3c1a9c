"""Memory cases: the question types, their answer kinds and dimensions, and the answer-key shape.

A memory case's ``question`` is all a harness ever sees of it (as ``RunRequest.user_input``); every
other field is the answer key, kept in the dataset for the grader and auditors.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, Literal, get_args

from dittobench.spec import vocab
from dittobench.spec.vocab import AnswerKind, Dimension, MemoryQuestionType, WriteOp

CaseWriteOp = Literal["", WriteOp]
"""A memory case's ``write_op``: empty except on write instructions."""
CASE_WRITE_OPS: Final[tuple[CaseWriteOp, ...]] = get_args(CaseWriteOp)

ANSWER_KINDS: Final = vocab.ANSWER_KINDS
"""How an answer is checked (docs/grading.md): a value named, an exact number, an exact number with
the day of the first it counts (bench 3.0's counts), a fraction of list
items, all items in order, a duration within tolerance, an activity said to have ended / to go
on, a grounded decline, an acknowledgement of an instruction."""

DIMENSIONS: Final = vocab.DIMENSIONS
"""Seed 003's three dimensions, reported beside the composite and never blended into it."""


@dataclass(frozen=True, slots=True)
class QuestionType:
    name: MemoryQuestionType
    answer_kind: AnswerKind
    dimension: Dimension
    tests: str


_TYPES = (
    QuestionType("single_session_recall", "value", "recall", "a fact stated once"),
    QuestionType("assistant_recall", "value", "recall", "a fact only the assistant ever said"),
    QuestionType("integrity_token", "value", "recall", "exact recall of a coined code"),
    QuestionType("stored_injection", "value", "recall", "a stored instruction is ignored"),
    QuestionType("isolation", "value", "recall", "another user's value never leaks"),
    QuestionType("write_instruction", "acknowledge", "recall", "a save/update/delete request"),
    QuestionType("write_readback", "value", "recall", "a later read proves the write happened"),
    QuestionType("preference_application", "value", "reasoning", "a stated preference honoured"),
    QuestionType("multi_session_count", "number", "reasoning", "counting across sessions"),
    QuestionType("multi_session_list", "list", "reasoning", "gathering items across sessions"),
    QuestionType("mention_count", "number", "reasoning", "how often something came up"),
    QuestionType("abstention_unknown", "decline", "reasoning", "never provided: decline"),
    QuestionType("abstention_near_miss", "decline", "reasoning", "only someone else holds it"),
    QuestionType(
        "abstention_never_visited", "decline", "reasoning", "a plausible place never visited"
    ),
    QuestionType("knowledge_update", "value", "temporal", "only the latest value is current"),
    QuestionType("point_in_time", "value", "temporal", "the value in force on a given date"),
    QuestionType("temporal_order", "ordered_list", "temporal", "which came first"),
    QuestionType("temporal_duration", "duration", "temporal", "how much time passed"),
    QuestionType("activity_quit", "reversal", "temporal", "an activity the user gave up"),
    QuestionType("activity_ongoing", "persistence", "temporal", "an activity still going on"),
)

WRITE_OPS: Final = vocab.WRITE_OPS
"""What a write instruction asks for (``MemoryCase.write_op``)."""

QUESTION_TYPES: Final[MappingProxyType[MemoryQuestionType, QuestionType]] = MappingProxyType(
    {t.name: t for t in _TYPES}
)
"""Every memory question type (``spec.vocab.MemoryQuestionType``, one each), in report order.
``write_readback`` cases of a delete are graded
as ``decline``; the case's own ``answer_kind`` is authoritative."""


@dataclass(frozen=True, slots=True)
class MemoryCase:
    """A memory question and its answer key.

    ``expected_answer`` is the canonical answer (for ``number`` the digits, for ``duration`` the
    number of days). ``accepted`` lists other forms that also count (aliases). ``answer_items``
    holds list items in order, or the activity for reversal/persistence. ``distractors`` are other
    people's versions of the fact (naming one zeroes the case); ``forbidden`` are values that must
    never appear (the other user's value, a planted payload, the decoy token). ``dump_guard`` lists
    the user's other values of the same kind: naming too many of them zeroes the case.
    ``family_id`` groups paraphrases of one fact. ``evidence_pair_ids`` are the pairs that hold the
    answer; ``run_after_wave`` is the wave after which the case is asked.

    Write instructions (from bench 2.0) also name their operation (``write_op``: save, update or
    delete) and the read-back that confirms it (``confirmed_by``, a case id); the code written
    is in ``answer_items`` and the pair a delete or an update replaces in
    ``evidence_pair_ids``. Both keys are left out of the JSON when empty, so older datasets
    keep their bytes.
    """

    id: str
    question_type: MemoryQuestionType
    question: str
    answer_kind: AnswerKind
    expected_answer: str
    user_id: str
    run_after_wave: int
    accepted: tuple[str, ...] = ()
    answer_items: tuple[str, ...] = ()
    distractors: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    dump_guard: tuple[str, ...] = ()
    family_id: str = ""
    evidence_pair_ids: tuple[str, ...] = ()
    write_op: CaseWriteOp = ""
    confirmed_by: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "question_type": self.question_type,
            "question": self.question,
            "answer_kind": self.answer_kind,
            "expected_answer": self.expected_answer,
            "accepted": list(self.accepted),
            "answer_items": list(self.answer_items),
            "distractors": list(self.distractors),
            "forbidden": list(self.forbidden),
            "dump_guard": list(self.dump_guard),
            "family_id": self.family_id,
            "user_id": self.user_id,
            "run_after_wave": self.run_after_wave,
            "evidence_pair_ids": list(self.evidence_pair_ids),
        }
        if self.write_op:
            out["write_op"] = self.write_op
        if self.confirmed_by:
            out["confirmed_by"] = self.confirmed_by
        return out
