"""Print what one abusive client of the scoring service costs everyone else (issue 29):

- **slow heads**: ``--slow`` connections from 127.0.0.1, each sending its request head one byte
  every 2 s; meanwhile another client (bound to 127.0.0.2) asks ``GET /health`` every 0.25 s:
  how many of its requests are served, and how fast; how long the slow connections last;
- **token guessing**: wrong bearer tokens (``GET /v1/runs``) and wrong sign-in forms as fast as
  one client can send them for a few seconds: how many were checked (401) a second, how many
  refused unchecked (429); then a good token from another address;
- **oversize bodies**: a submitter floods ``POST /v1/submit`` with 5.6 MB bodies from four
  threads (bound to 127.0.0.3) while another submitter polls ``GET /v1/runs``: its latency,
  idle and during the flood, and what the flood got back.

A real service process with its default settings on a loopback port. Figures only, never
assertions. Run from the repository root:
    python benchmarks/service_abuse.py [--slow N] [--seconds S]
"""

from __future__ import annotations

import argparse
import collections
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers.service_process import ALICE, BOB, start_service

OTHER = "127.0.0.2"
"""The bystander's address (Linux routes all of 127/8 to loopback)."""
FLOOD = "127.0.0.3"


def cpu_s(pid: int) -> float:
    """CPU seconds (user and system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples) or [float("nan")]
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def bystander(url: str, path: str, token: str | None, seconds: float, every: float) -> list[str]:
    """``path`` asked from 127.0.0.2 every ``every`` s on a fresh connection; each answer as
    ``status ms`` (or the error's name)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    seen: list[str] = []
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        transport = httpx.HTTPTransport(local_address=OTHER)
        with httpx.Client(transport=transport, timeout=10, headers=headers) as http:
            start = time.perf_counter()
            try:
                status = str(http.get(url + path).status_code)
            except httpx.HTTPError as exc:
                status = type(exc).__name__
            seen.append(f"{status} {(time.perf_counter() - start) * 1000:.1f}")
        time.sleep(every)
    return seen


def summary(seen: list[str]) -> str:
    statuses = collections.Counter(item.split()[0] for item in seen)
    served = [float(item.split()[1]) for item in seen if item.startswith("200 ")]
    return (
        f"{dict(statuses)}; served p50 {percentile(served, 0.5):.1f} ms, "
        f"p99 {percentile(served, 0.99):.1f} ms"
    )


def slow_heads(url: str, port: int, count: int, seconds: float) -> None:
    """``count`` connections trickling a head while a bystander asks for /health."""
    head = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Pad: " + b"a" * 4000
    stop = threading.Event()
    born: dict[socket.socket, float] = {}
    lived: list[float] = []

    def trickle() -> None:
        for _ in range(count):
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
            except OSError:
                continue
            sock.setblocking(False)
            born[sock] = time.monotonic()
        sent = 0
        while not stop.wait(2.0):
            for sock in list(born):
                try:
                    sock.send(head[sent : sent + 1])
                except OSError:  # closed by the server
                    lived.append(time.monotonic() - born.pop(sock))
                    sock.close()
            sent += 1

    worker = threading.Thread(target=trickle, daemon=True)
    worker.start()
    time.sleep(3.0)  # every slow connection is open and has sent its first bytes
    seen = bystander(url, "/health", None, seconds, 0.25)
    open_now = len(born)
    stop.set()
    worker.join()
    for sock in born:
        sock.close()
    cut = f"{len(lived)} closed by the service, after {percentile(lived, 0.5):.1f} s median"
    print(f"slow heads: {count} slow connections from 127.0.0.1 ({open_now} still open after")
    print(f"  {seconds + 3:.0f} s; {cut})")
    print(f"  bystander GET /health from {OTHER} every 0.25 s: {summary(seen)}")


def guessing(url: str, seconds: float) -> None:
    """Wrong bearer tokens, then wrong sign-in forms, as fast as one client sends them."""
    with httpx.Client(base_url=url, timeout=10) as http:
        counts: collections.Counter[int] = collections.Counter()
        give_up = time.monotonic() + seconds
        tries = 0
        while time.monotonic() < give_up:
            tries += 1
            wrong = {"Authorization": f"Bearer guess-{tries:012d}-0123456789abcdef"}
            counts[http.get("/v1/runs", headers=wrong).status_code] += 1
        print(f"bearer guesses for {seconds:.0f} s from 127.0.0.1: {dict(counts)}; checked (401)")
        print(f"  {counts[401] / seconds:.1f} a second")
    time.sleep(0.5)
    with httpx.Client(base_url=url, timeout=10) as http:
        http.get("/sign-in")
        counts = collections.Counter()
        give_up = time.monotonic() + seconds
        while time.monotonic() < give_up:
            form = {"csrf": http.cookies.get("dittobench_sign_in", ""), "token": "wrong-token"}
            counts[http.post("/sign-in", data=form).status_code] += 1
        print(f"sign-in guesses for {seconds:.0f} s from 127.0.0.1: {dict(counts)}; checked (401)")
        print(f"  {counts[401] / seconds:.1f} a second")
    good = bystander(url, "/v1/runs", BOB, 1.0, 0.2)
    print(f"  meanwhile a good token from {OTHER}: {summary(good)}")


def oversize(url: str, pid: int, seconds: float) -> None:
    """Four threads of 5.6 MB submissions while another submitter polls its runs."""
    body = b'{"archive_base64": "' + b"A" * 5_600_000 + b'"}'
    idle = [float(item.split()[1]) for item in bystander(url, "/v1/runs", BOB, 3.0, 0.05)]
    stop = threading.Event()
    answers: collections.Counter[str] = collections.Counter()

    def flood() -> None:
        headers = {"Authorization": f"Bearer {ALICE}", "Content-Type": "application/json"}
        transport = httpx.HTTPTransport(local_address=FLOOD)  # not the guesser's address
        with httpx.Client(base_url=url, timeout=30, headers=headers, transport=transport) as http:
            while not stop.is_set():
                try:
                    answers[str(http.post("/v1/submit", content=body).status_code)] += 1
                except httpx.HTTPError as exc:
                    answers[type(exc).__name__] += 1

    threads = [threading.Thread(target=flood, daemon=True) for _ in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    used = cpu_s(pid)
    busy = bystander(url, "/v1/runs", BOB, seconds, 0.05)
    used = cpu_s(pid) - used
    stop.set()
    for thread in threads:
        thread.join()
    print(f"oversize flood: 4 threads of 5.6 MB submissions for {seconds + 1:.0f} s:")
    print(f"  answers {dict(answers)}; the service used {used:.1f} CPU s in {seconds:.0f} s")
    print(
        f"  another submitter's GET /v1/runs: idle p50 {percentile(idle, 0.5):.1f} ms, "
        f"p99 {percentile(idle, 0.99):.1f} ms; during the flood {summary(busy)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--slow", type=int, default=530, help="slow-head connections")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--only", choices=["slow", "guess", "oversize"], help="one phase")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        service = start_service(Path(folder) / "svc")
        try:
            if args.only in (None, "slow"):
                slow_heads(service.url, service.port, args.slow, args.seconds)
            if args.only in (None, "guess"):
                guessing(service.url, min(args.seconds, 5.0))
            if args.only in (None, "oversize"):
                oversize(service.url, service.process.pid, args.seconds)
        finally:
            service.stop()
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
