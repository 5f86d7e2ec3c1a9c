"""The service's connection limits (service/connections.py) without a server: counting
connections per address, trusted proxies, and the exact request-head cap over h11."""

from __future__ import annotations

import h11
import pytest

from dittobench.service.connections import MeasuredConnection, PeerCounts, answer, trusted_peers
from dittobench.service.settings import SettingsError, load_settings


def test_connections_are_counted_per_address_and_given_back() -> None:
    peers = PeerCounts(2, trusted_peers(["10.0.0.1"]))
    first, second = peers.admit("192.0.2.1"), peers.admit("192.0.2.1")
    assert first == second == "192.0.2.1"
    assert peers.admit("192.0.2.1") is None  # the third from one address
    assert peers.admit("192.0.2.2") == "192.0.2.2"  # another address has its own
    assert peers.admit("2001:db8::1") and peers.admit("2001:db8::2")
    assert peers.admit("2001:db8::3") is None  # one /64 is one address
    assert all(peers.admit("10.0.0.1") == "" for _ in range(5))  # a trusted proxy: uncounted
    assert peers.admit(None) == ""
    peers.release("192.0.2.1")
    assert peers.open_from("192.0.2.1") == 1
    assert peers.admit("192.0.2.1") == "192.0.2.1"
    peers.release("")  # an uncounted connection gives nothing back


def test_trusted_proxies_are_addresses_networks_or_everyone() -> None:
    trusted = trusted_peers(["10.1.0.0/16", "192.0.2.9", "unix:/run/proxy"])
    assert trusted("10.1.200.3") and trusted("192.0.2.9") and trusted("unix:/run/proxy")
    assert not trusted("10.2.0.1") and not trusted("192.0.2.10") and not trusted("name")
    assert trusted_peers(["*"])("198.51.100.1")
    assert not trusted_peers([])("127.0.0.1")


def head(size: int) -> bytes:
    start = b"GET / HTTP/1.1\r\nHost: x\r\nX-Pad: "
    return start + b"a" * (size - len(start) - 4) + b"\r\n\r\n"


def events(conn: MeasuredConnection, data: bytes, pieces: int) -> object:
    """Feed ``data`` in ``pieces`` reads; the request, or the error h11 would answer."""
    step = len(data) // pieces + 1
    for start in range(0, len(data), step):
        conn.receive_data(data[start : start + step])
        event = conn.next_event()
        if event is not h11.NEED_DATA:
            return event
    return h11.NEED_DATA


@pytest.mark.parametrize("pieces", [1, 2, 7])
def test_a_head_is_capped_exactly_however_it_arrives(pieces: int) -> None:
    assert isinstance(events(MeasuredConnection(4096), head(4096), pieces), h11.Request)
    with_body = MeasuredConnection(4096)  # bytes after the head are not the head's
    assert isinstance(events(with_body, head(4096) + b"x" * 9000, pieces), h11.Request)
    over = MeasuredConnection(4096)
    with pytest.raises(h11.RemoteProtocolError):
        events(over, head(4097), pieces)
    assert over.head_too_large
    plain = MeasuredConnection(4096)
    with pytest.raises(h11.RemoteProtocolError):
        events(plain, b"NOT HTTP\r\n\r\n", pieces)
    assert not plain.head_too_large  # a malformed head stays a 400


def test_an_answer_is_a_whole_response_that_closes() -> None:
    raw = answer(503, "too many", {"retry-after": "5"})
    head_part, _, body = raw.partition(b"\r\n\r\n")
    assert head_part.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
    assert b"connection: close" in head_part and b"retry-after: 5" in head_part
    assert body == b'{"error": "too many"}'
    assert f"content-length: {len(body)}".encode() in head_part


def test_one_address_may_never_be_allowed_every_connection() -> None:
    with pytest.raises(SettingsError, match=r"max_connections_per_address \(32\) must be below"):
        load_settings(max_connections=8)
    chosen = load_settings(max_connections=8, max_connections_per_address=4)
    assert chosen.max_connections_per_address == 4 and chosen.header_timeout_s == 10.0
