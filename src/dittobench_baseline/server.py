"""The harness HTTP surface: ``GET /health``, ``POST /seed`` and ``POST /run``.

Bodies are validated with the spec's own decoder; malformed JSON, JSON nested deeper than
``MAX_DEPTH`` levels or a wrong shape is a 400 with ``{"error": ...}`` naming what is wrong, a
body over 8 MiB is a 413, and an internal failure is a 500 with a one-line ``{"error": ...}`` (the
traceback goes to the log, never to the client). Lone surrogates in request text are replaced by
"?" before anything else sees them. A ``tool_endpoint`` that is not a loopback ``http`` URL is a
400 unless the server was started with ``allow_remote_tools``. When the agent's own upstream
fails (model mode: the chat endpoint is down, times out or answers nonsense) ``/run`` replies 502
with ``{"error": "model endpoint: ..."}``, so the engine records the case as a failed delivery
rather than a wrong answer. Store and agent work runs in Starlette's thread pool, so slow tool
and model calls never block other requests.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, TypeVar
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from dittobench.spec.codec import DecodeError, decode, loads
from dittobench.spec.repair import MAX_DEPTH, repair_text, too_deep
from dittobench.spec.wire import Link, Pair, RunRequest, SeedRequest, SeedResponse, Subject, to_wire
from dittobench_baseline.agent import Agent, HttpToolCaller, OfflineAgent, ToolCaller, UpstreamError
from dittobench_baseline.store import MemoryStore

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 8 * 1024 * 1024
"""The largest request body accepted (8 MiB). The engine sends a wave over 1 MiB in parts
(``spec.wire.SEED_BYTES_LIMIT``), each an upsert of its own pairs; a full run's largest
``/seed`` is under 50 KB."""

T = TypeVar("T")

AgentFactory = Callable[[MemoryStore], Agent]
"""Builds the agent that answers ``/run`` over the server's store."""

Endpoint = Callable[[Request], Awaitable[JSONResponse]]
"""A route's handler."""


class Seeder(Protocol):
    """What ``/seed`` loads a wave into: the baseline's ``MemoryStore``, or an adapter harness's
    ledger in front of a memory system. Loading the same wave twice must change nothing, and a
    wave may come in parts (``part``/``parts``, ignored here): each is loaded as it comes.
    ``instance`` names the memory's lifetime: it changes whenever what was seeded may have
    been lost (``/health`` declares it, protocol.md "Restarts")."""

    instance: str

    def upsert(self, request: SeedRequest) -> SeedResponse: ...


class BodyTooLarge(Exception):
    pass


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            if int(declared) > limit:
                raise BodyTooLarge
        except ValueError:
            pass
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)
    return b"".join(chunks)


async def _decode(
    request: Request,
    cls: type[T],
    what: str,
    limit: int,
    fast: Callable[[Any], T | None] | None = None,
) -> T | JSONResponse:
    try:
        body = await _read_body(request, limit)
    except BodyTooLarge:
        return _error(413, f"{what}: body larger than {limit} bytes")
    if not body.strip():
        return _error(400, f"{what}: request body is empty")
    try:
        data = loads(body, what)
        if too_deep(data):
            return _error(400, f"{what}: JSON nested deeper than {MAX_DEPTH} levels")
        data = repair_text(data)
        built = fast(data) if fast is not None else None
        return built if built is not None else decode(cls, data)
    except DecodeError as exc:
        return _error(400, repair_text(str(exc)))
    except UnicodeDecodeError:
        return _error(400, f"{what}: body is not UTF-8 text")


_SEED_ITEMS: tuple[tuple[str, type[Pair | Subject | Link]], ...] = (
    ("pairs", Pair),
    ("subjects", Subject),
    ("links", Link),
)


def seed_request(data: Any) -> SeedRequest | None:
    """A ``/seed`` body of the usual shape as a ``SeedRequest``, built directly; None for any
    other (a field missing or of another type), which ``spec.codec.decode`` then reads or
    refuses, naming what is wrong. Whatever it builds, the decoder would have built the same;
    it takes a thirtieth of the decoder's time, which walks every value by its type hint and was
    a fifth of the baseline's work to seed a long history."""
    if not isinstance(data, dict):
        return None
    given: dict[str, Any] = {}
    if "user_id" in data:
        given["user_id"] = data["user_id"]
        if type(given["user_id"]) is not str:
            return None
    if "wave" in data:
        given["wave"] = data["wave"]
        if type(given["wave"]) is not int:
            return None
    for key, cls in _SEED_ITEMS:
        if key in data:
            items = _all_text(cls, data[key])
            if items is None:
                return None
            given[key] = items
    return SeedRequest(**given)


def _all_text(cls: type[T], raw: Any) -> tuple[T, ...] | None:
    """``raw`` as ``cls`` items when it is a list of objects whose every field of ``cls`` is a
    string (other keys ignored, as the decoder ignores them); None otherwise."""
    if type(raw) is not list:
        return None
    names = cls.__dataclass_fields__  # type: ignore[attr-defined]
    out = []
    for item in raw:
        if type(item) is not dict:
            return None
        values = [item.get(name) for name in names]
        if any(type(value) is not str for value in values):
            return None
        out.append(cls(*values))
    return tuple(out)


def loopback_http(url: str) -> bool:
    """``url`` is a plain ``http`` URL on this machine (``localhost`` or a loopback address)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
    except ValueError:
        return False
    if parts.scheme != "http" or not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def create_app(
    store: Seeder,
    agent: Agent,
    tool_caller: ToolCaller | None = None,
    *,
    max_body_bytes: int = MAX_BODY_BYTES,
    allow_remote_tools: bool = False,
    identity: Mapping[str, str] | None = None,
) -> Starlette:
    """The harness app. ``tool_caller`` defaults to an httpx client (closed on shutdown).
    Without ``allow_remote_tools`` a ``/run`` whose ``tool_endpoint`` is not a loopback http
    URL is refused (400), so a request cannot make the harness call out to any address.
    ``identity``: what ``/health`` declares is being measured (``spec.identity``)."""
    owned = HttpToolCaller() if tool_caller is None else None
    caller: ToolCaller = tool_caller if tool_caller is not None else owned  # type: ignore[assignment]
    health_body: dict[str, Any] = {"status": "ok", "instance": store.instance}
    if identity:
        health_body["identity"] = dict(identity)

    async def health(request: Request) -> JSONResponse:
        return JSONResponse(health_body)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if owned is not None:
                owned.close()

    async def internal(request: Request, exc: Exception) -> JSONResponse:
        # Whatever escaped a route still gets the documented one-line JSON error.
        return _error(500, "internal error")

    run = _run_route(agent, caller, max_body_bytes, allow_remote_tools)
    return Starlette(
        routes=[
            Route("/health", health, methods=["GET"]),
            Route("/seed", _seed_route(store, max_body_bytes), methods=["POST"]),
            Route("/run", run, methods=["POST"]),
        ],
        lifespan=lifespan,
        exception_handlers={Exception: internal},
    )


def _seed_route(store: Seeder, max_body_bytes: int) -> Endpoint:
    """``POST /seed``: the sessions go into ``store``; a failing memory system is a 502."""

    async def seed(request: Request) -> JSONResponse:
        parsed = await _decode(request, SeedRequest, "seed request", max_body_bytes, seed_request)
        if isinstance(parsed, JSONResponse):
            return parsed
        try:
            loaded = await run_in_threadpool(store.upsert, parsed)
        except UpstreamError as exc:  # an adapter's memory system failed: retryable
            log.warning("seed failed: %s", exc)
            return _error(502, " ".join(str(exc).split())[:500])
        except Exception:
            log.exception("seed failed")
            return _error(500, "internal error while seeding")
        return JSONResponse(to_wire(loaded))

    return seed


def _run_route(
    agent: Agent, caller: ToolCaller, max_body_bytes: int, allow_remote_tools: bool
) -> Endpoint:
    """``POST /run``: ``agent`` answers one case, calling tools through ``caller``; a
    ``tool_endpoint`` off this machine is refused unless ``allow_remote_tools``."""

    async def run(request: Request) -> JSONResponse:
        parsed = await _decode(request, RunRequest, "run request", max_body_bytes)
        if isinstance(parsed, JSONResponse):
            return parsed
        endpoint = parsed.tool_endpoint
        if endpoint and not allow_remote_tools and not loopback_http(endpoint):
            return _error(
                400,
                f"run request: tool_endpoint {endpoint[:200]!r} is not a loopback http URL "
                "(start the harness with --allow-remote-tools to call other hosts)",
            )
        try:
            reply = await run_in_threadpool(agent.answer, parsed, caller)
        except UpstreamError as exc:
            log.warning("run failed for case %s: %s", parsed.case_id, exc)
            return _error(502, " ".join(str(exc).split())[:500])
        except Exception:
            log.exception("run failed for case %s", parsed.case_id)
            return _error(500, "internal error while running the case")
        # The agent's text comes from the request and the store: keep it encodable.
        return JSONResponse(repair_text(to_wire(reply)))

    return run


def bind(host: str, port: int) -> socket.socket:
    """A listening-ready TCP socket on ``host:port`` (port 0 picks a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit it: a reply's headers and body leave at once instead of the
    # body waiting for the client's delayed ACK (about 40 ms a request).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


class _Server(uvicorn.Server):
    """A uvicorn server that calls ``on_ready`` once it is accepting connections."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], None] | None) -> None:
        super().__init__(config)
        self._on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and self._on_ready is not None:
            self._on_ready()


def make_server(
    app: Any, sock: socket.socket, on_ready: Callable[[], None] | None = None
) -> uvicorn.Server:
    """A uvicorn server for ``app`` on an already bound socket (run it with
    ``server.run(sockets=[sock])``)."""
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, ws="none", lifespan="on", timeout_keep_alive=30
    )
    return _Server(config, on_ready)


def serve(
    host: str = "127.0.0.1",
    port: int = 8080,
    db_path: str | Path = ":memory:",
    agent_factory: AgentFactory | None = None,
    allow_remote_tools: bool = False,
) -> None:
    """Serve the baseline harness until interrupted, printing ``listening on http://HOST:PORT``
    (the real port when ``port`` is 0) once it accepts connections.

    ``agent_factory`` chooses the agent (default: ``OfflineAgent``); an agent with a ``close()``
    method is closed on the way out. ``allow_remote_tools`` lets a run's ``tool_endpoint`` be
    any URL (by default only loopback http URLs are called)."""
    store = MemoryStore(db_path)
    agent: Agent | None = None
    try:
        agent = (agent_factory or OfflineAgent)(store)
        serve_app(host, port, create_app(store, agent, allow_remote_tools=allow_remote_tools))
    finally:
        close = getattr(agent, "close", None)
        if callable(close):
            close()
        store.close()


def serve_app(host: str, port: int, app: Any) -> None:
    """Serve a harness app until interrupted, printing ``listening on http://HOST:PORT`` (the
    real port when ``port`` is 0) once it accepts connections."""
    sock = bind(host, port)
    try:
        real_port = sock.getsockname()[1]
        shown = f"[{host}]" if ":" in host else host

        def ready() -> None:
            print(f"listening on http://{shown}:{real_port}", flush=True)

        make_server(app, sock, ready).run(sockets=[sock])
    finally:
        sock.close()
        sys.stdout.flush()


__all__ = [
    "MAX_BODY_BYTES",
    "AgentFactory",
    "Seeder",
    "bind",
    "create_app",
    "loopback_http",
    "make_server",
    "seed_request",
    "serve",
    "serve_app",
]
