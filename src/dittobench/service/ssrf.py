"""The SSRF guard: the service dials only public addresses a caller names.

Every harness URL is checked when it is submitted and again when its run starts
(``check_url``): ``http`` or ``https`` only, a host, no credentials, and the host either a
canonical IP literal or a name whose every resolved address is public. Refused: loopback,
private (RFC 1918), unique-local ``fc00::/7``, link-local (``169.254/16`` with the metadata
address ``169.254.169.254``, ``fe80::/10``), CGNAT ``100.64/10``, multicast, reserved,
unspecified, broadcast, documentation and benchmarking ranges, IPv4-mapped and -compatible IPv6,
NAT64 (``64:ff9b::/96``, ``64:ff9b:1::/48``), 6to4 and Teredo wrapping a refused IPv4 address,
and any other address Python does not call global. IPv4 written any way but the dotted quad
(``2130706433``, ``0x7f.1``, ``0177.0.0.1``, ``127.1``) is refused outright: resolvers read those
spellings differently, and none is needed.

``GuardedBackend`` (with ``guarded_transport``) applies the same rule when a connection is
made: it resolves the name itself, refuses if any address is not public, connects to the checked
address (so a name that answers a public address first and loopback later, DNS rebinding, gets
no second answer), and checks the connected peer again before any byte is sent. Redirects are
never followed by the engine's client. docs/service.md, "SSRF rules".
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Iterable
from typing import Any

import anyio
import httpcore
import httpx

from dittobench.core.errors import DittobenchError

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Resolver = Callable[[str, int], list[str]]
"""``(host, port) -> the addresses it resolves to``, as text."""


class UnsafeURLError(DittobenchError, ValueError):
    """A URL the service will not dial; the message says why (never which address it found
    beyond what the caller gave)."""

    http_status = 400


_V4_REFUSED: tuple[tuple[str, str], ...] = (
    ("0.0.0.0/8", "unspecified"),
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "shared (CGNAT)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "reserved"),
    ("192.0.2.0/24", "documentation"),
    ("192.88.99.0/24", "reserved"),
    ("192.168.0.0/16", "private"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation"),
    ("203.0.113.0/24", "documentation"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),
)
_V6_REFUSED: tuple[tuple[str, str], ...] = (
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::ffff:0:0/96", "IPv4-mapped"),
    ("::/96", "IPv4-compatible"),
    ("64:ff9b::/96", "NAT64"),
    ("64:ff9b:1::/48", "NAT64"),
    ("100::/64", "discard"),
    ("2001:db8::/32", "documentation"),
    ("fc00::/7", "unique-local"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),
    ("ff00::/8", "multicast"),
)
_NETWORKS = [(ipaddress.ip_network(net), why) for net, why in _V4_REFUSED + _V6_REFUSED]


def refusal(address: Address) -> str:
    """Why ``address`` must not be dialled, or ``""`` when it is public."""
    for network, why in _NETWORKS:
        if address.version == network.version and address in network:
            return why
    if isinstance(address, ipaddress.IPv6Address):
        inner = address.sixtofour or (address.teredo[1] if address.teredo else None)
        if inner is not None and refusal(inner):
            return f"tunnelling {refusal(inner)}"
    if address.is_multicast:  # is_global is True for some multicast ranges
        return "multicast"
    if not address.is_global:
        return "not a public address"
    return ""


_NUMERIC_LABEL = re.compile(r"(0x[0-9a-f]*|[0-9]+)", re.ASCII | re.IGNORECASE)
_OCTET = r"(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_DOTTED_QUAD = re.compile(rf"{_OCTET}\.{_OCTET}\.{_OCTET}\.{_OCTET}", re.ASCII)


def literal(host: str) -> Address | None:
    """The address ``host`` spells (brackets already removed), or None for a name.
    ``UnsafeURLError`` for an IPv4 address in any spelling but the canonical dotted quad."""
    try:
        return ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        pass
    last = host.rstrip(".").rsplit(".", 1)[-1]
    if _NUMERIC_LABEL.fullmatch(last) or host.endswith("."):
        bare = host.rstrip(".")
        if _DOTTED_QUAD.fullmatch(bare) and host == bare:
            return ipaddress.IPv4Address(bare)
        if _NUMERIC_LABEL.fullmatch(last):
            raise UnsafeURLError(
                f"host {host!r} is an IPv4 address in a non-standard spelling; write it as a "
                "dotted quad such as 203.0.114.7, or use a name"
            )
    return None


def system_resolver(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to, for TCP."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise UnsafeURLError(f"host {host!r} does not resolve ({exc})") from None
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def checked_addresses(host: str, port: int, resolver: Resolver) -> list[Address]:
    """The public addresses ``host`` stands for; ``UnsafeURLError`` if any is not public."""
    given = literal(host)
    addresses = [given] if given is not None else _resolved(host, port, resolver)
    if not addresses:
        raise UnsafeURLError(f"host {host!r} does not resolve")
    for address in addresses:
        why = refusal(address)
        if why:
            said = "is" if given is not None else "resolves to"
            raise UnsafeURLError(
                f"host {host!r} {said} a non-public address ({why}); the service dials public "
                "addresses only"
            )
    return addresses


def _resolved(host: str, port: int, resolver: Resolver) -> list[Address]:
    out: list[Address] = []
    for text in resolver(host, port):
        try:
            out.append(ipaddress.ip_address(text.split("%", 1)[0]))
        except ValueError:
            raise UnsafeURLError(f"host {host!r} resolves to something not an address") from None
    return out


def check_url(
    url: str, resolver: Resolver = system_resolver, *, allow_private: bool = False
) -> str:
    """``url`` when the service may dial it: ``UnsafeURLError`` saying why not otherwise. With
    ``allow_private`` only its form is checked (scheme, host, port, no credentials)."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError) as exc:
        raise UnsafeURLError(f"not a URL: {exc}") from None
    if parsed.scheme not in ("http", "https"):
        raise UnsafeURLError("harness_url must be an http or https URL")
    if not parsed.host:
        raise UnsafeURLError("harness_url has no host")
    if parsed.userinfo:
        raise UnsafeURLError("harness_url must not carry a user name or password")
    if parsed.query or parsed.fragment:
        raise UnsafeURLError("harness_url must be a base URL, without ? or #")
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    if not allow_private:
        checked_addresses(parsed.raw_host.decode("ascii"), port, resolver)
    return url


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """Resolves and checks every host before connecting, connects to the checked address, and
    checks the connected peer again."""

    def __init__(
        self,
        resolver: Resolver = system_resolver,
        inner: httpcore.AsyncNetworkBackend | None = None,
    ) -> None:
        self._resolver = resolver
        self._inner = inner or httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            addresses = await anyio.to_thread.run_sync(
                checked_addresses, host, port, self._resolver
            )
        except UnsafeURLError as exc:
            raise httpcore.ConnectError(str(exc)) from None
        stream = await self._inner.connect_tcp(
            str(addresses[0]), port, timeout, local_address, socket_options
        )
        peer = stream.get_extra_info("server_addr")
        why = _peer_refusal(peer)
        if why:
            await stream.aclose()
            raise httpcore.ConnectError(f"refused to talk to {host!r}: the peer is {why}")
        return stream

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("the service dials no unix sockets")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


def _peer_refusal(peer: Any) -> str:
    if not isinstance(peer, tuple) or not peer:
        return "peer whose address cannot be read"
    try:
        address = ipaddress.ip_address(str(peer[0]).split("%", 1)[0])
    except ValueError:
        return "peer whose address cannot be read"
    why = refusal(address)
    return f"a non-public address ({why})" if why else ""


class GuardedTransport(httpx.AsyncHTTPTransport):
    """An httpx transport whose every connection goes through ``GuardedBackend``."""

    def __init__(self, resolver: Resolver = system_resolver, **options: Any) -> None:
        super().__init__(**options)
        limits = options.get("limits", httpx.Limits(max_connections=64))
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=self._pool._ssl_context,
            max_connections=limits.max_connections,
            max_keepalive_connections=limits.max_keepalive_connections,
            keepalive_expiry=limits.keepalive_expiry,
            socket_options=options.get("socket_options"),
            network_backend=GuardedBackend(resolver),
        )


__all__ = [
    "GuardedBackend",
    "GuardedTransport",
    "Resolver",
    "UnsafeURLError",
    "check_url",
    "checked_addresses",
    "literal",
    "refusal",
    "system_resolver",
]
