"""The scoring service's limits below the app: uvicorn's h11 protocol with a cap on the
connections open at once from one client address, a deadline for each request head, and an
exact cap on a head's size.

uvicorn bounds only the connections of the whole server (``limit_concurrency``: a 503 to
everyone beyond it) and never times out a head that keeps trickling in (its keep-alive timer
restarts with every byte), so 530 connections from one address, each sending a byte every 2 s,
gave every other client a 503 (issue 29). Here:

- at most ``max_connections_per_address`` connections are open at once from one address (an
  IPv6 address counts as its /64, which one host usually holds whole); one more is answered 503
  and closed at once, before anything it sent is read, and never counts towards
  ``max_connections``. A peer in ``trusted_proxies`` is not capped: its connections carry many
  clients, so the proxy must cap them (docs/deploy.md);
- a connection must send a whole request head within ``header_timeout_s`` of connecting or of
  its previous response, or it is closed (after a 408 when part of a head had come);
- a request head (request line, header lines and the blank line) over ``max_header_bytes`` is
  answered 431 and the connection closed. h11's own limit counts only a head still incomplete
  in its buffer, so a head that arrived in two reads passed up to about twice the limit; here the
  bytes h11 consumes for each head are counted as well.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.utils import get_remote_addr

from dittobench.service.limits import address_key
from dittobench.service.settings import ServiceSettings


def trusted_peers(entries: list[str]) -> Callable[[str], bool]:
    """Whether a peer is one of ``trusted_proxies``: addresses, networks (``10.0.0.0/8``) or
    ``*``, as uvicorn reads them for ``X-Forwarded-For``; anything else must match as written."""
    if "*" in entries:
        return lambda _host: True
    networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
    literals: set[str] = set()
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            literals.add(entry.strip())

    def trusted(host: str) -> bool:
        if host in literals:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in networks)

    return trusted


class PeerCounts:
    """Connections open per client address. Used from the event loop alone: no lock."""

    def __init__(self, cap: int, exempt: Callable[[str], bool]) -> None:
        self.cap, self._exempt = cap, exempt
        self._open: dict[str, int] = {}

    def admit(self, host: str | None) -> str | None:
        """Count a new connection from ``host``: the key to give back when it ends ("" for a
        peer that is not counted: a trusted proxy, or no address at all), or None when the
        address already has ``cap`` open."""
        if host is None or self._exempt(host):
            return ""
        key = address_key(host)
        held = self._open.get(key, 0)
        if held >= self.cap:
            return None
        self._open[key] = held + 1
        return key

    def release(self, key: str) -> None:
        if not key:
            return
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)

    def open_from(self, host: str) -> int:
        return self._open.get(address_key(host), 0)


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    peers: PeerCounts
    head_bytes: int
    head_timeout_s: float


class MeasuredConnection(h11.Connection):
    """h11's server side, refusing a request head over ``cap`` bytes however its bytes came:
    h11 checks only what is still incomplete in its buffer, so the bytes each head takes out of
    the buffer are counted too."""

    def __init__(self, cap: int) -> None:
        super().__init__(h11.SERVER, max_incomplete_event_size=cap)
        self.cap = cap
        self.head_too_large = False

    def next_event(self) -> h11.Event | type[h11.NEED_DATA] | type[h11.PAUSED]:
        before = len(self._receive_buffer)
        try:
            event = super().next_event()
        except h11.RemoteProtocolError as exc:
            self.head_too_large = exc.error_status_hint == 431
            raise
        if isinstance(event, h11.Request) and before - len(self._receive_buffer) > self.cap:
            self.head_too_large = True
            raise h11.RemoteProtocolError("request head too large", error_status_hint=431)
        return event


def answer(status: int, message: str, headers: dict[str, str] | None = None) -> bytes:
    """A whole HTTP/1.1 response, ``{"error": message}``, that closes the connection: written
    straight to the socket, outside h11 (which has no request to answer yet)."""
    body = json.dumps({"error": message}).encode()
    lines = [
        f"HTTP/1.1 {status} {_REASONS.get(status, '')}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
        *(f"{name}: {value}" for name, value in (headers or {}).items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


_REASONS = {
    408: "Request Timeout",
    431: "Request Header Fields Too Large",
    503: "Service Unavailable",
}


def _heading(protocol: H11Protocol) -> bool:
    """The connection's next request has not finished its head: none yet, or the last one is
    answered."""
    cycle = protocol.cycle
    return cycle is None or cycle.response_complete


class ServiceProtocol(H11Protocol):
    """uvicorn's h11 protocol under ``limits`` (set on the subclass ``service_protocol``
    makes)."""

    limits: ClassVar[ConnectionLimits]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.conn = MeasuredConnection(self.limits.head_bytes)
        self._peer: str | None = None
        """The key counted for this connection; None when it was refused (or is over)."""
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_begun = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        client = get_remote_addr(transport)
        key = self.limits.peers.admit(client[0] if client else None)
        if key is None:
            # Refused before uvicorn sees it: it holds no slot of max_connections, and nothing
            # it sends is read.
            self.transport = transport
            cap = self.limits.peers.cap
            refusal = f"too many connections from this address: at most {cap} at once"
            transport.write(answer(503, refusal, {"retry-after": "5"}))
            transport.close()
            return
        self._peer = key
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._peer is None:
            return  # refused at once: never counted, never seen by uvicorn
        self._disarm()
        self.limits.peers.release(self._peer)
        self._peer = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._peer is None:
            return
        if _heading(self):
            self._head_begun = True
        super().data_received(data)

    def on_response_complete(self) -> None:
        # Armed first: answering may start the next pipelined request at once.
        self._arm()
        super().on_response_complete()

    def send_400_response(self, msg: str) -> None:
        if isinstance(self.conn, MeasuredConnection) and self.conn.head_too_large:
            too_large = f"the request head is over {self.limits.head_bytes} bytes"
            self.transport.write(answer(431, too_large))
            self.transport.close()
            return
        super().send_400_response(msg)

    def _arm(self) -> None:
        self._disarm()
        self._head_begun = False
        self._head_timer = self.loop.call_later(self.limits.head_timeout_s, self._expire)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _expire(self) -> None:
        self._head_timer = None
        # A request whose head is in is being answered: its response arms the timer again
        # (its body has a deadline of its own, the body guard's).
        if self.transport.is_closing() or not _heading(self):
            return
        if self._head_begun:
            late = f"the request head did not arrive within {self.limits.head_timeout_s:g} s"
            self.transport.write(answer(408, late))
        self.transport.close()


def service_protocol(settings: ServiceSettings) -> type[ServiceProtocol]:
    """The protocol class ``serve`` hands uvicorn, with the settings' limits (one count of
    connections per address for the whole server)."""
    made = ConnectionLimits(
        PeerCounts(settings.max_connections_per_address, trusted_peers(settings.trusted_proxies)),
        settings.max_header_bytes,
        settings.header_timeout_s,
    )

    class Limited(ServiceProtocol):
        limits = made

    return Limited


__all__ = [
    "ConnectionLimits",
    "MeasuredConnection",
    "PeerCounts",
    "ServiceProtocol",
    "answer",
    "service_protocol",
    "trusted_peers",
]
