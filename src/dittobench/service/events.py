"""Live progress: the latest snapshot of every run the service is driving, and the
Server-Sent Events stream of ``GET /v1/runs/{id}/events``.

Workers (threads) write snapshots; readers (the event loop) read them. A stream sends one
``progress`` event whenever the job's status or counts change (checked every ``POLL_S``), a
comment line every ``HEARTBEAT_S`` so proxies keep the connection, and one ``end`` event with the
final status when the job is done, failed or cancelled; then it closes.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict, dataclass
from typing import Any

POLL_S = 0.25
HEARTBEAT_S = 15.0


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Where a driven run stands: ``stage`` is the engine's (generating, seeding, running,
    scoring), ``done``/``total`` count cases, ``failed`` those without a reply."""

    stage: str
    done: int
    total: int
    failed: int
    note: str = ""


class ProgressHub:
    """The latest snapshot per run id (only runs driven by this process)."""

    def __init__(self) -> None:
        self._latest: dict[str, Snapshot] = {}
        self._lock = threading.Lock()

    def put(self, run_id: str, snapshot: Snapshot) -> None:
        with self._lock:
            self._latest[run_id] = snapshot

    def get(self, run_id: str) -> Snapshot | None:
        with self._lock:
            return self._latest.get(run_id)

    def drop(self, run_id: str) -> None:
        with self._lock:
            self._latest.pop(run_id, None)


class StreamSlots:
    """At most ``limit`` event streams open at once."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        with self._lock:
            if self._open >= self.limit:
                return False
            self._open += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self._open -= 1


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One Server-Sent Event."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


async def stream(
    read: Callable[[], dict[str, Any] | None],
    terminal: Callable[[dict[str, Any]], bool],
    release: Callable[[], None],
    clock: Callable[[], float] = time.monotonic,
) -> AsyncIterator[bytes]:
    """The event stream of one job: ``read`` gives its current ``{status, progress}`` (None
    once it is gone), ``terminal`` says when to end; ``release`` runs when the stream stops."""
    last: dict[str, Any] | None = None
    beat = clock()
    try:
        while True:
            state = await asyncio.to_thread(read)
            if state is None:
                yield sse("end", {"status": "unknown"})
                return
            if state != last:
                last = state
                beat = clock()
                yield sse("progress", state)
            if terminal(state):
                yield sse("end", {"status": state["status"]})
                return
            if clock() - beat >= HEARTBEAT_S:
                beat = clock()
                yield b": keep-alive\n\n"
            await asyncio.sleep(POLL_S)
    finally:
        release()


def snapshot_json(snapshot: Snapshot) -> dict[str, Any]:
    return asdict(snapshot)


__all__ = ["ProgressHub", "Snapshot", "StreamSlots", "snapshot_json", "sse", "stream"]
