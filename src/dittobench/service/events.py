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
    """At most ``limit`` event streams open at once, and at most ``per_client`` of them held by
    one client (a token's name, else an address), so one submitter cannot take every slot."""

    def __init__(self, limit: int, per_client: int | None = None) -> None:
        self.limit = limit
        self.per_client = per_client if per_client is not None else limit
        self._open = 0
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, client: str = "") -> str:
        """Take a slot for ``client``: "" when taken, else why not (one line)."""
        with self._lock:
            held = self._held.get(client, 0)
            if held >= self.per_client:
                return (
                    f"this client has {held} event streams open, the most one client may hold; "
                    "close one first"
                )
            if self._open >= self.limit:
                return "too many open event streams; try again later"
            self._open += 1
            self._held[client] = held + 1
            return ""

    def give_back(self, client: str = "") -> None:
        with self._lock:
            self._open -= 1
            left = self._held.get(client, 0) - 1
            if left > 0:
                self._held[client] = left
            else:
                self._held.pop(client, None)

    def releaser(self, client: str = "") -> Callable[[], None]:
        """Gives ``client``'s slot back the first time it is called, never again (a stream can
        end in more than one place)."""
        done = threading.Event()

        def release() -> None:
            if not done.is_set():
                done.set()
                self.give_back(client)

        return release


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
