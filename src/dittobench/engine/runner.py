"""One benchmark run from start to report: generate, run, grade, store, write files.

``start_run`` begins a new run; ``resume_run`` finishes an interrupted one, regenerating its
dataset from the stored seed and checking the hash, and skipping every case already recorded.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.core.canonical import canonical_bytes
from dittobench.core.hashing import sha256_hex
from dittobench.engine.client import ClientLimits, HarnessClient
from dittobench.engine.orchestrate import Progress, Reporter, RunContext, execute_run, transcript_of
from dittobench.engine.tool_endpoint import ToolEndpoint
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.receipts.sign import build_receipt
from dittobench.spec.dataset import Dataset
from dittobench.spec.report import ScoreReport
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.versions import get_policy
from dittobench.store import RunRow, RunStore


@dataclass(frozen=True, slots=True)
class RunOptions:
    harness_url: str
    seed: int
    run_size: str
    bench_version: str
    concurrency: int
    out_dir: Path
    limits: ClientLimits = field(default_factory=ClientLimits)
    signing_key: Ed25519PrivateKey | None = None
    """Signs the run's receipt; without one no receipt is written."""
    harness_name: str = ""
    """How the harness is recorded (e.g. ``builtin``); the URL when empty."""
    strict_order: bool = False
    """Every tool case before any seeding, as the reference runs them (see orchestrate)."""


@dataclass(frozen=True, slots=True)
class RunOutcome:
    run_id: str
    report: ScoreReport
    report_path: Path
    transcript_path: Path
    dataset_path: Path
    receipt_path: Path | None


class RunError(RuntimeError):
    """A run that cannot start or resume (unknown run id, changed dataset, finished run)."""


def start_run(
    store: RunStore, run_id: str, options: RunOptions, now: Callable[[], str], report: Reporter
) -> RunOutcome:
    report(Progress("generating", 0, 0, 0))
    dataset = build_dataset(options.seed, options.bench_version, options.run_size)
    data = canonical_bytes(dataset.to_json())
    stamp = now()
    store.create_run(
        RunRow(
            run_id=run_id,
            seed=options.seed,
            bench_version=dataset.bench_version,
            run_size=options.run_size,
            dataset_sha256=sha256_hex(data),
            harness=options.harness_name or options.harness_url,
            status="running",
            stage="generating",
            error="",
            created_at=stamp,
            updated_at=stamp,
            cases_done=0,
            cases_total=len(dataset.tool_cases) + len(dataset.memory_cases),
            composite=None,
            composite_stderr=None,
            transcript_sha256="",
            waves_seeded=0,
        )
    )
    return _drive(store, run_id, dataset, data, options, now, report)


def resume_run(
    store: RunStore, run_id: str, options: RunOptions, now: Callable[[], str], report: Reporter
) -> RunOutcome:
    row = store.get_run(run_id)
    if row.status == "done":
        raise RunError(f"run {run_id} is already done; `dittobench show {run_id}` prints it")
    dataset = build_dataset(row.seed, row.bench_version, row.run_size)
    data = canonical_bytes(dataset.to_json())
    if sha256_hex(data) != row.dataset_sha256:
        raise RunError(
            f"run {run_id} was made with a dataset this build no longer produces "
            f"(bench version {row.bench_version}); it cannot be resumed here"
        )
    store.update_run(run_id, updated_at=now(), status="running", error="")
    # The harness may have moved (a restarted process on a new port): the caller's URL wins.
    resumed = replace(
        options,
        harness_url=options.harness_url or row.harness,
        harness_name=options.harness_name or row.harness,
        seed=row.seed,
        run_size=row.run_size,
        bench_version=row.bench_version,
    )
    return _drive(store, run_id, dataset, data, resumed, now, report)


def _drive(
    store: RunStore,
    run_id: str,
    dataset: Dataset,
    data: bytes,
    options: RunOptions,
    now: Callable[[], str],
    report: Reporter,
) -> RunOutcome:
    """Run, score, write the files, then mark the run done; any failure marks it failed (or
    interrupted) with the reason, keeping every recorded case for a resume."""
    try:
        records = asyncio.run(_run(store, run_id, dataset, options, now, report))
        report(Progress("scoring", len(records), len(records), 0))
        store.update_run(run_id, updated_at=now(), stage="scoring")
        return _finish(store, run_id, dataset, data, options, now, records)
    except KeyboardInterrupt:
        store.update_run(run_id, updated_at=now(), status="interrupted")
        raise
    except Exception as exc:
        store.update_run(run_id, updated_at=now(), status="failed", error=str(exc))
        raise


def _finish(
    store: RunStore,
    run_id: str,
    dataset: Dataset,
    data: bytes,
    options: RunOptions,
    now: Callable[[], str],
    records: dict[str, CaseRecord],
) -> RunOutcome:
    identity = options.harness_name or options.harness_url
    transcript = transcript_of(dataset, sha256_hex(data), identity, records)
    graded = grade_run(dataset, transcript)
    folder = options.out_dir / run_id
    folder.mkdir(parents=True, exist_ok=True)
    paths = (folder / "report.json", folder / "transcript.json", folder / "dataset.json")
    paths[0].write_text(
        json.dumps(graded.report.to_json(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    paths[1].write_bytes(canonical_bytes(transcript.to_json()))
    paths[2].write_bytes(data)
    receipt_path = None
    if options.signing_key is not None:
        prompts = {c.id: c.prompt for c in dataset.tool_cases}
        prompts.update({c.id: c.question for c in dataset.memory_cases})
        # Signed by the key of whoever ran the engine: self-reported until an operator's
        # service runs it.
        receipt = build_receipt(
            graded.report,
            transcript,
            prompts,
            options.signing_key,
            "self-reported",
            now(),
            identity,
        )
        receipt_path = folder / "receipt.json"
        receipt_path.write_text(
            json.dumps(receipt, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    # Marked done only once every file is written, so a failed write leaves a resumable run.
    store.save_report(run_id, graded.report.to_json(), transcript.to_json(), updated_at=now())
    return RunOutcome(run_id, graded.report, *paths, receipt_path)


async def _run(
    store: RunStore,
    run_id: str,
    dataset: Dataset,
    options: RunOptions,
    now: Callable[[], str],
    report: Reporter,
) -> dict[str, CaseRecord]:
    endpoint = ToolEndpoint(dataset, get_policy(dataset.bench_version).content_version)
    await endpoint.start()
    try:
        async with HarnessClient(options.harness_url, options.limits) as client:
            ctx = RunContext(
                dataset,
                run_id,
                client,
                endpoint,
                store,
                options.concurrency,
                now,
                report,
                options.strict_order,
            )
            return await execute_run(ctx)
    finally:
        await endpoint.stop()
