"""Start ``stateful_harness.py`` as a real process for a test, and always take it down again
(the same guarantees as ``harness_process``: stopped on leaving the ``with`` block, and exiting on
its own when the test run dies, through ``--exit-on-stdin-eof``)."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.helpers.harness_process import HarnessProcess, HarnessStartError

SCRIPT = Path(__file__).with_name("stateful_harness.py")


def _drain(stream: object, lines: queue.Queue[bytes]) -> None:
    readline = stream.readline  # type: ignore[attr-defined]
    try:
        lines.put(readline())
        while readline():
            pass
    except (OSError, ValueError):
        lines.put(b"")


def start_stateful(mode: str, answers: Path, *args: str, timeout: float = 10) -> HarnessProcess:
    command = [
        sys.executable, str(SCRIPT), "--mode", mode, "--answers", str(answers), *args,
        "--exit-on-stdin-eof",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    handle = HarnessProcess(process, 0)
    try:
        lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=_drain, args=(process.stdout, lines), daemon=True).start()
        try:
            first = lines.get(timeout=timeout).decode("utf-8", "replace").strip()
        except queue.Empty:
            raise HarnessStartError(f"no PORT line within {timeout} s: {command}") from None
        if not first.startswith("PORT "):
            raise HarnessStartError(f"expected 'PORT <n>', got {first!r}: {command}")
    except BaseException:
        handle.stop()
        raise
    return HarnessProcess(process, int(first.removeprefix("PORT ")))


@contextmanager
def stateful(mode: str, answers: Path, *args: str) -> Iterator[HarnessProcess]:
    handle = start_stateful(mode, answers, *args)
    try:
        yield handle
    finally:
        handle.stop()
