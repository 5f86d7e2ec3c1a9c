"""Abuse limits: a per-client sliding-window rate limit, and a request-body guard (size cap,
a deadline for the whole body, bounded JSON nesting).

The rate limit counts accepted requests only (a refused one does not push the window on) and
answers 429 with ``Retry-After``: the seconds until the oldest counted request leaves the window.
A client is its token's name when it has one, else its address (``X-Forwarded-For`` is believed
only from ``trusted_proxies``, which uvicorn handles). Slow clients are bounded by uvicorn's
settings (idle keep-alive, request-head size, connection count) and by the body deadline here.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_CLIENTS = 100_000
"""Clients remembered per limiter; the least recently seen is forgotten beyond."""


class SlidingWindow:
    """At most ``limit`` accepted hits per client in any ``window_s`` seconds."""

    def __init__(
        self, limit: int, window_s: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit, self.window_s, self._clock = limit, window_s, clock
        self._hits: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def hit(self, client: str) -> int:
        """0 when the hit is accepted (and counted), else the seconds to wait (at least 1)."""
        now = self._clock()
        with self._lock:
            hits = self._hits.pop(client, None) or deque()
            while hits and hits[0] <= now - self.window_s:
                hits.popleft()
            self._hits[client] = hits
            if len(self._hits) > MAX_CLIENTS:
                self._hits.popitem(last=False)
            if len(hits) >= self.limit:
                return max(1, math.ceil(hits[0] + self.window_s - now))
            hits.append(now)
            return 0


class BodyGuard:
    """Reads a request's whole body before the app sees it: 413 beyond ``max_bytes`` (by
    ``Content-Length`` at once, else as it arrives), 408 when it has not all come within
    ``timeout_s``, 400 for JSON nested deeper than ``max_depth``. ``larger`` gives some paths a
    cap of their own (a submitted source archive)."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        timeout_s: float,
        max_depth: int,
        larger: dict[str, int] | None = None,
    ) -> None:
        self.app, self.max_bytes, self.timeout_s, self.max_depth = (
            app,
            max_bytes,
            timeout_s,
            max_depth,
        )
        self.larger = larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        cap = self.larger.get(scope["path"], self.max_bytes)
        declared = _content_length(scope)
        if declared is not None and declared > cap:
            await error(send, 413, f"the request body is over {cap} bytes")
            return
        try:
            async with asyncio.timeout(self.timeout_s):
                body = await self._read(receive, cap)
        except TimeoutError:
            await error(send, 408, f"the request body did not arrive within {self.timeout_s:g} s")
            return
        if body is None:
            await error(send, 413, f"the request body is over {cap} bytes")
            return
        if json_depth(body) > self.max_depth:
            await error(send, 400, f"the JSON body is nested deeper than {self.max_depth} levels")
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive, cap: int) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"".join(chunks)
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > cap:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def json_depth(body: bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``body`` outside strings (no parsing)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


async def error(
    send: Send, status: int, message: str, headers: dict[str, str] | None = None
) -> None:
    """Answer ``{"error": message}`` with ``status`` straight from ASGI."""
    import json

    body = json.dumps({"error": message}).encode()
    extra = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *extra,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


__all__ = ["MAX_CLIENTS", "BodyGuard", "SlidingWindow", "error", "json_depth"]
