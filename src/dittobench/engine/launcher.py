"""The built-in harness: the reference baseline started as a child process for one run, on a free
loopback port, tied to this process's life and never blocked on its output."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from dittobench.engine.client import HarnessError

START_TIMEOUT_S = 60.0


@contextlib.contextmanager
def builtin_harness(db_path: Path) -> Iterator[str]:
    """Start the baseline harness on a free loopback port with its memory in ``db_path`` (kept,
    so a resumed run finds what was seeded), yield its URL, and stop it afterwards.

    It dies with this process even when this process is killed outright (``--exit-with-parent``).
    Both its output streams are read to the end by threads of their own, so however much it
    logs (a neighbour can make it log a line per malformed request) it never blocks on a full
    pipe; the last lines of its stderr are kept for error messages."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "dittobench_baseline", "--port", "0", "--db", str(db_path)]
    command += ["--exit-with-parent", str(os.getpid())]
    process = subprocess.Popen(  # noqa: S603 - our own interpreter and module, fixed arguments
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    assert process.stderr is not None
    errors = _Tail(process.stderr)
    try:
        yield _wait_for_url(process, errors)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()


STDERR_TAIL_LINES = 40
STDERR_LINE_BYTES = 2000


class _Tail:
    """The last lines a stream wrote (each cut to ``STDERR_LINE_BYTES``), read to its end."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._lines: deque[bytes] = deque(maxlen=STDERR_TAIL_LINES)
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self._reader.start()

    def _drain(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):  # closed when the harness stops
            for line in iter(lambda: stream.readline(STDERR_LINE_BYTES), b""):
                with self._lock:
                    self._lines.append(line)

    def text(self, wait_s: float = 0.0) -> str:
        """What was kept, after waiting up to ``wait_s`` for the stream to end."""
        self._reader.join(wait_s)
        with self._lock:
            return b"".join(self._lines).decode("utf-8", "replace").strip()


def _wait_for_url(process: subprocess.Popen[bytes], errors: _Tail) -> str:
    lines: queue.Queue[bytes] = queue.Queue()
    assert process.stdout is not None
    threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True).start()
    try:
        line = lines.get(timeout=START_TIMEOUT_S).decode().strip()
    except queue.Empty:
        raise HarnessError(
            f"the built-in harness did not start within {START_TIMEOUT_S:.0f} s"
        ) from None
    if not line.startswith("listening on "):
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)  # its last words are on stderr
        said = line or errors.text(wait_s=1.0)
        raise HarnessError(f"the built-in harness failed to start: {said}")
    return line.removeprefix("listening on ")


def _pump(stream: IO[bytes], lines: queue.Queue[bytes]) -> None:
    """Hand the first line over, then read the rest away unkept."""
    with contextlib.suppress(OSError, ValueError):
        lines.put(stream.readline())
        while stream.read(65536):
            pass
    lines.put(b"")


__all__ = ["START_TIMEOUT_S", "builtin_harness"]
