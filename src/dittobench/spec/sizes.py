"""Run sizes: how many cases of each kind one run holds (seed 002's table; docs/bench-versions.md).

A ``RunSize`` is shared by the versions whose quotas agree; ``sizes(with_memory, with_open,
long)`` builds the sizes of a version (the tables ``SIZES_*`` the versions name): 1.0.0 has no
memory side, 8.0.0 adds open questions and a fourth size, ``long``: full's questions over a
history of months (``HistoryScale``), which 8.1.0 tells its look-alikes again. The medium
and full quotas name every memory question type (``spec.vocab.MemoryQuestionType``) but
``isolation``, whose cases come on top (``isolation_cases``), and their open quotas every open
kind; the small quotas a few of them. ``tests/unit/test_vocab.py`` holds them to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Final, TypeVar

from dittobench.core.errors import DittobenchError
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
    isolation_sessions: int
    """The second (isolation) user's sessions (full: 6), with the same talk per session."""
    retell: tuple[int, int] | None = None
    """The chance that an everyday-talk turn also tells again a look-alike said in an earlier
    session, and, drawn apart, a contact's value said earlier (a near miss), so both come about
    as often per 1,000 pairs as in full (bench 8.1; None: never, as in 8.0.0's long)."""


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
"""About 480 days of near-daily sessions: some 10,500 pairs for the person under test (bench
8.0.0's long size: look-alikes and near misses each said once)."""
LONG_HISTORY_RETOLD: Final = replace(LONG_HISTORY, retell=(1, 5))
"""Bench 8.1's long history: 8.0.0's, its everyday talk telling look-alikes and near misses
again, so a thousand pairs hold about as many of each as full's (docs/memory.md)."""


def sizes(
    with_memory: bool, with_open: bool = False, long: HistoryScale | None = None
) -> MappingProxyType[str, RunSize]:
    """The four run sizes (``long`` only with a history to stretch it by)."""

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
            **({"long": _long(quota(_QUOTA_FULL), open_quota(_OPEN_FULL), long)} if long else {}),
        }
    )


def _long(memory: Quota, open_kinds: OpenQuota, history: HistoryScale) -> RunSize:
    """Full's questions and tool cases over ``history``, seeded in twelve waves."""
    return RunSize("long", 84, 12, 500, 10, memory, open_kinds, history)


Sizes = MappingProxyType[str, RunSize]
_K = TypeVar("_K")


class UnknownRunSizeError(DittobenchError, ValueError):
    """A run size name the version's table does not have."""

    http_status = 400


SIZES_TOOLS_ONLY: Final = sizes(with_memory=False)
"""1.0.0: tool cases only (memory quotas empty)."""
SIZES_1: Final = sizes(with_memory=True)
"""1.1.0 to 7.1.0: seed 002's table, one quota per question type."""
SIZES_8: Final = sizes(with_memory=True, with_open=True, long=LONG_HISTORY)
"""8.0.0: ``SIZES_1``, open questions, and ``long`` (added after release: no byte of the others)."""
SIZES_8_1: Final = sizes(with_memory=True, with_open=True, long=LONG_HISTORY_RETOLD)
"""8.1.0: 8.0.0's, its long history telling look-alikes and near misses again."""


def extended_sizes(
    base: Sizes,
    memory: Mapping[str, Mapping[Any, int]] | None = None,
    open_kinds: Mapping[str, Mapping[Any, int]] | None = None,
) -> Sizes:
    """A new version's run sizes: ``base`` with further quotas per run size (``{"full":
    {"new_type": 6}}``), in new tables, so ``base`` and every version naming it keep theirs."""
    memory, open_kinds = memory or {}, open_kinds or {}
    unknown = sorted((set(memory) | set(open_kinds)) - set(base))
    if unknown:
        raise UnknownRunSizeError(f"unknown run size {unknown[0]!r}; choose one of: {list(base)}")
    return MappingProxyType(
        {
            name: replace(
                size,
                memory_quota=_merged(size.memory_quota, memory.get(name, {})),
                open_quota=_merged(size.open_quota, open_kinds.get(name, {})),
            )
            for name, size in base.items()
        }
    )


def _merged(table: Mapping[_K, int], more: Mapping[_K, int]) -> MappingProxyType[_K, int]:
    return MappingProxyType({**table, **more})
