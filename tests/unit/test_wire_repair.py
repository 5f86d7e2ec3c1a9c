"""What the engine reads from a harness: liberal where the protocol calls a field ignored or
optional, strict where the grader reads it, bounded in depth and in calls kept, and always
storable and hashable."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest

from dittobench.core.canonical import MAX_SAFE_INTEGER, canonical_bytes
from dittobench.engine.client import ClientLimits, HarnessClient
from dittobench.engine.tool_endpoint import CALLS_PER_CASE
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.repair import (
    CALLS_KEPT,
    MAX_DEPTH,
    lenient_int,
    run_response,
    seed_response,
    too_deep,
    tool_exec_request,
)
from dittobench.spec.transcript import CaseRecord, Execution, call_json, json_safe
from dittobench.spec.wire import RunRequest, RunResponse, SeedResponse, ToolCall
from tests.helpers.transport import streamed_transport

BIG = 2**53 + 1


def nested(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    ("field", "value", "read"),
    [
        # latency_ms is ignored: the engine measures latency itself
        ("latency_ms", 12.5, 0),
        ("latency_ms", "fast", 0),
        ("latency_ms", None, 0),
        ("latency_ms", {"ms": 3}, 0),
        ("latency_ms", BIG, 0),
        # token counts are telemetry: numbers in any form, else 0; clamped
        ("prompt_tokens", 12.0, 12),
        ("prompt_tokens", 12.6, 13),
        ("prompt_tokens", "40", 40),
        ("prompt_tokens", " 7 ", 7),
        ("prompt_tokens", None, 0),
        ("prompt_tokens", -5, 0),
        ("prompt_tokens", True, 0),
        ("prompt_tokens", "many", 0),
        ("prompt_tokens", "nan", 0),
        ("prompt_tokens", 1e400, 0),
        ("output_tokens", BIG, MAX_SAFE_INTEGER),
        ("output_tokens", [], 0),
        # confidence: a number in [0, 1], else absent
        ("confidence", 0.25, 0.25),
        ("confidence", 1, 1.0),
        ("confidence", "0.5", 0.5),
        ("confidence", 1.5, None),
        ("confidence", -0.1, None),
        ("confidence", True, None),
        ("confidence", "high", None),
        ("confidence", None, None),
        # fields the grader reads: null is absent; numbers are a bare answer
        ("final_text", None, ""),
        ("answer", None, None),
        ("answer", 42, "42"),
        ("answer", 4.0, "4"),
        ("answer", 12.5, "12.5"),
        ("abstain", None, None),
        ("abstain", True, True),
        ("tool_calls", None, ()),
    ],
)
def test_optional_and_ignored_fields_are_read_liberally(field: str, value: Any, read: Any) -> None:
    response, dropped = run_response({"final_text": "ok", field: value})
    assert getattr(response, field) == read
    assert dropped == 0


@pytest.mark.parametrize(
    ("reply", "where"),
    [
        ({"final_text": 5}, "$.final_text"),
        ({"final_text": ["a"]}, "$.final_text"),
        ({"answer": ["a", "b"]}, "$.answer"),
        ({"answer": True}, "$.answer"),
        ({"abstain": "yes"}, "$.abstain"),
        ({"abstain": 1}, "$.abstain"),
        ({"tool_calls": {"name": "x"}}, "$.tool_calls"),
        ({"tool_calls": ["search_web"]}, "$.tool_calls[0]"),
        ({"tool_calls": [{"args": {}}]}, "$.tool_calls[0].name"),
        ({"tool_calls": [{"name": 3}]}, "$.tool_calls[0].name"),
        ({"tool_calls": [{"name": "x", "args": nested(MAX_DEPTH)}]}, "nested deeper"),
        ([{"final_text": "ok"}], "$"),
    ],
)
def test_fields_the_grader_reads_keep_their_type(reply: Any, where: str) -> None:
    with pytest.raises(DecodeError) as error:
        run_response(reply)
    assert where in str(error.value)


@pytest.mark.parametrize(
    ("hop", "read"),
    [
        (None, 0),
        (3, 3),
        (3.0, 3),
        ("2", 2),
        (BIG, MAX_SAFE_INTEGER),
        (-BIG, -MAX_SAFE_INTEGER),
        (2**200, MAX_SAFE_INTEGER),
        ("99999999999999999999", MAX_SAFE_INTEGER),
        ([1], 0),
        (False, 0),
    ],
)
def test_a_hop_is_read_liberally_and_clamped(hop: Any, read: int) -> None:
    reply = {"tool_calls": [{"name": "search_web", "args": {}, "hop": hop}]}
    assert run_response(reply)[0].tool_calls[0].hop == read
    call = {"case_id": "c", "name": "search_web", "hop": hop}
    assert tool_exec_request(call).hop == read


def test_text_keys_and_names_are_repaired_and_numbers_made_safe() -> None:
    reply = {
        "final_text": "a\ud800b",
        "answer": "\udfff",
        "tool_calls": [
            {"name": "search\ud800", "args": {"k\udc00": ["v\ud800", BIG, 1e400, {"\ud800": 1}]}}
        ],
    }
    response, _ = run_response(reply)
    assert response.final_text == "a?b" and response.answer == "?"
    call = response.tool_calls[0]
    assert call.name == "search?"
    assert call.args == {"k?": ["v?", str(BIG), "inf", {"?": 1}]}
    record = CaseRecord("c", "tool", "", response, (call,), Execution())
    assert canonical_bytes(record.to_json())


def test_tool_endpoint_calls_are_repaired_and_strict_where_it_matters() -> None:
    call = tool_exec_request(
        {"case_id": "c\ud800", "name": "n\udfff", "args": {"\ud800": BIG}, "user_id": 5}
    )
    assert (call.case_id, call.name, call.args, call.user_id) == ("c?", "n?", {"?": str(BIG)}, "")
    bad: object
    for bad in ({"name": "x"}, {"case_id": 1, "name": "x"}, {"case_id": "c"}, [], "x"):
        with pytest.raises(DecodeError):
            tool_exec_request(bad)
    with pytest.raises(DecodeError, match="nested deeper"):
        tool_exec_request({"case_id": "c", "name": "x", "args": nested(MAX_DEPTH)})
    assert tool_exec_request({"case_id": "c", "name": "x", "args": nested(MAX_DEPTH - 2)})


def test_depth_is_counted_from_the_top_without_recursion() -> None:
    assert not too_deep(nested(MAX_DEPTH))
    assert too_deep(nested(MAX_DEPTH + 1))
    assert too_deep([[[]]], limit=2) and not too_deep([[[]]], limit=3)
    assert too_deep(nested(100_000))  # far past the interpreter's recursion limit
    assert not too_deep("text") and not too_deep([1, 2, {"a": "b"}], limit=2)


def test_reported_calls_beyond_the_cap_are_counted_not_kept() -> None:
    assert CALLS_KEPT == CALLS_PER_CASE  # one limit for reported and observed calls
    calls = [{"name": f"t{i}", "args": {}, "hop": i} for i in range(CALLS_KEPT + 7)]
    response, dropped = run_response({"tool_calls": calls})
    assert len(response.tool_calls) == CALLS_KEPT and dropped == 7
    assert response.tool_calls[-1].name == f"t{CALLS_KEPT - 1}"  # the first ones are kept
    # Calls past the cap are not even looked at: a malformed one there costs nothing.
    response, dropped = run_response({"tool_calls": [*calls[:CALLS_KEPT], "junk"]})
    assert dropped == 1


def test_seed_counts_are_informative_only() -> None:
    assert seed_response({"pairs": 3.0, "subjects": "2", "links": None}) == SeedResponse(3, 2, 0)
    assert seed_response([1]) == SeedResponse()
    assert seed_response({"pairs": BIG}) == SeedResponse(MAX_SAFE_INTEGER, 0, 0)


def test_lenient_int_never_raises() -> None:
    for value in (None, "", "-", "1e5", "0x10", float("nan"), 1e308, "1" * 40, {}, object()):
        assert isinstance(lenient_int(value), int)


def test_a_dropped_count_is_recorded_only_when_calls_were_dropped() -> None:
    plain = Execution((), 5, "ok")
    assert (
        "tool_calls_dropped"
        not in CaseRecord("c", "tool", "", None, (), plain).to_json()["execution"]
    )
    cut = Execution((), 5, "ok", 12)
    data = CaseRecord("c", "tool", "", None, (), cut).to_json()
    assert data["execution"]["tool_calls_dropped"] == 12
    assert decode(CaseRecord, data).execution.tool_calls_dropped == 12


def test_a_stored_hop_beyond_range_is_clamped_when_written_again() -> None:
    """Records an older build stored with a raw hop must hash, and read back as an int."""
    data = call_json(ToolCall("search_web", {}, 2**60))
    assert data["hop"] == MAX_SAFE_INTEGER
    assert call_json(ToolCall("x", {}, -(2**60)))["hop"] == -MAX_SAFE_INTEGER
    assert json_safe({"\ud800": 1}) == {"?": 1}


def test_the_client_records_dropped_calls_and_repairs_the_reply() -> None:
    calls = [{"name": "search_web", "args": {}, "hop": 0}] * (CALLS_KEPT + 3)
    reply = {"final_text": "ok", "latency_ms": 12.5, "tool_calls": calls}

    async def go() -> tuple[RunResponse | None, Execution]:
        transport = streamed_transport(lambda r: httpx.Response(200, json=reply))
        limits = ClientLimits(run_deadline_s=5)
        async with HarnessClient("http://harness.test", limits, transport=transport) as client:
            return await client.run(RunRequest("c", "s", "u"))

    response, execution = asyncio.run(go())
    assert response is not None and execution.outcome == "ok"
    assert len(response.tool_calls) == CALLS_KEPT
    assert execution.tool_calls_dropped == 3
    assert response.latency_ms == execution.attempts[0].duration_ms
    record = CaseRecord("c", "tool", "", response, (), execution)
    assert json.loads(canonical_bytes(record.to_json()))["execution"]["tool_calls_dropped"] == 3
