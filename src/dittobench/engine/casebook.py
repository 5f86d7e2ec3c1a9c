"""Case records written to the run store a few at a time.

Writing each finished case in a transaction of its own cost more of the engine's time than
sending the case (issue 33). ``BatchedStore`` stands in front of a run's store and keeps finished
cases for a moment: they are written together, in one transaction, once ``BATCH_CASES`` are
waiting or ``BATCH_WAIT_S`` after the first of them finished, whichever comes first, and always
before any other call reaches the store (so a wave is never marked seeded, nor a run's stage
moved, before the cases that came before it are kept) and when the run stops, however it stops
(an error, Ctrl-C, a lost lease). Only a process killed outright loses the cases that finished in
its last ``BATCH_WAIT_S``: they were never recorded, so a resume asks them again, like a case that
was in flight. Everything else passes through as it is.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from dittobench.spec.transcript import CaseRecord
from dittobench.spec.vocab import CaseKind, RunStage, RunStatus, Schedule
from dittobench.store import RunRow, RunStorage

BATCH_CASES = 16
"""Finished cases written in one transaction at most; reaching it writes them at once."""
BATCH_WAIT_S = 0.2
"""The longest a finished case waits to be written (a slow harness's cases go one by one)."""


class BatchedStore:
    """A run store whose ``record_case`` is batched (module docstring). Use it on the event
    loop that drives the run, and ``flush`` it when the run stops. A write that failed in the
    background (the store was unreachable, the lease was lost) is raised by the next call."""

    def __init__(self, store: RunStorage) -> None:
        self._store = store
        self._pending: dict[str, tuple[CaseKind, dict[str, Any]]] = {}
        self._key: tuple[str, str] = ("", "")
        """The run and lease holder of the pending records."""
        self._stamp = ""
        self._timer: asyncio.TimerHandle | None = None
        self._failed: BaseException | None = None
        self.batches = 0
        """Transactions written so far (tests check the batching with it)."""

    @property
    def where(self) -> str:
        """Where the store lives, for messages."""
        return self._store.where

    def record_case(
        self,
        run_id: str,
        case_id: str,
        kind: CaseKind,
        record: dict[str, Any],
        *,
        updated_at: str,
        holder: str = "",
    ) -> None:
        """Keep the record for the next batch (a case recorded twice keeps its last record)."""
        self._raise_failure()
        if self._pending and self._key != (run_id, holder):
            self.flush()
        self._key, self._stamp = (run_id, holder), updated_at
        self._pending.pop(case_id, None)
        self._pending[case_id] = (kind, record)
        if len(self._pending) >= BATCH_CASES:
            self.flush()
        elif self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop to wait on: write it now
                self.flush()
                return
            self._timer = loop.call_later(BATCH_WAIT_S, self._due)

    def flush(self) -> None:
        """Write every pending record now, in one transaction."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._raise_failure()
        if not self._pending:
            return
        batch = [(case_id, kind, record) for case_id, (kind, record) in self._pending.items()]
        self._pending = {}
        run_id, holder = self._key
        self.batches += 1
        self._store.record_cases(run_id, batch, updated_at=self._stamp, holder=holder)

    def _due(self) -> None:
        self._timer = None
        try:
            self.flush()
        except Exception as exc:  # raised to the run by its next call
            self._failed = exc

    def _raise_failure(self) -> None:
        failed, self._failed = self._failed, None
        if failed is not None:
            raise failed

    # -- everything else: the pending records first, then the store itself ----------------------

    def record_cases(
        self,
        run_id: str,
        records: Sequence[tuple[str, CaseKind, dict[str, Any]]],
        *,
        updated_at: str,
        holder: str = "",
    ) -> None:
        """The pending records, then these, each batch in a transaction of its own."""
        self.flush()
        self._store.record_cases(run_id, records, updated_at=updated_at, holder=holder)

    def create_run(self, run: RunRow) -> None:
        """Passed through once the pending records are kept."""
        self.flush()
        self._store.create_run(run)

    def update_run(
        self,
        run_id: str,
        *,
        updated_at: str,
        status: RunStatus | None = None,
        stage: RunStage | None = None,
        error: str | None = None,
        cases_total: int | None = None,
        waves_seeded: int | None = None,
        schedule: Schedule | None = None,
        resumes: int | None = None,
    ) -> None:
        """Passed through once the pending records are kept: a wave is marked seeded only
        after the cases before it are."""
        self.flush()
        self._store.update_run(
            run_id,
            updated_at=updated_at,
            status=status,
            stage=stage,
            error=error,
            cases_total=cases_total,
            waves_seeded=waves_seeded,
            schedule=schedule,
            resumes=resumes,
        )

    def save_report(
        self, run_id: str, report: dict[str, Any], transcript: dict[str, Any], *, updated_at: str
    ) -> None:
        """Passed through once the pending records are kept."""
        self.flush()
        self._store.save_report(run_id, report, transcript, updated_at=updated_at)

    def claim_run(
        self, run_id: str, owner: str, *, now: str, until: str, take_over: str = ""
    ) -> None:
        """Passed through once the pending records are kept."""
        self.flush()
        self._store.claim_run(run_id, owner, now=now, until=until, take_over=take_over)

    def renew_lease(self, run_id: str, owner: str, *, until: str) -> bool:
        """Passed through as it is (the lease keeper's thread calls the store itself)."""
        return self._store.renew_lease(run_id, owner, until=until)

    def release_run(self, run_id: str, owner: str) -> None:
        """Passed through once the pending records are kept."""
        self.flush()
        self._store.release_run(run_id, owner)

    def get_run(self, run_id: str) -> RunRow:
        """Read once the pending records are kept (``cases_done`` counts them)."""
        self.flush()
        return self._store.get_run(run_id)

    def recorded_cases(self, run_id: str) -> dict[str, dict[str, Any]]:
        """Read once the pending records are kept."""
        self.flush()
        return self._store.recorded_cases(run_id)

    def case_records(self, run_id: str) -> dict[str, CaseRecord]:
        """Read once the pending records are kept."""
        self.flush()
        return self._store.case_records(run_id)


__all__ = ["BATCH_CASES", "BATCH_WAIT_S", "BatchedStore"]
