"""Durable jobs: the queue, the worker loop, cancellation and recovery after a restart.

Jobs live in the run store (``store.jobs``), so nothing is lost when the service stops. A
dispatcher thread starts the oldest queued job whenever fewer than ``max_active_runs`` are being
driven; each runs in a worker thread of its own through ``workers.driver.JobDriver`` (the engine's
``start_run``, or ``resume_run`` for a run that was interrupted), which writes every case the
moment it finishes and signs the finished run's receipt with the operator's key (trust tier
``verified``). With ``queue = "celery"`` the dispatcher drives nothing: it hands each queued job
to the broker (``workers.broker``) and Celery workers drive it with the same ``JobDriver``.

On start-up (``recover``): jobs still ``queued`` wait their turn again, in order; jobs that were
being driven are resumed first: the engine keeps every recorded case and runs only the rest (a
run already scored is only signed). A job that cannot be resumed fails with the reason.

Cancelling a queued job ends it at once. A running one is stopped at the engine's next progress
report (after a case or a ``/seed``); if none comes within ``LEASE_STEAL_AFTER_S`` (a slow case, a
harness not yet healthy), the service takes the run's lease, which the engine notices within its
renewal period and stops. Either way the cases recorded so far stay in the store. A job on a
Celery worker sees its cancellation in the store at its next report (``workers.tasks``).
"""

from __future__ import annotations

import logging
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.drive.clock import now
from dittobench.engine.orchestrate import Progress
from dittobench.engine.runner import LeaseLost, RunError
from dittobench.service.events import ProgressHub, Snapshot
from dittobench.service.sandbox_settings import sandbox_config
from dittobench.service.settings import ServiceSettings, judge_of
from dittobench.service.ssrf import (
    GuardedTransport,
    Resolver,
    check_url,
    system_resolver,
)
from dittobench.store import StoreError
from dittobench.store.jobs import ACTIVE, TERMINAL, JobRow, ServiceStore
from dittobench.workers.driver import (
    CANCEL_OWNER,
    DriveSettings,
    Failure,
    JobCancelled,
    JobDriver,
    ServiceStopping,
    classify,
)

log = logging.getLogger("dittobench.service.jobs")

LEASE_STEAL_AFTER_S = 2.0


@dataclass
class _Active:
    cancel: threading.Event = field(default_factory=threading.Event)
    cancelled_by: str = ""


class JobQueue:
    """Starts queued jobs in order, at most ``settings.max_active_runs`` at once; or, with
    ``enqueue`` (the Celery broker's send), hands every queued job to the workers."""

    def __init__(
        self,
        store: ServiceStore,
        settings: ServiceSettings,
        key: Ed25519PrivateKey,
        runs_dir: Path,
        hub: ProgressHub,
        resolver: Resolver = system_resolver,
        enqueue: Callable[[str], None] | None = None,
    ) -> None:
        self.store, self.settings, self.hub = store, settings, hub
        self.resolver = resolver
        self.driver = JobDriver(
            store,
            DriveSettings(
                settings.run_concurrency,
                settings.case_timeout_s,
                settings.health_wait_s,
                judge_of(settings),
            ),
            key,
            runs_dir,
            check_url=self._check,
            transport=None if settings.allow_private_harness else self._guarded,
            sandbox=sandbox_config(settings),
        )
        self._enqueue = enqueue
        self._sent: set[str] = set()
        self._active: dict[str, _Active] = {}
        self._resume: list[str] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._dispatcher = threading.Thread(target=self._loop, name="dittobench-jobs", daemon=True)
        self._workers: list[threading.Thread] = []

    # -- life -----------------------------------------------------------------------------------

    def start(self) -> None:
        self.recover()
        self._dispatcher.start()

    def stop(self, wait_s: float = 10.0) -> None:
        """Stop taking jobs; runs in flight stop at their next report and resume on restart."""
        self._stopping.set()
        self._wake.set()
        if self._dispatcher.is_alive():
            self._dispatcher.join(wait_s)
        for worker in list(self._workers):
            worker.join(wait_s)

    def recover(self) -> None:
        """Queue for resumption every job a previous process was driving. With workers, hand
        every unfinished job to the broker again: a task is idempotent, and the broker may have
        lost what it held (Redis as run here keeps nothing on disk)."""
        with self._lock:
            self._resume = [job.run_id for job in self.store.jobs_in(ACTIVE)]
        if self._enqueue is not None:
            self._resume = []
            for job in self.store.jobs_in(ACTIVE | {"queued"}):
                self._send(job.run_id)
            return
        if self._resume:
            log.info("resuming %d job(s) left running: %s", len(self._resume), self._resume)

    def poke(self) -> None:
        self._wake.set()

    def active_count(self) -> int:
        with self._lock:
            return len(self._active)

    # -- cancelling -----------------------------------------------------------------------------

    def cancel(self, job: JobRow, by: str) -> str:
        """``cancelled`` (it was queued and is now cancelled), ``requested`` (it is being driven
        and will stop shortly), ``terminal`` (already over) or ``scoring`` (too late)."""
        if job.status in TERMINAL:
            return "terminal"
        if job.status == "scoring":
            return "scoring"
        with self._lock:
            active = self._active.get(job.run_id)
            if active is not None:
                active.cancelled_by = by
                active.cancel.set()
        if active is None:
            if self.store.update_job(
                job.run_id,
                updated_at=now(),
                status="cancelled",
                cancelled_by=by,
                only_from=frozenset({"queued"}),
            ):
                return "cancelled"
            fresh = self.store.get_job(job.run_id)  # started or ended meanwhile
            if fresh is None or fresh.status in TERMINAL or self._enqueue is None:
                return "terminal" if fresh is None else self.cancel(fresh, by)
        # Kept in the store too: a worker driving it sees it there at its next report.
        self.store.update_job(job.run_id, updated_at=now(), cancelled_by=by)
        timer = threading.Timer(LEASE_STEAL_AFTER_S, self._take_lease, args=(job.run_id,))
        timer.daemon = True
        timer.start()
        return "requested"

    def _take_lease(self, run_id: str) -> None:
        """Make the engine stop a run that has not reported since it was cancelled."""
        with self._lock:
            if run_id not in self._active and self._enqueue is None:
                return
        try:
            job = self.store.get_job(run_id)
            if job is None or job.status in TERMINAL:
                return
            row = self.store.get_run(run_id)
            if row.status == "done":
                return
            stamp = now()
            self.store.claim_run(
                run_id,
                CANCEL_OWNER,
                now=stamp,
                until="9999-12-31T23:59:59Z",
                take_over=row.lease_owner,
            )
        except StoreError as exc:
            log.warning("could not take run %s's lease to cancel it: %s", run_id, exc)

    # -- the loop -------------------------------------------------------------------------------

    def _loop(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(1.0)
            self._wake.clear()
            if self._stopping.is_set():
                return
            try:
                if self._enqueue is not None:
                    self._hand_over()
                else:
                    self._fill()
            except StoreError as exc:  # a busy or unreachable store: try again shortly
                log.warning("job queue: %s", exc)

    def _hand_over(self) -> None:
        """Send every queued job this process has not sent yet to the workers."""
        for job in self.store.jobs_in(frozenset({"queued"})):
            if job.run_id not in self._sent:
                self._send(job.run_id)

    def _send(self, run_id: str) -> None:
        assert self._enqueue is not None
        try:
            self._enqueue(run_id)
        except Exception as exc:  # the broker is down: the job stays queued; sent again later
            log.warning("could not hand run %s to the workers: %s", run_id, exc)
            return
        self._sent.add(run_id)

    def _fill(self) -> None:
        while True:
            with self._lock:
                if len(self._active) >= self.settings.max_active_runs:
                    return
                resuming = bool(self._resume)
                run_id = self._resume.pop(0) if resuming else ""
            job = self.store.get_job(run_id) if resuming else self._next_queued()
            if job is None:
                if resuming:
                    continue
                return
            self._launch(job, resuming)

    def _next_queued(self) -> JobRow | None:
        with self._lock:
            busy = set(self._active)
        for job in self.store.jobs_in(frozenset({"queued"})):
            if job.run_id not in busy:
                return job
        return None

    def _launch(self, job: JobRow, resuming: bool) -> None:
        with self._lock:
            self._active[job.run_id] = _Active()
        if not resuming and not self.store.update_job(
            job.run_id, updated_at=now(), status="generating", only_from=frozenset({"queued"})
        ):
            with self._lock:  # cancelled meanwhile
                self._active.pop(job.run_id, None)
            return
        worker = threading.Thread(
            target=self._work, args=(job, resuming), name=f"run-{job.run_id}", daemon=True
        )
        self._workers = [w for w in self._workers if w.is_alive()] + [worker]
        worker.start()

    # -- one job --------------------------------------------------------------------------------

    def _work(self, job: JobRow, resuming: bool) -> None:
        run_id = job.run_id
        with self._lock:
            active = self._active[run_id]
        try:
            if resuming and self.driver.run_status(run_id) not in ("", "done"):
                self.store.update_job(run_id, updated_at=now(), status="generating")
            reporter = self.driver.reporter(
                run_id, lambda: self._should_stop(active), lambda p: self._publish(run_id, p)
            )
            report = self.driver.drive(job, reporter)
            self.driver.sign(job, report)
        except ServiceStopping:
            log.info("run %s stops with the service; it resumes on the next start", run_id)
        except Exception as exc:
            cancelled = active.cancelled_by if active.cancel.is_set() else ""
            if cancelled and not isinstance(exc, (JobCancelled, LeaseLost, RunError)):
                cancelled = ""
            if self.driver.ended(job, exc, cancelled) == "failed" and (
                classify(exc).kind == "internal"
            ):
                log.exception("run %s failed unexpectedly", run_id, exc_info=exc)
        finally:
            with self._lock:
                self._active.pop(run_id, None)
            self.hub.drop(run_id)
            self._wake.set()

    def _should_stop(self, active: _Active) -> None:
        if active.cancel.is_set():
            raise JobCancelled(f"cancelled by {active.cancelled_by or 'the operator'}")
        if self._stopping.is_set():
            raise ServiceStopping("the service is stopping")

    def _publish(self, run_id: str, progress: Progress) -> None:
        self.hub.put(
            run_id,
            Snapshot(progress.stage, progress.done, progress.total, progress.failed, progress.note),
        )

    def _check(self, url: str) -> None:
        check_url(url, self.resolver, allow_private=self.settings.allow_private_harness)

    def _guarded(self) -> httpx.AsyncBaseTransport:
        """The run's connection layer: it connects only to the public address it resolved and
        checks the connected peer again, so a name rebinding to a private address after the
        submit-time check is refused (docs/service.md, "SSRF guard")."""
        return GuardedTransport(
            self.resolver,
            socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)],
            limits=httpx.Limits(max_connections=64),
        )


__all__ = [
    "CANCEL_OWNER",
    "Failure",
    "JobCancelled",
    "JobQueue",
    "ServiceStopping",
    "classify",
]
