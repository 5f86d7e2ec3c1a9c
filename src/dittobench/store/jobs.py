"""The scoring service's jobs, kept in the run store beside the runs they drive.

A job is one submission: who sent it, what to run (harness, seed, size, bench version), where it
stands (``queued`` until a place is free, then the run's stages, then ``done``, ``failed`` or
``cancelled``), why it failed, and the receipt the service signed for it. The job's id is the
engine's run id, so the run's row, case records and report (``store.runs``) are found by it.

``ServiceStore`` is a ``RunStore`` that also reads and writes ``service_jobs`` (made by the
store's migrations with the run tables). Jobs survive a restart: the
service starts ``queued`` jobs again and resumes the ones that were running
(``service.jobs``). Like the rest of the store it never reads the clock: callers pass RFC 3339
UTC strings.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dittobench.core.prng import parse_seed, seed_text
from dittobench.spec import vocab
from dittobench.spec.seeds import SEED_SOURCES, SUBMITTER
from dittobench.spec.vocab import JobMode, JobStatus, RunSizeName, SeedSource
from dittobench.store import fleet, submissions, suites, translog, windows
from dittobench.store.errors import BadContentError, StoreError
from dittobench.store.fleet import WorkerRow
from dittobench.store.rows import check_source
from dittobench.store.runs import RunStore
from dittobench.store.submissions import SubmissionRow
from dittobench.store.suites import SuiteRow
from dittobench.store.windows import WindowRow

JOB_STATUSES: Final = vocab.JOB_STATUSES
"""Every status a job can have, in the order a job moves through them (seeding and running
alternate once per wave)."""
TERMINAL: Final[frozenset[JobStatus]] = frozenset({"done", "failed", "cancelled"})
ACTIVE: Final[frozenset[JobStatus]] = frozenset(
    {"building", "generating", "seeding", "running", "scoring"}
)

_metadata = sa.MetaData()

jobs_table = sa.Table(
    "service_jobs",
    _metadata,
    sa.Column("run_id", sa.Text, primary_key=True),
    sa.Column("seq", sa.Integer, nullable=False, unique=True),
    sa.Column("submitter", sa.Text, nullable=False),
    sa.Column("mode", sa.Text, nullable=False),
    sa.Column("harness_url", sa.Text, nullable=False),
    sa.Column("seed", sa.Text, nullable=False),
    sa.Column("run_size", sa.Text, nullable=False),
    sa.Column("bench_version", sa.Text, nullable=False),
    sa.Column("dataset_sha256", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("failure_kind", sa.Text, nullable=False),
    sa.Column("failure_retryable", sa.Integer, nullable=False),
    sa.Column("failure_message", sa.Text, nullable=False),
    sa.Column("cancelled_by", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Text, nullable=False),
    sa.Column("receipt_json", sa.Text, nullable=False),
    # Added by migration 0003: the worker driving (or that drove) the job, and its suite.
    sa.Column("worker", sa.Text, nullable=False, server_default=""),
    sa.Column("suite_id", sa.Text, nullable=False, server_default=""),
    # Added by migration 0005: who chose the seed (``spec.seeds``).
    sa.Column("seed_source", sa.Text, nullable=False, server_default="submitter"),
    # Added by migration 0006: the scoring window it runs in (``store.windows``), or "".
    sa.Column("window_id", sa.Text, nullable=False, server_default=""),
)


@dataclass(frozen=True, slots=True)
class JobRow:
    """One job. ``mode`` is ``submit`` (``POST /v1/submit``) or ``score`` (``POST /v2/score``,
    which pins ``dataset_sha256``); ``seq`` orders the queue."""

    run_id: str
    seq: int
    submitter: str
    mode: JobMode
    harness_url: str
    seed: int
    run_size: RunSizeName
    bench_version: str
    dataset_sha256: str
    status: JobStatus
    failure_kind: str
    failure_retryable: bool
    failure_message: str
    cancelled_by: str
    created_at: str
    updated_at: str
    receipt_json: str
    worker: str = ""
    """The worker that drives (or drove) it: ``host:pid`` of a Celery worker, ``""`` in-process."""
    suite_id: str = ""
    """The multi-seed suite it belongs to, or ``""``."""
    seed_source: SeedSource = SUBMITTER
    """Who chose the seed (``spec.seeds``): ``operator`` when the service drew it (no ``seed``
    given, and every run of a suite), ``submitter`` when the request named it."""
    window_id: str = ""
    """The scoring window it runs in (on the window's sealed pack), or ``""``."""


class ActiveJobError(StoreError):
    """The submitter already has a job that is queued or running (``run_id``)."""

    http_status = 409

    def __init__(self, message: str, run_id: str) -> None:
        super().__init__(message)
        self.run_id = run_id


class WindowStateError(StoreError):
    """A window that is not in the state the change needs (closed, unknown, or busy)."""

    http_status = 409


class ServiceStore(RunStore):
    """A run store that also keeps the service's jobs (``service_jobs``)."""

    # -- writes ---------------------------------------------------------------------------------

    def create_job(self, job: JobRow, *, one_per_submitter: bool = True) -> JobRow:
        """Queue ``job`` at the end (its ``seq`` is assigned here). With ``one_per_submitter``
        it is refused with ``ActiveJobError`` while its submitter has a job not yet finished."""
        check_source(job.seed_source)
        with self._writing() as conn:
            if one_per_submitter:
                active = self._active_of(conn, job.submitter)
                if active:
                    raise ActiveJobError(
                        f"{job.submitter} already has run {active} queued or running; wait for "
                        "it to finish or cancel it",
                        active,
                    )
            exists = conn.execute(
                sa.select(jobs_table.c.run_id).where(jobs_table.c.run_id == job.run_id)
            ).first()
            if exists is not None:
                raise StoreError(f"job {job.run_id!r} already exists in {self.where}")
            if job.window_id:
                window = windows.select(conn, job.window_id)
                if window is None or window.state != windows.OPEN:
                    raise WindowStateError(f"window {job.window_id} is not open")
            last = conn.execute(sa.select(sa.func.max(jobs_table.c.seq))).scalar()
            made = JobRow(**{**asdict(job), "seq": int(last or 0) + 1})
            conn.execute(jobs_table.insert().values(**_to_columns(made)))
        return made

    def update_job(
        self,
        run_id: str,
        *,
        updated_at: str,
        status: JobStatus | None = None,
        failure: tuple[str, bool, str] | None = None,
        cancelled_by: str | None = None,
        receipt_json: str | None = None,
        worker: str | None = None,
        only_from: frozenset[JobStatus] | None = None,
    ) -> bool:
        """Change the fields given. With ``only_from`` the change happens only while the job's
        status is one of them (so a finished job is never reopened); returns whether it did."""
        values: dict[str, Any] = {"updated_at": updated_at}
        if status is not None:
            _check_status(status, run_id)
            values["status"] = status
        if failure is not None:
            kind, retryable, message = failure
            values |= {
                "failure_kind": kind,
                "failure_retryable": int(retryable),
                "failure_message": message,
            }
        if cancelled_by is not None:
            values["cancelled_by"] = cancelled_by
        if receipt_json is not None:
            values["receipt_json"] = receipt_json
        if worker is not None:
            values["worker"] = worker
        where = jobs_table.c.run_id == run_id
        if only_from is not None:
            where = where & jobs_table.c.status.in_(sorted(only_from))
        with self._writing() as conn:
            changed = conn.execute(jobs_table.update().where(where).values(**values)).rowcount
            if not changed and only_from is None:
                raise StoreError(f"no job {run_id!r} in {self.where}")
        return bool(changed)

    # -- workers (distributed mode) -------------------------------------------------------------

    def beat_worker(self, worker: WorkerRow) -> None:
        """A worker's heartbeat (``store.fleet``)."""
        with self._writing() as conn:
            fleet.beat(conn, worker)

    def worker_finished_run(self, name: str) -> None:
        with self._writing() as conn:
            fleet.count_done(conn, name)

    def workers_seen_since(self, since: str) -> list[WorkerRow]:
        with self._reading() as conn:
            return fleet.seen_since(conn, since)

    def runs_per_worker(self) -> dict[str, int]:
        """How many jobs each worker has brought to ``done`` (worker name -> count)."""
        query = (
            sa.select(jobs_table.c.worker, sa.func.count())
            .where((jobs_table.c.worker != "") & (jobs_table.c.status == "done"))
            .group_by(jobs_table.c.worker)
        )
        with self._reading() as conn:
            return {str(name): int(count) for name, count in conn.execute(query).all()}

    def job_places(self) -> dict[str, tuple[str, str]]:
        """run id -> (worker, suite id) of every job that has either (read-only; the runs page
        shows the worker and folds a suite's runs into one row)."""
        c = jobs_table.c
        query = sa.select(c.run_id, c.worker, c.suite_id).where(
            (c.worker != "") | (c.suite_id != "")
        )
        with self._reading() as conn:
            return {str(r): (str(w), str(s)) for r, w, s in conn.execute(query).all()}

    def count_jobs(self, status: JobStatus) -> int:
        """How many jobs have ``status`` (``queued``: the queue's depth)."""
        query = sa.select(sa.func.count()).select_from(jobs_table)
        with self._reading() as conn:
            return int(conn.execute(query.where(jobs_table.c.status == status)).scalar() or 0)

    # -- suites ---------------------------------------------------------------------------------

    def create_suite(self, suite: SuiteRow) -> None:
        with self._writing() as conn:
            suites.insert(conn, suite, self.where)

    def get_suite(self, suite_id: str) -> SuiteRow | None:
        with self._reading() as conn:
            return suites.select(conn, suite_id)

    def set_suite_receipt(self, suite_id: str, receipt_json: str, *, updated_at: str) -> bool:
        """Keep the suite's receipt unless it has one; whether this one was kept."""
        with self._writing() as conn:
            return suites.set_receipt(conn, suite_id, receipt_json, updated_at)

    # -- submitted archives (store.submissions) -------------------------------------------------

    def create_submission(self, row: SubmissionRow) -> None:
        with self._writing() as conn:
            submissions.insert(conn, row, self.where)

    def delete_submission(self, run_id: str) -> None:
        with self._writing() as conn:
            submissions.delete(conn, run_id)

    def get_submission(self, run_id: str) -> SubmissionRow | None:
        with self._reading() as conn:
            return submissions.select(conn, run_id)

    def fingerprints_before(self, row: SubmissionRow) -> list[tuple[str, str, str, str]]:
        """``(run_id, submitter, archive_sha256, fingerprint_json)`` of earlier submissions."""
        with self._reading() as conn:
            return submissions.fingerprints_before(conn, row.created_at, row.run_id)

    # -- scoring windows and the transparency log (store.windows, store.translog) --------------

    def open_window(self, row: WindowRow, entry: translog.EntryMaker, now: str) -> int:
        """Keep the window and log its opening in one transaction; the entry's index."""
        with self._writing() as conn:
            windows.insert(conn, row)
            return translog.append(conn, entry, now)[0]

    def reveal_window(self, window_id: str, entry: translog.EntryMaker, now: str) -> int:
        """Mark an open window revealed and log it in one transaction; the entry's index.
        ``WindowStateError`` when it is not open or a run of it is not finished."""
        with self._writing() as conn:
            busy = conn.execute(
                sa.select(jobs_table.c.run_id).where(
                    (jobs_table.c.window_id == window_id)
                    & jobs_table.c.status.notin_(sorted(TERMINAL))
                )
            ).first()
            if busy is not None:
                raise WindowStateError(f"run {busy[0]} of window {window_id} is not finished")
            if not windows.mark_revealed(conn, window_id, now):
                raise WindowStateError(f"window {window_id} is not open")
            return translog.append(conn, entry, now)[0]

    def get_window(self, window_id: str) -> WindowRow | None:
        with self._reading() as conn:
            return windows.select(conn, window_id)

    def list_windows(self) -> list[WindowRow]:
        with self._reading() as conn:
            return windows.select_all(conn)

    def append_log(self, entry: translog.EntryMaker, now: str) -> tuple[int, bytes]:
        with self._writing() as conn:
            return translog.append(conn, entry, now)

    def log_size(self) -> int:
        with self._reading() as conn:
            return translog.size(conn)

    def log_entries(self, start: int, end: int) -> list[bytes]:
        with self._reading() as conn:
            return translog.read(conn, start, end)

    # -- reads ----------------------------------------------------------------------------------

    def get_job(self, run_id: str) -> JobRow | None:
        with self._reading() as conn:
            row = conn.execute(sa.select(jobs_table).where(jobs_table.c.run_id == run_id)).first()
        return None if row is None else _from_row(row)

    def list_jobs(
        self,
        *,
        status: str | None = None,
        submitter: str | None = None,
        limit: int = 20,
        offset: int = 0,
    ) -> tuple[list[JobRow], int]:
        """Jobs newest first (by queue order), and how many match in all."""
        where: sa.ColumnElement[bool] = sa.true()
        if status is not None:
            where = where & (jobs_table.c.status == status)
        if submitter is not None:
            where = where & (jobs_table.c.submitter == submitter)
        query = (
            sa.select(jobs_table)
            .where(where)
            .order_by(jobs_table.c.seq.desc())
            .limit(limit)
            .offset(offset)
        )
        count = sa.select(sa.func.count()).select_from(jobs_table).where(where)
        with self._reading() as conn:
            rows = conn.execute(query).all()
            total = int(conn.execute(count).scalar() or 0)
        return [_from_row(row) for row in rows], total

    def jobs_in(self, statuses: frozenset[str]) -> list[JobRow]:
        """Every job whose status is one of ``statuses``, in queue order (oldest first)."""
        query = (
            sa.select(jobs_table)
            .where(jobs_table.c.status.in_(sorted(statuses)))
            .order_by(jobs_table.c.seq)
        )
        with self._reading() as conn:
            return [_from_row(row) for row in conn.execute(query).all()]

    def _active_of(self, conn: Connection, submitter: str) -> str:
        found = conn.execute(
            sa.select(jobs_table.c.run_id)
            .where(
                (jobs_table.c.submitter == submitter) & jobs_table.c.status.notin_(sorted(TERMINAL))
            )
            .order_by(jobs_table.c.seq)
        ).first()
        return "" if found is None else str(found[0])


def _check_status(status: str, run_id: str) -> None:
    if status not in JOB_STATUSES:
        raise StoreError(f"job {run_id!r}: unknown status {status!r}")


def _to_columns(job: JobRow) -> dict[str, Any]:
    values = asdict(job)
    values["seed"] = seed_text(job.seed)
    values["failure_retryable"] = int(job.failure_retryable)
    return values


def _from_row(row: sa.Row[Any]) -> JobRow:
    values = dict(row._mapping)
    run_id = values.get("run_id")
    try:
        values["seed"] = parse_seed(values["seed"])
        values["failure_retryable"] = bool(values["failure_retryable"])
        values["seq"] = int(values["seq"])
        job = JobRow(**values)
    except (ValueError, TypeError, KeyError) as exc:
        raise BadContentError(f"job {run_id!r}: unreadable row ({exc})") from None
    if job.status not in JOB_STATUSES:
        raise BadContentError(f"job {run_id!r}: column status holds {job.status!r}")
    if job.seed_source not in SEED_SOURCES:
        raise BadContentError(f"job {run_id!r}: column seed_source holds {job.seed_source!r:.40}")
    if job.run_size not in vocab.RUN_SIZES:
        raise BadContentError(f"job {run_id!r}: column run_size holds {job.run_size!r:.40}")
    if job.mode not in vocab.JOB_MODES:
        raise BadContentError(f"job {run_id!r}: column mode holds {job.mode!r:.40}")
    return job


__all__ = [
    "ACTIVE",
    "JOB_STATUSES",
    "TERMINAL",
    "ActiveJobError",
    "JobRow",
    "ServiceStore",
    "WindowStateError",
]
