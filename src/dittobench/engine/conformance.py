"""A harness probed for conformance before a real run (`dittobench harness check URL`).

The probe speaks the protocol of ``docs/protocol.md`` the way a run does, on a medium dataset of
a seed of its own, and stops at the first step that fails, saying what was sent and what came
back: ``health`` (``GET /health`` answers 2xx, and what its body declares), ``seed`` (the first
wave of the person under test, in parts as a run would send it), ``memory`` (one question after
it), ``tool`` (tool cases answered) and ``tool endpoint`` (the harness called the tool endpoint
it was given; one that never does gets a warning, not a failure: the protocol allows it, and it
scores 0 on tool cases). Nothing is stored or graded: a pass says a run can be driven, not how
it will score.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from dittobench.catalog.shown import shown_by
from dittobench.core.ids import WIRE_NONCE_BYTES
from dittobench.engine.client import ClientLimits, HarnessClient, HarnessError
from dittobench.engine.orchestrate import Declared, ask_case, declared_health
from dittobench.engine.packs import run_pack
from dittobench.engine.seeding import SeedSending, seed_wave
from dittobench.engine.tool_endpoint import ToolEndpoint
from dittobench.generate.assemble import build_dataset
from dittobench.spec.dataset import Dataset
from dittobench.spec.transcript import Execution
from dittobench.spec.versions import get_policy
from dittobench.spec.vocab import RunCaseKind
from dittobench.spec.wire import (
    DEFAULT_USER_ID,
    SEED_BYTES_LIMIT,
    ToolDefinition,
    seed_bytes_limit,
)
from dittobench.spec.wireids import WireIdError, WireIds

STEPS = ("health", "seed", "memory", "tool", "tool endpoint")
"""The steps, in the order they are tried."""
NEVER_CALLED = (
    "no call reached the tool endpoint during {count} tool cases: a harness calls the run's "
    'tool_endpoint with POST (docs/protocol.md, "Harness wire protocol"); one that never does '
    "scores 0 on tool cases"
)
TOOL_USER = ""
"""A tool case's user, as a run asks it: one of the run's tool users (``spec.wireids``)."""
CHECK_RUN_SIZE = "medium"
"""The probe's dataset: enough tool cases that a harness which calls tools at all calls one."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step's verdict: ``status`` is ``pass``, ``warn``, ``fail`` or ``skipped`` (after a
    failure, or not asked for)."""

    name: str
    status: str
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"step": self.name, "status": self.status, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """What to probe with: the dataset's seed and version, the client's limits, whether tool
    cases are asked (a memory-only harness may skip them) and an optional transport."""

    seed: int
    bench_version: str
    limits: ClientLimits
    tools: bool = True
    transport: Callable[[], httpx.AsyncBaseTransport] | None = None


class _Failed(Exception):
    """A step failed; its message is the step's detail."""


@dataclass
class _Probe:
    dataset: Dataset
    ids: WireIds
    client: HarnessClient
    endpoint: ToolEndpoint
    system_prompt: str
    tools: tuple[ToolDefinition, ...]
    seed_bytes: int = SEED_BYTES_LIMIT
    """The largest ``/seed`` body sent (``max_seed_bytes``, read by the health step)."""

    async def health(self) -> str:
        started = time.monotonic()
        try:
            await self.client.wait_healthy()
        except HarnessError as exc:
            raise _Failed(str(exc)) from None
        declared = await declared_health(
            self.client.base_url, self.client.limits.probe_timeout_s, self.client.http
        )
        self.seed_bytes = seed_bytes_limit(declared.max_seed_bytes)
        return f"2xx in {time.monotonic() - started:.2f} s; {_declared(declared)}"

    async def seed(self) -> str:
        waves = [
            w for w in self.dataset.memory_waves if w.user_id == DEFAULT_USER_ID and w.wave == 0
        ]
        pairs, parts = 0, 0
        for wave in waves:
            how = SeedSending(self.seed_bytes, (), wave.user_id)  # one attempt: a check says so
            try:
                parts += await seed_wave(self.client, self.ids.seed_request(wave), how, _quiet)
            except HarnessError as exc:
                raise _Failed(str(exc)) from None
            pairs += len(wave.pairs)
        sent = f" in {parts} parts" if parts > len(waves) else ""
        return f"{len(waves)} wave(s), {pairs} pair(s) accepted{sent}"

    async def memory(self) -> str:
        asked = [
            (c, u, q)
            for c, _k, u, q, wave in self.dataset.asked()
            if u == DEFAULT_USER_ID and wave == 0
        ]
        if not asked:
            raise _Failed(f"the check's dataset (seed {self.dataset.seed}) asks no question")
        case, user, question = asked[0]
        answer, _calls = await self._ask(case, user, question)
        return f"question answered: {answer!r:.120}"

    async def tool(self) -> tuple[str, int]:
        """Tool cases answered until one calls the endpoint, and how many calls reached it."""
        calls, answered = 0, 0
        for case in self.dataset.tool_cases:
            _answer, seen = await self._ask(case.id, TOOL_USER, case.prompt)
            answered, calls = answered + 1, calls + seen
            if calls:
                break
        return f"{answered} tool case(s) answered", calls

    async def _ask(self, case_id: str, user: str, text: str) -> tuple[str, int]:
        kind: RunCaseKind = "memory" if user == DEFAULT_USER_ID else "tool"
        record = await ask_case(self, case_id, kind, user, text)
        if record.response is None:
            shown = self.ids.case(case_id)
            raise _Failed(f"POST /run (case {shown}): {_failure(record.execution)}")
        return record.response.answer or record.response.final_text, len(record.observed)


def _quiet(_note: str) -> None:
    """The check reports a step's verdict, not each request it sends."""


def _declared(declared: Declared) -> str:
    said = []
    if declared.identity:
        said.append("identity " + ", ".join(f"{k}={v}" for k, v in declared.identity.items()))
    if declared.instance:
        said.append(f"instance {declared.instance}")
    if declared.capabilities:
        said.append("capabilities " + ", ".join(sorted(declared.capabilities)))
    if declared.max_concurrency:
        said.append(f"max_concurrency {declared.max_concurrency}")
    if declared.max_seed_bytes:
        said.append(f"max_seed_bytes {declared.max_seed_bytes}")
    return "; ".join(said) if said else "its body declares nothing (allowed)"


def _failure(execution: Execution) -> str:
    last = execution.attempts[-1] if execution.attempts else None
    if last is None:
        return execution.outcome
    status = f" HTTP {last.http_status}" if last.http_status else ""
    detail = f": {last.detail}" if last.detail else ""
    return f"{last.outcome}{status}{detail} (attempt {last.attempt})"


def _wire_ids(dataset: Dataset) -> WireIds:
    while True:
        try:
            return WireIds.of(dataset, os.urandom(WIRE_NONCE_BYTES).hex())
        except WireIdError:
            continue


async def check_harness(url: str, options: CheckOptions) -> list[Step]:
    """Every step's verdict, in ``STEPS`` order; the steps after the first failure are skipped."""
    dataset = build_dataset(options.seed, options.bench_version, CHECK_RUN_SIZE)
    shown = shown_by(run_pack(options.bench_version, None))
    ids = _wire_ids(dataset)
    endpoint = ToolEndpoint(dataset, get_policy(options.bench_version).content_version, ids=ids)
    await endpoint.start()
    try:
        transport = options.transport() if options.transport else None
        async with HarnessClient(url, options.limits, transport) as client:
            probe = _Probe(dataset, ids, client, endpoint, shown.system_prompt, shown.tools)
            return await _steps(probe, options.tools)
    finally:
        await endpoint.stop()


async def _steps(probe: _Probe, tools: bool) -> list[Step]:
    steps: list[Step] = []

    def failed() -> bool:
        return any(step.status == "fail" for step in steps)

    for name, work in (("health", probe.health), ("seed", probe.seed), ("memory", probe.memory)):
        if failed():
            steps.append(Step(name, "skipped", "an earlier step failed"))
            continue
        try:
            steps.append(Step(name, "pass", await work()))
        except _Failed as exc:
            steps.append(Step(name, "fail", str(exc)))
    if not tools or failed():
        why = "an earlier step failed" if failed() else "--no-tools"
        steps += [Step("tool", "skipped", why), Step("tool endpoint", "skipped", why)]
        return steps
    try:
        said, calls = await probe.tool()
    except _Failed as exc:
        steps.append(Step("tool", "fail", str(exc)))
        steps.append(Step("tool endpoint", "skipped", "an earlier step failed"))
        return steps
    steps.append(Step("tool", "pass", said))
    if calls:
        steps.append(
            Step("tool endpoint", "pass", f"{calls} call(s) reached {probe.endpoint.public_url}")
        )
    else:
        count = len(probe.dataset.tool_cases)
        steps.append(Step("tool endpoint", "warn", NEVER_CALLED.format(count=count)))
    return steps


__all__ = ["STEPS", "CheckOptions", "Step", "check_harness"]
