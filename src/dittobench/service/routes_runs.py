"""Routes for runs: submit, score, list, read, cancel, transcript, receipt, live events."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, StreamingResponse

from dittobench.core.canonical import canonical_bytes
from dittobench.core.hashing import sha256_hex
from dittobench.drive.clock import new_run_id, now
from dittobench.generate.assemble import build_dataset
from dittobench.packs import own_pack
from dittobench.service.archives import submit_archive
from dittobench.service.auth import Principal
from dittobench.service.context import (
    ApiError,
    ServiceState,
    bench_version,
    caller,
    client_key,
    limited,
    open_stream,
    owned_job,
    state,
)
from dittobench.service.jobview import accepted, job_object, progress_events, summary
from dittobench.service.models import (
    Accepted,
    JobList,
    JobObject,
    JobStatus,
    ScoreRequest,
    SubmitRequest,
    SuiteAccepted,
)
from dittobench.service.routes_info import errors
from dittobench.service.routes_suites import submit_suite
from dittobench.service.ssrf import UnsafeURLError, check_url
from dittobench.spec.seeds import OPERATOR, SUBMITTER, seed_source_of
from dittobench.spec.vocab import RUN_SIZES, JobMode, RunSizeName, SeedSource, member
from dittobench.store import StoreError
from dittobench.store.jobs import TERMINAL, JobRow
from dittobench.store.windows import OPEN
from dittobench.views.access import reach_job
from dittobench.views.model import ViewError

router = APIRouter()

RunId = Annotated[
    str,
    Path(
        pattern=r"^r-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$",
        description="A run id as submit returns it.",
    ),
]
Service = Annotated[ServiceState, Depends(state)]
Caller = Annotated[Principal, Depends(caller)]


def _check_harness(service: ServiceState, harness_url: str) -> None:
    try:
        check_url(
            harness_url, service.resolver, allow_private=service.settings.allow_private_harness
        )
    except UnsafeURLError as exc:
        raise ApiError(400, f"harness_url: {exc}") from None


def _enqueue(
    service: ServiceState,
    principal: Principal,
    mode: JobMode,
    fields: tuple[str, int, RunSizeName, str, str],
    seed_source: SeedSource,
    window_id: str = "",
) -> dict[str, Any]:
    harness_url, seed, run_size, version, pinned = fields
    _check_harness(service, harness_url)
    stamp = now()
    job = JobRow(
        new_run_id(),
        0,
        principal.name,
        mode,
        harness_url,
        seed,
        run_size,
        version,
        pinned,
        "queued",
        "",
        False,
        "",
        "",
        stamp,
        stamp,
        "",
        seed_source=seed_source,
        window_id=window_id,
    )
    with service.submit_lock:  # ActiveJobError, WindowStateError: 409
        made = service.store.create_job(job)
    service.queue.poke()
    return accepted(made, version, run_size, seed)


@router.post(
    "/v1/submit",
    status_code=202,
    response_model=Accepted | SuiteAccepted,
    tags=["runs"],
    summary="Score a harness",
    responses=errors(400, 401, 408, 409, 413, 429, 503),
)
def submit(request: Request, body: SubmitRequest, service: Service, principal: Caller) -> Any:
    """Queue a run: generate a dataset (``seed`` drawn fresh when absent; a run on a seed the
    caller names is practice, never ranked: ``seed_source``), drive the harness at
    ``harness_url`` (or the one ``archive_base64`` holds, built and run in a sandbox: 503 when
    this server cannot) through every case, grade, store and sign. 202 with the run id; poll
    ``GET /v1/runs/{id}``. A caller has one run queued or running at a time (409). With
    ``seeds``: a suite of that many runs on fresh seeds, 202 with the suite's id and runs; poll
    ``GET /v1/suites/{id}``."""
    limited(service.submit_limit, client_key(request, principal))
    if body.window_id is not None:
        return _submit_in_window(service, principal, body, body.window_id)
    if body.archive_base64 is not None or body.archive_sha256 is not None:
        return _submit_archive(service, principal, body)
    if not body.harness_url:
        raise ApiError(
            400, "give harness_url (the base URL of a harness) or archive_base64 (its source)"
        )
    version = bench_version(service, body.bench_version)
    if body.seeds is not None:
        if body.seed is not None:
            raise ApiError(400, "seeds draws a fresh seed for every run of the suite: drop seed")
        _check_harness(service, body.harness_url)
        return submit_suite(
            service, principal, (body.harness_url, body.seeds, body.run_size, version)
        )
    seed = body.seed if body.seed is not None else int.from_bytes(os.urandom(8), "little") >> 1
    fields = (body.harness_url, seed, body.run_size, version, "")
    # A seed the caller named lets it build the dataset first: practice, never ranked.
    return _enqueue(service, principal, "submit", fields, seed_source_of(body.seed))


def _submit_in_window(
    service: ServiceState, principal: Principal, body: SubmitRequest, window_id: str
) -> Any:
    """A run in an open scoring window: its sealed pack, version and size, a seed drawn here."""
    if body.archive_base64 is not None or body.archive_sha256 is not None:
        raise ApiError(400, "window_id runs a harness_url; archives cannot run in a window")
    if not body.harness_url:
        raise ApiError(400, "give harness_url (the base URL of a harness)")
    if body.seed is not None or body.seeds is not None:
        raise ApiError(400, "a window's runs are on seeds the service draws: drop seed and seeds")
    window = service.store.get_window(window_id)
    if window is None:
        raise ApiError(404, f"no window {window_id}")
    if window.state != OPEN:
        raise ApiError(409, f"window {window_id} is closed (revealed at {window.revealed_at})")
    if "run_size" in body.model_fields_set and body.run_size != window.run_size:
        raise ApiError(400, f"window {window_id} runs size {window.run_size}, not {body.run_size}")
    if body.bench_version is not None and body.bench_version != window.bench_version:
        raise ApiError(
            400, f"window {window_id} runs bench {window.bench_version}, not {body.bench_version}"
        )
    seed = int.from_bytes(os.urandom(8), "little") >> 1
    size = member(RUN_SIZES, window.run_size, f"window {window_id}: run_size")
    fields = (body.harness_url, seed, size, window.bench_version, "")
    return _enqueue(service, principal, "submit", fields, OPERATOR, window_id)


def _submit_archive(service: ServiceState, principal: Principal, body: SubmitRequest) -> Any:
    if body.harness_url is not None or body.archive_base64 is None:
        raise ApiError(400, "give exactly one source: harness_url or archive_base64")
    if body.seeds is not None:
        raise ApiError(400, "seeds is not available with archive_base64: submit one run")
    version = bench_version(service, body.bench_version)
    seed = body.seed if body.seed is not None else int.from_bytes(os.urandom(8), "little") >> 1
    fields = (body.archive_base64, body.archive_sha256, seed, body.run_size, version)
    return submit_archive(service, principal, fields, seed_source_of(body.seed))


@router.post(
    "/v2/score",
    status_code=202,
    response_model=Accepted,
    tags=["runs"],
    summary="Score a harness on a pinned dataset",
    responses=errors(400, 401, 408, 409, 413, 429),
)
def score(request: Request, body: ScoreRequest, service: Service, principal: Caller) -> Any:
    """Like submit, for canonical scoring: ``bench_version``, ``run_size``, ``seed`` and
    ``dataset_sha256`` are required, and the dataset the seed makes must hash to
    ``dataset_sha256`` (400 naming both hashes otherwise), so scorer and caller agree on the
    exact cases before anything runs. The caller chose the seed: the run is practice, never
    ranked."""
    limited(service.submit_limit, client_key(request, principal))
    version = bench_version(service, body.bench_version)
    pack = own_pack(version)
    made = build_dataset(body.seed, version, body.run_size, pack)
    actual = sha256_hex(canonical_bytes(made.to_json()))
    if actual != body.dataset_sha256:
        raise ApiError(
            400,
            f"dataset_sha256 {body.dataset_sha256} is not the dataset seed {body.seed} makes "
            f"at {body.run_size} under bench {version} ({actual}); check the seed, size, "
            "version and pack",
        )
    fields = (body.harness_url, body.seed, body.run_size, version, actual)
    return _enqueue(service, principal, "score", fields, SUBMITTER)  # it always names its seed


@router.get(
    "/v1/runs",
    response_model=JobList,
    tags=["runs"],
    summary="List runs",
    responses=errors(400, 401),
)
def list_runs(
    service: Service,
    principal: Caller,
    status: Annotated[JobStatus | None, Query(description="Only runs with this status.")] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> dict[str, Any]:
    """Newest first; a submitter sees its own runs, an admin every run."""
    submitter = None if principal.admin else principal.name
    jobs, total = service.store.list_jobs(
        status=status, submitter=submitter, limit=limit, offset=offset
    )
    more = offset + len(jobs) < total
    return {
        "runs": [summary(job) for job in jobs],
        "total": total,
        "limit": limit,
        "offset": offset,
        "next_offset": offset + len(jobs) if more else None,
    }


@router.get(
    "/v1/runs/{run_id}",
    response_model=JobObject,
    tags=["runs"],
    summary="One run",
    responses=errors(400, 401, 404),
)
async def get_run(
    request: Request,
    run_id: RunId,
    service: Service,
    principal: Caller,
    partial: Annotated[
        bool, Query(description="Include the provisional per-case scores while it runs.")
    ] = True,
) -> Response:
    """The job: status, progress ``{stage, done, total}``, provisional per-case scores while it
    runs (``partial=false`` leaves them out: a cheaper poll), the report once done, the failure
    ``{kind, retryable, message}`` if it failed. A client is answered about a running run at
    most four times a second: a poll that comes sooner is answered at its turn."""
    job = await run_in_threadpool(_reached, service, principal, run_id)
    if job.status not in TERMINAL:
        wait = service.hub.turns.wait(client_key(request, principal), run_id, time.monotonic())
        if wait > 0:
            await asyncio.sleep(wait)
            job = await run_in_threadpool(_reached, service, principal, run_id)
    return await run_in_threadpool(_answer, service, job, partial)


def _reached(service: ServiceState, principal: Principal, run_id: str) -> JobRow:
    """The job as the run's page reaches it (views.access); 404 as for no run at all."""
    try:
        return reach_job(
            service.store, run_id, lambda by, _job: principal.admin or by == principal.name
        )
    except ViewError as exc:
        raise ApiError(404, str(exc)) from None


def _answer(service: ServiceState, job: JobRow, partial: bool) -> Response:
    if job.status in TERMINAL:  # it no longer changes: encoded once
        return Response(
            service.finished.encoded(service.store, job, service.hub, service.partials),
            media_type="application/json",
        )
    # Built from the store's own JSON: no need to validate it again on the way out.
    made = job_object(service.store, job, service.hub, service.partials, with_partial=partial)
    return JSONResponse(made)


@router.delete(
    "/v1/runs/{run_id}",
    status_code=202,
    response_model=JobObject,
    tags=["runs"],
    summary="Cancel a run",
    responses={
        200: {"model": JobObject, "description": "The run had already ended; nothing changed."},
        **errors(400, 401, 404, 409),
    },
)
def cancel_run(run_id: RunId, service: Service, principal: Caller) -> Any:
    """202 with the job when the cancellation is accepted (a queued run ends at once, a running
    one at its next case), 200 when it had already ended, 409 while it is being scored."""
    job = owned_job(service, principal, run_id)
    outcome = service.queue.cancel(job, principal.name)
    if outcome == "scoring":
        raise ApiError(409, f"run {run_id} is being scored and can no longer be cancelled")
    fresh = service.store.get_job(run_id) or job
    body = JobObject.model_validate(
        job_object(service.store, fresh, service.hub, service.partials, with_partial=False)
    )
    code = 200 if outcome == "terminal" else 202
    return JSONResponse(body.model_dump(mode="json"), status_code=code)


@router.get(
    "/v1/runs/{run_id}/transcript",
    tags=["runs"],
    summary="The run's transcript",
    response_class=Response,
    responses={
        200: {
            "description": "The canonical (RFC 8785) transcript bytes; X-Transcript-SHA256 is "
            "their SHA-256, the report's transcript_sha256.",
            "content": {"application/json": {"schema": {"type": "object"}}},
            "headers": {"X-Transcript-SHA256": {"schema": {"type": "string"}}},
        },
        **errors(400, 401, 404),
    },
)
def transcript(run_id: RunId, service: Service, principal: Caller) -> Response:
    """Every graded case's exact inputs, in canonical bytes; 404 until the run is done."""
    job = owned_job(service, principal, run_id)
    try:
        stored = service.store.transcript(run_id) if job.status == "done" else None
    except StoreError:
        stored = None
    if stored is None:
        raise ApiError(404, f"run {run_id} has no transcript yet (it is {job.status})")
    data = canonical_bytes(stored)
    return Response(
        data, media_type="application/json", headers={"X-Transcript-SHA256": sha256_hex(data)}
    )


@router.get(
    "/v1/runs/{run_id}/receipt",
    tags=["runs"],
    summary="The run's signed receipt",
    response_class=Response,
    responses={
        200: {
            "description": "The receipt (docs/receipts.md), signed with the operator's key, "
            "trust tier verified.",
            "content": {"application/json": {"schema": {"type": "object"}}},
        },
        **errors(400, 401, 404),
    },
)
def receipt(run_id: RunId, service: Service, principal: Caller) -> Response:
    """The signed receipt; 404 until the run is done and signed."""
    job = owned_job(service, principal, run_id)
    if not job.receipt_json:
        raise ApiError(404, f"run {run_id} has no receipt yet (it is {job.status})")
    return Response(job.receipt_json.encode(), media_type="application/json")


@router.get(
    "/v1/runs/{run_id}/events",
    tags=["runs"],
    summary="Live progress (Server-Sent Events)",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "`progress` events with {status, progress}, then one `end` event.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}},
        },
        **errors(400, 401, 404, 429),
    },
)
def events(
    request: Request, run_id: RunId, service: Service, principal: Caller
) -> StreamingResponse:
    """One ``progress`` event per change of status or counts, then ``end`` when the run is
    over. A client holds at most ``max_streams_per_client`` streams at once (429 beyond)."""
    owned_job(service, principal, run_id)
    release = open_stream(service, client_key(request, principal))
    return progress_events(service.store, service.hub, run_id, release)


__all__ = ["router"]
