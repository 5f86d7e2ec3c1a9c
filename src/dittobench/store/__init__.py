"""The run store: durable runs, case records and reports for the scoring engine."""

from dittobench.store.interface import RunStorage
from dittobench.store.runs import (
    STAGES,
    STATUSES,
    BadContentError,
    NoStoreError,
    RunRow,
    RunStore,
    StoreError,
    UnreadableRun,
)

__all__ = [
    "STAGES",
    "STATUSES",
    "BadContentError",
    "NoStoreError",
    "RunRow",
    "RunStorage",
    "RunStore",
    "StoreError",
    "UnreadableRun",
]
