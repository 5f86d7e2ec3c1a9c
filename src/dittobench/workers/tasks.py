"""What a worker does with a delivered run id: drive its job once, whoever else got it too.

A task is idempotent. The job decides: an unknown or finished job is left alone; a queued one is
taken with one conditional update (of two deliveries at once, one takes it, the other finds it
taken); a job already being driven is resumed only when nobody live holds its run's lease
(its worker died, or stopped), and the lease's atomic claim settles a race between two resumers.
The engine's resume keeps every recorded case, so no case finished before is run again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from dittobench.drive.clock import now
from dittobench.engine.runner import LEASE_S, held_by_another
from dittobench.store import StoreError
from dittobench.store.jobs import TERMINAL, JobRow, ServiceStore
from dittobench.workers.driver import JobCancelled, JobDriver, ServiceStopping, classify
from dittobench.workers.logs import event

CANCEL_CHECK_S = 1.0
"""How often a running job looks in the store for a cancellation."""


@dataclass
class Runtime:
    """One worker process: its store, driver, name and the runs it drives now."""

    store: ServiceStore
    driver: JobDriver
    name: str
    log: logging.Logger
    stopping: threading.Event = field(default_factory=threading.Event)
    active: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def driving(self) -> tuple[str, ...]:
        with self.lock:
            return tuple(sorted(self.active))


def run_job(rt: Runtime, run_id: str) -> str:
    """Drive ``run_id``'s job if it is this delivery's to drive; what happened (``done``,
    ``held``, ``over``, ``unknown``, ``cancelled``, ``failed``, ``stopped``)."""
    event(rt.log, "task_received", run_id)
    job = rt.store.get_job(run_id)
    if job is None:
        event(rt.log, "run_unknown", run_id)
        return "unknown"
    taken = _take(rt, job)
    if taken is None:
        return "held" if job.status not in TERMINAL else "over"
    with rt.lock:
        if run_id in rt.active:  # delivered twice to this very worker
            event(rt.log, "run_held", run_id, reason="this worker drives it already")
            return "held"
        rt.active.add(run_id)
    try:
        return _drive(rt, taken)
    finally:
        with rt.lock:
            rt.active.discard(run_id)


def _take(rt: Runtime, job: JobRow) -> JobRow | None:
    """The job if this delivery should drive it, else None (logged)."""
    if job.status in TERMINAL:
        event(rt.log, "run_over", job.run_id, status=job.status)
        return None
    if job.status == "queued":
        if rt.store.update_job(
            job.run_id,
            updated_at=now(),
            status="generating",
            worker=rt.name,
            only_from=frozenset({"queued"}),
        ):
            return job
        fresh = rt.store.get_job(job.run_id)
        return None if fresh is None else _take(rt, fresh)
    reason = _holder(rt, job)
    if reason:
        event(rt.log, "run_held", job.run_id, reason=reason)
        return None
    rt.store.update_job(job.run_id, updated_at=now())  # settling: see sweeper.SETTLE_S
    return job


def _holder(rt: Runtime, job: JobRow) -> str:
    """Why a job being driven is someone else's: a live lease holder, or a driver that took it
    moments ago and has not made its run yet. ``""`` when it is free to resume."""
    try:
        return held_by_another(rt.store, job.run_id, now)
    except StoreError:  # no run row yet
        if older_than(job.updated_at, LEASE_S):
            return ""  # its driver died before making the run: start it afresh
        return f"taken at {job.updated_at} by {job.worker or 'another worker'}; no run yet"


def older_than(stamp: str, seconds: float) -> bool:
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return True
    return datetime.now(UTC) - moment > timedelta(seconds=seconds)


def _drive(rt: Runtime, job: JobRow) -> str:
    resuming = rt.driver.run_status(job.run_id) not in ("",)
    event(rt.log, "run_resumed" if resuming else "run_started", job.run_id, seed=str(job.seed))
    started = time.monotonic()
    try:
        stopper = _stopper(rt, job.run_id, claim=resuming)
        report = rt.driver.drive(job, rt.driver.reporter(job.run_id, stopper))
        rt.driver.sign(job, report)
    except ServiceStopping:
        event(rt.log, "run_stopped", job.run_id, reason="the worker is stopping; resumable")
        return "stopped"
    except Exception as exc:
        outcome = rt.driver.ended(job, exc)
        fields: dict[str, str] = {"error": " ".join(str(exc).split())[:300]}
        if outcome == "failed":
            fields["kind"] = classify(exc).kind
        event(rt.log, f"run_{outcome}", job.run_id, **fields)
        if outcome == "failed" and classify(exc).kind == "internal":
            rt.log.error("run %s failed unexpectedly", job.run_id, exc_info=exc)
        return outcome
    rt.store.worker_finished_run(rt.name)
    event(
        rt.log,
        "run_done",
        job.run_id,
        composite=float(report.get("composite", 0.0)),
        seconds=round(time.monotonic() - started, 3),
    )
    return "done"


def _stopper(rt: Runtime, run_id: str, *, claim: bool) -> Callable[[], None]:
    """Raises at a progress report when the worker stops or the job was cancelled (read from
    the store at most once a second). With ``claim``, the first report (a resumed run reports
    only once its lease is this worker's) records this worker as the job's."""
    checked = [0.0]
    unclaimed = [claim]

    def check() -> None:
        if unclaimed[0]:
            unclaimed[0] = False
            rt.store.update_job(run_id, updated_at=now(), worker=rt.name)
        if rt.stopping.is_set():
            raise ServiceStopping("the worker is stopping")
        moment = time.monotonic()
        if moment - checked[0] < CANCEL_CHECK_S:
            return
        checked[0] = moment
        try:
            job = rt.store.get_job(run_id)
        except StoreError:
            return
        if job is not None and job.cancelled_by:
            raise JobCancelled(f"cancelled by {job.cancelled_by}")

    return check


__all__ = ["Runtime", "older_than", "run_job"]
