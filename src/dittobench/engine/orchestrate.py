"""Run a dataset against a harness: tool cases, the isolation user's material, then each wave
followed by the memory cases it unlocks. Cases within a phase run concurrently; every case is
written to the store the moment it finishes, so an interrupted run resumes without redoing any.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import dataclass

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


@dataclass
class _Tally:
    done: int
    total: int
    failed: int


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
    tool_jobs = [(c.id, "tool", "", c.prompt) for c in data.tool_cases]
    await _phase(ctx, tool_jobs, records, tally)
    seeded = ctx.store.get_run(ctx.run_id).waves_seeded
    for index, request in enumerate(data.memory_waves):
        if index >= seeded:
            ctx.report(
                Progress(
                    "seeding",
                    tally.done,
                    tally.total,
                    tally.failed,
                    f"user {request.user_id}, wave {request.wave}",
                )
            )
            await ctx.client.seed(request)
            ctx.store.update_run(ctx.run_id, updated_at=ctx.now(), waves_seeded=index + 1)
        if request.user_id != DEFAULT_USER_ID:
            continue
        unlocked = [
            (c.id, "memory", c.user_id, c.question)
            for c in data.memory_cases
            if c.run_after_wave == request.wave
        ]
        await _phase(ctx, unlocked, records, tally)
    leftover = [
        (c.id, "memory", c.user_id, c.question) for c in data.memory_cases if c.id not in records
    ]  # only if the dataset's waves are inconsistent
    await _phase(ctx, leftover, records, tally)
    return records


async def _phase(
    ctx: RunContext,
    jobs: Iterable[tuple[str, str, str, str]],
    records: dict[str, CaseRecord],
    tally: _Tally,
) -> None:
    pending = [job for job in jobs if job[0] not in records]
    if not pending:
        return
    gate = asyncio.Semaphore(ctx.concurrency)

    async def one(case_id: str, kind: str, user_id: str, text: str) -> None:
        async with gate:
            record = await _run_case(ctx, case_id, kind, user_id, text)
        ctx.store.record_case(ctx.run_id, case_id, kind, record.to_json(), updated_at=ctx.now())
        records[case_id] = record
        tally.done += 1
        tally.failed += record.response is None
        ctx.report(Progress("running", tally.done, tally.total, tally.failed))

    await asyncio.gather(*(one(*job) for job in pending))


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
