"""The harness client's promises at the transport seam: whatever a harness sends back, the case
is recorded with an outcome and a response that can always be stored and hashed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

import httpx
import pytest

from dittobench.catalog import CATALOG
from dittobench.core.canonical import canonical_bytes
from dittobench.engine.client import ClientLimits, HarnessClient
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.wire import RunRequest, ToolDefinition, to_wire

FAST = ClientLimits(run_deadline_s=2.0, backoff_s=(0.01, 0.01))
REQUEST = RunRequest("c0123456789abcdef", "system", "hello")


def run_with(handler: Callable[[httpx.Request], httpx.Response], hook=None):  # type: ignore[no-untyped-def]
    async def go():  # type: ignore[no-untyped-def]
        transport = httpx.MockTransport(handler)
        async with HarnessClient("http://harness.test", FAST, transport=transport) as client:
            return await client.run(REQUEST, before_attempt=hook)

    return asyncio.run(go())


@pytest.mark.parametrize(
    "body",
    [
        b'{"final_text": "ok", "confidence": 1e400}',
        b'{"final_text": "ok", "prompt_tokens": 100000000000000000000}',
        b'{"final_text": "\\ud800 broken", "answer": "\\udfff"}',
        b'{"final_text": "ok", "tool_calls": [{"name": "\\ud800", "args": {"n": 1e400}}]}',
    ],
)
def test_any_reply_can_be_stored_and_hashed(body: bytes) -> None:
    response, execution = run_with(lambda request: httpx.Response(200, content=body))
    record = CaseRecord(REQUEST.case_id, "tool", "", response, (), execution)
    assert canonical_bytes(record.to_json())  # no error: storable and hashable
    assert execution.outcome in ("ok", "bad_json")


@pytest.mark.parametrize(
    ("reply", "outcome"),
    [
        (httpx.Response(200, content=b"[1, 2]"), "bad_json"),
        (httpx.Response(200, content=b""), "bad_json"),
        (httpx.Response(200, content=b'{"final_text": 5}'), "bad_json"),
        (httpx.Response(302, headers={"location": "http://elsewhere/"}), "http_error"),
        (httpx.Response(404), "http_error"),
    ],
)
def test_bad_replies_are_outcomes_not_errors(reply: httpx.Response, outcome: str) -> None:
    response, execution = run_with(lambda request: reply)
    assert response is None and execution.outcome == outcome


def test_every_attempt_starts_clean_and_5xx_is_retried() -> None:
    attempts: list[int] = []
    resets: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        attempts.append(1)
        assert json.loads(request.content)["case_id"] == REQUEST.case_id
        if len(attempts) < 3:
            return httpx.Response(503)
        return httpx.Response(200, json={"final_text": "done"})

    response, execution = run_with(handler, hook=lambda: resets.append(1))
    assert response is not None and response.final_text == "done"
    assert len(attempts) == 3 == len(resets) == len(execution.attempts)
    assert [a.outcome for a in execution.attempts] == ["http_error", "http_error", "ok"]


@pytest.mark.parametrize("user_id", ["", "miner"])
@pytest.mark.parametrize("tools", [(), CATALOG])
def test_the_run_body_is_the_request_on_the_wire_with_each_key_once(
    user_id: str, tools: tuple[ToolDefinition, ...]
) -> None:
    request = RunRequest(
        "c0123456789abcdef", "system", 'say "hi" \u00e9', tools, "http://127.0.0.1:1/tool", user_id
    )
    seen: list[bytes] = []

    def handler(incoming: httpx.Request) -> httpx.Response:
        seen.append(incoming.content)
        return httpx.Response(200, content=b'{"final_text": "ok"}')

    async def go() -> None:
        transport = httpx.MockTransport(handler)
        async with HarnessClient("http://harness.test", FAST, transport=transport) as client:
            await client.run(request)
            await client.run(request)  # the catalog's cached encoding is reused

    asyncio.run(go())

    def no_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), f"repeated keys in {keys}"
        return dict(pairs)

    for body in seen:
        assert json.loads(body, object_pairs_hook=no_repeats) == to_wire(request)
