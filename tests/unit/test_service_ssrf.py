"""The SSRF guard (service/ssrf.py): a table of addresses and URL spellings, every private one
refused and every public one allowed, names resolved to each, a resolver that answers public
then loopback (DNS rebinding), and the connected peer checked again."""

from __future__ import annotations

import asyncio
from typing import Any

import httpcore
import httpx
import pytest

from dittobench.service.ssrf import GuardedBackend, GuardedTransport, UnsafeURLError, check_url

PUBLIC = "93.184.216.34"

REFUSED_URLS = [
    "http://127.0.0.1:8080/",
    "http://127.255.255.254/",
    "http://localhost/",  # resolves to loopback
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://169.254.0.1/",
    "http://100.64.0.1/",
    "http://100.127.255.254/",
    "http://0.0.0.0/",
    "http://0.1.2.3/",
    "http://224.0.0.1/",
    "http://224.0.1.1/",  # multicast Python calls global
    "http://239.255.255.250/",
    "http://240.0.0.1/",
    "http://255.255.255.255/",
    "http://192.0.2.1/",
    "http://198.51.100.7/",
    "http://203.0.113.9/",
    "http://198.18.0.1/",
    "http://192.0.0.8/",
    "http://[::1]/",
    "http://[::]/",
    "http://[fe80::1]/",
    "http://[fe80::1%25eth0]/",
    "http://[febf::1]/",
    "http://[fc00::1]/",
    "http://[fd12:3456:789a::1]/",
    "http://[ff02::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://[::ffff:93.184.216.34]/",  # mapped: refused whatever it wraps
    "http://[::127.0.0.1]/",  # IPv4-compatible
    "http://[64:ff9b::a9fe:a9fe]/",  # NAT64 of 169.254.169.254
    "http://[64:ff9b::5db8:d822]/",  # NAT64 of a public address: still refused
    "http://[64:ff9b:1::1]/",
    "http://[2002:7f00:1::]/",  # 6to4 of 127.0.0.1
    "http://[2001:db8::1]/",
    "http://[fec0::1]/",
    "http://2130706433/",  # decimal 127.0.0.1
    "http://3232235777/",  # decimal 192.168.1.1
    "http://0x7f000001/",  # hex
    "http://0x7f.0.0.1/",
    "http://0177.0.0.1/",  # octal
    "http://017700000001/",
    "http://127.1/",  # short form
    "http://10.1/",
    "http://127.0.0.1./",  # trailing dot
    "http://1572395042/",  # decimal of a public address: the spelling alone is refused
    "ftp://93.184.216.34/",
    "file:///etc/passwd",
    "gopher://93.184.216.34/",
    "http://user:secret@93.184.216.34/",
    "http://93.184.216.34@127.0.0.1/",
    "http:///nohost",
    "http://93.184.216.34/?next=http://127.0.0.1/",
    "http://private.example/",  # resolves to 10.0.0.7
    "http://mixed.example/",  # one public and one private address: refused
    "http://metadata.example/",  # resolves to 169.254.169.254
    "http://nat64.example/",  # resolves to 64:ff9b::7f00:1
    "http://gone.example/",  # does not resolve
]

ALLOWED_URLS = [
    f"http://{PUBLIC}/",
    "https://1.1.1.1:8443/harness",
    "http://8.8.8.8:80",
    "http://100.63.255.255/",  # just below CGNAT
    "http://100.128.0.1/",  # just above
    "http://172.15.255.255/",
    "http://172.32.0.1/",
    "http://192.169.0.1/",
    "http://[2606:4700:4700::1111]/",
    "http://[2a00:1450:4001:82a::200e]:8080/",
    "https://public.example/",
    "https://public6.example:9000/base",
]

NAMES = {
    "localhost": ["127.0.0.1", "::1"],
    "private.example": ["10.0.0.7"],
    "mixed.example": [PUBLIC, "192.168.0.9"],
    "metadata.example": ["169.254.169.254"],
    "nat64.example": ["64:ff9b::7f00:1"],
    "gone.example": [],
    "public.example": [PUBLIC],
    "public6.example": ["2606:4700:4700::1111"],
}


def resolver(host: str, port: int) -> list[str]:
    if host not in NAMES:
        raise UnsafeURLError(f"host {host!r} does not resolve")
    return NAMES[host]


def test_the_table_is_big_enough() -> None:
    assert len(REFUSED_URLS) + len(ALLOWED_URLS) >= 40


@pytest.mark.parametrize("url", REFUSED_URLS)
def test_private_addresses_and_odd_spellings_are_refused(url: str) -> None:
    with pytest.raises(UnsafeURLError) as refused:
        check_url(url, resolver)
    assert str(refused.value)


@pytest.mark.parametrize("url", ALLOWED_URLS)
def test_public_addresses_are_allowed(url: str) -> None:
    assert check_url(url, resolver) == url


def test_allow_private_checks_only_the_form() -> None:
    assert check_url("http://127.0.0.1:9000", resolver, allow_private=True)
    with pytest.raises(UnsafeURLError):
        check_url("ftp://127.0.0.1/", resolver, allow_private=True)


class Rebinding:
    """Answers a public address first, loopback ever after (a DNS rebinding attack)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, host: str, port: int) -> list[str]:
        self.calls += 1
        return [PUBLIC] if self.calls == 1 else ["127.0.0.1"]


class FakeStream(httpcore.AsyncNetworkStream):
    def __init__(self, peer: str) -> None:
        self.peer, self.closed = peer, False

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return b""

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        return None

    async def aclose(self) -> None:
        self.closed = True

    def get_extra_info(self, info: str) -> Any:
        return (self.peer, 80) if info == "server_addr" else None


class FakeBackend(httpcore.AsyncNetworkBackend):
    """Connects nowhere; records what it was asked to dial and reports ``peer`` as the peer."""

    def __init__(self, peer: str = PUBLIC) -> None:
        self.peer = peer
        self.dialled: list[str] = []
        self.streams: list[FakeStream] = []

    async def connect_tcp(self, host: str, port: int, *args: Any, **kwargs: Any) -> FakeStream:
        self.dialled.append(host)
        stream = FakeStream(self.peer)
        self.streams.append(stream)
        return stream


def test_a_rebinding_name_passes_at_submit_and_is_refused_at_connect() -> None:
    rebinding = Rebinding()
    assert check_url("http://rebind.example:9000/", rebinding)  # submit time: public
    inner = FakeBackend()
    backend = GuardedBackend(rebinding, inner)
    with pytest.raises(httpcore.ConnectError, match="non-public"):
        asyncio.run(backend.connect_tcp("rebind.example", 9000))
    assert inner.dialled == []  # nothing was dialled


def test_the_checked_address_is_the_one_dialled() -> None:
    inner = FakeBackend()
    backend = GuardedBackend(lambda host, port: [PUBLIC], inner)
    asyncio.run(backend.connect_tcp("public.example", 80))
    assert inner.dialled == [PUBLIC]  # the name is never resolved a second time


def test_a_private_peer_after_connecting_is_refused() -> None:
    inner = FakeBackend(peer="10.1.2.3")  # e.g. a transparent redirect on the way
    backend = GuardedBackend(lambda host, port: [PUBLIC], inner)
    with pytest.raises(httpcore.ConnectError, match="peer"):
        asyncio.run(backend.connect_tcp("public.example", 80))
    assert inner.streams[0].closed


def test_the_transport_refuses_loopback_through_httpx() -> None:
    async def fetch() -> None:
        transport = GuardedTransport(lambda host, port: ["127.0.0.1"])
        async with httpx.AsyncClient(transport=transport) as client:
            await client.get("http://sneaky.example:9/health")

    with pytest.raises(httpx.ConnectError, match="non-public"):
        asyncio.run(fetch())
