"""Time the engine's own process spent stalled, kept out of the harness's deadlines.

A case's deadline is the harness's to meet, but the clock runs on while the engine itself cannot
run: another thread holding the GIL for seconds (the scoring service parsing something heavy, a
regular expression gone catastrophic), the machine swapping, the process stopped. Cases in flight
would then be recorded ``timeout`` and charged to a harness that may have answered in time.

``StallWatch`` is a task on the engine's event loop that wakes every ``TICK_S``. Whatever
lateness of a wake-up goes beyond ``THRESHOLD_S`` (ordinary scheduling jitter stays below it) is
added to ``stalled_s``; ``clock()`` is monotonic time minus that total, including the lateness
of a wake-up still overdue, so it reads right at once when the loop resumes, before the watch has
run. It never goes backwards and freezes while the process is stalled. Time the loop spends on
the engine's own work beyond the threshold counts as a stall too: it is not the harness's either.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

TICK_S = 0.05
"""How often the watch wakes."""
THRESHOLD_S = 0.25
"""Lateness of a wake-up up to this is jitter; only what goes beyond it counts as stalled."""


class StallWatch:
    """Counts the engine's stalls on the running event loop between ``start`` and ``stop``."""

    def __init__(
        self,
        tick_s: float = TICK_S,
        threshold_s: float = THRESHOLD_S,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._tick, self._threshold, self._monotonic = tick_s, threshold_s, monotonic
        self._stalled = 0.0
        self._due: float | None = None
        """When the watch's next wake-up is due; None while it is not running."""
        self._task: asyncio.Task[None] | None = None

    @property
    def stalled_s(self) -> float:
        """Seconds counted as stalled so far (a stall still under way included)."""
        return self._stalled + self._overdue(self._monotonic())

    def clock(self) -> float:
        """Monotonic seconds, less every second the engine was stalled."""
        now = self._monotonic()
        return now - self._stalled - self._overdue(now)

    def start(self) -> None:
        """Start watching on the running loop (idempotent)."""
        if self._task is None or self._task.done():
            self._due = self._monotonic() + self._tick
            self._task = asyncio.get_running_loop().create_task(self._watch(), name="stall-watch")

    async def stop(self) -> None:
        """Stop watching; ``clock`` then runs on without counting more."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.wait((task,))  # never swallows a cancellation of the caller
        self._stalled = self.stalled_s
        self._due = None

    def _overdue(self, now: float) -> float:
        due = self._due
        return 0.0 if due is None else max(0.0, now - due - self._threshold)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self._tick)
            now = self._monotonic()
            self._stalled += self._overdue(now)
            self._due = now + self._tick


__all__ = ["THRESHOLD_S", "TICK_S", "StallWatch"]
