"""Abuse limits: a per-client sliding-window rate limit, and a request-body guard (size cap,
a deadline for the whole body, bounded JSON nesting, and a budget of refusals).

The rate limit counts accepted requests only (a refused one does not push the window on) and
answers 429 with ``Retry-After``: the seconds until the oldest counted request leaves the window.
A client is its token's name when it has one, else its address (``X-Forwarded-For`` is believed
only from ``trusted_proxies``, which uvicorn handles; an IPv6 address counts as its /64, which
one host usually holds whole). Slow and numerous connections are bounded below the app
(``service/connections.py``: per-address connections, the head's deadline and size), slow
bodies by the body deadline here.

Refusals cost the service too (a 5.6 MB body read and parsed to be refused 413 slowed another
submitter's polls from 8 ms to over a second, issue 29), so the body guard counts each client's
refused requests with a body and, beyond ``refusal_limit`` a window, answers its requests with a
body 429 without reading them.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_CLIENTS = 100_000
"""Clients remembered per limiter; the least recently seen is forgotten beyond."""
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
REFUSED = frozenset({400, 408, 413, 429})
"""The answers that count against a client's refusal budget (``refusal_limit``)."""


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

    def wait(self, client: str) -> int:
        """The seconds ``client`` must wait before a hit would be accepted (0: none); counts
        nothing."""
        now = self._clock()
        with self._lock:
            hits = self._hits.get(client)
            if not hits:
                return 0
            while hits and hits[0] <= now - self.window_s:
                hits.popleft()
            if len(hits) < self.limit:
                return 0
            return max(1, math.ceil(hits[0] + self.window_s - now))


def address_key(host: str) -> str:
    """The address a per-address limit counts: an IPv4 address as it is (an IPv4-mapped IPv6
    one as its IPv4 address), an IPv6 address as its /64, anything else as given."""
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def client_of(scope: Scope) -> str:
    """Who a per-client limit counts: ``token:NAME`` for an authenticated caller (the auth
    middleware put it in the scope's state), else ``address:ADDRESS``."""
    principal = scope.get("state", {}).get("principal")
    if principal is not None and getattr(principal, "authenticated", False):
        return f"token:{principal.name}"
    host = (scope.get("client") or ("unknown", 0))[0]
    return f"address:{address_key(str(host))}"


class BodyGuard:
    """Reads a request's whole body before the app sees it: 413 beyond ``max_bytes`` (by
    ``Content-Length`` at once, else as it arrives), 408 when it has not all come within
    ``timeout_s``, 400 for JSON nested deeper than ``max_depth``. ``larger`` gives some paths a
    cap of their own (a submitted source archive). With ``refusals``, every answer in
    ``REFUSED`` to a request with a body counts against its client, and a client over that
    budget is answered 429 before its body is read (``CloseUnread`` then ends the connection,
    so the rest is never read either)."""

    def __init__(
        self,
        app: ASGIApp,
        max_bytes: int,
        timeout_s: float,
        max_depth: int,
        larger: dict[str, int] | None = None,
        refusals: SlidingWindow | None = None,
    ) -> None:
        self.app, self.max_bytes, self.timeout_s, self.max_depth = (
            app,
            max_bytes,
            timeout_s,
            max_depth,
        )
        self.larger = larger or {}
        self.refusals = refusals

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in BODY_METHODS:
            await self.app(scope, receive, send)
            return
        client = client_of(scope)
        if self.refusals is not None:
            wait = self.refusals.wait(client)
            if wait:
                message = (
                    f"too many refused requests: at most {self.refusals.limit} per "
                    f"{self.refusals.window_s:g} s; try again in {wait} s"
                )
                await error(send, 429, message, {"Retry-After": str(wait)})
                return
        status = 0

        async def watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        await self._guard(scope, receive, watched)
        if self.refusals is not None and status in REFUSED:
            self.refusals.hit(client)

    async def _guard(self, scope: Scope, receive: Receive, send: Send) -> None:
        cap = self.larger.get(scope["path"], self.max_bytes)
        declared = _content_length(scope)
        if declared is not None and declared > cap:
            await error(send, 413, f"the request body is over {cap} bytes")
            return
        try:
            async with asyncio.timeout(self.timeout_s):
                body = await self._read(receive, cap)
        except TimeoutError:
            message = f"the request body did not arrive within {self.timeout_s:g} s"
            await error(send, 408, message)
            return
        if body is None:
            await error(send, 413, f"the request body is over {cap} bytes")
            return
        refused = nesting_error(body, self.max_depth, self.max_bytes)
        if refused:
            await error(send, 400, refused)
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


class CloseUnread:
    """A response given before its request's body has all come in (a refusal: 401, 413, 429 and
    the like) says ``Connection: close``, and uvicorn ends the connection with it. Otherwise
    uvicorn would read the rest of the body only to throw it away: a flood of 5 MB bodies
    refused unread still cost a core. Clients that send ``Expect: 100-continue`` learn of the
    refusal before sending the body."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _has_body(scope):
            await self.app(scope, receive, send)
            return
        complete = False

        async def reading() -> Message:
            nonlocal complete
            message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                complete = True
            return message

        async def answering(message: Message) -> None:
            if message["type"] == "http.response.start" and not complete:
                headers = [(k, v) for k, v in message.get("headers", []) if k != b"connection"]
                message = {**message, "headers": [*headers, (b"connection", b"close")]}
            await send(message)

        await self.app(scope, reading, answering)


def _has_body(scope: Scope) -> bool:
    for name, value in scope["headers"]:
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() != b"0"):
            return True
    return False


def nesting_error(body: bytes, max_depth: int, scan_up_to: int) -> str:
    """Why ``body`` nests too deep to be parsed, or "". Counting brackets is a C-speed pass and
    settles almost every body (an upper bound on the depth); only a body with more brackets is
    scanned, and only when it is at most ``scan_up_to`` bytes: a larger body is an archive's,
    one string and a few brackets, so one with many is refused unscanned."""
    brackets = body.count(b"[") + body.count(b"{")
    if brackets <= max_depth:
        return ""
    if len(body) > scan_up_to:
        return (
            f"a body over {scan_up_to} bytes may hold at most {max_depth} brackets "
            "(only a source archive's body is that large)"
        )
    if json_depth(body, stop_above=max_depth) > max_depth:
        return f"the JSON body is nested deeper than {max_depth} levels"
    return ""


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


def json_depth(body: bytes, stop_above: int | None = None) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``body`` outside strings (no parsing); with
    ``stop_above``, the scan stops as soon as the depth passes it."""
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
            if depth > deepest:
                deepest = depth
                if stop_above is not None and deepest > stop_above:
                    return deepest
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


async def error(
    send: Send, status: int, message: str, headers: dict[str, str] | None = None
) -> None:
    """Answer ``{"error": message}`` with ``status`` straight from ASGI."""
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


__all__ = [
    "BODY_METHODS",
    "MAX_CLIENTS",
    "REFUSED",
    "BodyGuard",
    "CloseUnread",
    "SlidingWindow",
    "address_key",
    "client_of",
    "error",
    "json_depth",
    "nesting_error",
]
