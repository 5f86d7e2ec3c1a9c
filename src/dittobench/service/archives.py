"""Source-archive submissions: ``POST /v1/submit`` with ``archive_base64`` (checked, fingerprinted,
kept in the store, queued as an ``archive`` job the driver builds and runs in a sandbox), and
``GET /v1/runs/{id}/similar`` (earlier submissions whose structural fingerprints are close).
docs/service.md, "Source archives"."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query

from dittobench.drive.clock import new_run_id, now
from dittobench.sandbox import ArchiveError
from dittobench.sandbox.archive import Archive, ArchiveLimits, read_archive
from dittobench.sandbox.bubblewrap import usable
from dittobench.sandbox.fingerprint import Fingerprint, fingerprint, similarity
from dittobench.sandbox.layout import read_layout
from dittobench.service.auth import Principal
from dittobench.service.context import ApiError, ServiceState, caller, owned_job, state
from dittobench.service.jobview import accepted
from dittobench.service.models import SimilarList
from dittobench.service.routes_info import errors
from dittobench.service.sandbox_settings import sandbox_config
from dittobench.spec.vocab import RunSizeName, SeedSource
from dittobench.store.jobs import ActiveJobError, JobRow
from dittobench.store.submissions import SubmissionRow
from dittobench.workers.driver import ARCHIVE_MODE

router = APIRouter()
Service = Annotated[ServiceState, Depends(state)]
Caller = Annotated[Principal, Depends(caller)]


def submit_archive(
    service: ServiceState,
    principal: Principal,
    body: tuple[str, str | None, int, RunSizeName, str],
    seed_source: SeedSource,
) -> dict[str, Any]:
    """Check, fingerprint, keep and queue the archive (``seed_source``: who chose the seed);
    the submit response."""
    encoded, pinned_sha, seed, run_size, version = body
    # A malformed archive is the sender's to fix wherever it is sent: 400 before the 503.
    archive = _decode(encoded, sandbox_config(service.settings).archive_limits)
    if pinned_sha is not None and pinned_sha != archive.sha256:
        raise ApiError(
            400, f"archive_sha256 {pinned_sha} is not the archive's SHA-256 ({archive.sha256})"
        )
    problem = usable()
    if problem:
        raise ApiError(503, f"archive submissions cannot run on this server: {problem}")
    sketch = fingerprint(archive.files.items())
    stamp = now()
    run_id = new_run_id()
    row = SubmissionRow(
        run_id,
        principal.name,
        archive.sha256,
        archive.size,
        base64.b64decode(encoded),
        json.dumps(sketch.to_json(), separators=(",", ":")),
        stamp,
    )
    harness = f"archive:sha256:{archive.sha256}"
    job = JobRow(
        run_id=run_id,
        seq=0,
        submitter=principal.name,
        mode=ARCHIVE_MODE,
        harness_url=harness,
        seed=seed,
        run_size=run_size,
        bench_version=version,
        dataset_sha256="",
        status="queued",
        failure_kind="",
        failure_retryable=False,
        failure_message="",
        cancelled_by="",
        created_at=stamp,
        updated_at=stamp,
        receipt_json="",
        seed_source=seed_source,
    )
    with service.submit_lock:
        service.store.create_submission(row)  # first: the job is driven from it
        try:
            made = service.store.create_job(job)
        except ActiveJobError:  # the handler answers 409, its http_status
            service.store.delete_submission(run_id)
            raise
    service.queue.poke()
    return accepted(made, version, run_size, seed)


def _decode(encoded: str, limits: ArchiveLimits) -> Archive:
    if len(encoded) > (limits.max_archive_bytes + 2) // 3 * 4 + 4:
        raise ApiError(413, f"the archive is over {limits.max_archive_bytes} bytes")
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(400, "archive_base64: not valid base64") from None
    if len(data) > limits.max_archive_bytes:
        raise ApiError(413, f"the archive is {len(data)} bytes; at most {limits.max_archive_bytes}")
    try:
        archive = read_archive(data, limits)
        read_layout(archive)
    except ArchiveError as exc:
        raise ApiError(400, f"archive: {exc}") from None
    return archive


@router.get(
    "/v1/runs/{run_id}/similar",
    response_model=SimilarList,
    tags=["runs"],
    summary="Earlier submissions structurally like this one",
    responses=errors(400, 401, 403, 404),
)
def similar(
    service: Service,
    principal: Caller,
    run_id: Annotated[str, Path(pattern=r"^r-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$")],
    threshold: Annotated[float, Query(ge=0.0, le=1.0, description="Least similarity.")] = 0.5,
) -> dict[str, Any]:
    """Earlier archive submissions whose structural fingerprint (identifier- and literal-neutral
    token shingles, MinHash) estimates a Jaccard similarity of at least ``threshold`` with this
    run's; most similar first. Advisory, never part of a score; for admins (it names other
    submitters' runs). 404 for a run submitted as a URL."""
    job = owned_job(service, principal, run_id)
    if not principal.admin:
        raise ApiError(403, "the similar list names other submitters' runs: it is for admins")
    row = service.store.get_submission(job.run_id)
    if row is None:
        raise ApiError(404, f"run {run_id} was not submitted as an archive")
    mine = Fingerprint.from_json(json.loads(row.fingerprint_json))
    found: list[dict[str, Any]] = []
    for other_id, submitter, sha, raw in service.store.fingerprints_before(row):
        score = similarity(mine, Fingerprint.from_json(json.loads(raw)))
        if score >= threshold:
            found.append(
                {
                    "run_id": other_id,
                    "submitter": submitter,
                    "archive_sha256": sha,
                    "similarity": round(score, 4),
                }
            )
    found.sort(key=lambda item: (-item["similarity"], item["run_id"]))
    return {
        "run_id": run_id,
        "archive_sha256": row.archive_sha256,
        "threshold": threshold,
        "shingles": mine.card,
        "python_files": mine.files,
        "similar": found,
    }


__all__ = ["router", "submit_archive"]
