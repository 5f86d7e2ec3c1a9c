"""The machine's Redis for tests that need a real broker: 127.0.0.1:6379, started with the
command the machine notes give when it is down (``redis-server`` on PATH), else the test is
skipped saying why. Each test gets a database index of its own, emptied before and after."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time

HOST, PORT = "127.0.0.1", 6379
START = [
    "redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "-::1", "--port", str(PORT),
    "--save", "", "--appendonly", "no", "--dir", "/var/lib/redis",
    "--logfile", "/var/log/redis/ci.log",
]  # fmt: skip


def _command(*words: str, db: int = 0) -> bytes:
    """Send one command in RESP and return the first reply line (b"" when unreachable)."""
    parts = ["SELECT", str(db)] if db else []
    payload = b""
    for command in ([parts] if parts else []) + [list(words)]:
        payload += f"*{len(command)}\r\n".encode()
        for word in command:
            payload += f"${len(word.encode())}\r\n{word}\r\n".encode()
    try:
        with socket.create_connection((HOST, PORT), timeout=2) as conn:
            conn.sendall(payload)
            time.sleep(0.05)
            return conn.recv(4096)
    except OSError:
        return b""


def why_no_redis() -> str | None:
    """None when Redis answers PING (after starting it if it was down); else why not."""
    if b"PONG" in _command("PING"):
        return None
    if shutil.which("redis-server") is None:
        return f"no Redis at {HOST}:{PORT} and no redis-server binary to start one"
    try:
        subprocess.run(START, check=True, capture_output=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"no Redis at {HOST}:{PORT}, and starting redis-server failed: {exc}"
    give_up = time.monotonic() + 10
    while time.monotonic() < give_up:
        if b"PONG" in _command("PING"):
            return None
        time.sleep(0.2)
    return f"redis-server was started but {HOST}:{PORT} does not answer PING"


def database_index() -> int:
    """A database index for this test process (1-15; 0 is left to real use): by pytest-xdist
    worker (``gw0`` is 1, ``gw1`` 2, ...), so processes of one session never share one; by
    process id outside xdist."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if worker.startswith("gw") and worker[2:].isdigit():
        return 1 + int(worker[2:]) % 15
    return 1 + os.getpid() % 15


def flush(db: int) -> None:
    _command("FLUSHDB", db=db)


def broker_url(db: int) -> str:
    return f"redis://{HOST}:{PORT}/{db}"


__all__ = ["broker_url", "flush", "why_no_redis"]
