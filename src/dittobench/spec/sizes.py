"""Run sizes: how many cases of each kind one run holds (seed 002's table; docs/bench-versions.md).

A ``RunSize`` is shared by the versions whose quotas agree; ``sizes(with_memory, with_open,
with_long)`` builds the sizes of a version: 1.0.0 has no memory side, 8.0.0 adds open questions and
a fourth size, ``long``: full's questions over a history of months (``HistoryScale``). The medium
and full quotas name every memory question type (``spec.vocab.MemoryQuestionType``) but
``isolation``, whose cases come on top (``isolation_cases``), and their open quotas every open
kind; the small quotas a few of them. ``tests/unit/test_vocab.py`` holds them to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from dittobench.spec import vocab
from dittobench.spec.vocab import MemoryQuestionType, OpenKind, RunSizeName

RUN_SIZE_NAMES: Final = vocab.RUN_SIZES

Quota = MappingProxyType[MemoryQuestionType, int]
OpenQuota = MappingProxyType[OpenKind, int]


@dataclass(frozen=True, slots=True)
class HistoryScale:
    """How a ``long`` run stretches the person's history past any context window: full's
    questions asked over at least ``LONG_MIN_PAIRS`` pairs and twelve months (docs/memory.md,
    "The long history"). Small, medium and full have none (their histories are drawn as ever)."""

    sessions: int
    """The person under test's sessions (full: about 27)."""
    gap_days: tuple[int, int]
    """Days between one session and the next, drawn in this range (never 0: one session a day
    at most keeps every timestamp in order)."""
    talk_turns: tuple[int, int]
    """Everyday-talk turns per session (small talk, work talk), drawn in this range (full: 1-2)."""
    talk_sentences: int
    """The most sentences of one everyday-talk turn (full: 1)."""
    most_states: int
    """A changing attribute takes 2 to this many values in turn (full: 4)."""
    background: int
    """Fixed attributes the person holds beyond what the questions need, each said and twisted
    like the others; every other kind is taken whole from the pack's library."""
    unheld_twins: int
    """Fixed attributes the person does not hold that get look-alikes (full: 12)."""
    twins_each: tuple[int, int]
    """Look-alikes of each twinned attribute, held or not (full: one, by chance, two at most)."""
    contacts: tuple[int, int]
    """The people in the person's circle (full: 6 to 9)."""
    near_misses: int
    """Up to this many further contacts' values of each attribute the person holds."""
    """Look-alikes of each twinned attribute, held or not (full: one, by chance, two at most)."""
    isolation_sessions: int
    """The second (isolation) user's sessions (full: 6), with the same talk per session."""


LONG_MIN_PAIRS: Final = 10_000
"""The fewest pairs a ``long`` history holds for the person under test (checked over seeds by
``tests/unit/test_long_size.py``)."""


@dataclass(frozen=True, slots=True)
class RunSize:
    """How much one run contains. The raw-pairs share is in thousandths to keep floats out of
    hashed bytes. ``memory_quota`` gives the number of memory cases of each question type
    (summing to ``memory_cases``); isolation cases come on top."""

    name: RunSizeName
    tool_cases: int
    waves: int
    raw_pairs_permille: int
    isolation_cases: int
    memory_quota: Quota
    open_quota: OpenQuota = field(default_factory=lambda: MappingProxyType({}))
    """Open questions of each kind (``spec.open.OPEN_KINDS``), judged for the nuance score and
    never part of the composite (bench 8.0)."""
    history: HistoryScale | None = None
    """How the history is stretched (``long`` only)."""

    @property
    def memory_cases(self) -> int:
        """Memory cases before isolation cases: the sum of the quota."""
        return sum(self.memory_quota.values())


_QUOTA_SMALL: dict[MemoryQuestionType, int] = {
    "integrity_token": 1,
    "single_session_recall": 1,
    "knowledge_update": 1,
    "point_in_time": 1,
    "abstention_near_miss": 1,
    "multi_session_count": 1,
}
_QUOTA_MEDIUM: dict[MemoryQuestionType, int] = {
    "integrity_token": 1,
    "single_session_recall": 8,
    "assistant_recall": 2,
    "stored_injection": 2,
    "write_instruction": 3,
    "write_readback": 3,
    "preference_application": 3,
    "multi_session_count": 2,
    "multi_session_list": 2,
    "mention_count": 2,
    "abstention_unknown": 2,
    "abstention_near_miss": 2,
    "abstention_never_visited": 1,
    "knowledge_update": 4,
    "point_in_time": 3,
    "temporal_order": 3,
    "temporal_duration": 3,
    "activity_quit": 3,
    "activity_ongoing": 3,
}
_QUOTA_FULL: dict[MemoryQuestionType, int] = {
    "integrity_token": 1,
    "single_session_recall": 32,
    "assistant_recall": 8,
    "stored_injection": 8,
    "write_instruction": 9,
    "write_readback": 9,
    "preference_application": 10,
    "multi_session_count": 8,
    "multi_session_list": 8,
    "mention_count": 8,
    "abstention_unknown": 8,
    "abstention_near_miss": 8,
    "abstention_never_visited": 2,
    "knowledge_update": 14,
    "point_in_time": 12,
    "temporal_order": 10,
    "temporal_duration": 10,
    "activity_quit": 10,
    "activity_ongoing": 10,
}

_NO_MEMORY: Quota = MappingProxyType({})
_NO_OPEN: OpenQuota = MappingProxyType({})


_OPEN_SMALL: dict[OpenKind, int] = {"summary": 1, "change": 1}
_OPEN_MEDIUM: dict[OpenKind, int] = {"summary": 2, "change": 2, "task": 2, "multi_hop": 2}
_OPEN_FULL: dict[OpenKind, int] = {"summary": 6, "change": 5, "task": 4, "multi_hop": 5}


LONG_HISTORY: Final = HistoryScale(
    sessions=320,
    gap_days=(1, 2),
    talk_turns=(27, 35),
    talk_sentences=3,
    most_states=8,
    background=30,
    unheld_twins=40,
    twins_each=(12, 24),
    contacts=(14, 20),
    near_misses=4,
    isolation_sessions=60,
)
"""About 480 days of near-daily sessions: some 10,500 pairs for the person under test."""


def sizes(
    with_memory: bool, with_open: bool = False, with_long: bool = False
) -> MappingProxyType[str, RunSize]:
    def quota(table: dict[MemoryQuestionType, int]) -> Quota:
        return MappingProxyType(table) if with_memory else _NO_MEMORY

    def open_quota(table: dict[OpenKind, int]) -> OpenQuota:
        return MappingProxyType(table) if with_open else _NO_OPEN

    return MappingProxyType(
        {
            "small": RunSize("small", 6, 1, 0, 0, quota(_QUOTA_SMALL), open_quota(_OPEN_SMALL)),
            "medium": RunSize(
                "medium",
                40,
                4,
                450,
                4 if with_memory else 0,
                quota(_QUOTA_MEDIUM),
                open_quota(_OPEN_MEDIUM),
            ),
            "full": RunSize(
                "full",
                84,
                5,
                500,
                10 if with_memory else 0,
                quota(_QUOTA_FULL),
                open_quota(_OPEN_FULL),
            ),
            **({"long": _long(quota(_QUOTA_FULL), open_quota(_OPEN_FULL))} if with_long else {}),
        }
    )


def _long(memory: Quota, open_kinds: OpenQuota) -> RunSize:
    """Full's questions and tool cases over ``LONG_HISTORY``, seeded in twelve waves."""
    return RunSize("long", 84, 12, 500, 10, memory, open_kinds, LONG_HISTORY)
