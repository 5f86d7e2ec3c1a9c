"""A light listing of every run for pages and leaderboards: the runs' scalar columns and, where
the store keeps service jobs, each job's status, submitter and whether it holds a receipt;
never the reports, transcripts or receipts themselves (a thousand runs list in milliseconds).
Reports are read only for the rows shown (``reports_of``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql

from dittobench.core.prng import SeedError, parse_seed
from dittobench.spec.seeds import SUBMITTER
from dittobench.store.errors import BadContentError
from dittobench.store.jobs import jobs_table
from dittobench.store.rows import loads_object
from dittobench.store.runs import RunStore
from dittobench.store.schema import reports_table, runs_table


@dataclass(frozen=True, slots=True)
class Listed:
    """One run as lists show it. ``status`` is the job's when the run is a service job (queued
    jobs have no run row yet: their scores are None and counts 0), else the run row's."""

    run_id: str
    status: str
    seed: int
    bench_version: str
    run_size: str
    harness: str
    pack_id: str
    dataset_sha256: str
    created_at: str
    updated_at: str
    cases_done: int
    cases_total: int
    composite: float | None
    composite_stderr: float | None
    job: bool
    """A service job (run by the operator's service), not a command-line run."""
    submitter: str = ""
    has_receipt: bool = False
    failure: str = ""
    seed_source: str = SUBMITTER
    """Who chose the seed (``spec.seeds``): the job's when it is a job, else the run's. Only
    ``operator`` runs are ranked; the others are practice."""
    window_id: str = ""
    """The scoring window the run was in (a service job's), or ``""``."""
    resumes: int = 0
    """How many times the run was resumed (the run row's; 0 for a job not yet run)."""


_RUN_COLUMNS = (
    "run_id", "status", "seed", "bench_version", "run_size", "harness", "pack_id",
    "dataset_sha256", "created_at", "updated_at", "cases_done", "cases_total", "composite",
    "composite_stderr", "error", "seed_source", "resumes",
)  # fmt: skip
_JOB_COLUMNS = (
    "run_id", "status", "seed", "bench_version", "run_size", "harness_url", "submitter",
    "created_at", "updated_at", "failure_message", "dataset_sha256", "seed_source", "window_id",
)  # fmt: skip


def list_all(store: RunStore, *, with_jobs: bool, run_id: str | None = None) -> list[Listed]:
    """Every run (and, ``with_jobs``, every service job), newest first; only ``run_id``'s
    when given."""
    runs_query = sa.select(*(runs_table.c[name] for name in _RUN_COLUMNS))
    if run_id is not None:
        runs_query = runs_query.where(runs_table.c.run_id == run_id)
    with store._reading() as conn:
        runs = [dict(row._mapping) for row in conn.execute(runs_query).all()]
        jobs: list[dict[str, Any]] = []
        if with_jobs:
            has_receipt = (jobs_table.c.receipt_json != "").label("has_receipt")
            query = sa.select(*(jobs_table.c[name] for name in _JOB_COLUMNS), has_receipt)
            if run_id is not None:
                query = query.where(jobs_table.c.run_id == run_id)
            jobs = [dict(row._mapping) for row in conn.execute(query).all()]
    by_id = {str(run["run_id"]): run for run in runs}
    listed = [_from_job(job, by_id.pop(str(job["run_id"]), None)) for job in jobs]
    listed += [_from_run(run) for run in by_id.values()]
    listed.sort(key=lambda item: (item.created_at, item.run_id), reverse=True)
    return listed


def _seed(value: object, run_id: object) -> int:
    try:
        return parse_seed(value)
    except SeedError:
        raise BadContentError(f"run {run_id!r}: column seed holds {value!r}") from None


def _score(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def _from_run(run: dict[str, Any]) -> Listed:
    return Listed(
        str(run["run_id"]),
        str(run["status"]),
        _seed(run["seed"], run["run_id"]),
        str(run["bench_version"]),
        str(run["run_size"]),
        str(run["harness"]),
        str(run["pack_id"]),
        str(run["dataset_sha256"]),
        str(run["created_at"]),
        str(run["updated_at"]),
        int(run["cases_done"]),
        int(run["cases_total"]),
        _score(run["composite"]),
        _score(run["composite_stderr"]),
        job=False,
        failure=str(run["error"]),
        seed_source=str(run["seed_source"]),
        resumes=int(run["resumes"]),
    )


def _from_job(job: dict[str, Any], run: dict[str, Any] | None) -> Listed:
    return Listed(
        str(job["run_id"]),
        str(job["status"]),
        _seed(job["seed"], job["run_id"]),
        str(job["bench_version"]),
        str(job["run_size"]),
        str(job["harness_url"]),
        str(run["pack_id"]) if run else "",
        str(run["dataset_sha256"]) if run else str(job["dataset_sha256"]),
        str(job["created_at"]),
        str(run["updated_at"] if run else job["updated_at"]),
        int(run["cases_done"]) if run else 0,
        int(run["cases_total"]) if run else 0,
        _score(run["composite"]) if run else None,
        _score(run["composite_stderr"]) if run else None,
        job=True,
        submitter=str(job["submitter"]),
        has_receipt=bool(job["has_receipt"]),
        failure=str(job["failure_message"]),
        seed_source=str(job["seed_source"]),
        window_id=str(job["window_id"]),
        resumes=int(run["resumes"]) if run else 0,
    )


def reports_of(store: RunStore, run_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """run id -> stored report, for the runs of ``run_ids`` that have one."""
    if not run_ids:
        return {}
    query = sa.select(reports_table.c.run_id, reports_table.c.report_json).where(
        reports_table.c.run_id.in_(list(run_ids))
    )
    with store._reading() as conn:
        rows = conn.execute(query).all()
    return {
        str(run_id): loads_object(text, f"run {run_id!r}: column report_json")
        for run_id, text in rows
    }


def nuance_of(store: RunStore, run_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """run id -> its report's ``nuance`` object (the judged score of its open questions), for
    the runs of ``run_ids`` whose report has one."""
    return report_field_of(store, run_ids, "nuance")


def identity_of_runs(store: RunStore, run_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """run id -> what its harness declared it is (the report's ``identity``), for the runs of
    ``run_ids`` whose harness declared something."""
    return report_field_of(store, run_ids, "identity")


def report_field_of(
    store: RunStore, run_ids: Sequence[str], name: str
) -> dict[str, dict[str, Any]]:
    """run id -> the object under ``name`` in its report, for the runs of ``run_ids`` whose
    report has one. SQLite and PostgreSQL pick it out of the report themselves, so a leaderboard
    of hundreds of runs never parses their whole reports; another database hands back the
    reports."""
    if not run_ids:
        return {}
    column = reports_table.c.report_json
    with store._reading() as conn:
        dialect = conn.dialect.name
        if dialect == "sqlite":
            picked: sa.ColumnElement[Any] = sa.func.json_extract(column, f"$.{name}")
        elif dialect == "postgresql":
            picked = sa.cast(column, postgresql.JSON)[name].astext
        else:
            picked = column
        query = sa.select(reports_table.c.run_id, picked).where(
            reports_table.c.run_id.in_(list(run_ids))
        )
        rows = conn.execute(query).all()
    out = {}
    for run_id, text in rows:
        if text is None:
            continue
        what = f"run {run_id!r}: the {name} of column report_json"
        found = loads_object(text, what)
        if picked is column:
            if not isinstance(found.get(name), dict):
                continue
            found = found[name]
        out[str(run_id)] = found
    return out


def job_receipt(store: RunStore, run_id: str) -> str | None:
    """The receipt the service signed for ``run_id`` ("" while it has none), or None when the
    run is not a service job (or the store keeps no jobs)."""
    with store._reading() as conn:
        if not sa.inspect(conn).has_table(jobs_table.name):
            return None
        found = conn.execute(
            sa.select(jobs_table.c.receipt_json).where(jobs_table.c.run_id == run_id)
        ).first()
    return None if found is None else str(found[0])


__all__ = [
    "Listed",
    "identity_of_runs",
    "job_receipt",
    "list_all",
    "nuance_of",
    "report_field_of",
    "reports_of",
]
