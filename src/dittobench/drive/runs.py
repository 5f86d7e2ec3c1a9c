"""Driving one run, whoever asks: a ``RunRequest`` in, a graded, stored run out.

``drive_run(store, run_id, request, progress)`` reaches the request's harness for as long as the
run lasts (a URL as given; ``builtin``: the reference baseline started for this run, its memory
kept in ``baseline/<run id>.db`` under ``local_dir`` so a resume finds it; a source archive: built
and run in a bubblewrap sandbox under ``out_dir/<run id>/sandbox``), then starts the run through
the engine (``engine.runner.start_run``) or resumes it (``resume_run``: recorded cases kept). The
engine grades it, stores it, writes its files and signs its receipt when the request carries a
key. A resume that another live process holds raises ``RunHeld`` before any harness starts.

The caller decides only where it runs and how progress is shown: the command line (one run, or a
suite in threads), the service's threads and the Celery workers (``workers.driver.JobDriver``),
and the library's ``dittobench.run``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.drive.clock import now
from dittobench.engine.client import ClientLimits
from dittobench.engine.judging import JudgeEndpoint
from dittobench.engine.launcher import builtin_harness
from dittobench.engine.orchestrate import Progress, Reporter
from dittobench.engine.runner import (
    RunError,
    RunHeld,
    RunOptions,
    RunOutcome,
    held_by_another,
    resume_run,
    start_run,
)
from dittobench.packs import Pack
from dittobench.spec.seeds import SUBMITTER
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.vocab import RunSizeName, SeedSource
from dittobench.store import RunStorage, StoreError

if TYPE_CHECKING:  # a run from a source archive imports the sandbox when it starts (below)
    from dittobench.sandbox.archive import Archive
    from dittobench.sandbox.harness import SandboxConfig, SandboxedHarness

BUILTIN = "builtin"
"""The harness name that starts the reference baseline for the run (``engine.launcher``)."""

START, RESUME, DONE = "start", "resume", "done"
"""What ``start_or_resume`` finds to do with a run id."""


@dataclass(frozen=True, slots=True)
class Schedule:
    """When ``/seed`` may be sent (``--strict-order``, ``--overlap``; the harness's declared
    capability decides when neither is set) and whether a resume seeds again the waves already
    seeded (``reseed``; ``--no-reseed`` when the harness kept them)."""

    strict_order: bool = False
    overlap: bool = False
    reseed: bool = True


@dataclass(frozen=True, slots=True)
class RunRequest:
    """One run to drive. ``harness`` is a base URL or ``BUILTIN``, and how the run is recorded
    unless ``harness_name`` says otherwise; with ``archive`` the archive is what runs
    (``harness`` only names it). On resume an empty ``harness`` drives the one the run was
    stored with."""

    harness: str = BUILTIN
    seed: int = 0
    run_size: RunSizeName = "small"
    bench_version: str = CURRENT_VERSION
    out_dir: Path = Path("dittobench-runs")
    concurrency: int = 8
    limits: ClientLimits = field(default_factory=ClientLimits)
    schedule: Schedule = field(default_factory=Schedule)
    pack: Pack | None = None
    """The content pack; the version's own public pack when absent (a resume reads the run's)."""
    signing_key: Ed25519PrivateKey | None = None
    """Signs the run's receipt (trust tier ``self-reported``); no receipt without one."""
    judge: JudgeEndpoint | None = None
    judge_model: str = ""
    seed_source: SeedSource = SUBMITTER
    """Who chose ``seed`` (``spec.seeds``): a seed someone gave makes the run practice."""
    archive: Archive | None = None
    sandbox: SandboxConfig | None = None
    """The sandbox settings of an ``archive`` (the defaults when absent)."""
    transport: Callable[[], httpx.AsyncBaseTransport] | None = None
    """Makes the connection layer of every request to a harness at a URL (the service's guard)."""
    local_dir: Path | None = None
    """Where a built-in harness keeps its memory; ``out_dir`` when absent."""
    harness_name: str = ""
    """How the run is recorded when that is not ``harness`` (e.g. a replay's answers file)."""


def start_or_resume(store: RunStorage, run_id: str) -> str:
    """``START`` when the store has no run ``run_id``, ``DONE`` when it is finished, else
    ``RESUME``."""
    try:
        status = store.get_run(run_id).status
    except StoreError:
        return START
    return DONE if status == "done" else RESUME


def drive_run(
    store: RunStorage,
    run_id: str,
    request: RunRequest,
    progress: Reporter = lambda _p: None,
    *,
    resume: bool | None = None,
) -> RunOutcome:
    """Drive run ``run_id`` to its graded, stored end, reporting ``progress``: a new run when
    ``resume`` is false, the stored one when true, and when None whichever the store says
    (``start_or_resume``; a finished run raises ``RunError``). A resume another live process
    holds raises ``RunHeld`` before any harness starts. The engine's errors pass through: the
    run is left resumable (Ctrl-C: ``KeyboardInterrupt``) or failed with the reason."""
    if resume is None:
        choice = start_or_resume(store, run_id)
        if choice == DONE:
            raise RunError(f"run {run_id} is already done; `dittobench show {run_id}` prints it")
        resume = choice == RESUME
    if resume:
        busy = held_by_another(store, run_id, now)
        if busy:
            raise RunHeld(busy)
        if not request.harness and request.archive is None:
            request = replace(request, harness=store.get_run(run_id).harness)
    with reached(request, run_id) as (options, watch):
        drive = resume_run if resume else start_run
        return drive(store, run_id, options, now, watch(progress))


def run_options(request: RunRequest, url: str) -> RunOptions:
    """The engine's options for ``request``, its harness at ``url``."""
    return RunOptions(
        harness_url=url,
        seed=request.seed,
        run_size=request.run_size,
        bench_version=request.bench_version,
        concurrency=request.concurrency,
        out_dir=request.out_dir,
        limits=request.limits,
        signing_key=request.signing_key,
        harness_name=request.harness_name or request.harness,
        strict_order=request.schedule.strict_order,
        overlap=request.schedule.overlap,
        reseed=request.schedule.reseed,
        pack=request.pack,
        transport=request.transport,
        seed_source=request.seed_source,
        judge=request.judge,
        judge_model=request.judge_model,
    )


Watch = Callable[[Reporter], Reporter]
"""Wraps the caller's progress callback for the harness that was reached."""


@contextlib.contextmanager
def reached(request: RunRequest, run_id: str) -> Iterator[tuple[RunOptions, Watch]]:
    """The engine's options with the request's harness reached for as long as the run lasts,
    and what to wrap the progress callback in: a sandboxed harness ended for a bound (its
    memory, its disk) stops the run at its next report, failed with that reason."""
    if request.archive is not None:
        from dittobench.sandbox.harness import SandboxConfig, sandboxed_harness

        config = request.sandbox or SandboxConfig()
        folder = request.out_dir / run_id / "sandbox"
        with sandboxed_harness(request.archive, config, folder) as box:
            options = replace(
                run_options(request, box.url),
                transport=box.transport,
                tool_route=box.tool_route,
            )
            yield options, lambda reporter: watching(box, reporter)
        return
    with harness_url(request.harness, request.local_dir or request.out_dir, run_id) as url:
        yield run_options(request, url), lambda reporter: reporter


@contextlib.contextmanager
def harness_url(harness: str, local_dir: Path, run_id: str) -> Iterator[str]:
    """The URL to drive: ``harness`` itself, or a built-in baseline harness started for this
    run, its memory kept in ``baseline/<run id>.db`` under ``local_dir`` so a resume finds it."""
    if harness != BUILTIN:
        yield harness
        return
    with builtin_harness(local_dir / "baseline" / f"{run_id}.db") as url:
        yield url


def watching(harness: SandboxedHarness, reporter: Reporter) -> Reporter:
    """``reporter``, but once the sandbox was ended for a bound the run stops at its next
    report, failed with that reason, instead of asking a harness that is gone for every case
    left."""
    from dittobench.sandbox import SandboxError

    def report(progress: Progress) -> None:
        if harness.sandbox.ended:
            raise SandboxError(f"the sandbox was ended: {harness.sandbox.ended}")
        reporter(progress)

    return report


__all__ = [
    "BUILTIN",
    "DONE",
    "RESUME",
    "START",
    "RunRequest",
    "Schedule",
    "Watch",
    "drive_run",
    "harness_url",
    "reached",
    "run_options",
    "start_or_resume",
    "watching",
]
