"""The observed tool endpoint: a loopback HTTP server that answers a harness's tool calls from
``mocktools`` and records every call per case, in arrival order.

Its URL carries a per-run secret (``http://127.0.0.1:<port>/t/<token>/tool``, the token drawn from
``secrets``, never from the seed) that only the harness is told in ``RunRequest.tool_endpoint``;
any other path gets 404, so another local process cannot add calls to a running case. Only cases
currently in flight accept calls; a call naming any other case id gets 404 and is not recorded,
so a harness cannot earn credit for one case while answering another. A harness names a case by
the id it was shown (``RunRequest.case_id``, keyed by the run's nonce: ``spec.wireids``); the
engine opens, resets and closes cases by their dataset ids. Memory cases are open too,
so a tool call made while answering a memory question is seen. Bodies over 64 KiB get 413; bodies
that are not a ``ToolExecRequest`` (or nest deeper than ``repair.MAX_DEPTH``) get 400; calls
beyond ``CALLS_PER_CASE`` for one case get 429 and are not recorded.

Neighbours cannot starve it: at most ``max_connections()`` connections are open at once (a new
one beyond that evicts the oldest connection not in the middle of a request), and a connection
that has not delivered a whole request within ``REQUEST_TIMEOUT_S`` (headers and body, counted
from connecting or from the previous reply) is cut. docs/engine.md, "Hostile harnesses and
neighbours".
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import socket
import time
from types import FrameType
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from dittobench.mocktools import execute
from dittobench.packs import Replies
from dittobench.spec import repair
from dittobench.spec.codec import DecodeError, loads
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.transcript import safe_text
from dittobench.spec.wire import ToolCall, ToolExecRequest, ToolExecResponse, to_wire
from dittobench.spec.wireids import WireIds

BODY_LIMIT = 64 * 1024
CALLS_PER_CASE = repair.CALLS_KEPT
"""Calls recorded for one case; beyond it a harness gets 429, so a runaway loop cannot grow the
transcript without bound (the grader's efficiency factor has long since saturated)."""
MEMORY_CASE_ERROR = "no tools are served while answering a memory question"
MAX_CONNECTIONS = 256
"""Connections open at once, at most (lower when the process may open few files)."""
REQUEST_TIMEOUT_S = 5.0
"""A connection must deliver a whole request within this long of connecting or of its previous
reply (the idle keep-alive limit too); a slow sender is cut."""
HEAD_LIMIT = 64 * 1024
"""The most bytes a connection may send while its request's headers are still incomplete."""
ACCEPT_BACKLOG = 32
"""The listen backlog, which is also the most connections accepted in one burst."""
TOKEN_BYTES = 32


class ToolEndpoint:
    def __init__(
        self,
        dataset: Dataset,
        content_version: str,
        host: str = "127.0.0.1",
        ids: WireIds | None = None,
        replies: Replies | None = None,
    ) -> None:
        self._seed = dataset.seed
        self._replies = replies
        """The run's pack's reply words (``Shown.replies``); None: the default public pack's."""
        self._ids = ids or WireIds()
        # The run's secret: unguessable, and known only to this process and the harness.
        self._token = secrets.token_urlsafe(TOKEN_BYTES)
        self._version = content_version
        self._host = host
        fixtures = {f.case_id: f for f in dataset.tool_fixtures}
        self._tool_cases: dict[str, tuple[ToolCase, ToolFixture]] = {
            c.id: (c, fixtures[c.id]) for c in dataset.tool_cases
        }
        self._open: dict[str, list[ToolCall]] = {}
        """The calls of each case in flight, by dataset id."""
        self._shown: dict[str, str] = {}
        """The wire id of each case in flight -> its dataset id."""
        self._server: _PromptServer | None = None
        self._task: asyncio.Task[None] | None = None
        self.url = ""
        """The URL told to the harness, secret included; empty until started."""
        self.public_url = ""
        """The same URL without its secret, safe to show or store."""
        self.app = Starlette(
            routes=[Route("/t/{token}/tool", self._handle, methods=["GET", "POST"])]
        )

    def open_case(self, case_id: str) -> None:
        """Accept calls for the case (its dataset id) under the id its harness is shown."""
        self._open[case_id] = []
        self._shown[self._ids.case(case_id)] = case_id

    def has_calls(self, case_id: str) -> bool:
        """Whether the case (in flight) has made a call: every call it makes counts, so an
        attempt that made one is not retried."""
        return bool(self._open.get(case_id))

    def close_case(self, case_id: str) -> tuple[ToolCall, ...]:
        """Stop accepting calls for the case and return what it called, in arrival order."""
        self._shown.pop(self._ids.case(case_id), None)
        return tuple(self._open.pop(case_id, []))

    async def start(self) -> str:
        config = uvicorn.Config(
            self.app,
            host=self._host,
            port=0,
            log_level="warning",
            lifespan="off",
            access_log=False,
            http=_guarded_protocol(),
            timeout_keep_alive=int(REQUEST_TIMEOUT_S),
            # asyncio accepts up to ``backlog`` connections in one go before any of them is
            # seen (uvicorn's default is 2048): that burst, not the cap, would exhaust files.
            backlog=ACCEPT_BACKLOG,
        )
        self._server = _PromptServer(config)
        self._task = asyncio.create_task(self._server.serve())
        while not self._server.started:
            if self._task.done():
                self._task.result()  # surfaces the start-up error
            await asyncio.sleep(0.01)
        port = self._server.servers[0].sockets[0].getsockname()[1]
        self.public_url = f"http://{self._host}:{port}/tool"
        self.url = f"http://{self._host}:{port}/t/{self._token}/tool"
        return self.url

    async def stop(self) -> None:
        if self._server is not None and self._task is not None:
            self._server.stop()
            # asyncio.wait, not ``await task``: a cancelled caller must stay cancelled.
            await asyncio.wait({self._task})
            if not self._task.cancelled():
                self._task.result()  # surfaces a server failure

    async def _handle(self, request: Request) -> Response:
        given = str(request.path_params["token"]).encode("utf-8", "replace")
        if not hmac.compare_digest(given, self._token.encode()):
            return JSONResponse({"error": "not found"}, status_code=404)
        if request.method == "GET":
            return Response(status_code=204)  # a harness's reachability check
        try:
            body = await _read_limited(request)
        except ClientDisconnect:
            return Response(status_code=400)  # the harness went away mid-request
        if body is None:
            return JSONResponse({"error": "request body over 64 KiB"}, status_code=413)
        try:
            call = repair.tool_exec_request(loads(body, "tool call"))
        except DecodeError as exc:
            return JSONResponse({"error": safe_text(str(exc))}, status_code=400)
        case_id = self._shown.get(call.case_id, "")
        calls = self._open.get(case_id)
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
        return JSONResponse(to_wire(self._answer(case_id, call, earlier)))

    def _answer(self, case_id: str, call: ToolExecRequest, earlier: list[str]) -> ToolExecResponse:
        known = self._tool_cases.get(case_id)
        if known is None:
            return ToolExecResponse(result="", error=MEMORY_CASE_ERROR)
        case, fixture = known
        return execute(
            self._seed, self._version, case, fixture, call.name, call.args, earlier, self._replies
        )


def max_connections() -> int:
    """``MAX_CONNECTIONS``, or an eighth of the process's open-file limit when that is lower, so
    a crowd of connections can never exhaust the engine's file handles (connections are counted
    only once the event loop sees them, a few accept bursts after they are made)."""
    try:
        import resource
    except ImportError:
        return MAX_CONNECTIONS
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft <= 0:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, soft // 8))


_QUIET = logging.getLogger("dittobench.engine.tool_endpoint")
"""What the endpoint's HTTP layer logs through: errors only, so malformed requests from a
neighbour ("Invalid HTTP request received.") never flood stderr."""
_QUIET.setLevel(logging.ERROR)


def _http_protocol() -> type[Any]:
    """uvicorn's HTTP protocol: httptools when present, else h11."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return H11Protocol
    return HttpToolsProtocol


def _guarded_protocol() -> type[Any]:
    """uvicorn's HTTP protocol (httptools when present, else h11) with the endpoint's limits:
    a cap on open connections and a deadline for each request to arrive in full."""
    base: type[Any] = _http_protocol()
    cap = max_connections()

    class Guarded(base):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.logger = _QUIET
            self._since = time.monotonic()
            self._head_bytes = 0
            self._deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()
            _shed(self, cap)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            # The parser keeps a request's header lines until the head is complete: a head that
            # keeps growing (a flood of header lines) is cut before it can fill memory.
            if _heading(self) and not self.transport.is_closing():
                self._head_bytes += len(data)
                if self._head_bytes > HEAD_LIMIT:
                    self.transport.abort()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._since = time.monotonic()
            self._head_bytes = 0
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(REQUEST_TIMEOUT_S, self._expire)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            # A request whose body has fully arrived is being answered: its reply re-arms.
            if _waiting(self) and not self.transport.is_closing():
                self.transport.abort()

    return Guarded


def _shed(newest: Any, cap: int) -> None:
    """Over ``cap`` open connections, cut the one idle longest (or ``newest`` when none is
    idle). Connections already cut stay in the set until the loop gets round to them (a whole
    burst of accepts comes first), so only open ones count."""
    live = [c for c in newest.connections if not c.transport.is_closing()]
    if len(live) > cap:
        idle = [c for c in live if c is not newest and _waiting(c)]
        victim = min(idle, key=lambda c: c._since) if idle else newest
        victim.transport.abort()


def _heading(connection: Any) -> bool:
    """The connection's next request has not finished its headers yet."""
    cycle = connection.cycle
    return cycle is None or cycle.response_complete


def _waiting(connection: Any) -> bool:
    """The connection is not in the middle of answering a whole request: it is idle, or its
    request's headers or body are still arriving."""
    cycle = connection.cycle
    return cycle is None or cycle.response_complete or cycle.more_body


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
