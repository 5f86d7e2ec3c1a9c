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

The harness is shown the run's wire ids (``RunContext.ids``, ``spec.wireids``): every case id,
user id and seeded pair, session and subject id is keyed by the run's nonce, and every case is
sent a user (a tool case one of its own). Records, the store and progress keep the dataset's ids.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

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
from dittobench.engine.tool_endpoint import ToolEndpoint
from dittobench.spec.codec import decode
from dittobench.spec.dataset import Dataset, PackRef
from dittobench.spec.identity import identity_of
from dittobench.spec.transcript import CaseRecord, Transcript
from dittobench.spec.wire import DEFAULT_USER_ID, RunRequest, SeedRequest, ToolDefinition
from dittobench.spec.wireids import WireIds
from dittobench.store import RunStorage

SAFE, OVERLAP = "safe", "overlap"
SCHEDULES = (SAFE, OVERLAP)
SEED_WHILE_RUNNING = "seed_while_running"
"""The ``/health`` capability by which a harness says it takes a ``/seed`` while answering."""
SEED_BACKOFF_S = (1.0, 2.0, 4.0)
"""Pauses between ``/seed`` attempts: four attempts in all."""
HEALTH_BODY_LIMIT = 64 * 1024


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
    schedule: str = ""
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
    earlier = (decode(CaseRecord, data) for data in ctx.store.recorded_cases(ctx.run_id).values())
    records = {record.case_id: record for record in earlier if record.response is not None}
    data = ctx.dataset
    asked = data.asked()
    tally = _Tally(len(records), len(data.tool_cases) + len(asked), 0)
    ctx.store.update_run(
        ctx.run_id, updated_at=ctx.now(), cases_total=tally.total, stage="starting"
    )
    await ctx.client.wait_healthy()
    declared = await declared_health(
        ctx.client.base_url, ctx.client.limits.probe_timeout_s, ctx.client.http
    )
    ctx.identity = declared.identity
    if ctx.schedule not in SCHEDULES:
        ctx.schedule = OVERLAP if SEED_WHILE_RUNNING in declared.capabilities else SAFE
    ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), stage="running", schedule=ctx.schedule)
    slots = _Slots(ctx.concurrency)
    tool_jobs = [(c.id, "tool", "", c.prompt) for c in data.tool_cases]
    # The memory phases go first, so the first /seed is not kept waiting behind tool cases.
    await _together(
        [
            _memory_phases(ctx, slots, records, tally),
            _cases(ctx, slots, tool_jobs, records, tally, urgent=False),
        ]
    )
    leftover = [
        (case, kind, user, question)
        for case, kind, user, question, _wave in asked
        if case not in records
    ]  # only if the dataset's waves are inconsistent
    await _cases(ctx, slots, leftover, records, tally, urgent=True)
    return records


async def _memory_phases(
    ctx: RunContext, slots: _Slots, records: dict[str, CaseRecord], tally: _Tally
) -> None:
    """Each wave in order, then the cases it unlocks. A resumed run sends again the waves it had
    seeded, unless told the harness kept them (``reseed`` off)."""
    seeded = ctx.store.get_run(ctx.run_id).waves_seeded
    for index, request in enumerate(ctx.dataset.memory_waves):
        tally.wave = f"user {request.user_id}, wave {request.wave}"
        unlocked = [
            (case, kind, user, question)
            for case, kind, user, question, wave in ctx.dataset.asked()
            if request.user_id == DEFAULT_USER_ID and wave == request.wave
        ]
        if index >= seeded or ctx.reseed:
            exclusive = slots.exclusive() if ctx.schedule == SAFE else contextlib.nullcontext()
            async with exclusive:
                await _seed(ctx, request, tally)
                if index + 1 > seeded:
                    ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), waves_seeded=index + 1)
                # Queued while every place is still held, so the wave's own cases get the
                # places before any waiting tool case does.
                tickets = slots.tickets(len(_pending(unlocked, records)), urgent=True)
        else:
            tickets = slots.tickets(len(_pending(unlocked, records)), urgent=True)
        await _cases(ctx, slots, unlocked, records, tally, urgent=True, tickets=tickets)


async def _seed(ctx: RunContext, request: SeedRequest, tally: _Tally) -> None:
    """One ``/seed``, sent again after a connection error, 429 or 5xx (it is an idempotent
    upsert, and real harnesses answer 500 while busy) up to ``len(seed_backoff_s) + 1``
    attempts; a 4xx or a reply that never completed stops at once."""
    ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), stage="seeding")
    shown = ctx.ids.seed_request(request)
    for attempt, pause in enumerate((*ctx.seed_backoff_s, None), start=1):
        ctx.report(Progress("seeding", tally.done, tally.total, tally.failed, tally.wave))
        try:
            await ctx.client.seed(shown, request.user_id)
            break
        except HarnessError as exc:
            if not exc.retryable:
                raise
            if pause is None:
                raise HarnessError(f"{exc} ({attempt} attempts)") from None
            note = f"{tally.wave}: attempt {attempt} failed, again in {pause:g} s"
            ctx.report(Progress("seeding", tally.done, tally.total, tally.failed, note))
            await asyncio.sleep(pause)
    ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), stage="running")


@dataclass(frozen=True, slots=True)
class Declared:
    """What a harness declares in its ``GET /health`` body: the strings it lists under
    ``capabilities`` and its ``identity`` (``spec.identity``)."""

    capabilities: frozenset[str] = frozenset()
    identity: dict[str, str] = field(default_factory=dict)


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
    return Declared(capabilities, identity_of(health))


async def _together(jobs: Iterable[Coroutine[Any, Any, None]]) -> None:
    """Run the jobs concurrently; the first failure cancels the others and is raised as is."""
    try:
        async with asyncio.TaskGroup() as group:
            for job in jobs:
                group.create_task(job)
    except BaseExceptionGroup as failures:
        raise failures.exceptions[0] from None


def _pending(
    jobs: Iterable[tuple[str, str, str, str]], records: dict[str, CaseRecord]
) -> list[tuple[str, str, str, str]]:
    return [job for job in jobs if job[0] not in records]


async def _cases(
    ctx: RunContext,
    slots: _Slots,
    jobs: Iterable[tuple[str, str, str, str]],
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
        ticket: asyncio.Future[None], case_id: str, kind: str, user_id: str, text: str
    ) -> None:
        async with slots.hold(ticket):
            record = await _run_case(ctx, case_id, kind, user_id, text)
        ctx.store.record_case(
            ctx.run_id, case_id, kind, record.to_json(), updated_at=ctx.now(), holder=ctx.holder
        )
        records[case_id] = record
        tally.done += 1
        tally.failed += record.response is None
        ctx.report(Progress("running", tally.done, tally.total, tally.failed, tally.wave))
        if record.execution.outcome == "connection_error":
            # A dead harness would otherwise fail every remaining case; stop instead, so the
            # run can be resumed once it is back.
            await ctx.client.check_alive()

    await _together(one(ticket, *job) for ticket, job in zip(tickets, pending, strict=True))


class _Slots:
    """The places for cases in flight (``--concurrency``). A case queues for a place with a
    ticket (a future resolved when the place is its); a freed place goes to a waiting urgent
    (memory) case before a waiting tool case, so tool cases only take places the memory phases
    leave idle. ``exclusive`` takes every place at once (the safe schedule's ``/seed``)."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._free = size
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._other: deque[asyncio.Future[None]] = deque()
        self._all: asyncio.Future[None] | None = None
        """Set while ``exclusive`` waits for every place: freed places are kept for it."""

    def tickets(self, count: int, urgent: bool) -> list[asyncio.Future[None]]:
        """``count`` tickets, queued now in this order (granted at once while places are free)."""
        loop = asyncio.get_running_loop()
        made = []
        for _ in range(count):
            ticket = loop.create_future()
            if self._free > 0 and self._all is None:
                self._free -= 1
                ticket.set_result(None)
            else:
                (self._urgent if urgent else self._other).append(ticket)
            made.append(ticket)
        return made

    @contextlib.asynccontextmanager
    async def hold(self, ticket: asyncio.Future[None]) -> AsyncIterator[None]:
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self._release()  # handed a place while being cancelled: pass it on
            raise
        try:
            yield
        finally:
            self._release()

    @contextlib.asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        """Every place: waits for the cases in flight to finish while no new one starts."""
        self._all = asyncio.get_running_loop().create_future()
        if self._free == self._size:
            self._all.set_result(None)
        try:
            await self._all
        except asyncio.CancelledError:
            self._all = None
            free, self._free = self._free, 0
            for _ in range(free):
                self._release()  # the places it was keeping go to waiting cases
            raise
        self._all = None
        self._free = 0
        try:
            yield
        finally:
            for _ in range(self._size):
                self._release()

    def _release(self) -> None:
        if self._all is not None:
            self._free += 1
            if self._free == self._size and not self._all.done():
                self._all.set_result(None)
            return
        for queue in (self._urgent, self._other):
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(None)
                    return
        self._free += 1


async def _run_case(
    ctx: RunContext, case_id: str, kind: str, user_id: str, text: str
) -> CaseRecord:
    request = RunRequest(
        case_id=ctx.ids.case(case_id),
        system_prompt=ctx.system_prompt,
        user_input=text,
        tools=ctx.tools,
        tool_endpoint=ctx.endpoint.url,
        user_id=ctx.ids.run_user(case_id, user_id),
    )
    ctx.endpoint.open_case(case_id)
    try:
        response, execution = await ctx.client.run(
            request, calls_seen=lambda: ctx.endpoint.has_calls(case_id)
        )
    finally:
        observed = ctx.endpoint.close_case(case_id)
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
