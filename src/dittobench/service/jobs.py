"""Durable jobs: the queue, the worker loop, cancellation and recovery after a restart.

Jobs live in the run store (``store.jobs``), so nothing is lost when the service stops. A
dispatcher thread starts the oldest queued job whenever fewer than ``max_active_runs`` are being
driven; each runs in a worker thread of its own through the engine (``engine.runner``:
``start_run``, or ``resume_run`` for a run that was interrupted), which writes every case the
moment it finishes. When the run is done the service signs its receipt with the operator's key
(trust tier ``verified``).

On start-up (``recover``): jobs still ``queued`` wait their turn again, in order; jobs that were
being driven are resumed first: the engine keeps every recorded case and runs only the rest (a
run already scored is only signed). A job that cannot be resumed fails with the reason.

Cancelling a queued job ends it at once. A running one is stopped at the engine's next progress
report (after a case or a ``/seed``); if none comes within ``LEASE_STEAL_AFTER_S`` (a slow case, a
harness not yet healthy), the service takes the run's lease, which the engine notices within its
renewal period and stops. Either way the cases recorded so far stay in the store.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.core.errors import DittobenchError
from dittobench.engine.client import ClientLimits, HarnessError
from dittobench.engine.orchestrate import Progress
from dittobench.engine.runner import LeaseLost, RunError, RunOptions, resume_run, start_run
from dittobench.generate.assemble import build_dataset
from dittobench.packs import PackError, own_pack
from dittobench.receipts.sign import build_receipt, case_prompts
from dittobench.service.events import ProgressHub, Snapshot
from dittobench.service.settings import ServiceSettings
from dittobench.service.ssrf import (
    GuardedTransport,
    Resolver,
    UnsafeURLError,
    check_url,
    system_resolver,
)
from dittobench.spec.report import ScoreReport
from dittobench.spec.transcript import Transcript
from dittobench.store import StoreError
from dittobench.store.jobs import ACTIVE, JobRow, ServiceStore

log = logging.getLogger("dittobench.service.jobs")

LEASE_STEAL_AFTER_S = 2.0
CANCEL_OWNER = "service-cancel"
STAGE_STATUS = {
    "generating": "generating",
    "seeding": "seeding",
    "running": "running",
    "scoring": "scoring",
}
"""Engine stages (``Progress.stage``) and the job status each one means."""


class JobCancelled(DittobenchError, RuntimeError):
    """Raised inside a run's progress report to stop it: its job was cancelled."""

    exit_code = 1


class ServiceStopping(DittobenchError, RuntimeError):
    """Raised inside a run's progress report when the service shuts down: the job is left to be
    resumed on the next start."""

    exit_code = 1


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a job failed: ``kind`` (``unsafe_url``, ``harness``, ``dataset``, ``run``, ``store``,
    ``internal``), whether submitting again may succeed, and a one-line message."""

    kind: str
    retryable: bool
    message: str


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_run_id() -> str:
    """A run id of the command line's shape (``store.runs.RUN_ID_PATTERN``)."""
    return "r-" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + "-" + os.urandom(3).hex()


@dataclass
class _Active:
    cancel: threading.Event = field(default_factory=threading.Event)
    cancelled_by: str = ""


class JobQueue:
    """Starts queued jobs in order, at most ``settings.max_active_runs`` at once."""

    def __init__(
        self,
        store: ServiceStore,
        settings: ServiceSettings,
        key: Ed25519PrivateKey,
        runs_dir: Path,
        hub: ProgressHub,
        resolver: Resolver = system_resolver,
    ) -> None:
        self.store, self.settings, self.key, self.runs_dir, self.hub = (
            store,
            settings,
            key,
            runs_dir,
            hub,
        )
        self.resolver = resolver
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
        """Queue for resumption every job a previous process was driving."""
        with self._lock:
            self._resume = [job.run_id for job in self.store.jobs_in(ACTIVE)]
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
        if job.status in ("done", "failed", "cancelled"):
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
            return "terminal" if fresh is None else self.cancel(fresh, by)
        self.store.update_job(job.run_id, updated_at=now(), cancelled_by=by)
        timer = threading.Timer(LEASE_STEAL_AFTER_S, self._take_lease, args=(job.run_id,))
        timer.daemon = True
        timer.start()
        return "requested"

    def _take_lease(self, run_id: str) -> None:
        """Make the engine stop a run that has not reported since it was cancelled."""
        with self._lock:
            if run_id not in self._active:
                return
        try:
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
                self._fill()
            except StoreError as exc:  # a busy or unreachable store: try again shortly
                log.warning("job queue: %s", exc)

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
            report = self._drive(job, resuming, self._reporter(run_id, active))
            self._sign(job, report)
        except ServiceStopping:
            log.info("run %s stops with the service; it resumes on the next start", run_id)
        except Exception as exc:
            self._ended(job, active, exc)
        finally:
            with self._lock:
                self._active.pop(run_id, None)
            self.hub.drop(run_id)
            self._wake.set()

    def _drive(
        self, job: JobRow, resuming: bool, reporter: Callable[[Progress], None]
    ) -> dict[str, Any]:
        """Run (or resume) the job; the run's report as stored."""
        check_url(job.harness_url, self.resolver, allow_private=self.settings.allow_private_harness)
        options = RunOptions(
            harness_url=job.harness_url,
            seed=job.seed,
            run_size=job.run_size,
            bench_version=job.bench_version,
            concurrency=self.settings.run_concurrency,
            out_dir=self.runs_dir,
            limits=ClientLimits(
                run_deadline_s=self.settings.case_timeout_s,
                health_wait_s=self.settings.health_wait_s,
            ),
            harness_name=job.harness_url,
            transport=None if self.settings.allow_private_harness else self._guarded,
        )
        existing = self._run_status(job.run_id)
        if existing == "":
            start_run(self.store, job.run_id, options, now, reporter)
        elif existing != "done":
            self.store.update_job(job.run_id, updated_at=now(), status="generating")
            resume_run(self.store, job.run_id, options, now, reporter)
        report = self.store.report(job.run_id)
        if report is None:
            raise RunError(f"run {job.run_id} ended without a report")
        if job.dataset_sha256 and report.get("dataset_sha256") != job.dataset_sha256:
            raise RunError(f"run {job.run_id} was made on another dataset than the one pinned")
        return report

    def _guarded(self) -> httpx.AsyncBaseTransport:
        """The run's connection layer: it connects only to the public address it resolved and
        checks the connected peer again, so a name rebinding to a private address after the
        submit-time check is refused (docs/service.md, "SSRF guard")."""
        return GuardedTransport(
            self.resolver,
            socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)],
            limits=httpx.Limits(max_connections=64),
        )

    def _run_status(self, run_id: str) -> str:
        try:
            return self.store.get_run(run_id).status
        except StoreError:
            return ""

    def _reporter(self, run_id: str, active: _Active) -> Callable[[Progress], None]:
        last = [""]

        def report(progress: Progress) -> None:
            if active.cancel.is_set():
                raise JobCancelled(f"cancelled by {active.cancelled_by or 'the operator'}")
            if self._stopping.is_set():
                raise ServiceStopping("the service is stopping")
            self.hub.put(
                run_id,
                Snapshot(
                    progress.stage, progress.done, progress.total, progress.failed, progress.note
                ),
            )
            status = STAGE_STATUS.get(progress.stage, "")
            if status and status != last[0]:
                last[0] = status
                self.store.update_job(run_id, updated_at=now(), status=status, only_from=ACTIVE)

        return report

    def _sign(self, job: JobRow, stored_report: dict[str, Any]) -> None:
        """Sign the finished run (trust tier ``verified``), keep the receipt and mark it done."""
        report = ScoreReport.from_json(stored_report)
        stored = self.store.transcript(job.run_id)
        if stored is None:
            raise RunError(f"run {job.run_id} has no transcript")
        transcript = Transcript.from_json(stored)
        pack = own_pack(job.bench_version)
        dataset = build_dataset(job.seed, job.bench_version, job.run_size, pack)
        receipt = build_receipt(
            report, transcript, case_prompts(dataset), self.key, "verified", now(), job.harness_url
        )
        text = json.dumps(receipt, indent=2, ensure_ascii=False) + "\n"
        folder = self.runs_dir / job.run_id
        with contextlib.suppress(OSError):  # the store keeps it either way
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "receipt.json").write_text(text, encoding="utf-8")
        self.store.update_job(job.run_id, updated_at=now(), status="done", receipt_json=text)

    def _ended(self, job: JobRow, active: _Active, exc: Exception) -> None:
        """Record how a job that raised ended: cancelled, or failed with a reason."""
        if active.cancel.is_set() and isinstance(exc, (JobCancelled, LeaseLost, RunError)):
            self._cancelled(job.run_id, active.cancelled_by)
            return
        failure = classify(exc)
        if failure.kind == "internal":
            log.exception("run %s failed unexpectedly", job.run_id, exc_info=exc)
        self.store.update_job(
            job.run_id,
            updated_at=now(),
            status="failed",
            failure=(failure.kind, failure.retryable, failure.message),
        )

    def _cancelled(self, run_id: str, by: str) -> None:
        self.store.update_job(run_id, updated_at=now(), status="cancelled")
        with contextlib.suppress(StoreError):
            if self.store.get_run(run_id).status == "running":
                self.store.update_run(
                    run_id, updated_at=now(), status="failed", error=f"cancelled by {by}"
                )
            self.store.release_run(run_id, CANCEL_OWNER)


def classify(exc: Exception) -> Failure:
    """The failure object of an exception a run raised."""
    message = " ".join(str(exc).split())[:500]
    if isinstance(exc, UnsafeURLError):
        return Failure("unsafe_url", False, message)
    if isinstance(exc, HarnessError):
        return Failure("harness", True, message)
    if isinstance(exc, PackError):
        return Failure("dataset", False, message)
    if isinstance(exc, RunError):
        return Failure("run", False, message)
    if isinstance(exc, StoreError):
        return Failure("store", True, message)
    return Failure("internal", False, "internal error; the operator's log has the details")


__all__ = [
    "CANCEL_OWNER",
    "Failure",
    "JobCancelled",
    "JobQueue",
    "ServiceStopping",
    "classify",
    "new_run_id",
    "now",
]
