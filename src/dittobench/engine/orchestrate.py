"""Run a dataset against a harness: the isolation user's material, then each wave of the first
user followed by the memory cases it unlocks, with the tool cases filling every place in flight the
memory phases leave idle. Every case is written to the store the moment it finishes, so an
interrupted run resumes without redoing any.

Memory phases are the run's critical path: a wave is seeded only after every case of the previous
wave has finished, so the end of each phase leaves places idle. Tool cases depend on no wave, so
they take those places instead of running as a phase of their own. ``strict_order`` keeps the
reference sequence instead (every tool case first, then the memory phases, no ``/seed`` while a
case is in flight) for a harness that cannot take a ``/seed`` while answering.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from dataclasses import dataclass
from typing import Any

from dittobench.catalog import CATALOG
from dittobench.engine.client import HarnessClient
from dittobench.engine.tool_endpoint import ToolEndpoint
from dittobench.spec.codec import decode
from dittobench.spec.dataset import Dataset
from dittobench.spec.transcript import CaseRecord, Transcript
from dittobench.spec.wire import DEFAULT_USER_ID, RunRequest
from dittobench.store import RunStore

SYSTEM_PROMPT = (
    "You are Ditto, a memory assistant. Answer from what you know about the user; call a tool "
    "only when it is the right action for the request."
)


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
    store: RunStore
    concurrency: int
    now: Callable[[], str]
    report: Reporter
    strict_order: bool = False


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
    tally = _Tally(len(records), len(data.tool_cases) + len(data.memory_cases), 0)
    ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), cases_total=tally.total, stage="running")
    await ctx.client.wait_healthy()
    slots = _Slots(ctx.concurrency)
    tool_jobs = [(c.id, "tool", "", c.prompt) for c in data.tool_cases]
    tool_cases = _cases(ctx, slots, tool_jobs, records, tally, urgent=False)
    if ctx.strict_order:
        await tool_cases
        await _memory_phases(ctx, slots, records, tally)
    else:
        await _together([tool_cases, _memory_phases(ctx, slots, records, tally)])
    leftover = [
        (c.id, "memory", c.user_id, c.question) for c in data.memory_cases if c.id not in records
    ]  # only if the dataset's waves are inconsistent
    await _cases(ctx, slots, leftover, records, tally, urgent=True)
    return records


async def _memory_phases(
    ctx: RunContext, slots: _Slots, records: dict[str, CaseRecord], tally: _Tally
) -> None:
    """Each wave in order, then the cases it unlocks; a resumed run skips waves already seeded."""
    seeded = ctx.store.get_run(ctx.run_id).waves_seeded
    for index, request in enumerate(ctx.dataset.memory_waves):
        tally.wave = f"user {request.user_id}, wave {request.wave}"
        if index >= seeded:
            ctx.report(Progress("seeding", tally.done, tally.total, tally.failed, tally.wave))
            await ctx.client.seed(request)
            ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), waves_seeded=index + 1)
        if request.user_id != DEFAULT_USER_ID:
            continue
        unlocked = [
            (c.id, "memory", c.user_id, c.question)
            for c in ctx.dataset.memory_cases
            if c.run_after_wave == request.wave
        ]
        await _cases(ctx, slots, unlocked, records, tally, urgent=True)


async def _together(jobs: Iterable[Coroutine[Any, Any, None]]) -> None:
    """Run the jobs concurrently; the first failure cancels the others and is raised as is."""
    try:
        async with asyncio.TaskGroup() as group:
            for job in jobs:
                group.create_task(job)
    except BaseExceptionGroup as failures:
        raise failures.exceptions[0] from None


async def _cases(
    ctx: RunContext,
    slots: _Slots,
    jobs: Iterable[tuple[str, str, str, str]],
    records: dict[str, CaseRecord],
    tally: _Tally,
    urgent: bool,
) -> None:
    pending = [job for job in jobs if job[0] not in records]

    async def one(case_id: str, kind: str, user_id: str, text: str) -> None:
        async with slots.hold(urgent):
            record = await _run_case(ctx, case_id, kind, user_id, text)
        ctx.store.record_case(ctx.run_id, case_id, kind, record.to_json(), updated_at=ctx.now())
        records[case_id] = record
        tally.done += 1
        tally.failed += record.response is None
        ctx.report(Progress("running", tally.done, tally.total, tally.failed, tally.wave))
        if record.execution.outcome == "connection_error":
            # A dead harness would otherwise fail every remaining case; stop instead, so the
            # run can be resumed once it is back.
            await ctx.client.check_alive()

    await _together(one(*job) for job in pending)


class _Slots:
    """The places for cases in flight (``--concurrency``). A freed place goes to a waiting
    urgent (memory) case before a waiting tool case, so tool cases only take places the memory
    phases leave idle."""

    def __init__(self, size: int) -> None:
        self._free = size
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._other: deque[asyncio.Future[None]] = deque()

    @contextlib.asynccontextmanager
    async def hold(self, urgent: bool) -> AsyncIterator[None]:
        await self._acquire(self._urgent if urgent else self._other)
        try:
            yield
        finally:
            self._release()

    async def _acquire(self, queue: deque[asyncio.Future[None]]) -> None:
        if self._free > 0:
            self._free -= 1
            return
        waiter = asyncio.get_running_loop().create_future()
        queue.append(waiter)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release()  # handed a place while being cancelled: pass it on
            raise

    def _release(self) -> None:
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
        case_id=case_id,
        system_prompt=SYSTEM_PROMPT,
        user_input=text,
        tools=CATALOG,
        tool_endpoint=ctx.endpoint.url,
        user_id=user_id,
    )
    ctx.endpoint.open_case(case_id)
    try:
        response, execution = await ctx.client.run(
            request, before_attempt=lambda: ctx.endpoint.reset_case(case_id)
        )
    finally:
        observed = ctx.endpoint.close_case(case_id)
    return CaseRecord(case_id, kind, user_id, response, observed, execution)


def transcript_of(
    dataset: Dataset, dataset_sha256: str, harness: str, records: dict[str, CaseRecord]
) -> Transcript:
    return Transcript(
        dataset.benchmark,
        dataset.bench_version,
        dataset.seed,
        dataset.run_size,
        dataset_sha256,
        harness,
        tuple(records.values()),
    )
