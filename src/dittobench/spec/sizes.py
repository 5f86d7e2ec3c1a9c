"""Run sizes: how many cases of each kind one run holds (seed 002's table; docs/bench-versions.md).

A ``RunSize`` is shared by the versions whose quotas agree; ``sizes(with_memory, with_open)`` builds
the three sizes of a version: 1.0.0 has no memory side, 8.0.0 adds open questions. The medium
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


def sizes(with_memory: bool, with_open: bool = False) -> MappingProxyType[str, RunSize]:
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
        }
    )
