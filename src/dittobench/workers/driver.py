"""Driving one job, the same way in the service's own threads and on a Celery worker.

``JobDriver`` starts a job's run through the run driver (``drive.runs.drive_run``), or resumes it
from the store (recorded cases are kept, the rest run) when its run already exists, signs the
finished run's receipt with the operator's key (trust tier ``verified``), and records how a job
that raised ended: cancelled, failed with a reason, or left alone because another driver holds
the run (a duplicate delivery) or took it over. Who calls it decides only where it runs: the
service's ``JobQueue`` (in-process) or ``workers.tasks`` (a Celery task).
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.core.errors import DittobenchError
from dittobench.drive.clock import now
from dittobench.drive.runs import RunRequest, drive_run
from dittobench.engine.client import ClientLimits, HarnessError
from dittobench.engine.judging import JudgeEndpoint
from dittobench.engine.orchestrate import Progress
from dittobench.engine.runner import LeaseLost, RunError, RunHeld, held_by_another
from dittobench.generate.assemble import build_dataset
from dittobench.packs import Pack, PackError, load_pack, own_pack
from dittobench.receipts.logentries import entry_bytes, run_signed
from dittobench.receipts.sign import build_receipt, case_prompts
from dittobench.sandbox import SandboxError
from dittobench.sandbox.archive import Archive, read_archive
from dittobench.sandbox.harness import SandboxConfig
from dittobench.spec.report import ScoreReport
from dittobench.spec.transcript import Transcript
from dittobench.spec.versions import get_policy
from dittobench.spec.vocab import JobMode, JobStatus
from dittobench.store import StoreError
from dittobench.store.jobs import ACTIVE, JobRow, ServiceStore

ARCHIVE_MODE: Final[JobMode] = "archive"
"""The mode of a job whose harness is a submitted source archive (``store.submissions``)."""
CANCEL_OWNER = "service-cancel"
"""The lease owner a cancel writes to stop a run that does not report (``service.jobs``)."""
STAGE_STATUS: Final[dict[str, JobStatus]] = {
    "generating": "generating",
    "seeding": "seeding",
    "running": "running",
    "scoring": "scoring",
}
"""Engine stages (``Progress.stage``) and the job status each one means."""


class JobCancelled(DittobenchError, RuntimeError):
    """Raised inside a run's progress report to stop it: its job was cancelled."""

    exit_code = 1
    http_status = 409


class ServiceStopping(DittobenchError, RuntimeError):
    """Raised inside a run's progress report when the service (or worker) shuts down: the job
    is left to be resumed."""

    exit_code = 1
    http_status = 503


class UnsafeHarness(DittobenchError, ValueError):
    """The harness URL was refused by the caller's guard when the run started."""

    exit_code = 1
    http_status = 400


@dataclass(frozen=True, slots=True)
class Failure:
    """Why a job failed: ``kind`` (``unsafe_url``, ``sandbox``, ``harness``, ``dataset``, ``run``,
    ``store``, ``internal``), whether submitting again may succeed, and a one-line message."""

    kind: str
    retryable: bool
    message: str


@dataclass(frozen=True, slots=True)
class DriveSettings:
    """What a driver needs of the operator's settings."""

    run_concurrency: int = 8
    case_timeout_s: float = 120.0
    health_wait_s: float = 180.0
    judge: JudgeEndpoint | None = None
    """The judge of open questions (docs/judge.md); runs are left unjudged without one."""


URLCheck = Callable[[str], None]
"""Raises when a harness URL must not be dialled (the service's SSRF guard); the message says
why."""


class JobDriver:
    """Runs, signs and closes jobs against one store with the operator's key."""

    def __init__(
        self,
        store: ServiceStore,
        settings: DriveSettings,
        key: Ed25519PrivateKey,
        runs_dir: Path,
        *,
        check_url: URLCheck = lambda _url: None,
        transport: Callable[[], httpx.AsyncBaseTransport] | None = None,
        sandbox: SandboxConfig | None = None,
    ) -> None:
        self.store, self.settings, self.key, self.runs_dir = store, settings, key, runs_dir
        self._check_url, self._transport = check_url, transport
        self.sandbox = sandbox or SandboxConfig()

    def drive(self, job: JobRow, reporter: Callable[[Progress], None]) -> dict[str, Any]:
        """Run the job, or resume its run when one exists; the run's report as stored. A run
        another live driver holds raises ``RunHeld`` before anything changes. An ``archive``
        job's harness is its submitted archive, built and run in a sandbox for the run."""
        existing = self.run_status(job.run_id)
        if existing == "done":  # scored already (a restart before signing): nothing to drive
            return self._report_of(job)
        if job.mode != ARCHIVE_MODE:
            try:
                self._check_url(job.harness_url)
            except (ValueError, DittobenchError) as exc:
                raise UnsafeHarness(str(exc)) from None
            drive_run(self.store, job.run_id, self.request(job), reporter, resume=bool(existing))
            return self._report_of(job)
        request = replace(self.request(job), archive=self._archive(job), sandbox=self.sandbox)
        busy = held_by_another(self.store, job.run_id, now) if existing else ""
        if busy:
            raise RunHeld(busy)  # before building anything
        self.store.update_job(job.run_id, updated_at=now(), status="building", only_from=ACTIVE)
        with _touching(self.store, job.run_id):  # a no-op once the build is over
            drive_run(self.store, job.run_id, request, reporter, resume=bool(existing))
        return self._report_of(job)

    def request(self, job: JobRow) -> RunRequest:
        """What the driver is asked to run for ``job``."""
        limits = ClientLimits(
            run_deadline_s=self.settings.case_timeout_s,
            health_wait_s=self.settings.health_wait_s,
        )
        return RunRequest(
            harness=job.harness_url,
            seed=job.seed,
            run_size=job.run_size,
            bench_version=job.bench_version,
            out_dir=self.runs_dir,
            concurrency=self.settings.run_concurrency,
            limits=limits,
            pack=job_pack(self.store, job),
            judge=self.settings.judge if get_policy(job.bench_version).judge else None,
            seed_source=job.seed_source,
            transport=self._transport,
        )

    def _archive(self, job: JobRow) -> Archive:
        submission = self.store.get_submission(job.run_id)
        if submission is None:
            raise SandboxError(f"run {job.run_id} has no submitted archive in the store")
        return read_archive(submission.archive, self.sandbox.archive_limits)

    def _report_of(self, job: JobRow) -> dict[str, Any]:
        report = self.store.report(job.run_id)
        if report is None:
            raise RunError(f"run {job.run_id} ended without a report")
        if job.dataset_sha256 and report.get("dataset_sha256") != job.dataset_sha256:
            raise RunError(f"run {job.run_id} was made on another dataset than the one pinned")
        return report

    def run_status(self, run_id: str) -> str:
        """The run's status, ``""`` while it has no row."""
        try:
            return self.store.get_run(run_id).status
        except StoreError:
            return ""

    def reporter(
        self,
        run_id: str,
        should_stop: Callable[[], None],
        publish: Callable[[Progress], None] = lambda _p: None,
    ) -> Callable[[Progress], None]:
        """The engine's progress callback: ``should_stop`` raises to stop the run (cancelled,
        shutting down), ``publish`` shows the progress, and the job's status follows the stage."""
        last: list[JobStatus | None] = [None]

        def report(progress: Progress) -> None:
            should_stop()
            publish(progress)
            status = STAGE_STATUS.get(progress.stage)
            if status is not None and status != last[0]:
                last[0] = status
                self.store.update_job(run_id, updated_at=now(), status=status, only_from=ACTIVE)

        return report

    def sign(self, job: JobRow, stored_report: dict[str, Any]) -> str:
        """Sign the finished run (trust tier ``verified``), keep the receipt and mark the job
        done; the receipt's text."""
        report = ScoreReport.from_json(stored_report)
        stored = self.store.transcript(job.run_id)
        if stored is None:
            raise RunError(f"run {job.run_id} has no transcript")
        transcript = Transcript.from_json(stored)
        pack = job_pack(self.store, job)
        dataset = build_dataset(job.seed, job.bench_version, job.run_size, pack)
        receipt = build_receipt(
            report,
            transcript,
            case_prompts(dataset),
            self.key,
            "verified",
            now(),
            job.harness_url,
            seed_source=job.seed_source,
        )
        text = json.dumps(receipt, indent=2, ensure_ascii=False) + "\n"
        folder = self.runs_dir / job.run_id
        with contextlib.suppress(OSError):  # the store keeps it either way
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "receipt.json").write_text(text, encoding="utf-8")
        # Logged before the job shows it: a receipt is never published without its log entry
        # (a crash in between signs again on restart, and logs that receipt too).
        self.store.append_log(
            lambda at: entry_bytes(run_signed(job.window_id, job.run_id, receipt, at)), now()
        )
        self.store.update_job(job.run_id, updated_at=now(), status="done", receipt_json=text)
        return text

    def ended(self, job: JobRow, exc: Exception, cancelled_by: str = "") -> str:
        """Record how a job that raised ended; what happened: ``held`` (another driver has the
        run: nothing changed), ``cancelled``, or ``failed``. ``cancelled_by`` is who cancelled
        it, when the caller knows; else the store says."""
        if isinstance(exc, RunHeld):
            return "held"
        by = cancelled_by or self._cancelled_by(job.run_id)
        if by and isinstance(exc, (JobCancelled, LeaseLost, RunError)):
            self.cancelled(job.run_id, by)
            return "cancelled"
        if isinstance(exc, LeaseLost):
            return "held"  # taken over by another driver after a stall: the run is its now
        failure = classify(exc)
        self.store.update_job(
            job.run_id,
            updated_at=now(),
            status="failed",
            failure=(failure.kind, failure.retryable, failure.message),
        )
        return "failed"

    def _cancelled_by(self, run_id: str) -> str:
        try:
            job = self.store.get_job(run_id)
        except StoreError:
            return ""
        return "" if job is None else job.cancelled_by

    def cancelled(self, run_id: str, by: str) -> None:
        self.store.update_job(run_id, updated_at=now(), status="cancelled")
        with contextlib.suppress(StoreError):
            if self.store.get_run(run_id).status == "running":
                self.store.update_run(
                    run_id, updated_at=now(), status="failed", error=f"cancelled by {by}"
                )
            self.store.release_run(run_id, CANCEL_OWNER)


def job_pack(store: ServiceStore, job: JobRow) -> Pack:
    """The pack a job runs on: its window's sealed pack (``PackError`` when the window is gone
    or the pack no longer hashes to the window's commitment), else the version's own."""
    if not job.window_id:
        return own_pack(job.bench_version)
    window = store.get_window(job.window_id)
    if window is None:
        raise PackError(f"run {job.run_id}: window {job.window_id} is not in the store")
    pack = load_pack(Path(window.pack_path))
    if pack.sha256 != window.pack_sha256:
        raise PackError(
            f"window {job.window_id}'s sealed pack at {window.pack_path} has sha256 "
            f"{pack.sha256}, not the commitment {window.pack_sha256}"
        )
    return pack


@contextlib.contextmanager
def _touching(store: ServiceStore, run_id: str, every_s: float = 15.0) -> Iterator[None]:
    """Keep the job's ``updated_at`` fresh while an archive builds (no run and no lease exist
    yet), so a sweeper does not take a long build for an abandoned job."""
    done = threading.Event()

    def touch() -> None:
        while not done.wait(every_s):
            with contextlib.suppress(StoreError):
                store.update_job(run_id, updated_at=now(), only_from=frozenset({"building"}))

    thread = threading.Thread(target=touch, name=f"touch-{run_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(5)


def classify(exc: Exception) -> Failure:
    """The failure object of an exception a run raised."""
    message = " ".join(str(exc).split())[:500]
    if isinstance(exc, UnsafeHarness):
        return Failure("unsafe_url", False, message)
    if isinstance(exc, SandboxError):
        return Failure("sandbox", False, message)
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
    "ARCHIVE_MODE",
    "CANCEL_OWNER",
    "STAGE_STATUS",
    "DriveSettings",
    "Failure",
    "JobCancelled",
    "JobDriver",
    "ServiceStopping",
    "UnsafeHarness",
    "classify",
    "job_pack",
]
