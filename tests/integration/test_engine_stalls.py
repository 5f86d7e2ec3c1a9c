"""A case is charged for the harness's time, never for the engine's own stalls, and a failed
``/run`` says why: checked with the client against real harness processes on loopback.

The stall is real: a thread of this process holds the GIL for two seconds while a case is in
flight, as the scoring service's parsing or a catastrophic regular expression would. A pure-Python
loop gives the GIL up every switch interval (5 ms), so the interval is raised while it runs: the
event loop's thread then cannot run at all until the loop ends."""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable

import httpx

from dittobench.engine.client import ClientLimits, HarnessClient
from dittobench.spec.transcript import Execution
from dittobench.spec.wire import RunRequest
from tests.helpers.harness_process import harness

CASE = RunRequest("c00112233445566ff", "system", "hello", user_id="u-000000000000")
ONE_SECOND = ClientLimits(run_deadline_s=1.0, attempts=1)


class _Sent(httpx.AsyncByteStream):
    """A request body that calls ``sent`` once its last byte has been written."""

    def __init__(self, body: httpx.AsyncByteStream, sent: Callable[[], None]) -> None:
        self._body, self._sent = body, sent

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._body:
            yield chunk
        self._sent()


class _Stalling(httpx.AsyncBaseTransport):
    """Loopback HTTP whose ``/run`` requests, once sent in full, start a thread of this process
    that holds the GIL for ``seconds`` (the harness, another process, goes on meanwhile)."""

    def __init__(self, seconds: float) -> None:
        self._http = httpx.AsyncHTTPTransport()
        self.seconds = seconds
        self.held: list[float] = []
        self.holders: list[threading.Thread] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.seconds and request.url.path == "/run":
            assert isinstance(request.stream, httpx.AsyncByteStream)
            request.stream = _Sent(request.stream, self._hold)
        return await self._http.handle_async_request(request)

    async def aclose(self) -> None:
        await self._http.aclose()

    def _hold(self) -> None:
        holder = threading.Thread(target=self._busy)
        self.holders.append(holder)
        holder.start()

    def _busy(self) -> None:
        interval = sys.getswitchinterval()
        sys.setswitchinterval(self.seconds + 3)
        try:
            begin = time.monotonic()
            while time.monotonic() < begin + self.seconds:
                pass
            self.held.append(time.monotonic() - begin)
        finally:
            sys.setswitchinterval(interval)


def _one_case(url: str, stall_s: float = 0.0) -> tuple[Execution, float, list[float]]:
    """One case with a one-second deadline; with ``stall_s``, a thread of this process holds
    the GIL that long from just after the case is sent. The execution, the seconds the client
    saw stalled and how long the GIL was held."""
    transport = _Stalling(stall_s)

    async def go() -> tuple[Execution, float]:
        async with HarnessClient(url, ONE_SECOND, transport) as client:
            _, execution = await client.run(CASE)
            return execution, client.stalled_s

    execution, stalled = asyncio.run(go())
    for holder in transport.holders:
        holder.join(timeout=30)
    return execution, stalled, transport.held


def test_a_case_is_not_charged_for_the_engine_stalling() -> None:
    """The harness answers after 1.5 s, a case has 1 s: a timeout. The same case while this
    process cannot run for 2 s of it (from just after it is sent) is answered: the
    harness used its 1.5 s, and the engine's own 2 s are not counted against it."""
    with harness("slow", "--delay-ms", "1500") as url:
        late, _, _ = _one_case(url)
        assert late.outcome == "timeout" and late.attempts[0].outcome == "timeout"
        answered, stalled, held = _one_case(url, stall_s=2.0)
    assert held and held[0] >= 2.0  # the stall happened, with the case in flight
    assert answered.outcome == "ok", answered
    assert stalled >= 1.0  # 2 s held, less the 0.25 s of jitter allowed, seen by the watch


def test_a_5xx_reply_says_why_in_its_attempts() -> None:
    """A harness answering 500 with a body: every attempt's detail holds the start of it, so a
    transcript says why the harness failed, not only that it did."""
    limits = ClientLimits(run_deadline_s=5.0, backoff_s=(0.05, 0.05))

    async def go(url: str) -> Execution:
        async with HarnessClient(url, limits) as client:
            return (await client.run(CASE))[1]

    with harness("error500") as url:
        execution = asyncio.run(go(url))
    assert execution.outcome == "http_error" and len(execution.attempts) == 3
    assert [(a.http_status, a.detail) for a in execution.attempts] == [
        (500, '{"error": "boom"}')
    ] * 3
