"""`dittobench run --queue celery`: hand runs to workers through the broker, wait for them, and
write and print what a local run writes and prints.

The runs are jobs in the shared store (``service_jobs``, as the service makes them), so a worker
drives them exactly as it drives the service's. This command only watches the store; Ctrl-C
leaves the runs to the workers.
"""

from __future__ import annotations

import getpass
import json
import socket
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from dittobench.cli.common import fail

if TYPE_CHECKING:
    from dittobench.engine.orchestrate import Progress
    from dittobench.engine.runner import RunOutcome
    from dittobench.spec.vocab import RunSizeName, SeedSource
    from dittobench.store.jobs import JobRow, ServiceStore

POLL_S = 0.25


def submitter() -> str:
    """Who the jobs are recorded as submitted by: the command line's user and host."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    return f"cli:{user}@{socket.gethostname()}"


def queue_jobs(
    store: ServiceStore,
    broker_url: str,
    runs: list[tuple[str, int]],
    harness_url: str,
    run_size: RunSizeName,
    bench_version: str,
    suite_id: str = "",
    *,
    seed_source: SeedSource,
) -> None:
    """Make a job for each ``(run id, seed)`` and hand it to the workers (exit 2 when the broker
    cannot be reached: nothing is queued then); ``seed_source`` says who chose the seeds."""
    from dittobench.drive.clock import now
    from dittobench.store.jobs import JobRow
    from dittobench.workers.broker import Broker, BrokerError

    try:
        broker = Broker(broker_url)
        broker.check()
    except BrokerError as exc:
        raise fail(str(exc)) from None
    try:
        for run_id, seed in runs:
            stamp = now()
            job = JobRow(
                run_id, 0, submitter(), "submit", harness_url, seed, run_size, bench_version,
                "", "queued", "", False, "", "", stamp, stamp, "", "", suite_id, seed_source,
            )  # fmt: skip
            store.create_job(job, one_per_submitter=False)
            broker.send(run_id)
    finally:
        broker.close()


def progress_of(store: ServiceStore, run_ids: list[str], note: str = "") -> Progress:
    """The runs' progress as one: cases recorded of all cases (of the runs made so far)."""
    from dittobench.engine.orchestrate import Progress
    from dittobench.store import StoreError

    done = total = 0
    stages = set()
    for run_id in run_ids:
        try:
            row = store.get_run(run_id)
        except StoreError:  # not started yet
            stages.add("queued")
            continue
        done, total = done + row.cases_done, total + row.cases_total
        stages.add(row.stage if row.status == "running" else row.status)
    stage = stages.pop() if len(stages) == 1 else "running"
    return Progress(stage, done, total, 0, note if len(run_ids) > 1 else "")


def wait_for_jobs(
    store: ServiceStore, run_ids: list[str], show: Callable[[Progress], None]
) -> dict[str, JobRow]:
    """Poll the store until every job is over; the last job rows."""
    from dittobench.store.jobs import TERMINAL

    while True:
        jobs = {run_id: store.get_job(run_id) for run_id in run_ids}
        over = sum(job is None or job.status in TERMINAL for job in jobs.values())
        show(progress_of(store, run_ids, f"{over}/{len(run_ids)} runs over"))
        if over == len(run_ids):
            return {run_id: job for run_id, job in jobs.items() if job is not None}
        time.sleep(POLL_S)


def write_outcome(store: ServiceStore, job: JobRow, out_dir: Path) -> RunOutcome:
    """The files a local run writes (report, transcript, dataset, receipt), from the store."""
    from dittobench.core.canonical import canonical_bytes
    from dittobench.engine.runner import RunOutcome
    from dittobench.generate.assemble import build_dataset
    from dittobench.packs import own_pack
    from dittobench.spec.report import ScoreReport

    report, transcript = store.report(job.run_id), store.transcript(job.run_id)
    if report is None or transcript is None:
        raise fail(f"run {job.run_id} is done but its report is missing from {store.where}")
    folder = out_dir / job.run_id
    folder.mkdir(parents=True, exist_ok=True)
    paths = (folder / "report.json", folder / "transcript.json", folder / "dataset.json")
    paths[0].write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", "utf-8")
    paths[1].write_bytes(canonical_bytes(transcript))
    dataset = build_dataset(job.seed, job.bench_version, job.run_size, own_pack(job.bench_version))
    paths[2].write_bytes(canonical_bytes(dataset.to_json()))
    receipt = None
    if job.receipt_json:
        receipt = folder / "receipt.json"
        receipt.write_text(job.receipt_json, encoding="utf-8")
    return RunOutcome(job.run_id, ScoreReport.from_json(report), *paths, receipt)


def failed_line(job: JobRow) -> str:
    if job.status == "cancelled":
        return f"run {job.run_id} was cancelled by {job.cancelled_by or 'the operator'}"
    return f"run {job.run_id} failed ({job.failure_kind}): {job.failure_message}"


@contextmanager
def interrupt_leaves_runs(run_ids: list[str], db_hint: str) -> Iterator[None]:
    """Ctrl-C stops watching, not the runs: say where to find them, exit 130."""
    try:
        yield
    except KeyboardInterrupt:
        shown = " ".join(run_ids)
        typer.echo(
            f"\nstopped watching; the workers go on with {shown}: dittobench show RUN_ID{db_hint}",
            err=True,
        )
        raise typer.Exit(130) from None


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


__all__ = [
    "failed_line",
    "interrupt_leaves_runs",
    "progress_of",
    "queue_jobs",
    "submitter",
    "wait_for_jobs",
    "write_outcome",
]
