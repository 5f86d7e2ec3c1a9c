"""``dittobench worker`` as a real process for a test: its JSON log lines kept, SIGKILL or
SIGTERM on demand, and always taken down at the end (an ``atexit`` hook stops any left)."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

_LIVE: set[WorkerProcess] = set()


class WorkerProcess:
    def __init__(self, process: subprocess.Popen[bytes], name: str) -> None:
        self.process, self.name = process, name
        self.lines: list[str] = []
        self._lock = threading.Lock()
        assert process.stderr is not None
        self._reader = threading.Thread(target=self._read, args=(process.stderr,), daemon=True)
        self._reader.start()

    def _read(self, stream: Any) -> None:
        for raw in iter(stream.readline, b""):
            with self._lock:
                self.lines.append(raw.decode("utf-8", "replace").rstrip())

    def events(self, name: str | None = None, run_id: str | None = None) -> list[dict[str, Any]]:
        """The JSON events logged so far (every line must be JSON), filtered."""
        with self._lock:
            lines = list(self.lines)
        found = [json.loads(line) for line in lines if line.strip()]
        return [
            e
            for e in found
            if (name is None or e.get("event") == name)
            and (run_id is None or e.get("run_id") == run_id)
        ]

    def wait_for(self, name: str, timeout: float = 30) -> dict[str, Any]:
        give_up = time.monotonic() + timeout
        while time.monotonic() < give_up:
            found = self.events(name)
            if found:
                return found[0]
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise AssertionError(f"worker {self.name} never logged {name}: {self.lines[-20:]}")

    def kill(self) -> None:
        """SIGKILL: nothing is cleaned up, nothing acknowledged."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()
        self._closed()

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._closed()
        return self.process.returncode

    def _closed(self) -> None:
        self._reader.join(5)
        if self.process.stderr is not None:
            with contextlib.suppress(OSError):
                self.process.stderr.close()
        _LIVE.discard(self)


def start_worker(
    folder: Path, broker: str, db: str, key: Path, name: str, *args: str
) -> WorkerProcess:
    folder.mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "dittobench", "worker", "--broker", broker, "--db", db,
        "--key", str(key), "--data-dir", str(folder), "--name", name,
        "--allow-private-harness", *args,
    ]  # fmt: skip
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DITTOBENCH_")}
    environment |= {"HOME": str(folder), "XDG_DATA_HOME": str(folder / "data")}
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env=environment,
    )  # fmt: skip
    handle = WorkerProcess(process, name)
    _LIVE.add(handle)
    handle.wait_for("worker_ready")  # listening on the queue, not only started (a loaded machine)
    return handle


@atexit.register
def _stop_all() -> None:
    for handle in list(_LIVE):
        handle.stop()


__all__ = ["WorkerProcess", "start_worker"]
