"""Live progress: the latest snapshot of every run the service is driving, and the
Server-Sent Events stream of ``GET /v1/runs/{id}/events``.

Workers (threads) write snapshots; readers (the event loop) read them. One producer per run
(``RunFeeds``) reads the run's state every ``POLL_S`` while anyone listens and hands each change
to every listener of that run, however many there are. A stream sends one ``progress`` event
whenever the job's status or counts change, a comment line every ``HEARTBEAT_S`` so proxies keep
the connection, and one ``end`` event with the final status when the job is done, failed or
cancelled; then it closes. A listener that is slow to send is never waited for: it is handed only
the newest state, so it skips the ones it had no time to send, as a reader of the store would.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict, dataclass
from typing import Any

POLL_S = 0.25
HEARTBEAT_S = 15.0

State = dict[str, Any]
"""A job's ``{status, progress}`` as its events carry it."""
Read = Callable[[], State | None]
"""Reads a job's current state (None once the job is gone); called in a worker thread."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Where a driven run stands: ``stage`` is the engine's (generating, seeding, running,
    scoring), ``done``/``total`` count cases, ``failed`` those without a reply."""

    stage: str
    done: int
    total: int
    failed: int
    note: str = ""


class _Mailbox:
    """What one listener has still to send: the newest state only (a newer one replaces an
    unsent older one), then the end, or the error its producer met."""

    __slots__ = ("end", "error", "event", "state", "wake")

    def __init__(self) -> None:
        self.state: State | None = None
        self.event = b""
        self.end: str | None = None
        self.error: BaseException | None = None
        self.wake = asyncio.Event()

    def offer(self, state: State, event: bytes) -> None:
        self.state, self.event = state, event
        self.wake.set()

    def close(self, status: str) -> None:
        self.end = status
        self.wake.set()

    def fail(self, error: BaseException) -> None:
        self.error = error
        self.wake.set()


class _Feed:
    """One run's producer: a task that reads the run's state while it has listeners and offers
    every change to each of them; it ends with the run, or when its last listener leaves."""

    def __init__(
        self, read: Read, terminal: Callable[[State], bool], poll_s: float, gone: Callable[[], None]
    ) -> None:
        self.read, self.terminal, self.poll_s, self.gone = read, terminal, poll_s, gone
        self.listeners: set[_Mailbox] = set()
        self.latest: State | None = None
        self.event = b""
        self.task: asyncio.Task[None] | None = None

    def join(self, box: _Mailbox) -> None:
        self.listeners.add(box)
        if self.latest is not None:
            box.offer(self.latest, self.event)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._produce())

    def leave(self, box: _Mailbox) -> None:
        self.listeners.discard(box)
        if not self.listeners and self.task is not None:
            self.gone()
            self.task.cancel()

    async def _produce(self) -> None:
        try:
            while self.listeners:
                state = await asyncio.to_thread(self.read)
                if state is None:
                    self._close("unknown")
                    return
                if state != self.latest:
                    self.latest, self.event = state, sse("progress", state)  # encoded once
                    for box in self.listeners:
                        box.offer(state, self.event)
                if self.terminal(state):
                    self._close(state["status"])
                    return
                await asyncio.sleep(self.poll_s)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the store failed: each stream ends as a reader's would
            for box in self.listeners:
                box.fail(exc)
        finally:
            self.gone()

    def _close(self, status: str) -> None:
        self.gone()  # a listener that comes after the end gets a producer of its own
        for box in self.listeners:
            box.close(status)


class RunFeeds:
    """The producers of the runs being listened to, one per run and event loop: a run with a
    hundred listeners is read once every ``poll_s``, not a hundred times."""

    def __init__(self, poll_s: float = POLL_S) -> None:
        self.poll_s = poll_s
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, _Feed]] = (
            weakref.WeakKeyDictionary()
        )
        self._lock = threading.Lock()

    def _feeds(self) -> dict[str, _Feed]:
        loop = asyncio.get_running_loop()
        with self._lock:
            return self._loops.setdefault(loop, {})

    def join(self, key: str, read: Read, terminal: Callable[[State], bool]) -> _Listening:
        """Listen to run ``key`` (from the event loop): its producer is started when it has
        none; ``read`` and ``terminal`` are used when this listener starts it."""
        feeds = self._feeds()
        feed = feeds.get(key)
        if feed is None:

            def gone() -> None:
                if feeds.get(key) is made:
                    del feeds[key]

            made = feed = _Feed(read, terminal, self.poll_s, gone)
            feeds[key] = made
        box = _Mailbox()
        feed.join(box)
        return _Listening(feed, box)

    def producing(self) -> int:
        """How many producers run on this event loop (for tests and figures)."""
        return len(self._feeds())


@dataclass(frozen=True, slots=True)
class _Listening:
    feed: _Feed
    box: _Mailbox

    def leave(self) -> None:
        self.feed.leave(self.box)


class PollTurns:
    """When a client's next status poll of a running run is answered: at most one answer every
    ``every_s`` (the event stream's tick) per client and run. A poll that comes sooner waits for
    the next turn and is answered then, with the state as it is then; polls that come together
    share one turn. So a client polling back to back costs the service four answers a second,
    not as many as it can ask, and sees nothing staler than a stream listener does."""

    def __init__(self, every_s: float = POLL_S, keep: int = 4096) -> None:
        self.every_s, self.keep = every_s, keep
        self._turn: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, client: str, run_id: str, now: float) -> float:
        """Seconds until this poll's turn (0 when it is due now); the turn is taken."""
        key = (client, run_id)
        with self._lock:
            last = self._turn.get(key)
            if last is None:
                turn = now
            elif now < last:  # a turn is already set for polls waiting: share it
                turn = last
            else:
                turn = max(now, last + self.every_s)
            self._turn[key] = turn
            self._turn.move_to_end(key)
            while len(self._turn) > self.keep:
                self._turn.popitem(last=False)
        return turn - now


class ProgressHub:
    """The latest snapshot per run id (only runs driven by this process), the producers that
    feed the runs' event streams (``feeds``) and the turns of status polls (``turns``)."""

    def __init__(self) -> None:
        self._latest: dict[str, Snapshot] = {}
        self._lock = threading.Lock()
        self.feeds = RunFeeds()
        self.turns = PollTurns()

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
    feeds: RunFeeds,
    key: str,
    read: Read,
    terminal: Callable[[State], bool],
    release: Callable[[], None],
    clock: Callable[[], float] = time.monotonic,
) -> AsyncIterator[bytes]:
    """The event stream of one job, fed by its run's producer in ``feeds``: ``read`` gives its
    current ``{status, progress}`` (None once it is gone), ``terminal`` says when to end;
    ``release`` runs when the stream stops."""
    listening: _Listening | None = None
    try:
        listening = feeds.join(key, read, terminal)
        box = listening.box
        last: State | None = None
        beat = clock()
        while True:
            wait = HEARTBEAT_S - (clock() - beat)
            if wait <= 0:
                beat = clock()
                yield b": keep-alive\n\n"
                continue
            try:
                async with asyncio.timeout(wait):
                    await box.wake.wait()
            except TimeoutError:
                continue
            box.wake.clear()
            if box.error is not None:
                raise box.error
            state, event, end, box.state = box.state, box.event, box.end, None
            if state is not None and state != last:  # what comes meanwhile waits its turn
                last = state
                beat = clock()
                yield event
            if end is not None:
                yield sse("end", {"status": end})
                return
    finally:
        if listening is not None:
            listening.leave()
        release()


def snapshot_json(snapshot: Snapshot) -> dict[str, Any]:
    return asdict(snapshot)


__all__ = [
    "HEARTBEAT_S",
    "POLL_S",
    "PollTurns",
    "ProgressHub",
    "RunFeeds",
    "Snapshot",
    "StreamSlots",
    "snapshot_json",
    "sse",
    "stream",
]
