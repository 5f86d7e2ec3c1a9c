"""Multi-seed suites: ``POST /v1/submit {"seeds": N}`` queues N runs of one harness on fresh
seeds as one suite; ``GET /v1/suites/{id}`` shows each run beside the mean composite and its
95% interval from the spread between seeds, and once every run is done the suite receipt the
service signs over its runs' receipts (``receipts.suite``).

The runs are ordinary jobs (``suite_id`` set): with ``queue = "local"`` at most
``max_active_runs`` are driven at once, with workers they spread over the workers. A submitter has
one submission active at a time: a suite counts as one.
"""

from __future__ import annotations

import json
import os
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path

from dittobench.core.prng import seed_text
from dittobench.drive.clock import new_run_id, now
from dittobench.receipts.suite import SuiteRun, build_suite_receipt, summarise
from dittobench.service.auth import Principal
from dittobench.service.context import ApiError, ServiceState, caller, state
from dittobench.service.models import SuiteObject
from dittobench.service.routes_info import errors
from dittobench.spec.seeds import OPERATOR, seed_shown
from dittobench.spec.vocab import RunSizeName
from dittobench.store.jobs import TERMINAL, JobRow
from dittobench.store.suites import SuiteRow, new_suite_id

router = APIRouter()

SuiteId = Annotated[
    str,
    Path(pattern=r"^s-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$", description="A suite id as submit returns."),
]
Service = Annotated[ServiceState, Depends(state)]
Caller = Annotated[Principal, Depends(caller)]


def submit_suite(
    service: ServiceState,
    principal: Principal,
    fields: tuple[str, int, RunSizeName, str],
) -> dict[str, Any]:
    """Queue the suite's runs (``fields``: harness URL, how many, size, version), checked
    already; the 202 body."""
    harness_url, count, run_size, version = fields
    seeds = [int.from_bytes(os.urandom(8), "little") >> 1 for _ in range(count)]
    run_ids: list[str] = []
    while len(run_ids) < count:
        run_id = new_run_id()
        if run_id not in run_ids:
            run_ids.append(run_id)
    stamp, suite_id = now(), new_suite_id()
    with service.submit_lock:
        for position, (run_id, seed) in enumerate(zip(run_ids, seeds, strict=True)):
            job = JobRow(
                run_id, 0, principal.name, "submit", harness_url, seed, run_size, version, "",
                "queued", "", False, "", "", stamp, stamp, "", "", suite_id, OPERATOR,
            )  # fmt: skip
            service.store.create_job(job, one_per_submitter=position == 0)  # ActiveJobError: 409
        row = SuiteRow(
            suite_id, principal.name, harness_url, run_size, version, stamp, stamp, tuple(run_ids)
        )
        service.store.create_suite(row)
    service.queue.poke()
    return {
        "suite_id": suite_id,
        "run_ids": run_ids,
        "status": "queued",
        "poll": f"/v1/suites/{suite_id}",
        "bench_version": version,
        "run_size": run_size,
        # drawn by the operator: each is shown once its run is over (spec.seeds.seed_shown)
        "seeds": [seed_shown(seed_text(seed), OPERATOR, "queued") for seed in seeds],
    }


@router.get(
    "/v1/suites/{suite_id}",
    response_model=SuiteObject,
    tags=["runs"],
    summary="Read a suite",
    responses=errors(400, 401, 404),
)
def read_suite(suite_id: SuiteId, service: Service, principal: Caller) -> Any:
    """Each run's status and composite ± its standard error, the mean composite over the runs
    done with a 95% interval from the spread between seeds, and once every run is done the
    suite receipt (signed over a Merkle root of the runs' receipts)."""
    suite = service.store.get_suite(suite_id)
    if suite is None or not (principal.admin or suite.submitter == principal.name):
        raise ApiError(404, f"no suite {suite_id}")
    jobs = [service.store.get_job(run_id) for run_id in suite.run_ids]
    views, done = [], []
    for run_id, job in zip(suite.run_ids, jobs, strict=True):
        row = service.store.get_run(run_id) if job is not None and job.status == "done" else None
        composite = None if row is None else row.composite
        stderr = None if row is None else row.composite_stderr
        views.append(
            {
                "run_id": run_id,
                "status": "failed" if job is None else job.status,
                "seed": ""
                if job is None
                else seed_shown(seed_text(job.seed), OPERATOR, job.status),
                "composite": composite,
                "composite_stderr": stderr,
                "poll": f"/v1/runs/{run_id}",
            }
        )
        if job is not None and composite is not None and stderr is not None:
            done.append((SuiteRun(run_id, job.seed, composite, stderr), job))
    statuses = {view["status"] for view in views}
    over = statuses <= TERMINAL
    status = ("done" if statuses == {"done"} else "failed") if over else "running"
    if statuses == {"queued"}:
        status = "queued"
    return {
        "suite_id": suite.suite_id,
        "status": status,
        "submitter": suite.submitter,
        "harness_url": suite.harness,
        "run_size": suite.run_size,
        "bench_version": suite.bench_version,
        "created_at": suite.created_at,
        "runs": views,
        "summary": summarise([run for run, _ in done]).to_json() if done else None,
        "receipt": _receipt(service, suite, done) if status == "done" else None,
    }


def _receipt(
    service: ServiceState, suite: SuiteRow, done: list[tuple[SuiteRun, JobRow]]
) -> dict[str, Any] | None:
    """The suite's receipt, signed the first time it is asked for once every run is done."""
    if not suite.receipt_json:
        if any(not job.receipt_json for _, job in done):
            return None  # a run is done but not signed yet: the next read signs the suite
        runs = [(run, json.loads(job.receipt_json)) for run, job in done]
        text = json.dumps(
            build_suite_receipt(suite.suite_id, runs, service.queue.driver.key, now())
        )
        service.store.set_suite_receipt(suite.suite_id, text, updated_at=now())
        suite = service.store.get_suite(suite.suite_id) or suite
    found: dict[str, Any] = json.loads(suite.receipt_json)
    return found


__all__ = ["read_suite", "router", "submit_suite"]
