"""What the scoring engine needs of a run store: the calls it makes, as a Protocol, so the engine
depends on this interface and any store that keeps these promises (``RunStore`` on SQLAlchemy,
or another) can stand behind it."""

from __future__ import annotations

from typing import Any, Protocol

from dittobench.spec.transcript import CaseRecord
from dittobench.spec.vocab import CaseKind, RunStage, RunStatus, Schedule
from dittobench.store.rows import RunRow


class RunStorage(Protocol):
    """Runs, their case records and reports; every write is one transaction, safe to call from
    two threads (the run and its lease keeper). Failures raise ``store.StoreError``."""

    @property
    def where(self) -> str:
        """Where the store lives, for messages, without secrets."""
        ...

    def create_run(self, run: RunRow) -> None: ...

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
    ) -> None: ...

    def record_case(
        self,
        run_id: str,
        case_id: str,
        kind: CaseKind,
        record: dict[str, Any],
        *,
        updated_at: str,
        holder: str = "",
    ) -> None: ...

    def save_report(
        self, run_id: str, report: dict[str, Any], transcript: dict[str, Any], *, updated_at: str
    ) -> None: ...

    def claim_run(
        self, run_id: str, owner: str, *, now: str, until: str, take_over: str = ""
    ) -> None: ...

    def renew_lease(self, run_id: str, owner: str, *, until: str) -> bool: ...

    def release_run(self, run_id: str, owner: str) -> None: ...

    def get_run(self, run_id: str) -> RunRow: ...

    def recorded_cases(self, run_id: str) -> dict[str, dict[str, Any]]: ...

    def case_records(self, run_id: str) -> dict[str, CaseRecord]: ...


__all__ = ["RunStorage"]
