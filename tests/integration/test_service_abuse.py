"""One client cannot lock out, starve or slow the others (issue 29): a real service process on a
real port, real sockets, small limits.

Linux routes all of 127/8 to loopback, so a client socket bound to 127.0.0.N is a client of its
own address: each test uses addresses of its own. Slow heads from one address are capped and
timed out while another address is served; a request head is capped at exactly
``max_header_bytes``; a principal holds at most ``max_streams_per_client`` event streams; wrong
tokens (bearer and sign-in) are throttled per address and never a good token from elsewhere;
oversize bodies are refused unread and a flood of them runs out of its refusal budget.
"""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.helpers.service_process import (
    ADMIN,
    ALICE,
    BOB,
    ServiceProcess,
    free_port,
    start_service,
)


def serve(folder: Path, *args: str, **settings: object) -> ServiceProcess:
    env = {f"DITTOBENCH_{name.upper()}": str(value) for name, value in settings.items()}
    return start_service(folder, *args, env=env)


def connect(port: int, source: str) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(15)
    sock.connect(("127.0.0.1", port))
    return sock


def reply(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read one whole response (status, headers, body) from ``sock``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before a whole response: {data[:200]!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    while len(body) < int(headers.get("content-length", "0")):
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(lines[0].split()[1]), headers, body


def closed_by_server(sock: socket.socket) -> bool:
    """The server ended the connection (end of file, or a reset) within 10 s."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def client(source: str, token: str | None = None) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=source)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(transport=transport, headers=headers, timeout=15)


def head_of(size: int) -> bytes:
    """A ``GET /health`` request head of exactly ``size`` bytes, blank line included."""
    start = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: "
    return start + b"a" * (size - len(start) - 4) + b"\r\n\r\n"


@pytest.fixture
def slow_service(tmp_path: Path) -> Iterator[ServiceProcess]:
    service = serve(
        tmp_path / "svc", max_connections=8, max_connections_per_address=4, header_timeout_s=2
    )
    yield service
    service.stop()


def test_slow_heads_from_one_address_cost_only_that_address(slow_service: ServiceProcess) -> None:
    """20 connections from 127.0.0.2 (more than the whole server's 8): 4 are let in, 16 are
    answered 503 at once; another address is served meanwhile; the 4 that never finish their
    head (one of them trickling a byte at a time) are closed with a 408 once their time is up."""
    port = slow_service.port
    crowd = [connect(port, "127.0.0.2") for _ in range(20)]
    try:
        readable, _, _ = select.select(crowd, [], [], 2.0)
        time.sleep(0.5)  # the last refusals of the burst
        readable, _, _ = select.select(crowd, [], [], 0)
        refused = [reply(sock)[0] for sock in readable]
        assert refused == [503] * 16, refused
        admitted = [sock for sock in crowd if sock not in readable]
        for sock in admitted:
            sock.sendall(b"GET /health HTTP/1.1\r\n")
        with client("127.0.0.3") as other:
            assert other.get(f"{slow_service.url}/health").status_code == 200
        # still open: the bystander was served while they held their slots
        assert not select.select(admitted, [], [], 0)[0]
        for step in range(4):  # one keeps sending, a byte at a time, and is cut all the same
            admitted[0].sendall(b"Host: x\r\nX-Slow: a"[step : step + 1])
            time.sleep(0.3)
        for sock in admitted:
            status, _, body = reply(sock)
            assert status == 408 and b"did not arrive" in body
            assert closed_by_server(sock)
        with client("127.0.0.2") as again:  # the address has its slots back
            assert again.get(f"{slow_service.url}/health").status_code == 200
    finally:
        for sock in crowd:
            sock.close()


def test_a_request_head_is_capped_at_exactly_max_header_bytes(tmp_path: Path) -> None:
    """64 KiB passes, 64 KiB + 1 gets 431, however the bytes arrive (h11 alone let a head that
    came in two reads grow to about twice the limit)."""
    service = serve(tmp_path / "svc")
    try:
        for size, pieces, expected in [
            (65536, 1, 200),
            (65536, 4, 200),
            (65537, 1, 431),
            (65537, 4, 431),
            (120_000, 1, 431),
        ]:
            with connect(service.port, "127.0.0.4") as sock:
                data = head_of(size)
                step = len(data) // pieces + 1
                for start in range(0, len(data), step):
                    sock.sendall(data[start : start + step])
                    time.sleep(0.05 if pieces > 1 else 0)
                status, _, body = reply(sock)
                assert status == expected, (size, pieces, status, body[:200])
        assert service.call("GET", "/health", None)[0] == 200
    finally:
        service.stop()


def test_a_client_holds_at_most_its_share_of_event_streams(tmp_path: Path) -> None:
    """The 5th stream of one submitter is a 429 while another submitter still gets one; a
    stream closed gives its slot back."""
    service = serve(tmp_path / "svc", "--allow-private-harness", max_streams_per_client=4)
    nowhere = f"http://127.0.0.1:{free_port()}"  # never healthy: the runs stay unfinished
    alice = [connect(service.port, "127.0.0.5") for _ in range(5)]
    try:
        runs = {}
        for token in (ALICE, BOB):
            status, made = service.json("POST", "/v1/submit", token, {"harness_url": nowhere})
            assert status == 202, made
            runs[token] = made["run_id"]
        ask = f"GET /v1/runs/{runs[ALICE]}/events HTTP/1.1\r\nHost: x\r\n"
        answers = []
        for sock in alice:  # one at a time, so the 5th is the one refused
            sock.sendall(f"{ask}Authorization: Bearer {ALICE}\r\n\r\n".encode())
            answers.append(reply(sock))
        assert [status for status, _, _ in answers] == [200, 200, 200, 200, 429]
        assert answers[4][1]["retry-after"] == "5"
        assert b"event streams open" in answers[4][2]
        with (
            client("127.0.0.5", BOB) as bob,  # same address, another submitter
            bob.stream("GET", f"{service.url}/v1/runs/{runs[BOB]}/events") as stream,
        ):
            assert stream.status_code == 200
        alice[0].close()
        give_up = time.monotonic() + 15
        with client("127.0.0.6", ALICE) as again:
            while True:
                with again.stream("GET", f"{service.url}/v1/runs/{runs[ALICE]}/events") as one:
                    if one.status_code == 200:
                        break
                assert time.monotonic() < give_up, "the closed stream's slot never came back"
                time.sleep(0.2)
    finally:
        for sock in alice:
            sock.close()
        service.kill()  # a graceful stop would wait out the run's wait for its harness


def test_wrong_tokens_are_throttled_per_address(tmp_path: Path) -> None:
    """3 wrong tokens from one address, then 429 for any token from it (bearer or sign-in,
    right or wrong); a good token from another address is never throttled."""
    service = serve(tmp_path / "svc", auth_failure_limit=3, auth_failure_window_s=60)
    runs = f"{service.url}/v1/runs"
    try:
        with client("127.0.0.7", "wrong-token-0123456789abcdef") as guesser:
            assert [guesser.get(runs).status_code for _ in range(3)] == [401] * 3
            throttled = guesser.get(runs)
            assert throttled.status_code == 429
            assert 1 <= int(throttled.headers["retry-after"]) <= 60
            assert "failed authentications" in throttled.json()["error"]
        with client("127.0.0.7", ADMIN) as same_address:
            assert same_address.get(runs).status_code == 429  # not even checked
        with client("127.0.0.8", ADMIN) as elsewhere:
            assert elsewhere.get(runs).status_code == 200
        with client("127.0.0.8", "another-wrong-0123456789abc") as own_budget:
            assert own_budget.get(runs).status_code == 401
        with client("127.0.0.9") as browser:
            browser.get(f"{service.url}/sign-in")
            tries = []
            for _ in range(4):
                csrf = browser.cookies.get("dittobench_sign_in", "")
                form = {"csrf": csrf, "token": "wrong-token-0123456789abcdef"}
                tries.append(browser.post(f"{service.url}/sign-in", data=form))
            assert [t.status_code for t in tries] == [401, 401, 401, 429]
            assert "failed authentications" in tries[3].text and tries[3].headers["retry-after"]
            bearer = browser.get(runs, headers={"Authorization": f"Bearer {ADMIN}"})
            assert bearer.status_code == 429  # one budget for the address
    finally:
        service.stop()


def test_oversize_bodies_are_refused_unread_and_a_flood_of_them_is_limited(
    tmp_path: Path,
) -> None:
    """A body declared over the cap is refused before it is sent, and the connection ends (the
    body is never read); past 3 refusals the sender's bodies get 429 unread, while its reads
    and another submitter's bodies go on."""
    service = serve(tmp_path / "svc", refusal_limit=3, refusal_window_s=60)
    try:
        answers = []
        for _ in range(4):
            with connect(service.port, "127.0.0.10") as sock:
                sock.sendall(
                    b"POST /v2/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + f"Authorization: Bearer {ALICE}\r\nContent-Length: 50000000\r\n\r\n".encode()
                )
                status, headers, _ = reply(sock)  # not a byte of the body sent
                answers.append((status, headers.get("connection"), closed_by_server(sock)))
        assert answers[:3] == [(413, "close", True)] * 3, answers
        assert answers[3] == (429, "close", True), answers
        with client("127.0.0.10", ALICE) as alice:
            assert alice.get(f"{service.url}/v1/runs").status_code == 200
            limited = alice.post(f"{service.url}/v2/score", json={})
            assert limited.status_code == 429 and "refused requests" in limited.json()["error"]
        with client("127.0.0.10", BOB) as bob:  # another submitter, same address
            assert bob.post(f"{service.url}/v2/score", json={}).status_code == 400
    finally:
        service.stop()
