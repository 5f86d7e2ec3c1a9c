"""Every closed vocabulary of the benchmark, named once: the strings a field may hold.

Each vocabulary is a ``Literal`` alias (for annotations) and a tuple of its members in their
canonical order (for registries, loops and messages), the tuple read from the alias so the two
never disagree. Registries elsewhere (the run-size quotas, the generators, the answer-kind
checks, the reason texts) are keyed by these members, and ``tests/unit/test_vocab.py`` asserts
each registry's keys equal its vocabulary exactly: a member added here without its registry
entries fails a test that names the registry.

Why ``Literal`` and not ``StrEnum``: a member is the plain ``str`` it names, so no byte of a
dataset, transcript, report, receipt or stored row can change with this module (``json`` and
RFC 8785 see the same object as before), values read from JSON or SQL need no conversion, and
mypy still rejects a misspelt member or a plain ``str`` where a member is wanted. Data read at an
edge is narrowed by ``member`` (or by ``spec.codec.decode``, which checks every ``Literal`` field),
and an unknown value is an error naming the field and the value.

Stdlib only (``docs/design.md``, Layers): the spec may import no pydantic, typer or rich.
"""

from __future__ import annotations

from typing import Final, Literal, TypeVar, get_args

from dittobench.core.errors import DittobenchError

M = TypeVar("M", bound=str)

# -- memory -----------------------------------------------------------------------------------

MemoryQuestionType = Literal[
    "single_session_recall",
    "assistant_recall",
    "integrity_token",
    "stored_injection",
    "isolation",
    "write_instruction",
    "write_readback",
    "preference_application",
    "multi_session_count",
    "multi_session_list",
    "mention_count",
    "abstention_unknown",
    "abstention_near_miss",
    "abstention_never_visited",
    "knowledge_update",
    "point_in_time",
    "temporal_order",
    "temporal_duration",
    "activity_quit",
    "activity_ongoing",
]
"""A memory question type (``spec.memory.QUESTION_TYPES``), in report order."""

AnswerKind = Literal[
    "value",
    "number",
    "tally",
    "list",
    "ordered_list",
    "duration",
    "reversal",
    "persistence",
    "decline",
    "acknowledge",
]
"""How a memory answer is checked (``grade.memory_kinds.CHECKS``; docs/grading.md)."""

Dimension = Literal["recall", "temporal", "reasoning"]
"""Seed 003's three dimensions, reported beside the composite."""

WriteOp = Literal["save", "update", "delete"]
"""What a write instruction asks for (``MemoryCase.write_op``; "" on other cases)."""

OpenKind = Literal["summary", "change", "task", "multi_hop"]
"""What an open question asks for (``spec.open``)."""

MustNotReason = Literal["superseded", "look_alike", "someone_else", "not_answer"]
"""Why a rubric value must not be asserted (``spec.open.RubricItem.note``)."""

# -- tools ------------------------------------------------------------------------------------

ToolGroup = Literal["direct_routing", "routing_traps", "restraint", "multi_step", "result_usage"]
"""The groups of tool categories, in the order runs are stratified over them. The categories
themselves are data (each content pack's ``tools.json``), not a closed set of the code."""

# -- runs -------------------------------------------------------------------------------------

RunSizeName = Literal["small", "medium", "full", "long"]
"""A run size (``spec.sizes``); ``long`` only where a version's table has it (8.0.0)."""

RunCaseKind = Literal["tool", "memory", "open"]
"""What a case of a run's dataset and transcript is."""

CaseKind = Literal[RunCaseKind, "external"]
"""What a case record is (``CaseRecord.kind``): a run's kinds, or ``external`` for a question of
an external suite (``spec.external_transcript``)."""

AttemptOutcome = Literal[
    "ok",
    "timeout",
    "connection_error",
    "http_error",
    "bad_json",
    "too_large",
    "cancelled",
    "restarted",
]
"""How one request of a case went (``Attempt.outcome``, ``Execution.outcome``): ``restarted``
marks a case a resume must ask again (its wave was seeded again)."""

Schedule = Literal["safe", "overlap"]
"""How a run seeds and asks (``engine.orchestrate``; docs/engine.md): a wave's questions wait
for its seeding (``safe``), or seeding runs beside them (``overlap``)."""

RunStatus = Literal["running", "done", "failed", "interrupted"]
"""A stored run's status (``store.rows.RunRow.status``)."""

RunStage = Literal["generating", "starting", "seeding", "running", "scoring", "done"]
"""Where a stored run is (``store.rows.RunRow.stage``)."""

JobStatus = Literal[
    "queued",
    "building",
    "generating",
    "seeding",
    "running",
    "scoring",
    "done",
    "failed",
    "cancelled",
]
"""A service job's status, in the order a job moves through them (``store.jobs``)."""

JobMode = Literal["submit", "score", "archive"]
"""How a service job was asked for (``store.jobs.JobRow.mode``): ``POST /v1/submit``, ``POST
/v2/score`` (the dataset's hash pinned) or a submitted source archive."""

SeedSource = Literal["operator", "submitter"]
"""Who chose a run's seed (``spec.seeds``)."""

TrustTier = Literal["self-reported", "verified"]
"""How far a receipt's score is vouched for (``receipts.manifest``)."""

# -- external suites --------------------------------------------------------------------------

ExternalFormat = Literal["longmemeval", "locomo"]
"""The external formats read (``spec.external``)."""

GradedBy = Literal["value", "decline", "open"]
"""How an external question is graded: by the value rules, the decline rules or the judge."""

ExternalReason = Literal[
    "undelivered",
    "empty",
    "dump",
    "declined",
    "missing",
    "hedge",
    "wrong",
    "answered",
    "offered",
    "asserted",
    "ungrounded",
]
"""Why a rules-graded external question lost credit (``grade.external``,
``grade.external_values``)."""

# -- grading ----------------------------------------------------------------------------------

MemoryReason = Literal[
    "undelivered",
    "empty",
    "forbidden",
    "distractor",
    "dump_guard",
    "wrongful_decline",
    "unconfirmed",
    "typed",
    "partial",
]
"""Why a memory case lost credit, in grading order (``grade.memory``)."""

ToolReason = Literal[
    "undelivered",
    "empty",
    "self_reported",
    "wrong_tools",
    "no_call",
    "called_in_restraint",
    "arguments",
    "order",
    "extra_or_missing_calls",
    "decoy_figure",
    "no_figure",
]
"""Why a tool case lost credit (``grade.tools``)."""

ReasonCode = Literal["", MemoryReason, ToolReason]
"""A report's ``reason``: "" for full credit, else a memory or a tool reason (the nested
``Literal`` flattens, the reasons both kinds share listed once)."""

JudgeOutcome = Literal["ok", "unparsed", "http_error", "timeout", "connection_error", "bad_json"]
"""How one judge call went (``spec.judging``)."""

JudgedStatus = Literal["judged", "judge_error", "no_answer", "not_judged"]
"""How an open case's judging went (``spec.judging.CASE_STATUSES``)."""


def members_of(vocabulary: object) -> tuple[str, ...]:
    """The members of a ``Literal`` alias, in their order."""
    found = get_args(vocabulary)
    if not found or not all(isinstance(m, str) for m in found):
        raise TypeError(f"{vocabulary!r} is not a Literal of strings")
    return found


MEMORY_QUESTION_TYPES: Final[tuple[MemoryQuestionType, ...]] = get_args(MemoryQuestionType)
ANSWER_KINDS: Final[tuple[AnswerKind, ...]] = get_args(AnswerKind)
DIMENSIONS: Final[tuple[Dimension, ...]] = get_args(Dimension)
WRITE_OPS: Final[tuple[WriteOp, ...]] = get_args(WriteOp)
OPEN_KINDS: Final[tuple[OpenKind, ...]] = get_args(OpenKind)
MUST_NOT_REASONS: Final[tuple[MustNotReason, ...]] = get_args(MustNotReason)
TOOL_GROUPS: Final[tuple[ToolGroup, ...]] = get_args(ToolGroup)
RUN_SIZES: Final[tuple[RunSizeName, ...]] = get_args(RunSizeName)
CASE_KINDS: Final[tuple[CaseKind, ...]] = get_args(CaseKind)
RUN_CASE_KINDS: Final[tuple[RunCaseKind, ...]] = get_args(RunCaseKind)
ATTEMPT_OUTCOMES: Final[tuple[AttemptOutcome, ...]] = get_args(AttemptOutcome)
SCHEDULES: Final[tuple[Schedule, ...]] = get_args(Schedule)
RUN_STATUSES: Final[tuple[RunStatus, ...]] = get_args(RunStatus)
RUN_STAGES: Final[tuple[RunStage, ...]] = get_args(RunStage)
JOB_STATUSES: Final[tuple[JobStatus, ...]] = get_args(JobStatus)
JOB_MODES: Final[tuple[JobMode, ...]] = get_args(JobMode)
SEED_SOURCES: Final[tuple[SeedSource, ...]] = get_args(SeedSource)
TRUST_TIERS: Final[tuple[TrustTier, ...]] = get_args(TrustTier)
MEMORY_REASONS: Final[tuple[MemoryReason, ...]] = get_args(MemoryReason)
TOOL_REASONS: Final[tuple[ToolReason, ...]] = get_args(ToolReason)
REASON_CODES: Final[tuple[ReasonCode, ...]] = get_args(ReasonCode)
EXTERNAL_FORMATS: Final[tuple[ExternalFormat, ...]] = get_args(ExternalFormat)
GRADED_BY: Final[tuple[GradedBy, ...]] = get_args(GradedBy)
EXTERNAL_REASONS: Final[tuple[ExternalReason, ...]] = get_args(ExternalReason)
JUDGE_OUTCOMES: Final[tuple[JudgeOutcome, ...]] = get_args(JudgeOutcome)
JUDGED_STATUSES: Final[tuple[JudgedStatus, ...]] = get_args(JudgedStatus)


class VocabularyError(DittobenchError, ValueError):
    """A value that is not a member of the vocabulary its field takes."""

    http_status = 400


def member(vocabulary: tuple[M, ...], value: object, what: str) -> M:
    """``value`` as a member of ``vocabulary`` (one of the tuples above), or
    ``VocabularyError`` naming ``what`` (the field) and the value."""
    for known in vocabulary:
        if known == value:
            return known
    raise VocabularyError(
        f"{what}: unknown value {value!r:.60}; expected one of {', '.join(vocabulary)}"
    )


__all__ = [
    "ANSWER_KINDS",
    "ATTEMPT_OUTCOMES",
    "CASE_KINDS",
    "DIMENSIONS",
    "EXTERNAL_FORMATS",
    "EXTERNAL_REASONS",
    "GRADED_BY",
    "JOB_MODES",
    "JOB_STATUSES",
    "JUDGED_STATUSES",
    "JUDGE_OUTCOMES",
    "MEMORY_QUESTION_TYPES",
    "MEMORY_REASONS",
    "MUST_NOT_REASONS",
    "OPEN_KINDS",
    "REASON_CODES",
    "RUN_CASE_KINDS",
    "RUN_SIZES",
    "RUN_STAGES",
    "RUN_STATUSES",
    "SCHEDULES",
    "SEED_SOURCES",
    "TOOL_GROUPS",
    "TOOL_REASONS",
    "TRUST_TIERS",
    "WRITE_OPS",
    "AnswerKind",
    "AttemptOutcome",
    "CaseKind",
    "Dimension",
    "ExternalFormat",
    "ExternalReason",
    "GradedBy",
    "JobMode",
    "JobStatus",
    "JudgeOutcome",
    "JudgedStatus",
    "MemoryQuestionType",
    "MemoryReason",
    "MustNotReason",
    "OpenKind",
    "ReasonCode",
    "RunCaseKind",
    "RunSizeName",
    "RunStage",
    "RunStatus",
    "Schedule",
    "SeedSource",
    "ToolGroup",
    "ToolReason",
    "TrustTier",
    "VocabularyError",
    "member",
    "members_of",
]
