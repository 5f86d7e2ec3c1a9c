"""Reaching a run: the one path by which the API (``GET /v1/runs/{id}``) and the pages
(``/runs/{id}`` and what hangs off it) find a run a caller may see. Whether a caller may see a
run is the caller's rule (``MaySee``); what it is told when it may not is the same as when there
is no such run, so nobody can tell another's run from none."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dittobench.store.errors import StoreError
from dittobench.store.jobs import JobRow, ServiceStore
from dittobench.store.rows import is_run_id
from dittobench.views.model import ViewError

MaySee = Callable[[str, bool], bool]
"""(the run's submitter, whether it is a service job) -> the caller may see it."""


@dataclass(frozen=True, slots=True)
class Reached:
    """A run the caller may see: its service job (None: a run this service did not drive)."""

    run_id: str
    job: JobRow | None


def reach_run(store: ServiceStore, run_id: str, may_see: MaySee) -> Reached:
    """The run ``run_id`` if ``may_see`` lets the caller see it; ``ViewError`` (missing,
    ``no run ID``) when there is no such run or the caller may not see it."""
    missing = ViewError(f"no run {run_id}", missing=True)
    if not is_run_id(run_id):
        raise missing
    job = store.get_job(run_id)
    if job is not None:
        if may_see(job.submitter, True):
            return Reached(run_id, job)
        raise missing
    if not may_see("", False):
        raise missing
    try:
        store.get_run(run_id)
    except StoreError:
        raise missing from None
    return Reached(run_id, None)


def reach_job(store: ServiceStore, run_id: str, may_see: MaySee) -> JobRow:
    """``reach_run`` for a caller who sees only service jobs (the API): the job itself."""
    found = reach_run(store, run_id, lambda submitter, job: job and may_see(submitter, job))
    if found.job is None:  # unreachable: the rule above sees jobs only
        raise ViewError(f"no run {run_id}", missing=True)
    return found.job


__all__ = ["MaySee", "Reached", "reach_job", "reach_run"]
