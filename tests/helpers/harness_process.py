"""Start ``harness_server.py`` as a real process for a test, and always take it down again.

``harness(mode, *args)`` is a context manager yielding the base URL; ``start_harness`` returns a
``HarnessProcess`` handle for tests that need the process itself (exit codes, restarts).

No process outlives its test: leaving the ``with`` block (normally or by an exception) stops it,
a failed start-up stops it before raising, an ``atexit`` hook stops any handle a test forgot, and
the server runs with ``--exit-on-stdin-eof`` while this process holds its stdin, so it exits on
its own even if the test run itself is killed outright.
"""

from __future__ import annotations

import atexit
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

SCRIPT = Path(__file__).with_name("harness_server.py")
STOP_GRACE_S = 5.0

_LIVE: set[HarnessProcess] = set()
_LIVE_LOCK = threading.Lock()


class HarnessStartError(RuntimeError):
    """The server did not print its ``PORT`` line in time (or exited first)."""


class HarnessProcess:
    """A running harness server: ``url`` is its base URL, ``process`` the child process."""

    def __init__(self, process: subprocess.Popen[bytes], port: int) -> None:
        self.process = process
        self.port = port
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> int:
        """SIGTERM, up to 5 s to exit, then SIGKILL. Idempotent; returns the exit status."""
        return _stop(self.process)

    def __enter__(self) -> HarnessProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _stop(process: subprocess.Popen[bytes]) -> int:
    try:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=STOP_GRACE_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    finally:
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                with suppress(OSError):
                    stream.close()
        with _LIVE_LOCK:
            for handle in [h for h in _LIVE if h.process is process]:
                _LIVE.discard(handle)
    return process.returncode


def _drain(stream: IO[bytes], lines: queue.Queue[bytes]) -> None:
    """Hand the first stdout line over, then keep reading so the pipe can never fill up."""
    try:
        lines.put(stream.readline())
        while stream.readline():
            pass
    except (OSError, ValueError):
        lines.put(b"")


def start_harness(mode: str, *args: str, timeout: float = 10) -> HarnessProcess:
    """Start the server in ``mode`` with extra command-line ``args``; wait for its port."""
    command = [sys.executable, str(SCRIPT), "--mode", mode, *args, "--exit-on-stdin-eof"]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=_drain, args=(process.stdout, lines), daemon=True).start()
        try:
            first = lines.get(timeout=timeout)
        except queue.Empty:
            raise HarnessStartError(f"no PORT line within {timeout} s: {command}") from None
        text = first.decode("utf-8", "replace").strip()
        if not text.startswith("PORT "):
            try:
                status: int | None = process.wait(timeout=1)
            except subprocess.TimeoutExpired:
                status = None
            raise HarnessStartError(f"expected 'PORT <n>', got {text!r} (exit {status}): {command}")
        handle = HarnessProcess(process, int(text.removeprefix("PORT ")))
    except BaseException:
        _stop(process)
        raise
    with _LIVE_LOCK:
        _LIVE.add(handle)
    return handle


@contextmanager
def harness(mode: str, *args: str, timeout: float = 10) -> Iterator[str]:
    """Run a harness server for the ``with`` block and yield its base URL."""
    handle = start_harness(mode, *args, timeout=timeout)
    try:
        yield handle.url
    finally:
        handle.stop()


@atexit.register
def _stop_all() -> None:
    with _LIVE_LOCK:
        handles = list(_LIVE)
    for handle in handles:
        handle.stop()


__all__ = ["HarnessProcess", "HarnessStartError", "harness", "start_harness"]


@contextmanager
def script_harness(script: Path, *args: str) -> Iterator[str]:
    """Run a helper harness script that prints ``PORT n`` when it listens (the strategy and
    answer-key harnesses); yield its base URL and kill it afterwards."""
    process = subprocess.Popen(
        [sys.executable, str(script), *args], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("PORT "), line
        yield f"http://127.0.0.1:{int(line.split()[1])}"
    finally:
        process.kill()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()
