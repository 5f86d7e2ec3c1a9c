"""The observed tool endpoint on a real loopback port: calls are answered by mocktools and
recorded per case in arrival order; only cases in flight accept calls; oversized and malformed
bodies are refused; and stopping never waits on what a harness left open."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx

from dittobench.engine.tool_endpoint import (
    BODY_LIMIT,
    CALLS_PER_CASE,
    MEMORY_CASE_ERROR,
    ToolEndpoint,
)
from dittobench.generate.assemble import build_dataset
from dittobench.mocktools import execute
from dittobench.spec.versions import get_policy

DATASET = build_dataset(23, run_size="small")
VERSION = get_policy(DATASET.bench_version).content_version
TOOL_CASE = DATASET.tool_cases[0]
MEMORY_CASE = DATASET.memory_cases[0]


def with_endpoint(body: Callable[[ToolEndpoint, httpx.AsyncClient], Awaitable[Any]]) -> Any:
    async def go() -> Any:
        endpoint = ToolEndpoint(DATASET, VERSION)
        await endpoint.start()
        try:
            async with httpx.AsyncClient(timeout=5) as client:
                return await body(endpoint, client)
        finally:
            await endpoint.stop()

    return asyncio.run(go())


def call(case_id: str, name: str, args: Any = None, hop: int = 0) -> dict[str, Any]:
    return {"case_id": case_id, "name": name, "args": args or {}, "hop": hop}


def test_calls_are_answered_by_mocktools_and_recorded_in_arrival_order() -> None:
    async def body(endpoint: ToolEndpoint, client: httpx.AsyncClient) -> None:
        endpoint.open_case(TOOL_CASE.id)
        first = await client.post(endpoint.url, json=call(TOOL_CASE.id, "search_web", {"q": "x"}))
        second = await client.post(endpoint.url, json=call(TOOL_CASE.id, "save_memory", hop=1))
        calls = endpoint.close_case(TOOL_CASE.id)
        assert [c.name for c in calls] == ["search_web", "save_memory"]
        assert [c.hop for c in calls] == [0, 1]
        fixture = next(f for f in DATASET.tool_fixtures if f.case_id == TOOL_CASE.id)
        expected = execute(DATASET.seed, VERSION, TOOL_CASE, fixture, "search_web", {"q": "x"}, [])
        assert first.status_code == 200 and first.json()["result"] == expected.result
        assert second.status_code == 200 and second.json()["error"]  # memory tools are not served

    with_endpoint(body)


def test_a_memory_case_is_observed_but_served_nothing() -> None:
    async def body(endpoint: ToolEndpoint, client: httpx.AsyncClient) -> None:
        endpoint.open_case(MEMORY_CASE.id)
        reply = await client.post(endpoint.url, json=call(MEMORY_CASE.id, "search_web"))
        assert reply.json() == {"result": "", "error": MEMORY_CASE_ERROR}
        assert [c.name for c in endpoint.close_case(MEMORY_CASE.id)] == ["search_web"]

    with_endpoint(body)


def test_only_cases_in_flight_accept_calls() -> None:
    async def body(endpoint: ToolEndpoint, client: httpx.AsyncClient) -> None:
        endpoint.open_case(TOOL_CASE.id)
        other = await client.post(endpoint.url, json=call(MEMORY_CASE.id, "search_web"))
        assert other.status_code == 404
        assert endpoint.close_case(TOOL_CASE.id) == ()
        closed = await client.post(endpoint.url, json=call(TOOL_CASE.id, "search_web"))
        assert closed.status_code == 404
        assert endpoint.close_case(TOOL_CASE.id) == ()

    with_endpoint(body)


def test_every_call_of_a_case_counts_and_is_known_while_it_is_in_flight() -> None:
    async def body(endpoint: ToolEndpoint, client: httpx.AsyncClient) -> None:
        endpoint.open_case(TOOL_CASE.id)
        assert not endpoint.has_calls(TOOL_CASE.id)
        await client.post(endpoint.url, json=call(TOOL_CASE.id, "search_web"))
        assert endpoint.has_calls(TOOL_CASE.id)
        await client.post(endpoint.url, json=call(TOOL_CASE.id, "read_links"))
        names = [c.name for c in endpoint.close_case(TOOL_CASE.id)]
        assert names == ["search_web", "read_links"]
        assert not endpoint.has_calls(TOOL_CASE.id)

    with_endpoint(body)


def test_oversized_and_malformed_bodies_are_refused_and_not_recorded() -> None:
    async def body(endpoint: ToolEndpoint, client: httpx.AsyncClient) -> None:
        endpoint.open_case(TOOL_CASE.id)
        big = call(TOOL_CASE.id, "search_web", {"q": "x" * BODY_LIMIT})
        declared = await client.post(endpoint.url, content=json.dumps(big).encode())
        assert declared.status_code == 413

        async def chunks() -> AsyncIterator[bytes]:
            data = json.dumps(big).encode()
            for start in range(0, len(data), 8192):
                yield data[start : start + 8192]

        streamed = await client.post(endpoint.url, content=chunks())  # no Content-Length
        assert streamed.status_code == 413
        for bad in (b"{", b"[]", b'{"case_id": 5}', json.dumps({"name": "x"}).encode()):
            assert (await client.post(endpoint.url, content=bad)).status_code == 400
        assert (await client.get(endpoint.url)).status_code == 204  # a reachability check
        assert endpoint.close_case(TOOL_CASE.id) == ()

    with_endpoint(body)


def test_a_runaway_harness_is_cut_off_at_the_call_limit() -> None:
    async def body(endpoint: ToolEndpoint, client: httpx.AsyncClient) -> None:
        endpoint.open_case(TOOL_CASE.id)
        for hop in range(CALLS_PER_CASE):
            reply = await client.post(endpoint.url, json=call(TOOL_CASE.id, "search_web", hop=hop))
            assert reply.status_code == 200
        over = await client.post(endpoint.url, json=call(TOOL_CASE.id, "read_links"))
        assert over.status_code == 429 and str(CALLS_PER_CASE) in over.json()["error"]
        calls = endpoint.close_case(TOOL_CASE.id)
        assert len(calls) == CALLS_PER_CASE and calls[-1].name == "search_web"

    with_endpoint(body)


def test_stopping_cuts_off_idle_and_half_sent_connections() -> None:
    async def go() -> None:
        endpoint = ToolEndpoint(DATASET, VERSION)
        await endpoint.start()
        port = int(endpoint.url.split(":")[2].split("/")[0])
        idle_reader, idle = await asyncio.open_connection("127.0.0.1", port)
        idle.write(b"GET /tool HTTP/1.1\r\nHost: x\r\n\r\n")
        await idle_reader.readuntil(b"\r\n\r\n")  # answered; the connection stays open
        _, stalled = await asyncio.open_connection("127.0.0.1", port)
        stalled.write(b"POST /tool HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        await stalled.drain()
        await asyncio.sleep(0.1)
        await asyncio.wait_for(endpoint.stop(), 3)  # a TimeoutError: it waited on them
        for writer in (idle, stalled):
            writer.close()

    asyncio.run(go())
