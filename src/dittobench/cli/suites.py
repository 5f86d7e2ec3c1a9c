"""`dittobench run --seeds N` and `run --queue celery`: several runs (or one) driven here with
bounded parallelism, or handed to workers; then each run's summary, and for a suite the mean
composite with its between-seed interval and the signed suite receipt (``receipts.suite``)."""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dittobench.cli.common import AnyKeyOpt, KeysUrlOpt, TrustedKeysOpt, app, fail
from dittobench.cli.inputs import read_json
from dittobench.cli.places import installation_key, key_to_trust, store_location
from dittobench.cli.progress import display, print_outcome
from dittobench.drive.clock import new_run_id, now

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from dittobench.engine.runner import RunOutcome
    from dittobench.spec.vocab import RunSizeName, SeedSource
    from dittobench.store.jobs import ServiceStore


@dataclass(frozen=True, slots=True)
class Plan:
    harness: str
    seed: int | None
    seeds: int
    run_size: RunSizeName
    bench_version: str
    db: str | None
    broker: str
    queue: str
    parallel: int
    concurrency: int
    case_timeout: float
    wait: float
    key: Path | None
    out_dir: Path
    json_out: Path | None


def many_runs(plan: Plan) -> None:
    """Run the plan; exit 1 when a run did not finish (the others are reported)."""
    from dittobench.receipts.keys import KeyFileError
    from dittobench.store import StoreError
    from dittobench.store.jobs import ServiceStore
    from dittobench.store.suites import SuiteRow, new_suite_id

    url, home = store_location(plan.db)
    try:
        store = ServiceStore(url)
    except StoreError as exc:
        raise fail(str(exc)) from None
    try:
        key = installation_key(plan.key, home)
    except (KeyFileError, OSError) as exc:
        store.close()
        raise fail(f"signing key: {exc}") from None
    seeds = _seeds(plan)
    run_ids = _run_ids(len(seeds))
    suite_id = new_suite_id() if plan.seeds > 1 else ""
    try:
        if suite_id:
            stamp = now()
            row = SuiteRow(suite_id, "cli", plan.harness, plan.run_size, plan.bench_version,
                           stamp, stamp, tuple(run_ids))  # fmt: skip
            store.create_suite(row)
            typer.echo(f"suite {suite_id}: {len(seeds)} runs on fresh seeds", err=True)
        if plan.queue == "celery":
            outcomes = _on_workers(store, plan, run_ids, seeds, suite_id, home)
        else:
            outcomes = _here(store, plan, run_ids, seeds, home, key)
        if suite_id:
            _report_suite(store, suite_id, outcomes, key, plan.out_dir)
        elif outcomes:
            print_outcome(outcomes[0], plan.json_out, key_to_trust(plan.key, home))
    except StoreError as exc:
        raise fail(str(exc)) from None
    finally:
        store.close()
    if len(outcomes) < len(seeds):
        raise typer.Exit(1)


def _seeds(plan: Plan) -> list[int]:
    if plan.seeds == 1 and plan.seed is not None:
        return [plan.seed]
    return [int.from_bytes(os.urandom(8), "little") >> 1 for _ in range(plan.seeds)]


def _seed_source(plan: Plan) -> SeedSource:
    """Who chose the seeds: the caller's --seed (one run, practice) or this command's draws
    (``_seeds``: every run of a suite)."""
    from dittobench.spec.seeds import seed_source_of

    return seed_source_of(plan.seed if plan.seeds == 1 else None)


def _run_ids(count: int) -> list[str]:
    made: list[str] = []
    while len(made) < count:
        run_id = new_run_id()
        if run_id not in made:
            made.append(run_id)
    return made


def _on_workers(
    store: ServiceStore,
    plan: Plan,
    run_ids: list[str],
    seeds: list[int],
    suite_id: str,
    home: Path,
) -> list[RunOutcome]:
    """Queue the runs for the workers, wait, write each run's files from the store. A built-in
    harness is started here (workers on this machine reach it, with --allow-private-harness)."""
    from dittobench.cli import queued
    from dittobench.drive.runs import harness_url as reach

    hint = f" --db {plan.db}" if plan.db else ""
    with (
        reach(plan.harness, home, run_ids[0]) as harness_url,
        queued.interrupt_leaves_runs(run_ids, hint),
    ):
        runs = list(zip(run_ids, seeds, strict=True))
        queued.queue_jobs(
            store, plan.broker, runs, harness_url, plan.run_size, plan.bench_version, suite_id,
            seed_source=_seed_source(plan),
        )  # fmt: skip
        typer.echo(f"queued {' '.join(run_ids)} for the workers at {plan.broker}", err=True)
        with display() as shown:
            jobs = queued.wait_for_jobs(store, run_ids, shown)
    outcomes = []
    for run_id in run_ids:
        job = jobs[run_id]
        if job.status != "done":
            typer.echo(f"error: {queued.failed_line(job)}", err=True)
            continue
        outcomes.append(queued.write_outcome(store, job, plan.out_dir))
    return outcomes


def _here(
    store: ServiceStore,
    plan: Plan,
    run_ids: list[str],
    seeds: list[int],
    home: Path,
    key: Ed25519PrivateKey,
) -> list[RunOutcome]:
    """Drive the runs in this process, ``plan.parallel`` at once, each against a harness of its
    own when the harness is the built-in one. Ctrl-C leaves them resumable (``--resume``)."""
    from dittobench.cli import queued
    from dittobench.drive.runs import RunRequest, drive_run
    from dittobench.engine.client import ClientLimits

    limits = ClientLimits(run_deadline_s=plan.case_timeout, health_wait_s=plan.wait)
    places = threading.BoundedSemaphore(plan.parallel)
    results: dict[str, RunOutcome | str] = {}

    def one(run_id: str, seed: int) -> None:
        request = RunRequest(plan.harness, seed, plan.run_size, plan.bench_version, plan.out_dir,
                             plan.concurrency, limits, signing_key=key,
                             seed_source=_seed_source(plan), local_dir=home)  # fmt: skip
        with places:
            try:
                results[run_id] = drive_run(store, run_id, request, resume=False)
            except Exception as exc:  # reported with the run; the others go on
                results[run_id] = " ".join(str(exc).split()) or type(exc).__name__

    # Daemon threads: Ctrl-C ends the process at once, leaving each run resumable.
    threads = [
        threading.Thread(target=one, args=pair, daemon=True)
        for pair in zip(run_ids, seeds, strict=True)
    ]
    for thread in threads:
        thread.start()
    try:
        with display() as shown:
            while any(thread.is_alive() for thread in threads):
                shown(queued.progress_of(store, run_ids, f"{len(results)}/{len(run_ids)}"))
                time.sleep(queued.POLL_S)
            shown(queued.progress_of(store, run_ids, f"{len(results)}/{len(run_ids)}"))
    except KeyboardInterrupt:
        typer.echo("\ninterrupted; finish each with: dittobench run --resume RUN_ID", err=True)
        raise typer.Exit(130) from None
    outcomes = []
    for run_id in run_ids:
        outcome = results.get(run_id, "it never ended")
        if isinstance(outcome, str):
            typer.echo(f"error: run {run_id}: {outcome}", err=True)
        else:
            outcomes.append(outcome)
    return outcomes


def _report_suite(
    store: ServiceStore,
    suite_id: str,
    outcomes: list[RunOutcome],
    key: Ed25519PrivateKey,
    out_dir: Path,
) -> None:
    """Print each run beside the suite's mean and interval; sign and keep the suite receipt once
    every run is done."""
    from dittobench.receipts.suite import SuiteRun, build_suite_receipt, summarise

    suite = store.get_suite(suite_id)
    runs = [
        SuiteRun(o.run_id, o.report.seed, o.report.composite, o.report.composite_stderr)
        for o in outcomes
    ]
    for run in runs:
        typer.echo(
            f"{run.run_id}  seed {run.seed:<20} composite {run.composite:.4f} "
            f"± {run.composite_stderr:.4f}"
        )
    if not runs:
        return
    summary = summarise(runs)
    typer.echo("")
    typer.echo(f"suite       {suite_id}  ({summary.runs} runs)")
    typer.echo(
        f"composite   {summary.mean:.4f}   95% CI [{summary.low:.4f}, {summary.high:.4f}] from "
        f"the spread between seeds (sd {summary.stdev:.4f}, t with {summary.runs - 1} df)"
    )
    folder = out_dir / suite_id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "suite.json").write_text(
        json.dumps({"suite_id": suite_id, **summary.to_json()}, indent=2) + "\n", "utf-8"
    )
    if suite is None or len(runs) < len(suite.run_ids):
        typer.echo("no suite receipt: not every run finished", err=True)
        return
    receipts: list[tuple[SuiteRun, dict[str, Any]]] = []
    for run, outcome in zip(runs, outcomes, strict=True):
        if outcome.receipt_path is None:
            typer.echo(f"no suite receipt: run {run.run_id} has none", err=True)
            return
        receipts.append((run, json.loads(outcome.receipt_path.read_text(encoding="utf-8"))))
    text = json.dumps(build_suite_receipt(suite_id, receipts, key, now()), indent=2) + "\n"
    store.set_suite_receipt(suite_id, text, updated_at=now())
    (folder / "suite-receipt.json").write_text(text, encoding="utf-8")
    typer.echo(f"receipt     {folder / 'suite-receipt.json'}")


@app.command("verify-suite")
def verify_suite(
    suite_receipt: Annotated[Path, typer.Argument(help="suite-receipt.json", exists=True)],
    run_receipts: Annotated[
        list[Path], typer.Argument(help="The runs' receipt.json files, in the suite's order.")
    ],
    trusted_keys: TrustedKeysOpt = None,
    keys_url: KeysUrlOpt = None,
    any_key: AnyKeyOpt = False,
) -> None:
    """Check a suite receipt: its signature (a trusted key inside its window), that it binds
    exactly these run receipts in this order (a Merkle root over them), that each run's seed
    and composite and the suite's mean and interval are the ones the receipts give; and each
    run receipt as `verify` checks it, signers trusted as `verify` trusts them (--trusted-keys,
    --keys-url, this installation's own key; none checked with --any-key). Exit 1 when anything
    fails, 2 when a signer is not trusted or a file is not JSON."""
    from dittobench.cli.signers import ANY_KEY_WORDS, require_trusted, trusted_signers
    from dittobench.receipts.keys import KeyFileError, b64decode_strict, public_key_from_raw
    from dittobench.receipts.suite import check_suite_receipt
    from dittobench.receipts.verify import verify_receipt

    suite = read_json(suite_receipt, "suite receipt")
    runs = [read_json(path, "run receipt") for path in run_receipts]
    trusted = trusted_signers(trusted_keys, keys_url, any_key)
    carried = suite if isinstance(suite, dict) else {}
    manifest = carried.get("manifest")
    kid = manifest.get("key_id") if isinstance(manifest, dict) else None
    found = None
    try:
        if trusted is not None:
            found = trusted.lookup(str(kid))
            if found is None:
                require_trusted(str(kid), trusted, "the suite was")
                raise fail(f"the suite names no key id ({kid!r:.40})")
            raw = found.public_key
        else:
            raw = b64decode_strict(carried.get("public_key"), "public_key")
        key = public_key_from_raw(raw)
    except KeyFileError as exc:
        raise fail(f"{suite_receipt}: {exc}") from None
    problems = [f"{suite_receipt}: {p}" for p in check_suite_receipt(suite, key, runs, found)]
    for path, run in zip(run_receipts, runs, strict=True):
        require_trusted(run.get("key_id") if isinstance(run, dict) else None, trusted, str(path))
        checked = verify_receipt(run, trusted)
        problems += [f"{path}: {c.name}: {c.detail}" for c in checked.failed]
    for problem in problems:
        typer.echo(f"FAIL  {problem}")
    if problems:
        raise typer.Exit(1)
    who = "a trusted key" if trusted is not None else f"the key it carries ({ANY_KEY_WORDS})"
    typer.echo(f"verdict: VERIFIED: {len(runs)} run receipts bound, signed by {who}")


__all__ = ["Plan", "many_runs", "verify_suite"]
