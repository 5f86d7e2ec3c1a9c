"""Run a dataset against a harness: the isolation user's material, then each wave of the first
user followed by the memory cases it unlocks, with the tool cases filling every place in flight the
memory phases leave idle. Every case is written to the store the moment it finishes, so an
interrupted run resumes without redoing any.

Memory phases are the run's critical path: a wave is seeded only after every case of the previous
wave has finished. Tool cases depend on no wave, so they take the places a phase leaves idle.

Two schedules (engine.md): ``safe``, the default, never sends ``/seed`` while any ``/run`` is in
flight (real harnesses lock or rebuild their store while seeding): seeding waits for every case in
flight and holds back new ones. ``overlap`` lets tool cases run through seeding, for a harness that
declares it takes that (``/health`` capability ``seed_while_running``) or when the operator says
so. A ``/seed`` that fails is sent again with back-off: it is an idempotent upsert.

A harness that restarts loses nothing silently (protocol.md, "Restarts"): a restart is noticed
by a new ``instance`` in ``/health`` (checked after each wave's cases) or, for a harness that
declares none, by a request that got no reply at all. The harness is then brought back to where
an uninterrupted run would have it: every wave up to the one in progress is sent again, each
followed by the run's own writes (the write instructions already answered, asked again with their
answers discarded), and the memory cases answered since that wave began are asked again. A resume
does the same, since the harness may have restarted while the run was stopped.

The harness is shown the run's wire ids (``RunContext.ids``, ``spec.wireids``): every case id,
user id and seeded pair, session and subject id is keyed by the run's nonce, and every case is
sent a user (a tool case one of its own). Records, the store and progress keep the dataset's ids.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

import httpx

from dittobench.catalog import CATALOG
from dittobench.engine.client import (
    IDENTITY,
    BodyTooLarge,
    BodyUnreadable,
    HarnessClient,
    HarnessError,
    read_body,
)
from dittobench.engine.seeding import SeedSending, seed_wave
from dittobench.engine.slots import Slots
from dittobench.engine.tool_endpoint import ToolEndpoint
from dittobench.spec import vocab
from dittobench.spec.dataset import Dataset, PackRef
from dittobench.spec.identity import identity_of
from dittobench.spec.transcript import CaseRecord, Execution, Transcript
from dittobench.spec.vocab import AttemptOutcome, RunCaseKind, Schedule
from dittobench.spec.wire import (
    DEFAULT_USER_ID,
    SEED_BYTES_FLOOR,
    SEED_BYTES_LIMIT,
    RunRequest,
    SeedRequest,
    ToolDefinition,
    seed_bytes_limit,
)
from dittobench.spec.wireids import WireIds
from dittobench.store import RunStorage
from dittobench.store.rows import RowSchedule

SAFE: Final = "safe"
OVERLAP: Final = "overlap"
SCHEDULES: Final = vocab.SCHEDULES
Asked = tuple[str, RunCaseKind, str, str]
"""A question a wave unlocks: (case id, kind, user id, question)."""
SEED_WHILE_RUNNING = "seed_while_running"
"""The ``/health`` capability by which a harness says it takes a ``/seed`` while answering."""
SEED_BACKOFF_S = (1.0, 2.0, 4.0)
"""Pauses between ``/seed`` attempts: four attempts in all."""
HEALTH_BODY_LIMIT = 64 * 1024
MAX_RESTARTS = 3
"""Restarts a run recovers from; past them it fails, saying the harness keeps restarting."""
RESTARTED: Final = "restarted"
"""A case's outcome while it waits to be asked again after a restart (kept only if the run
stops before it is)."""


@dataclass(frozen=True, slots=True)
class Progress:
    """A snapshot for progress displays: ``stage`` is seeding, running or scoring."""

    stage: str
    done: int
    total: int
    failed: int
    note: str = ""


Reporter = Callable[[Progress], None]


@dataclass
class RunContext:
    dataset: Dataset
    run_id: str
    client: HarnessClient
    endpoint: ToolEndpoint
    store: RunStorage
    concurrency: int
    now: Callable[[], str]
    report: Reporter
    schedule: RowSchedule = ""
    """``safe`` or ``overlap``; empty: ``overlap`` only if the harness declares it can take it."""
    reseed: bool = True
    """Send again the waves a resumed run had seeded (a restarted harness may have lost them)."""
    seed_backoff_s: tuple[float, ...] = SEED_BACKOFF_S
    system_prompt: str = ""
    """The pack's system prompt, sent with every case."""
    tools: tuple[ToolDefinition, ...] = CATALOG
    """The catalog in the pack's words, sent with every case."""
    ids: WireIds = field(default_factory=WireIds)
    """The ids the harness is shown (the endpoint must be keyed by the same mapping)."""
    holder: str = ""
    """The run's lease owner: a case is recorded only while it still holds the run."""
    identity: dict[str, str] = field(default_factory=dict)
    """What the harness declared it is in ``/health`` (read when the run starts)."""
    instance: str = ""
    """The ``instance`` the harness declares in ``/health`` (its memory's lifetime); empty when it
    declares none."""
    phase: int = 0
    """The index of the memory wave being seeded or answered (past the last: all done)."""
    restart_at: int | None = None
    """The phase in progress when a restart was first suspected, until it is recovered from."""
    restarts: int = 0
    seed_bytes: int = SEED_BYTES_LIMIT
    """The largest ``/seed`` body sent: a larger wave goes in parts (``max_seed_bytes``)."""


@dataclass
class _Tally:
    done: int
    total: int
    failed: int
    wave: str = ""
    """The memory wave seeded last, shown beside running counts."""


async def execute_run(ctx: RunContext) -> dict[str, CaseRecord]:
    """Every case's record (recorded earlier or now). Raises ``HarnessError`` when the harness
    is unusable; ``asyncio.CancelledError`` leaves what was recorded in the store.

    Cases recorded earlier with a response are kept; cases that got none (the harness failed)
    are run again, so resuming after a harness restart recovers them."""
    earlier = ctx.store.case_records(ctx.run_id).values()
    records = {record.case_id: record for record in earlier if record.response is not None}
    data = ctx.dataset
    asked = data.asked()
    tally = _Tally(len(records), len(data.tool_cases) + len(asked), 0)
    ctx.store.update_run(
        ctx.run_id, updated_at=ctx.now(), cases_total=tally.total, stage="starting"
    )
    # A harness that never answers /health is waited for out loud, not in silence.
    note = f"waiting for {ctx.client.base_url}/health, up to {ctx.client.limits.health_wait_s:g} s"
    ctx.report(Progress("starting", tally.done, tally.total, tally.failed, note))
    await ctx.client.wait_healthy()
    declared = await declared_health(
        ctx.client.base_url, ctx.client.limits.probe_timeout_s, ctx.client.http
    )
    ctx.identity, ctx.instance = declared.identity, declared.instance
    ctx.seed_bytes = seed_bytes_limit(declared.max_seed_bytes)
    takes_seeds = SEED_WHILE_RUNNING in declared.capabilities
    fallback: Schedule = OVERLAP if takes_seeds else SAFE
    chosen = ctx.schedule or fallback
    ctx.schedule = chosen
    ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), stage="running", schedule=chosen)
    slots = Slots(min(ctx.concurrency, declared.max_concurrency or ctx.concurrency))
    tool_jobs: list[Asked] = [(c.id, "tool", "", c.prompt) for c in data.tool_cases]
    # The memory phases go first, so the first /seed is not kept waiting behind tool cases.
    await _together(
        [
            _memory_phases(ctx, slots, records, tally),
            _cases(ctx, slots, tool_jobs, records, tally, urgent=False),
        ]
    )
    leftover: list[Asked] = [
        (case, kind, user, question)
        for case, kind, user, question, _wave in asked
        if case not in records
    ]  # only if the dataset's waves are inconsistent
    await _cases(ctx, slots, leftover, records, tally, urgent=True)
    # Tool cases the harness could not be reached for (it was restarting): once more, now it is
    # back. They depend on no wave; a memory case is asked again by the restart's recovery.
    unreached = [job for job in tool_jobs if _outcome(records, job[0]) == "connection_error"]
    if unreached:
        await ctx.client.wait_healthy()
        for job in unreached:
            del records[job[0]]
        tally.done -= len(unreached)
        tally.failed -= len(unreached)
        await _cases(ctx, slots, unreached, records, tally, urgent=False)
    return records


def _outcome(records: dict[str, CaseRecord], case_id: str) -> AttemptOutcome | None:
    """The case's terminal outcome; None before it was asked."""
    record = records.get(case_id)
    return None if record is None else record.execution.outcome


async def _memory_phases(
    ctx: RunContext, slots: Slots, records: dict[str, CaseRecord], tally: _Tally
) -> None:
    """Each wave in order, then the cases it unlocks. The waves a resumed run had seeded are
    sent again, each followed by its answered write instructions asked again, unless told the
    harness kept them (``reseed`` off); after a restart, the same from the first wave."""
    waves = ctx.dataset.memory_waves
    seeded = ctx.store.get_run(ctx.run_id).waves_seeded
    kept = 0 if ctx.reseed else seeded  # waves the harness is known to hold
    restore = seeded if ctx.reseed else 0  # waves sent before: their writes are replayed
    index = 0
    while index < len(waves):
        ctx.phase, request = index, waves[index]
        tally.wave = f"user {request.user_id}, wave {request.wave}"
        unlocked = _unlocked(ctx.dataset, request)
        if index < kept:
            tickets = slots.tickets(len(_pending(unlocked, records)), urgent=True)
        else:
            exclusive = slots.exclusive() if ctx.schedule == SAFE else contextlib.nullcontext()
            async with exclusive:
                await _seed(ctx, request, tally)
                if index < restore:
                    await _replay_writes(ctx, unlocked, records)
                if index + 1 > seeded:
                    seeded = index + 1
                    ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), waves_seeded=seeded)
                # Queued while every place is still held, so the wave's own cases get the
                # places before any waiting tool case does.
                tickets = slots.tickets(len(_pending(unlocked, records)), urgent=True)
        await _cases(ctx, slots, unlocked, records, tally, urgent=True, tickets=tickets)
        await _check_instance(ctx)
        if ctx.restart_at is None:
            index += 1
            continue
        restore, index, kept = await _recover(ctx, records, tally), 0, 0
    ctx.phase = len(waves)


def _unlocked(dataset: Dataset, request: SeedRequest) -> list[Asked]:
    """The questions a wave unlocks (only the person under test is asked)."""
    return [
        (case, kind, user, question)
        for case, kind, user, question, wave in dataset.asked()
        if request.user_id == DEFAULT_USER_ID and wave == request.wave
    ]


def _suspect_restart(ctx: RunContext) -> None:
    """A request got no reply at all: the harness may have restarted, losing what it held."""
    if ctx.restart_at is None or ctx.phase < ctx.restart_at:
        ctx.restart_at = ctx.phase


async def _lost_connection(ctx: RunContext) -> None:
    """A request got no reply at all (refused, or cut before its reply). A harness that declares
    an ``instance`` is asked at once whether it restarted; for one that declares none it is the
    only sign there is (a harness back within the retry pause shows nothing else), so it is
    taken for a restart: restoring a memory that was kept costs time, never a score."""
    if ctx.instance:
        await _check_instance(ctx)
    else:
        _suspect_restart(ctx)


async def _check_instance(ctx: RunContext) -> None:
    """A harness that declared an ``instance`` and now declares another has restarted."""
    if not ctx.instance:
        return
    now = await declared_health(
        ctx.client.base_url, ctx.client.limits.probe_timeout_s, ctx.client.http
    )
    if now.instance and now.instance != ctx.instance:
        _suspect_restart(ctx)


async def _recover(ctx: RunContext, records: dict[str, CaseRecord], tally: _Tally) -> int:
    """After a restart suspected in phase ``p``: the memory cases of waves ``p`` on are to be
    asked again (their records are marked so in the store, should the run stop first); returns
    ``p``, the waves before which are sent again with their writes replayed."""
    phase, ctx.restart_at = ctx.restart_at or 0, None
    ctx.restarts += 1
    if ctx.restarts > MAX_RESTARTS:
        raise HarnessError(
            f"the harness restarted, or dropped connections, {ctx.restarts} times during the run; "
            "each time what it was seeded may be lost, so the run stops here: fix the harness, "
            "then --resume"
        )
    note = f"the harness restarted; restoring its memory (restart {ctx.restarts})"
    ctx.report(Progress("seeding", tally.done, tally.total, tally.failed, note))
    await ctx.client.wait_healthy()
    declared = await declared_health(
        ctx.client.base_url, ctx.client.limits.probe_timeout_s, ctx.client.http
    )
    ctx.instance = declared.instance
    ctx.seed_bytes = seed_bytes_limit(declared.max_seed_bytes)
    for request in ctx.dataset.memory_waves[phase:]:
        for case, kind, user, _question in _unlocked(ctx.dataset, request):
            earlier = records.pop(case, None)
            if earlier is None:
                continue
            tally.done -= 1
            tally.failed -= earlier.response is None
            again = Execution(earlier.execution.attempts, 0, RESTARTED)
            marked = CaseRecord(case, kind, user, None, (), again)
            ctx.store.record_case(
                ctx.run_id, case, kind, marked.to_json(), updated_at=ctx.now(), holder=ctx.holder
            )
    return phase


async def _replay_writes(
    ctx: RunContext, unlocked: list[Asked], records: dict[str, CaseRecord]
) -> None:
    """The wave's write instructions already answered, asked again in order with their answers
    discarded: the harness's memory then holds what the run's own writes left in it."""
    writes = {case.id for case in ctx.dataset.memory_cases if case.write_op}
    for case, kind, user, question in unlocked:
        if case in writes and case in records and records[case].response is not None:
            replayed = await ask_case(ctx, case, kind, user, question)
            if any(a.outcome == "connection_error" for a in replayed.execution.attempts):
                await _lost_connection(ctx)


async def _seed(ctx: RunContext, request: SeedRequest, tally: _Tally) -> None:
    """One wave, in parts when its body is over ``ctx.seed_bytes`` (``seed_wave``); a connection
    error makes the harness suspected of having restarted."""
    ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), stage="seeding")

    def note(text: str) -> None:
        ctx.report(Progress("seeding", tally.done, tally.total, tally.failed, text))

    await seed_wave(
        ctx.client,
        ctx.ids.seed_request(request),
        SeedSending(ctx.seed_bytes, ctx.seed_backoff_s, request.user_id, tally.wave),
        note,
        lambda: _suspect_restart(ctx),
    )
    ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), stage="running")


@dataclass(frozen=True, slots=True)
class Declared:
    """What a harness declares in its ``GET /health`` body: the strings it lists under
    ``capabilities``, its ``identity`` (``spec.identity``), its ``instance`` (a string naming its
    memory's lifetime: a new one means what was seeded may be lost), ``max_concurrency``, the
    cases it answers at once (0: not said), and ``max_seed_bytes``."""

    capabilities: frozenset[str] = frozenset()
    identity: dict[str, str] = field(default_factory=dict)
    instance: str = ""
    max_concurrency: int = 0
    max_seed_bytes: int = 0
    """The largest ``/seed`` body it takes (0: not said); a value below ``SEED_BYTES_FLOOR`` is
    read as the floor."""


async def declared_health(
    base_url: str, timeout_s: float, http: httpx.AsyncClient | None = None
) -> Declared:
    """What the harness declares in its ``GET /health`` body; nothing when the body is not a JSON
    object, or does not come within ``timeout_s``. ``http``: the run's client (so the same
    connection rules apply); a fresh one when absent."""

    async def fetch() -> bytes:
        async with contextlib.AsyncExitStack() as stack:
            if http is None:
                own = httpx.AsyncClient(
                    follow_redirects=False, verify=httpx.URL(base_url).scheme != "http"
                )
                client = await stack.enter_async_context(own)
            else:
                client = http
            reply = await stack.enter_async_context(
                client.stream("GET", f"{base_url}/health", headers=IDENTITY)
            )
            if not 200 <= reply.status_code < 300:
                return b""
            return await read_body(reply, HEALTH_BODY_LIMIT)

    try:
        body = await asyncio.wait_for(fetch(), timeout_s)
        health = json.loads(body) if body else None
    except (TimeoutError, httpx.HTTPError, ValueError, RecursionError):
        return Declared()
    except (BodyTooLarge, BodyUnreadable):  # too big or unreadable: nothing declared
        return Declared()
    if not isinstance(health, dict):
        return Declared()
    listed = health.get("capabilities")
    capabilities = (
        frozenset(item for item in listed if isinstance(item, str))
        if isinstance(listed, list)
        else frozenset()
    )
    instance = health.get("instance")
    largest = _positive(health.get("max_seed_bytes"))
    return Declared(
        capabilities,
        identity_of(health),
        instance if isinstance(instance, str) and 0 < len(instance) <= 200 else "",
        _positive(health.get("max_concurrency")),
        max(largest, SEED_BYTES_FLOOR) if largest else 0,
    )


def _positive(value: object) -> int:
    """A declared count: a positive integer (not a boolean), else 0 (not said)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


async def _together(jobs: Iterable[Coroutine[Any, Any, None]]) -> None:
    """Run the jobs concurrently; the first failure cancels the others and is raised as is."""
    try:
        async with asyncio.TaskGroup() as group:
            for job in jobs:
                group.create_task(job)
    except BaseExceptionGroup as failures:
        raise failures.exceptions[0] from None


def _pending(jobs: Iterable[Asked], records: dict[str, CaseRecord]) -> list[Asked]:
    return [job for job in jobs if job[0] not in records]


async def _cases(
    ctx: RunContext,
    slots: Slots,
    jobs: Iterable[Asked],
    records: dict[str, CaseRecord],
    tally: _Tally,
    urgent: bool,
    tickets: list[asyncio.Future[None]] | None = None,
) -> None:
    """Run the jobs not yet recorded, each in a place of ``slots`` (``tickets`` already queued
    for them, one each, or queued now)."""
    pending = _pending(jobs, records)
    if tickets is None:
        tickets = slots.tickets(len(pending), urgent)

    async def one(
        ticket: asyncio.Future[None], case_id: str, kind: RunCaseKind, user_id: str, text: str
    ) -> None:
        for chance in (1, 2):
            async with slots.hold(ticket):
                crowded = slots.busy > 1
                record = await ask_case(ctx, case_id, kind, user_id, text)
            if chance == 1 and crowded and _swamped(record):
                # A harness that answers fewer cases at once than it is sent: fewer places,
                # and this case asked again rather than charged for the engine's haste.
                fewer = slots.shrink()
                note = f"a case timed out with others in flight: {fewer} at once from now"
                ctx.report(Progress("running", tally.done, tally.total, tally.failed, note))
                ticket = slots.tickets(1, urgent)[0]
                continue
            break
        # Kept before anything else is awaited: no request goes out (another case's, or a
        # /health probe) until the case that finished before it is recorded, so an engine
        # killed outright asks again, on resume, only the cases that were in flight.
        ctx.store.record_case(
            ctx.run_id, case_id, kind, record.to_json(), updated_at=ctx.now(), holder=ctx.holder
        )
        records[case_id] = record
        tally.done += 1
        tally.failed += record.response is None
        ctx.report(Progress("running", tally.done, tally.total, tally.failed, tally.wave))
        if any(a.outcome == "connection_error" for a in record.execution.attempts):
            await _lost_connection(ctx)
        if record.execution.outcome == "connection_error":
            try:
                await ctx.client.check_alive()
            except HarnessError as down:
                # A restart (its memory lost) or a crash. Wait for it rather than fail every
                # remaining case; if it never comes back the run stops, resumable.
                _suspect_restart(ctx)
                try:
                    await ctx.client.wait_healthy()
                except HarnessError:
                    raise down from None

    await _together(one(ticket, *job) for ticket, job in zip(tickets, pending, strict=True))


UNAVAILABLE: Final[tuple[AttemptOutcome, ...]] = ("timeout", "connection_error", RESTARTED)
"""Outcomes of a case whose answer never arrived, which a resume may still get."""
MAX_UNAVAILABLE_SHARE = 0.2
"""A run in which more cases than this share got no answer for want of the harness (the
outcomes above, and 429 or 5xx) fails, resumable, instead of being scored."""


def unavailable(records: Iterable[CaseRecord]) -> dict[str, int]:
    """How many cases got no answer for want of the harness, by outcome (``http_error`` only for
    429 and 5xx: a busy or broken harness; a reply that came malformed is an answer, graded)."""
    counts: dict[str, int] = {}
    for record in records:
        outcome, last = record.execution.outcome, record.execution.attempts
        status = last[-1].http_status if last else 0
        if outcome in UNAVAILABLE or (outcome == "http_error" and (status == 429 or status >= 500)):
            counts[outcome] = counts.get(outcome, 0) + 1
    return dict(sorted(counts.items()))


def _swamped(record: CaseRecord) -> bool:
    """A timeout with no tool call seen: asking again cannot let the harness explore twice."""
    return record.execution.outcome == "timeout" and not record.observed


class Asker(Protocol):
    """What asking one case takes: a run's context, or the conformance probe's."""

    client: HarnessClient
    endpoint: ToolEndpoint
    ids: WireIds
    system_prompt: str
    tools: tuple[ToolDefinition, ...]


async def ask_case(
    on: Asker, case_id: str, kind: RunCaseKind, user_id: str, text: str
) -> CaseRecord:
    """One ``POST /run`` of a case, shown under its wire ids, with the tool calls the endpoint
    observed while it was in flight."""
    request = RunRequest(
        case_id=on.ids.case(case_id),
        system_prompt=on.system_prompt,
        user_input=text,
        tools=on.tools,
        tool_endpoint=on.endpoint.url,
        user_id=on.ids.run_user(case_id, user_id),
    )
    on.endpoint.open_case(case_id)
    try:
        response, execution = await on.client.run(
            request, calls_seen=lambda: on.endpoint.has_calls(case_id)
        )
    finally:
        observed = on.endpoint.close_case(case_id)
    return CaseRecord(case_id, kind, user_id, response, observed, execution)


def transcript_of(
    dataset: Dataset,
    dataset_sha256: str,
    harness: str,
    records: dict[str, CaseRecord],
    pack: PackRef | None = None,
    wire_nonce: str = "",
    identity: dict[str, str] | None = None,
) -> Transcript:
    return Transcript(
        dataset.benchmark,
        dataset.bench_version,
        dataset.seed,
        dataset.run_size,
        dataset_sha256,
        harness,
        tuple(records.values()),
        pack,
        wire_nonce,
        identity=dict(identity or {}),
    )
