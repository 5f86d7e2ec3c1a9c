"""The run store: durable runs, case records and reports for the scoring engine."""

from dittobench.store.runs import STAGES, STATUSES, RunRow, RunStore, StoreError

__all__ = ["STAGES", "STATUSES", "RunRow", "RunStore", "StoreError"]
