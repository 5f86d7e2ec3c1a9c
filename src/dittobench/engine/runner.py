"""One benchmark run from start to report: generate, run, grade, store, write files.

``start_run`` begins a new run; ``resume_run`` finishes an interrupted one, regenerating its
dataset from the stored seed and checking the hash, and skipping every case already recorded.

One process drives a run at a time: it holds the run's lease in the store (renewed by a thread
of its own while it runs), so a second ``--resume`` refuses. A holder killed outright stops
renewing; its lease is taken over at once when it was a process on this machine that is gone,
otherwise once it runs out (``LEASE_S``).

The cases run on an event loop in a thread of their own. Signals reach only the main thread, so
the tool endpoint's server never installs signal handlers: no signal (nor a SIGINT the process
was started to ignore) can stop it under running cases. Ctrl-C in the main thread cancels the
run, which stops resumably.

Each run draws a wire nonce (``os.urandom``, 32 bytes) when it starts and keeps it in the store
(``runs.wire_nonce``): the harness is shown ids keyed by it (``spec.wireids``), a resume shows it
the same ones, and the transcript records it. A run stored before nonces resumes without one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.catalog.shown import shown_by
from dittobench.core.canonical import canonical_bytes
from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import sha256_hex
from dittobench.core.ids import WIRE_NONCE_BYTES
from dittobench.engine.client import ClientLimits, HarnessClient
from dittobench.engine.judging import JudgeEndpoint, judge_transcript
from dittobench.engine.orchestrate import (
    MAX_UNAVAILABLE_SHARE,
    OVERLAP,
    SAFE,
    SEED_BACKOFF_S,
    Progress,
    Reporter,
    RunContext,
    execute_run,
    transcript_of,
    unavailable,
)
from dittobench.engine.packs import reopen, run_pack, stored_location
from dittobench.engine.tool_endpoint import ToolEndpoint
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.packs import Pack, PackError
from dittobench.receipts.sign import build_receipt, case_prompts
from dittobench.spec.dataset import Dataset
from dittobench.spec.judging import JudgeProtocol
from dittobench.spec.report import ScoreReport
from dittobench.spec.seeds import SUBMITTER
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.versions import get_policy
from dittobench.spec.vocab import RunSizeName, SeedSource
from dittobench.spec.wireids import WireIdError, WireIds
from dittobench.store import RunRow, RunStorage
from dittobench.store.rows import RowSchedule
from dittobench.store.runs import RunBusyError, RunTakenError, StoreError

LEASE_S = 60
"""How long a claim on a run lasts unless renewed."""
RENEW_EVERY_S = 15.0

Executed = tuple[dict[str, CaseRecord], dict[str, str]]
"""A driven run: every case's record, and what the harness declared it is (``spec.identity``)."""


@dataclass(frozen=True, slots=True)
class RunOptions:
    harness_url: str
    seed: int
    run_size: RunSizeName
    bench_version: str
    concurrency: int
    out_dir: Path
    limits: ClientLimits = field(default_factory=ClientLimits)
    signing_key: Ed25519PrivateKey | None = None
    """Signs the run's receipt; without one no receipt is written."""
    harness_name: str = ""
    """How the harness is recorded (e.g. ``builtin``); the URL when empty."""
    strict_order: bool = False
    """The safe schedule even if the harness declares it takes a ``/seed`` while running."""
    overlap: bool = False
    """Tool cases run through seeding even if the harness does not declare it takes that."""
    reseed: bool = True
    """On resume, send again the waves already seeded (``--no-reseed``: the harness kept them)."""
    seed_backoff_s: tuple[float, ...] = SEED_BACKOFF_S
    pack: Pack | None = None
    """The content pack (``--pack``); the version's own public pack when absent."""
    transport: Callable[[], httpx.AsyncBaseTransport] | None = None
    """Makes the connection layer of every request to the harness (the scoring service passes
    one that connects only to the public address it checked); httpx's own when absent."""
    tool_route: Callable[[str], str] | None = None
    """Given the tool endpoint's URL (its secret included), returns the URL the harness is told
    instead: a sandboxed harness reaches the endpoint through a bridge (``dittobench.sandbox``)."""
    seed_source: SeedSource = SUBMITTER
    """Who chose ``seed`` (``spec.seeds``), kept with the run and signed in its receipt: a caller
    that drew the seed fresh says ``operator``; a seed someone gave makes the run practice."""
    judge: JudgeEndpoint | None = None
    """Where the judge of the open questions is (``--judge-url``); unjudged when absent."""
    judge_model: str = ""
    """Judge with this model instead of the version's locked one (an unofficial nuance score)."""


@dataclass(frozen=True, slots=True)
class RunOutcome:
    run_id: str
    report: ScoreReport
    report_path: Path
    transcript_path: Path
    dataset_path: Path
    receipt_path: Path | None


class RunError(DittobenchError, RuntimeError):
    """A run that cannot start or resume (unknown run id, changed dataset, finished run, a run
    another process is driving)."""

    exit_code = 1  # the run failed; its input was fine
    http_status = 409


class LeaseLost(RunError):
    """Another process took the run over while this one was driving it."""


class RunHeld(RunError):
    """Another live process holds the run's lease: nothing was changed (a second ``--resume``,
    or a job delivered twice)."""


def judge_protocol(bench_version: str, model: str = "") -> JudgeProtocol:
    """The version's locked judge, or the same protocol with another model (unofficial)."""
    protocol = get_policy(bench_version).judge
    if protocol is None:
        raise RunError(f"bench version {bench_version} has no open questions to judge")
    return protocol.with_model(model) if model and model != protocol.model else protocol


def _chosen_schedule(options: RunOptions) -> RowSchedule:
    if options.strict_order and options.overlap:
        raise RunError("choose one of --strict-order and --overlap")
    return SAFE if options.strict_order else OVERLAP if options.overlap else ""


def start_run(
    store: RunStorage, run_id: str, options: RunOptions, now: Callable[[], str], report: Reporter
) -> RunOutcome:
    schedule = _chosen_schedule(options)
    report(Progress("generating", 0, 0, 0))
    pack = run_pack(options.bench_version, options.pack)
    # A pack the harness cannot be shown fails before the run exists.
    shown_by(pack, get_policy(options.bench_version).catalog)
    dataset = build_dataset(options.seed, options.bench_version, options.run_size, pack)
    data = canonical_bytes(dataset.to_json())
    ids = _draw_wire_ids(dataset)
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
            cases_total=len(dataset.tool_cases) + len(dataset.asked()),
            composite=None,
            composite_stderr=None,
            transcript_sha256="",
            waves_seeded=0,
            schedule=schedule,
            pack_id=pack.pack_id,
            pack_sha256=pack.sha256,
            pack_path=stored_location(pack),
            wire_nonce=ids.nonce,
            seed_source=options.seed_source,
        )
    )
    with _Lease(store, run_id, now) as lease:
        chosen = replace(options, pack=pack)
        return _drive(store, run_id, (dataset, data, ids), chosen, now, report, lease)


def _draw_wire_ids(dataset: Dataset) -> WireIds:
    """A fresh nonce's mapping; drawn again in the (about one in 10^8) case where two of the
    dataset's ids would be shown as one."""
    while True:
        try:
            return WireIds.of(dataset, os.urandom(WIRE_NONCE_BYTES).hex())
        except WireIdError:
            continue


def resume_run(
    store: RunStorage, run_id: str, options: RunOptions, now: Callable[[], str], report: Reporter
) -> RunOutcome:
    row = store.get_run(run_id)
    if row.status == "done":
        raise RunError(f"run {run_id} is already done; `dittobench show {run_id}` prints it")
    chosen = _chosen_schedule(options)
    if chosen and row.schedule and chosen != row.schedule:
        raise RunError(
            f"run {run_id} runs on the {row.schedule} schedule; a resume keeps it "
            f"(drop --strict-order / --overlap)"
        )
    pack = _resumed_pack(row, options.pack)
    dataset = build_dataset(row.seed, row.bench_version, row.run_size, pack)
    data = canonical_bytes(dataset.to_json())
    if sha256_hex(data) != row.dataset_sha256:
        raise RunError(
            f"run {run_id} was made with a dataset this build no longer produces "
            f"(bench version {row.bench_version}); it cannot be resumed here"
        )
    try:
        ids = WireIds.of(dataset, row.wire_nonce)  # the ids the harness was shown so far
    except WireIdError as exc:
        raise RunError(f"run {run_id} cannot be resumed: {exc}") from None
    with _Lease(store, run_id, now) as lease:
        # Only once the run is ours: a refused resume changes nothing. The count is read again
        # under the lease, so a resume that finished in between is not lost.
        resumes = store.get_run(run_id).resumes + 1
        store.update_run(run_id, updated_at=now(), status="running", error="", resumes=resumes)
        # The harness may have moved (a restarted process on a new port): the caller's URL wins.
        resumed = replace(
            options,
            harness_url=options.harness_url or row.harness,
            harness_name=options.harness_name or row.harness,
            seed=row.seed,
            run_size=row.run_size,
            bench_version=row.bench_version,
            strict_order=(row.schedule or chosen) == SAFE,
            overlap=(row.schedule or chosen) == OVERLAP,
            pack=pack,
            seed_source=row.seed_source,  # decided when the run began
        )
        return _drive(store, run_id, (dataset, data, ids), resumed, now, report, lease)


def _resumed_pack(row: RunRow, given: Pack | None) -> Pack:
    """The stored run's pack, read again; a ``--pack`` given on resume must be that pack."""
    if given is None:
        try:
            return reopen(row.bench_version, row.pack_id, row.pack_sha256, row.pack_path)
        except PackError as exc:
            raise RunError(f"run {row.run_id} cannot be resumed: {exc}") from None
    if row.pack_sha256 and given.sha256 != row.pack_sha256:
        raise RunError(
            f"run {row.run_id} was made with pack {row.pack_id!r} "
            f"(sha256 {row.pack_sha256[:12]}…); --pack {given.path} is another pack "
            f"(sha256 {given.sha256[:12]}…)"
        )
    return given


def held_by_another(store: RunStorage, run_id: str, now: Callable[[], str]) -> str:
    """Why a resume of ``run_id`` would be refused right now (a live holder), or ``""``; lets
    a caller refuse before starting anything. ``resume_run`` decides for good."""
    row = store.get_run(run_id)
    stamp, _ = _lease_times(now)
    if not row.lease_owner or row.lease_until <= stamp or _gone(row.lease_owner):
        return ""
    return (
        f"run {run_id!r} is being driven by another process ({row.lease_owner}) whose lease "
        f"runs until {row.lease_until}; wait for it to finish, or stop it and try again"
    )


def _drive(
    store: RunStorage,
    run_id: str,
    made: tuple[Dataset, bytes, WireIds],
    options: RunOptions,
    now: Callable[[], str],
    report: Reporter,
    lease: _Lease,
) -> RunOutcome:
    """Run, score, write the files, then mark the run done; any failure marks it failed (or
    interrupted) with the reason, keeping every recorded case for a resume. ``made`` is the
    dataset, its canonical bytes and the ids its harness is shown."""
    dataset, _, ids = made
    try:
        cases = _LoopThread(
            lambda: _run(store, run_id, dataset, ids, options, now, report, lease.owner)
        )
        lease.on_lost = cases.cancel
        records, declared = cases.result()
        if lease.lost:
            raise LeaseLost(f"run {run_id} was taken over by another process; this one stopped")
        _enough_delivered(records)
        report(Progress("scoring", len(records), len(records), 0))
        store.update_run(run_id, updated_at=now(), stage="scoring")
        return _finish(store, run_id, made, options, now, (records, declared), report)
    except LeaseLost:
        raise  # the run is another process's now: leave its row alone
    except RunTakenError:  # a case finished after the takeover: it was not recorded
        raise LeaseLost(f"run {run_id} was taken over by another process") from None
    except KeyboardInterrupt:
        if lease.lost:  # the run was cancelled because another process took it over
            raise LeaseLost(f"run {run_id} was taken over by another process") from None
        store.update_run(run_id, updated_at=now(), status="interrupted")
        raise
    except Exception as exc:
        if lease.lost:
            raise LeaseLost(f"run {run_id} was taken over by another process") from exc
        store.update_run(run_id, updated_at=now(), status="failed", error=str(exc))
        raise


def _enough_delivered(records: dict[str, CaseRecord]) -> None:
    """``RunError`` when too many cases got no answer for want of the harness to be scored
    (``MAX_UNAVAILABLE_SHARE``); the run stays resumable and a resume asks them again."""
    missing = unavailable(records.values())
    count = sum(missing.values())
    if count <= MAX_UNAVAILABLE_SHARE * len(records):
        return
    said = ", ".join(f"{n} {outcome}" for outcome, n in missing.items())
    raise RunError(
        f"{count} of {len(records)} cases got no answer ({said}), more than "
        f"{MAX_UNAVAILABLE_SHARE:.0%}: the run is not scored. --resume asks them again once the "
        "harness can answer (one that answers fewer cases at once may need a lower "
        "--concurrency, or a longer --case-timeout)"
    )


def _finish(
    store: RunStorage,
    run_id: str,
    made: tuple[Dataset, bytes, WireIds],
    options: RunOptions,
    now: Callable[[], str],
    executed: Executed,
    report: Reporter,
) -> RunOutcome:
    dataset, data, ids = made
    records, declared = executed
    identity = options.harness_name or options.harness_url
    pack = run_pack(dataset.bench_version, options.pack).ref()
    dataset_sha = sha256_hex(data)
    transcript = transcript_of(dataset, dataset_sha, identity, records, pack, ids.nonce, declared)
    if options.judge is not None and dataset.open_cases:
        protocol = judge_protocol(dataset.bench_version, options.judge_model)
        record = judge_transcript(
            options.judge,
            protocol,
            dataset,
            transcript,
            lambda done, total: report(Progress("scoring", done, total, 0, "judging")),
        )
        transcript = replace(transcript, judge=record)
    graded = grade_run(dataset, transcript, dataset_sha256=dataset_sha)
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
        # Signed by the key of whoever ran the engine: self-reported until an operator's
        # service runs it. The manifest names the transcript's pack.
        receipt = build_receipt(
            graded.report,
            transcript,
            case_prompts(dataset),
            options.signing_key,
            "self-reported",
            now(),
            identity,
            seed_source=options.seed_source,
        )
        receipt_path = folder / "receipt.json"
        receipt_path.write_text(
            json.dumps(receipt, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    # Marked done only once every file is written, so a failed write leaves a resumable run.
    store.save_report(run_id, graded.report.to_json(), transcript.to_json(), updated_at=now())
    return RunOutcome(run_id, graded.report, *paths, receipt_path)


async def _run(
    store: RunStorage,
    run_id: str,
    dataset: Dataset,
    ids: WireIds,
    options: RunOptions,
    now: Callable[[], str],
    report: Reporter,
    holder: str = "",
) -> Executed:
    catalog = get_policy(dataset.bench_version).catalog
    shown = shown_by(run_pack(dataset.bench_version, options.pack), catalog)
    version = get_policy(dataset.bench_version).content_version
    endpoint = ToolEndpoint(dataset, version, ids=ids, replies=shown.replies)
    await endpoint.start()
    if options.tool_route is not None:
        endpoint.url = options.tool_route(endpoint.url)  # the URL the harness is told
    try:
        transport = options.transport() if options.transport else None
        async with HarnessClient(options.harness_url, options.limits, transport) as client:
            ctx = RunContext(
                dataset,
                run_id,
                client,
                endpoint,
                store,
                options.concurrency,
                now,
                report,
                _chosen_schedule(options),
                options.reseed,
                options.seed_backoff_s,
                shown.system_prompt,
                shown.tools,
                ids,
                holder,
            )
            return await execute_run(ctx), ctx.identity
    finally:
        await endpoint.stop()


class _LoopThread(threading.Thread):
    """Runs a coroutine on an event loop of this thread's own. ``result`` waits for it from the
    main thread, where a Ctrl-C cancels it (the endpoint then stops after its cases) and is
    raised once it has stopped."""

    def __init__(self, make: Callable[[], Coroutine[Any, Any, Executed]]) -> None:
        super().__init__(name="dittobench-run", daemon=True)
        self._make = make
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None
        self._cancelled = False
        self._value: Executed = ({}, {})
        self._error: BaseException | None = None

    def run(self) -> None:
        try:
            self._value = asyncio.run(self._main())
        except BaseException as exc:  # handed to the waiting thread as is
            self._error = exc

    async def _main(self) -> Executed:
        self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
        if self._cancelled:
            raise asyncio.CancelledError
        return await self._make()

    def cancel(self) -> None:
        self._cancelled = True
        loop, task = self._loop, self._task
        if loop is not None and task is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to cancel
                loop.call_soon_threadsafe(task.cancel)

    def result(self) -> Executed:
        self.start()
        try:
            self.join()
        except KeyboardInterrupt:
            self.cancel()
            self.join()  # a second Ctrl-C leaves at once; the run stays resumable
            raise
        if isinstance(self._error, asyncio.CancelledError):
            raise KeyboardInterrupt
        if self._error is not None:
            raise self._error
        return self._value


class _Lease:
    """This process's claim on a run, renewed by a thread until released. ``lost`` turns true
    (and ``on_lost`` is called) if another process takes the run over meanwhile."""

    def __init__(self, store: RunStorage, run_id: str, now: Callable[[], str]) -> None:
        self._store, self._run_id, self._now = store, run_id, now
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{os.urandom(4).hex()}"
        self.lost = False
        self.on_lost: Callable[[], None] = lambda: None
        self._stop = threading.Event()
        self._keeper = threading.Thread(target=self._keep, name="dittobench-lease", daemon=True)

    def __enter__(self) -> _Lease:
        stamp, until = _lease_times(self._now)
        try:
            self._store.claim_run(self._run_id, self.owner, now=stamp, until=until)
        except RunBusyError as busy:
            if not _gone(busy.owner):
                raise RunHeld(str(busy)) from None
            try:  # its holder died without letting go: take it over, unless someone was quicker
                self._store.claim_run(
                    self._run_id, self.owner, now=stamp, until=until, take_over=busy.owner
                )
            except RunBusyError as again:
                raise RunHeld(str(again)) from None
        self._keeper.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._keeper.join()
        if not self.lost:
            self._store.release_run(self._run_id, self.owner)

    def _keep(self) -> None:
        while not self._stop.wait(RENEW_EVERY_S):
            try:
                held = self._store.renew_lease(
                    self._run_id, self.owner, until=_lease_times(self._now)[1]
                )
            except StoreError:
                held = True  # a busy or unreachable store: try again at the next renewal
            if not held:
                self.lost = True
                self.on_lost()
                return


def _lease_times(now: Callable[[], str]) -> tuple[str, str]:
    """Now and the end of a lease taken now, both as UTC ``YYYY-MM-DDTHH:MM:SSZ`` (which sort
    as times in the store)."""
    moment = datetime.fromisoformat(now().replace("Z", "+00:00")).astimezone(UTC)
    form = "%Y-%m-%dT%H:%M:%SZ"
    return moment.strftime(form), (moment + timedelta(seconds=LEASE_S)).strftime(form)


def _gone(owner: str) -> bool:
    """True when ``owner`` (host:pid:token) names a process of this machine that no longer
    runs (or is a zombie waiting to be reaped). Unknown for other machines: False."""
    host, _, rest = owner.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[0] == "Z"
    except (OSError, IndexError):
        return False
