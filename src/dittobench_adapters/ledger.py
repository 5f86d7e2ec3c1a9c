"""``/seed`` in front of a memory system: each wave's new pairs go to ``ingest`` once.

The engine sends every wave again when a run resumes, and a harness must take the same wave twice
without change; most memory systems would store a pair twice. The ledger remembers which pairs it
has handed over (in this process) and the newest timestamp per user, which is the reader's "today"
and the stamp of a note saved later. The first wave a user is seen in starts with ``reset(user)``,
so a system that keeps its memory on disk starts each run clean. Subjects and links (prepared
topic indexes) are not handed over: memory systems build their own.
"""

from __future__ import annotations

import os
import threading
from datetime import datetime, timedelta

from dittobench.spec.wire import SeedRequest, SeedResponse
from dittobench_adapters.contract import MemoryAdapter, Turn
from dittobench_baseline.store import user_key
from dittobench_baseline.textutil import format_timestamp, parse_timestamp


class Ledger:
    """The adapter harness's ``Seeder`` (``dittobench_baseline.server``)."""

    def __init__(self, adapter: MemoryAdapter) -> None:
        self.adapter = adapter
        # What was handed over is known only to this process: a new one starts afresh.
        self.instance = os.urandom(8).hex()
        self._lock = threading.Lock()
        self._stored: dict[str, set[str]] = {}
        self._newest: dict[str, datetime] = {}

    def upsert(self, request: SeedRequest) -> SeedResponse:
        user = user_key(request.user_id)
        with self._lock:
            stored = self._stored.get(user)
            if stored is None:
                self.adapter.reset(user)
                stored = self._stored[user] = set()
            fresh: dict[str, Turn] = {}
            for pair in request.pairs:
                if pair.pair_id not in stored:
                    fresh[pair.pair_id] = Turn(
                        user,
                        pair.session_id,
                        pair.timestamp,
                        pair.pair_id,
                        pair.prompt,
                        pair.response,
                    )
            if fresh:
                self.adapter.ingest(list(fresh.values()))
                stored.update(fresh)
                for turn in fresh.values():
                    self._note(user, turn.timestamp)
        return SeedResponse(pairs=len(request.pairs))

    def newest(self, user: str) -> datetime | None:
        """The latest timestamp among the user's stored pairs and notes; None before any."""
        with self._lock:
            return self._newest.get(user_key(user))

    def next_stamp(self, user: str) -> str:
        """A stamp for a note saved now: one second after the newest, so it reads as the latest
        word (no clock: the history's own time)."""
        with self._lock:
            newest = self._newest.get(user_key(user))
            stamp = format_timestamp(newest + timedelta(seconds=1)) if newest else ""
            if newest:
                self._newest[user_key(user)] = newest + timedelta(seconds=1)
            return stamp

    def _note(self, user: str, timestamp: str) -> None:
        moment = parse_timestamp(timestamp)
        if moment is not None and (user not in self._newest or moment > self._newest[user]):
            self._newest[user] = moment


__all__ = ["Ledger"]
