"""The job object ``GET /v1/runs/{id}`` answers: the job's row, the run's progress, the
provisional per-case scores while it runs, and the report once it is done.

Partial scores grade the cases recorded so far with the real grader (the cases not yet run count
as undelivered, and only the recorded ones are listed). They are provisional: a write
instruction is credited only once its read-back has run, and the run's factors apply to the
composite alone. Each look grades only the cases recorded since the previous one (and the write
instructions those read back), against a dataset built, hashed and scanned once a run, so a
poller costs one grading per case however often it looks, and many readers at once cost one.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from dittobench.core.prng import seed_text
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import GradeInputError, RunGrader
from dittobench.packs import PackError
from dittobench.service.events import ProgressHub, stream
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.seeds import seed_shown
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.versions import get_policy
from dittobench.store import RunRow, StoreError
from dittobench.store.jobs import TERMINAL, JobRow, ServiceStore
from dittobench.workers.driver import job_pack

KEPT_RUNS = 16
"""Runs whose dataset and partial scores are kept in memory."""


def expected_total(job: JobRow) -> int:
    """How many cases the job's run will have (before its dataset exists)."""
    policy = get_policy(job.bench_version)
    size = policy.run_size(job.run_size)
    asked = sum(size.open_quota.values()) if policy.content.open_questions else 0
    return size.tool_cases + size.memory_cases + size.isolation_cases + asked


class _RunScores:
    """One running job's provisional scores: its grader (the dataset, its hash and history keys
    worked out once), the records graded so far, and each graded case's score."""

    def __init__(self, grader: RunGrader) -> None:
        self.grader = grader
        self.seen: dict[str, dict[str, Any]] = {}
        self.records: dict[str, CaseRecord] = {}
        self.scores: dict[str, dict[str, Any]] = {}
        self.listed: list[dict[str, Any]] = []
        self.done = -1

    def update(self, recorded: dict[str, dict[str, Any]]) -> None:
        """Grade the cases recorded (or recorded again: a harness restart marks its cases
        unanswered and asks them again) since the last update, and the write instructions they
        read back. ``DecodeError`` or ``GradeInputError`` as the whole regrade would raise them,
        and then nothing is kept."""
        fresh = {k: data for k, data in recorded.items() if self.seen.get(k) != data}
        decoded = {k: decode(CaseRecord, data) for k, data in fresh.items()}
        records = self.records | decoded
        scores = self.grader.scores(records, self.grader.affected(decoded) & records.keys())
        self.records, self.seen = records, self.seen | fresh
        self.scores.update((case_id, score.to_json()) for case_id, score in scores.items())
        order = self.grader.order
        self.listed = [self.scores[k] for k in sorted(self.scores, key=order.__getitem__)]


class PartialScores:
    """Provisional per-case scores of running jobs, graded as cases are recorded: a look at a
    run grades only the cases recorded since the previous look (``RunGrader``)."""

    def __init__(self) -> None:
        self._runs: OrderedDict[str, _RunScores] = OrderedDict()
        self._busy: set[str] = set()
        self._lock = threading.Lock()

    def of(self, store: ServiceStore, job: JobRow, row: RunRow) -> list[dict[str, Any]]:
        """The scores as of the latest recorded case; while another reader is bringing them up
        to date, the previous ones (so many readers at once cost one grading, not one each)."""
        if row.cases_done == 0:
            return []  # nothing to grade: the dataset is not even needed yet
        with self._lock:
            kept = self._runs.get(job.run_id)
            if job.run_id in self._busy:
                return kept.listed if kept is not None else []
            if kept is not None and kept.done == row.cases_done:
                return kept.listed
            self._busy.add(job.run_id)
        try:
            return self._graded(store, job, row, kept)
        finally:
            with self._lock:
                self._busy.discard(job.run_id)

    def _graded(
        self, store: ServiceStore, job: JobRow, row: RunRow, kept: _RunScores | None
    ) -> list[dict[str, Any]]:
        try:
            run = kept or self._start(store, job, row)
        except (PackError, GradeInputError):
            return []
        with self._lock:
            self._runs[job.run_id] = run
            self._runs.move_to_end(job.run_id)
            while len(self._runs) > KEPT_RUNS:
                self._runs.popitem(last=False)
        if run.grader.dataset_sha256 != row.dataset_sha256:
            return []  # the run was not made on the dataset this build makes
        try:
            run.update(store.recorded_cases(job.run_id))
        except (StoreError, DecodeError, GradeInputError):
            return []
        run.done = row.cases_done
        return run.listed

    def _start(self, store: ServiceStore, job: JobRow, row: RunRow) -> _RunScores:
        """The run's dataset built and hashed, its history keys worked out: once a run."""
        dataset = build_dataset(job.seed, job.bench_version, job.run_size, job_pack(store, job))
        return _RunScores(RunGrader(dataset, row.wire_nonce))

    def forget(self, run_id: str) -> None:
        """Drop a run's grader, records and scores (its job is over)."""
        with self._lock:
            self._runs.pop(run_id, None)


class FinishedJobs:
    """The encoded job objects of finished jobs (which no longer change), newest kept."""

    def __init__(self, keep: int = 256) -> None:
        self._kept: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()
        self._keep = keep
        self._lock = threading.Lock()

    def encoded(
        self, store: ServiceStore, job: JobRow, hub: ProgressHub, partials: PartialScores
    ) -> bytes:
        key = (job.run_id, job.status, job.updated_at)
        with self._lock:
            found = self._kept.get(key)
        if found is not None:
            return found
        data = json.dumps(job_object(store, job, hub, partials), ensure_ascii=False).encode()
        with self._lock:
            self._kept[key] = data
            while len(self._kept) > self._keep:
                self._kept.popitem(last=False)
        return data


def summary(job: JobRow) -> dict[str, Any]:
    """The short form ``GET /v1/runs`` lists."""
    return {
        "run_id": job.run_id,
        "status": job.status,
        "mode": job.mode,
        "submitter": job.submitter,
        "harness_url": job.harness_url,
        "run_size": job.run_size,
        "bench_version": job.bench_version,
        "seed": seed_shown(seed_text(job.seed), job.seed_source, job.status),
        "seed_source": job.seed_source,
        "window_id": job.window_id,
        "created_at": job.created_at,
        "updated_at": job.updated_at,
        "poll": f"/v1/runs/{job.run_id}",
    }


def job_object(
    store: ServiceStore,
    job: JobRow,
    hub: ProgressHub,
    partials: PartialScores,
    *,
    with_partial: bool = True,
) -> dict[str, Any]:
    """The whole job object of ``GET /v1/runs/{id}``."""
    out = summary(job)
    row = _run_row(store, job.run_id)
    out["dataset_sha256"] = (row.dataset_sha256 if row else "") or job.dataset_sha256 or None
    out["progress"] = progress(job, row, hub)
    out["failure"] = (
        {
            "kind": job.failure_kind,
            "retryable": job.failure_retryable,
            "message": job.failure_message,
        }
        if job.status == "failed"
        else None
    )
    out["cancelled_by"] = job.cancelled_by or None
    out["partial"] = None
    out["report"] = None
    out["transcript_sha256"] = None
    out["receipt"] = None
    if job.status in TERMINAL:
        partials.forget(job.run_id)  # its scores are the report's now, or nobody's
    if job.status == "done":
        report = store.report(job.run_id)
        out["report"] = report
        out["transcript_sha256"] = (report or {}).get("transcript_sha256")
        out["receipt"] = f"/v1/runs/{job.run_id}/receipt" if job.receipt_json else None
    elif row is not None and with_partial and job.status not in TERMINAL:
        out["partial"] = partials.of(store, job, row)
    return out


def progress(job: JobRow, row: RunRow | None, hub: ProgressHub) -> dict[str, Any]:
    """``{stage, done, total}``: live while this process drives the run, else as stored."""
    live = hub.get(job.run_id) if job.status not in TERMINAL else None
    if live is not None:  # the engine reports no stage while it waits for /health
        stage = "starting" if row is not None and row.stage == "starting" else live.stage
        return {"stage": stage, "done": live.done, "total": live.total}
    if row is not None:
        stage = job.status if job.status in TERMINAL else row.stage
        return {"stage": stage, "done": row.cases_done, "total": row.cases_total}
    return {"stage": job.status, "done": 0, "total": expected_total(job)}


def _run_row(store: ServiceStore, run_id: str) -> RunRow | None:
    try:
        return store.get_run(run_id)
    except StoreError:
        return None


__all__ = [
    "KEPT_RUNS",
    "FinishedJobs",
    "PartialScores",
    "expected_total",
    "job_object",
    "progress",
    "summary",
]


def progress_events(
    store: ServiceStore, hub: ProgressHub, run_id: str, release: Callable[[], None]
) -> StreamingResponse:
    """The run's live progress as Server-Sent Events (the API's and the run page's), for a
    caller that already holds a stream slot: ``release`` (which must be safe to call twice)
    gives it back when the stream ends."""

    def read() -> dict[str, Any] | None:
        job = store.get_job(run_id)
        if job is None:
            return None
        try:
            row = store.get_run(run_id)
        except StoreError:
            row = None
        return {"status": job.status, "progress": progress(job, row, hub)}

    events = stream(hub.feeds, run_id, read, lambda seen: seen["status"] in TERMINAL, release)
    return _Releasing(
        events,
        release,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


class _Releasing(StreamingResponse):
    """A stream that gives its slot back however it ends: a client gone before the first event
    cancels the response before its generator ever runs, so the generator's own ``finally``
    alone would keep the slot for good."""

    def __init__(
        self, content: AsyncIterator[bytes], release: Callable[[], None], **options: Any
    ) -> None:
        super().__init__(content, **options)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


def accepted(made: JobRow, version: str, run_size: str, seed: int) -> dict[str, Any]:
    """The 202 body of a submission: the run id, its status and where to poll it."""
    return {
        "run_id": made.run_id,
        "status": made.status,
        "poll": f"/v1/runs/{made.run_id}",
        "bench_version": version,
        "run_size": run_size,
        "seed": seed_shown(seed_text(seed), made.seed_source, made.status),
        "seed_source": made.seed_source,
        "window_id": made.window_id,
    }
