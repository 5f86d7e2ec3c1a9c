"""The observed tool endpoint: a loopback HTTP server that answers a harness's tool calls from
``mocktools`` and records every call per case, in arrival order.

Only cases currently in flight accept calls; a call naming any other case id gets 404 and is not
recorded, so a harness cannot earn credit for one case while answering another. Memory cases are
open too, so a tool call made while answering a memory question is seen. Bodies over 64 KiB get
413; bodies that are not a ``ToolExecRequest`` get 400; calls beyond ``CALLS_PER_CASE`` for one
case get 429 and are not recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from types import FrameType

import uvicorn
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from dittobench.mocktools import execute
from dittobench.spec.codec import DecodeError, decode, loads
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.wire import ToolCall, ToolExecRequest, ToolExecResponse, to_wire

BODY_LIMIT = 64 * 1024
CALLS_PER_CASE = 200
"""Calls recorded for one case; beyond it a harness gets 429, so a runaway loop cannot grow the
transcript without bound (the grader's efficiency factor has long since saturated)."""
MEMORY_CASE_ERROR = "no tools are served while answering a memory question"


class ToolEndpoint:
    def __init__(self, dataset: Dataset, content_version: str, host: str = "127.0.0.1") -> None:
        self._seed = dataset.seed
        self._version = content_version
        self._host = host
        fixtures = {f.case_id: f for f in dataset.tool_fixtures}
        self._tool_cases: dict[str, tuple[ToolCase, ToolFixture]] = {
            c.id: (c, fixtures[c.id]) for c in dataset.tool_cases
        }
        self._open: dict[str, list[ToolCall]] = {}
        self._server: _PromptServer | None = None
        self._task: asyncio.Task[None] | None = None
        self.url = ""
        self.app = Starlette(routes=[Route("/tool", self._handle, methods=["GET", "POST"])])

    def open_case(self, case_id: str) -> None:
        self._open[case_id] = []

    def reset_case(self, case_id: str) -> None:
        """Forget the calls of a failed attempt: a retried case is judged on its last attempt."""
        if case_id in self._open:
            self._open[case_id] = []

    def close_case(self, case_id: str) -> tuple[ToolCall, ...]:
        """Stop accepting calls for the case and return what it called, in arrival order."""
        return tuple(self._open.pop(case_id, []))

    async def start(self) -> str:
        config = uvicorn.Config(
            self.app, host=self._host, port=0, log_level="warning", lifespan="off", access_log=False
        )
        self._server = _PromptServer(config)
        self._task = asyncio.create_task(self._server.serve())
        while not self._server.started:
            if self._task.done():
                self._task.result()  # surfaces the start-up error
            await asyncio.sleep(0.01)
        port = self._server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://{self._host}:{port}/tool"
        return self.url

    async def stop(self) -> None:
        if self._server is not None and self._task is not None:
            self._server.stop()
            # asyncio.wait, not ``await task``: a cancelled caller must stay cancelled.
            await asyncio.wait({self._task})
            if not self._task.cancelled():
                self._task.result()  # surfaces a server failure

    async def _handle(self, request: Request) -> Response:
        if request.method == "GET":
            return Response(status_code=204)  # a harness's reachability check
        try:
            body = await _read_limited(request)
        except ClientDisconnect:
            return Response(status_code=400)  # the harness went away mid-request
        if body is None:
            return JSONResponse({"error": "request body over 64 KiB"}, status_code=413)
        try:
            call = decode(ToolExecRequest, loads(body, "tool call"))
        except DecodeError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        calls = self._open.get(call.case_id)
        if calls is None:
            return JSONResponse(
                {"error": f"no case {call.case_id!r} is in flight"}, status_code=404
            )
        if len(calls) >= CALLS_PER_CASE:
            return JSONResponse(
                {"error": f"case {call.case_id!r} has made {CALLS_PER_CASE} tool calls; no more"},
                status_code=429,
            )
        earlier = [c.name for c in calls]
        calls.append(ToolCall(call.name, call.args, call.hop))
        return JSONResponse(to_wire(self._answer(call, earlier)))

    def _answer(self, call: ToolExecRequest, earlier: list[str]) -> ToolExecResponse:
        known = self._tool_cases.get(call.case_id)
        if known is None:
            return ToolExecResponse(result="", error=MEMORY_CASE_ERROR)
        case, fixture = known
        return execute(self._seed, self._version, case, fixture, call.name, call.args, earlier)


class _PromptServer(uvicorn.Server):
    """uvicorn that stops the moment it is told. Its own loop polls for the exit flag every
    0.1 s and its shutdown sleeps another 0.1 s for connections to drain; every run (and every
    test that runs one) would pay those 0.2 s. The endpoint is stopped only once no case is in
    flight, so nothing a harness still has open is worth waiting for."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._stopping = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def stop(self) -> None:
        self.should_exit = True
        self._stopping.set()

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        # Ctrl-C while serving lands here (uvicorn holds SIGINT until it returns); wake the loop
        # so the server stops and uvicorn hands the signal on to the run.
        super().handle_exit(sig, frame)
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)

    async def main_loop(self) -> None:
        self._loop = asyncio.get_running_loop()
        counter = 0
        while not await self.on_tick(counter):  # refreshes the Date header when counter % 10 == 0
            counter += 10
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), 1.0)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        # Idle keep-alive connections and requests a harness never finished sending are cut
        # off, not waited for (from Python 3.12 wait_closed waits for every connection).
        for connection in list(self.server_state.connections):
            connection.transport.abort()
        tasks = list(self.server_state.tasks)
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=1.0)
            for task in late:
                task.cancel()
        for server in self.servers:
            await server.wait_closed()


async def _read_limited(request: Request) -> bytes | None:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > BODY_LIMIT:
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > BODY_LIMIT:
            return None
        chunks.append(chunk)
    return b"".join(chunks)
