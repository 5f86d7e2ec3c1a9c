"""Run ``dittobench serve`` as a real process on a real port for a test, and talk to it.

``start_service(folder, ...)`` starts it with its store, keys and files under ``folder`` (and
``HOME`` there too), waits for ``/health`` and returns a handle; ``stop()`` sends SIGTERM (then
SIGKILL), ``kill()`` is ``kill -9``. An ``atexit`` hook stops any handle a test forgot.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import deque
from pathlib import Path
from typing import IO, Any

ADMIN = "adm1n-T0ken-0123456789abcdef"
ALICE = "al1ce-T0ken-0123456789abcdef"
BOB = "b0b-T0ken-0123456789abcdefgh"
TOKENS = f"{ADMIN}\n{ALICE} submitter alice\n{BOB} submitter bob\n"

_LIVE: set[ServiceProcess] = set()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServiceProcess:
    def __init__(self, process: subprocess.Popen[bytes], port: int, log: deque[str]) -> None:
        self.process, self.port, self.log = process, port, log
        self.url = f"http://127.0.0.1:{port}"
        assert process.stdout is not None
        self._reader = threading.Thread(target=_drain, args=(process.stdout, log), daemon=True)
        self._reader.start()

    def _closed(self) -> None:
        self._reader.join(5)
        if self.process.stdout is not None:
            with contextlib.suppress(OSError):
                self.process.stdout.close()
        _LIVE.discard(self)

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._closed()
        return self.process.returncode

    def kill(self) -> None:
        """``kill -9``: nothing is cleaned up."""
        self.process.kill()
        self.process.wait()
        self._closed()

    def call(
        self, method: str, path: str, token: str | None = ADMIN, body: Any = None
    ) -> tuple[int, dict[str, str], bytes]:
        """One request: status, headers (lower-case names) and body."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(request, timeout=30) as reply:
                headers = {k.lower(): v for k, v in reply.headers.items()}
                return reply.status, headers, reply.read()
        except urllib.error.HTTPError as error:
            headers = {k.lower(): v for k, v in error.headers.items()}
            return error.code, headers, error.read()

    def json(self, method: str, path: str, token: str | None = ADMIN, body: Any = None) -> Any:
        status, _, data = self.call(method, path, token, body)
        return status, json.loads(data)

    def wait_for(self, run_id: str, done: Any, timeout: float = 90, token: str = ADMIN) -> Any:
        """Poll the job until ``done(job)`` holds; the job."""
        give_up = time.monotonic() + timeout
        while True:
            status, job = self.json("GET", f"/v1/runs/{run_id}", token)
            assert status == 200, job
            if done(job):
                return job
            if time.monotonic() > give_up:
                raise AssertionError(f"job never got there: {job['status']} {job['progress']}")
            time.sleep(0.05)


def _drain(stream: IO[bytes], kept: deque[str]) -> None:
    for line in iter(stream.readline, b""):
        kept.append(line.decode("utf-8", "replace").rstrip())


def start_service(
    folder: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 30
) -> ServiceProcess:
    folder.mkdir(parents=True, exist_ok=True)
    tokens = folder / "tokens"
    tokens.write_text(TOKENS, encoding="utf-8")
    port = free_port()
    command = [sys.executable, "-m", "dittobench", "serve", "--port", str(port)]
    command += ["--db", str(folder / "runs.db"), "--token-file", str(tokens), *args]
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DITTOBENCH_")},
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        **(env or {}),
    }
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env=environment,
    )  # fmt: skip
    log: deque[str] = deque(maxlen=200)
    handle = ServiceProcess(process, port, log)
    _LIVE.add(handle)
    give_up = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            handle.stop()
            raise RuntimeError(f"dittobench serve exited {process.returncode}: {list(log)}")
        try:
            if handle.call("GET", "/health", None)[0] == 200:
                return handle
        except OSError:
            pass
        if time.monotonic() > give_up:
            handle.stop()
            raise RuntimeError(f"dittobench serve did not answer /health: {list(log)}")
        time.sleep(0.05)


@atexit.register
def _stop_all() -> None:
    for handle in list(_LIVE):
        handle.stop()


__all__ = ["ADMIN", "ALICE", "BOB", "ServiceProcess", "free_port", "start_service"]
