"""The places for cases in flight (``--concurrency``).

A case queues for a place with a ticket (a future resolved when the place is its); a freed place
goes to a waiting urgent (memory) case before a waiting tool case, so tool cases only take places
the memory phases leave idle. ``exclusive`` takes every place at once (the safe schedule's
``/seed``). ``shrink`` lowers the number of places while the run goes on (a harness that answers
fewer cases at once than it is sent): places in use are not taken back, they are kept as they
come free.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator


class Slots:
    def __init__(self, size: int) -> None:
        self._size = size
        self._free = size
        self._owed = 0
        """Places ``shrink`` took away that were in use then: kept back as they come free."""
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._other: deque[asyncio.Future[None]] = deque()
        self._all: asyncio.Future[None] | None = None
        """Set while ``exclusive`` waits for every place: freed places are kept for it."""

    @property
    def size(self) -> int:
        return self._size

    @property
    def busy(self) -> int:
        """Places in use now (cases in flight, or the ``/seed`` holding them all)."""
        return self._size + self._owed - self._free

    def shrink(self) -> int:
        """Halve the places (never below one); the new number."""
        fewer = self._size - max(1, self._size // 2)
        self._size -= fewer
        taken = min(fewer, self._free)
        self._free -= taken
        self._owed += fewer - taken
        if self._all is not None and self._free == self._size and not self._all.done():
            self._all.set_result(None)
        return self._size

    def tickets(self, count: int, urgent: bool) -> list[asyncio.Future[None]]:
        """``count`` tickets, queued now in this order (granted at once while places are free)."""
        loop = asyncio.get_running_loop()
        made = []
        for _ in range(count):
            ticket = loop.create_future()
            if self._free > 0 and self._all is None:
                self._free -= 1
                ticket.set_result(None)
            else:
                (self._urgent if urgent else self._other).append(ticket)
            made.append(ticket)
        return made

    @contextlib.asynccontextmanager
    async def hold(self, ticket: asyncio.Future[None]) -> AsyncIterator[None]:
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():
                self._release()  # handed a place while being cancelled: pass it on
            raise
        try:
            yield
        finally:
            self._release()

    @contextlib.asynccontextmanager
    async def exclusive(self) -> AsyncIterator[None]:
        """Every place: waits for the cases in flight to finish while no new one starts."""
        self._all = asyncio.get_running_loop().create_future()
        if self._free == self._size:
            self._all.set_result(None)
        try:
            await self._all
        except asyncio.CancelledError:
            self._all = None
            free, self._free = self._free, 0
            for _ in range(free):
                self._release()  # the places it was keeping go to waiting cases
            raise
        self._all = None
        self._free = 0
        try:
            yield
        finally:
            for _ in range(self.busy):  # every place, those a shrink meanwhile owes included
                self._release()

    def _release(self) -> None:
        if self._owed:
            self._owed -= 1  # a place shrink took away
            return
        if self._all is not None:
            self._free += 1
            if self._free == self._size and not self._all.done():
                self._all.set_result(None)
            return
        for queue in (self._urgent, self._other):
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(None)
                    return
        self._free += 1


__all__ = ["Slots"]
