"""Drive an external suite (``spec.external``) against a harness, over the same protocol and
client as a dittobench run (docs/external.md).

The harness is asked ``GET /health`` until ready (what it declares it is, ``spec.identity``, is
kept). Every user's waves are then sent in order (``POST /seed``, in parts when a wave's body
is over the limit, each sent again on a connection error, 429 or 5xx, as the engine does:
``engine.seeding``), and only then are the questions asked, each a ``POST /run`` with the
catalog's memory tools (served by the harness's own store) and a system prompt that gives the
question's date as today; at most ``concurrency`` at a time, and never while a ``/seed`` is in
flight. Ids are keyed by the run's nonce (``core.ids.wire_id``), so two runs
against one harness never share a user. A judge, when given, is asked about the open questions'
replies afterwards (``engine.judging``). The transcript records every reply.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Final

import httpx

from dittobench.catalog.shown import shown_by
from dittobench.core.dates import spoken_date
from dittobench.core.ids import wire_id
from dittobench.engine.client import ClientLimits, HarnessClient
from dittobench.engine.judging import JudgeEndpoint, judge_cases
from dittobench.engine.orchestrate import SEED_BACKOFF_S, Progress, Reporter, declared_health
from dittobench.engine.packs import run_pack
from dittobench.engine.seeding import SeedSending, seed_wave
from dittobench.grade.external import open_case
from dittobench.grade.judging import answer_text
from dittobench.spec.external import ExternalQuestion, ExternalSuite
from dittobench.spec.external_transcript import EXTERNAL_KIND, PROMPT_ID, ExternalTranscript
from dittobench.spec.judging import JUDGE_1, JudgeRecord
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.wire import (
    MEMORY_TOOLS,
    SEED_BYTES_LIMIT,
    RunRequest,
    SeedRequest,
    ToolDefinition,
    seed_bytes_limit,
)
from dittobench.spec.wireids import check_nonce

SYSTEM_PROMPT: Final = (
    "You are a memory assistant. Answer the question from what you remember of the "
    "conversations stored for this user; if they never said it, say it was not mentioned."
)
"""The system prompt of every question (``PROMPT_ID``), followed by the question's date."""


@dataclass(frozen=True, slots=True)
class ExternalOptions:
    """How to drive a suite: where the harness is and what to call it, how many questions at
    once, the client's limits, the run's wire nonce (64 hex digits; empty: the suite's own ids),
    an injectable transport (tests), and the judge to ask, if any."""

    harness_url: str
    harness_name: str
    concurrency: int = 4
    limits: ClientLimits = field(default_factory=ClientLimits)
    wire_nonce: str = ""
    transport: Callable[[], httpx.AsyncBaseTransport] | None = None
    judge: JudgeEndpoint | None = None
    judge_model: str = ""
    seed_backoff_s: tuple[float, ...] = SEED_BACKOFF_S
    seed_bytes: int = SEED_BYTES_LIMIT
    """The largest ``/seed`` body sent (a smaller one when the harness declares
    ``max_seed_bytes``): a larger wave goes in parts."""


def system_prompt(question_date: str) -> str:
    """The system prompt of a question asked on ``question_date`` (RFC 3339, or "")."""
    if not question_date:
        return SYSTEM_PROMPT
    moment = datetime.fromisoformat(question_date.replace("Z", "+00:00"))
    today = f"{moment:%A}, {spoken_date(moment.date())}, {moment:%H:%M} (UTC)"
    return f"{SYSTEM_PROMPT}\n\nToday is {today}."


def memory_tools() -> tuple[ToolDefinition, ...]:
    """The catalog's memory tools in the current version's words (the harness serves them)."""
    tools = shown_by(run_pack(CURRENT_VERSION, None)).tools
    return tuple(t for t in tools if t.name in MEMORY_TOOLS)


class _Ids:
    """The ids the harness is shown: keyed by the nonce, or the suite's own without one."""

    def __init__(self, nonce: str) -> None:
        self._key = bytes.fromhex(check_nonce(nonce))

    def __call__(self, kind: str, suite_id: str) -> str:
        return wire_id(self._key, kind, suite_id) if self._key else suite_id

    def wave(self, request: SeedRequest) -> SeedRequest:
        return replace(
            request,
            user_id=self("user", request.user_id),
            pairs=tuple(
                replace(
                    p, pair_id=self("pair", p.pair_id), session_id=self("session", p.session_id)
                )
                for p in request.pairs
            ),
        )


def run_external(
    suite: ExternalSuite, options: ExternalOptions, report: Reporter | None = None
) -> ExternalTranscript:
    """Drive ``suite`` (blocking) and return its transcript. ``HarnessError`` when the harness
    is never healthy, a wave cannot be seeded, or it stops answering altogether."""
    return asyncio.run(drive_external(suite, options, report or (lambda _p: None)))


async def drive_external(
    suite: ExternalSuite, options: ExternalOptions, report: Reporter
) -> ExternalTranscript:
    ids = _Ids(options.wire_nonce)
    transport = options.transport() if options.transport else None
    async with HarnessClient(options.harness_url, options.limits, transport) as client:
        await client.wait_healthy()
        declared = await declared_health(
            client.base_url, options.limits.probe_timeout_s, client.http
        )
        limit = seed_bytes_limit(declared.max_seed_bytes)
        await _seed_all(client, suite, ids, replace(options, seed_bytes=limit), report)
        records = await _ask_all(client, suite, ids, options, report)
    judge = await _judge(suite, records, options, report) if options.judge else None
    return ExternalTranscript(
        format=suite.source.format,
        suite_sha256=suite.sha256,
        source_sha256=suite.source.sha256,
        harness=options.harness_name or options.harness_url,
        records=tuple(records[q.id] for q in suite.questions),
        wire_nonce=options.wire_nonce,
        prompt=PROMPT_ID,
        identity=dict(declared.identity),
        judge=judge,
    )


async def _seed_all(
    client: HarnessClient,
    suite: ExternalSuite,
    ids: _Ids,
    options: ExternalOptions,
    report: Reporter,
) -> None:
    total = sum(len(u.waves) for u in suite.users)
    done = 0
    for user in suite.users:
        for wave in user.waves:
            report(Progress("seeding", done, total, 0))
            label = f"{user.id}, wave {wave.wave}"
            how = SeedSending(options.seed_bytes, options.seed_backoff_s, user.id, label)
            await seed_wave(client, ids.wave(wave), how, _noted(report, done, total, label))
            done += 1
    report(Progress("seeding", done, total, 0))


def _noted(report: Reporter, done: int, total: int, label: str) -> Callable[[str], None]:
    """Progress notes of a wave being sent: silent for a wave sent whole at its first attempt
    (the count already says it), a note for each part and for each attempt sent again."""

    def note(text: str) -> None:
        if text != label:
            report(Progress("seeding", done, total, 0, text))

    return note


async def _ask_all(
    client: HarnessClient,
    suite: ExternalSuite,
    ids: _Ids,
    options: ExternalOptions,
    report: Reporter,
) -> dict[str, CaseRecord]:
    tools = memory_tools()
    places = asyncio.Semaphore(max(1, options.concurrency))
    records: dict[str, CaseRecord] = {}
    failed = 0
    total = len(suite.questions)
    report(Progress("running", 0, total, 0))

    async def one(question: ExternalQuestion) -> None:
        nonlocal failed
        request = RunRequest(
            case_id=ids("case", question.id),
            system_prompt=system_prompt(question.question_date),
            user_input=question.question,
            tools=tools,
            user_id=ids("user", question.user_id),
        )
        async with places:
            response, execution = await client.run(request)
        records[question.id] = CaseRecord(
            question.id, EXTERNAL_KIND, question.user_id, response, (), execution
        )
        failed += response is None
        report(Progress("running", len(records), total, failed))
        if execution.outcome == "connection_error":
            await client.check_alive()  # a harness that is gone fails every question: stop

    try:
        async with asyncio.TaskGroup() as group:
            for question in suite.questions:
                group.create_task(one(question))
    except BaseExceptionGroup as failures:
        raise failures.exceptions[0] from None
    return records


async def _judge(
    suite: ExternalSuite,
    records: dict[str, CaseRecord],
    options: ExternalOptions,
    report: Reporter,
) -> JudgeRecord:
    assert options.judge is not None
    protocol = JUDGE_1
    if options.judge_model and options.judge_model != protocol.model:
        protocol = protocol.with_model(options.judge_model)
    pairs = [
        (open_case(q, protocol), answer_text(records[q.id].response))
        for q in suite.questions
        if q.graded_by == "open"
    ]
    asked = sum(1 for _case, answer in pairs if answer.strip())

    def shown(done: int, total: int) -> None:
        report(Progress("judging", done, total, 0))

    report(Progress("judging", 0, asked, 0))
    return await judge_cases(options.judge, protocol, pairs, shown)


__all__ = [
    "SYSTEM_PROMPT",
    "ExternalOptions",
    "drive_external",
    "memory_tools",
    "run_external",
    "system_prompt",
]
