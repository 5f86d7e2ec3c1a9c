"""The harness client's promises at the transport seam: whatever a harness sends back, the case
is recorded with an outcome and a response that can always be stored and hashed."""

from __future__ import annotations

import asyncio
import gzip
import json
import zlib
from collections.abc import Callable

import httpx
import pytest

from dittobench.catalog import CATALOG
from dittobench.core.canonical import canonical_bytes
from dittobench.engine.client import ERROR_EXCERPT_CHARS, ClientLimits, HarnessClient
from dittobench.spec.transcript import CaseRecord, Execution
from dittobench.spec.wire import RunRequest, RunResponse, ToolDefinition, to_wire
from tests.helpers.transport import streamed_transport


def _replying(reply: httpx.Response) -> Callable[[httpx.Request], httpx.Response]:
    """A handler that answers every request with ``reply``."""
    return lambda request: reply


FAST = ClientLimits(run_deadline_s=2.0, backoff_s=(0.01, 0.01))
REQUEST = RunRequest("c0123456789abcdef", "system", "hello")


def run_with(
    handler: Callable[[httpx.Request], httpx.Response],
    calls_seen: Callable[[], bool] | None = None,
) -> tuple[RunResponse | None, Execution]:
    async def go() -> tuple[RunResponse | None, Execution]:
        transport = streamed_transport(handler)
        async with HarnessClient("http://harness.test", FAST, transport=transport) as client:
            return await client.run(REQUEST, calls_seen=calls_seen)

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


def test_5xx_is_retried_while_no_tool_call_was_seen() -> None:
    attempts: list[int] = []
    asked: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        attempts.append(1)
        assert json.loads(request.content)["case_id"] == REQUEST.case_id
        assert request.headers["accept-encoding"] == "identity"
        if len(attempts) < 3:
            return httpx.Response(503)
        return httpx.Response(200, json={"final_text": "done"})

    def seen() -> bool:
        asked.append(1)
        return False

    response, execution = run_with(handler, calls_seen=seen)
    assert response is not None and response.final_text == "done"
    assert len(attempts) == 3 == len(execution.attempts) and len(asked) == 2
    assert [a.outcome for a in execution.attempts] == ["http_error", "http_error", "ok"]


def test_an_attempt_that_made_tool_calls_is_not_retried() -> None:
    """Explore on one attempt, fail it, answer clean on the next: the calls would be forgotten
    and the answer graded alone. Once the endpoint has seen a call the failure stands."""
    attempts: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        attempts.append(1)
        return httpx.Response(503 if len(attempts) == 1 else 200, json={"final_text": "clean"})

    response, execution = run_with(handler, calls_seen=lambda: True)
    assert response is None and len(attempts) == 1
    assert [(a.outcome, a.http_status) for a in execution.attempts] == [("http_error", 503)]


def test_a_reply_that_breaks_says_which_field_in_its_attempt() -> None:
    _, execution = run_with(lambda request: httpx.Response(200, content=b'{"final_text": 5}'))
    assert execution.outcome == "bad_json"
    assert execution.attempts[0].detail == "$.final_text: expected a string, got int"
    _, fine = run_with(lambda request: httpx.Response(200, json={"final_text": "ok"}))
    assert fine.attempts[0].detail is None  # absent from the JSON: older records keep bytes
    assert "detail" not in to_wire(fine.attempts[0])


def test_an_error_reply_keeps_the_start_of_its_body_in_its_attempt() -> None:
    """429, 5xx and 4xx alike: the first whole lines of the body (``excerpt``), read within
    4 KiB, inflated when compressed; no body leaves no detail."""
    lines = b"".join(b"reindex lock is held by case %d\n" % i for i in range(2000))  # 60 KB
    for status, body, headers in [
        (503, lines, {}),
        (429, _gzip(lines), {"content-encoding": "gzip"}),
        (404, b"no such route", {}),
    ]:
        reply = httpx.Response(status, content=body, headers=headers)
        _, execution = run_with(_replying(reply))
        details = {a.detail for a in execution.attempts}
        assert execution.outcome == "http_error" and len(details) == 1, status
        detail = details.pop()
        assert detail is not None and len(detail) <= ERROR_EXCERPT_CHARS + 2
        assert detail.startswith(
            "reindex lock is held by case 0 reindex" if status != 404 else "no"
        )
        assert detail.endswith(" …") == (status != 404)
    _, bare = run_with(lambda request: httpx.Response(500))
    assert bare.attempts[0].detail is None


def _gzip(data: bytes, layers: int = 1) -> bytes:
    for _ in range(layers):
        data = gzip.compress(data)
    return data


def test_a_compressed_reply_is_inflated_within_the_limit() -> None:
    body = json.dumps({"final_text": "packed " * 50}).encode()
    for encoding, content in [
        ("gzip", _gzip(body)),
        ("deflate", zlib.compress(body)),
        ("identity", body),
        ("GZIP, identity", _gzip(body)),
    ]:
        reply = httpx.Response(200, content=content, headers={"content-encoding": encoding})
        response, execution = run_with(_replying(reply))
        assert execution.outcome == "ok" and response is not None, encoding
        assert response.final_text.startswith("packed packed")


@pytest.mark.parametrize("field", ["final_text", "answer"])
def test_an_answer_longer_than_the_limit_is_too_large_and_one_at_it_is_taken(field: str) -> None:
    """Grading reads every character, so the answer's length is bounded (a 4 MiB reply of
    text took seconds to grade); the limit itself is an answer like any other."""
    limit = ClientLimits().max_answer_chars
    at_limit = httpx.Response(200, json={field: "a" * limit})
    response, execution = run_with(_replying(at_limit))
    assert execution.outcome == "ok" and response is not None
    assert len(response.final_text if field == "final_text" else response.answer or "") == limit
    over = httpx.Response(200, json={field: "é" * (limit + 1)})
    response, execution = run_with(_replying(over))
    assert execution.outcome == "too_large" and response is None
    assert len(execution.attempts) == 1  # the harness's answer: not asked again
    assert execution.attempts[0].detail == f"$.{field}: 65,537 characters, over 65,536"


def test_a_compression_bomb_is_too_large_before_it_is_inflated() -> None:
    """8 MiB of zeros in gzip is about 8 KB; inflating it in full would be past the 4 MiB
    limit. Stacked layers (a 2 KB reply worth gigabytes) are not read at all."""
    zeros = b"0" * (8 * 1024 * 1024)
    bomb = httpx.Response(200, content=_gzip(zeros), headers={"content-encoding": "gzip"})
    _, execution = run_with(lambda request: bomb)
    assert execution.outcome == "too_large"
    stacked = httpx.Response(
        200, content=_gzip(zeros, 2), headers={"content-encoding": "gzip, gzip"}
    )
    _, execution = run_with(lambda request: stacked)
    assert execution.outcome == "bad_json"
    assert "is not read" in str(execution.attempts[0].detail)
    for encoding in ("br", "zstd", "gzip"):
        odd = httpx.Response(
            200, stream=httpx.ByteStream(b"not packed"), headers={"content-encoding": encoding}
        )
        _, execution = run_with(_replying(odd))
        assert execution.outcome == "bad_json", encoding


def test_a_huge_number_where_a_small_one_belongs_reads_as_absent() -> None:
    digits = "9" * 401
    reply = httpx.Response(200, content=f'{{"final_text": "ok", "confidence": {digits}}}'.encode())
    response, execution = run_with(lambda request: reply)
    assert execution.outcome == "ok" and response is not None and response.confidence is None


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
        transport = streamed_transport(handler)
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
