"""The engine's places in flight: never more than the concurrency, a freed place goes to a waiting
memory case before a waiting tool case, ``exclusive`` (the safe schedule's ``/seed``) holds every
place with no case in flight, and cancelled waiters never leak or double-book a place."""

from __future__ import annotations

import asyncio
from contextlib import AbstractAsyncContextManager

from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.engine.slots import Slots as _Slots


def hold(slots: _Slots, urgent: bool) -> AbstractAsyncContextManager[None]:
    """A place for one case, queued now."""
    return slots.hold(slots.tickets(1, urgent)[0])


def test_a_freed_place_goes_to_a_memory_case_first() -> None:
    async def go() -> list[str]:
        slots, order = _Slots(1), []
        release = asyncio.Event()

        async def holder() -> None:
            async with hold(slots, urgent=False):
                await release.wait()

        async def waiter(name: str, urgent: bool) -> None:
            async with hold(slots, urgent):
                order.append(name)

        first = asyncio.create_task(holder())
        await asyncio.sleep(0)
        waiting = [
            asyncio.create_task(waiter("tool-1", False)),
            asyncio.create_task(waiter("tool-2", False)),
            asyncio.create_task(waiter("memory-1", True)),
            asyncio.create_task(waiter("memory-2", True)),
        ]
        await asyncio.sleep(0)
        release.set()
        await asyncio.gather(first, *waiting)
        return order

    assert asyncio.run(go()) == ["memory-1", "memory-2", "tool-1", "tool-2"]


def test_after_a_seed_the_waves_cases_go_before_waiting_tool_cases() -> None:
    async def go() -> list[str]:
        slots, order = _Slots(2), []
        tools_may_end = asyncio.Event()

        async def case(name: str, ticket: asyncio.Future[None], wait: bool) -> None:
            async with slots.hold(ticket):
                order.append(name)
                if wait:
                    await tools_may_end.wait()

        tickets = slots.tickets(4, urgent=False)
        tools = [asyncio.create_task(case(f"tool-{i}", t, i < 2)) for i, t in enumerate(tickets)]
        await asyncio.sleep(0)  # two tool cases in flight, two waiting

        async def seed() -> list[asyncio.Task[None]]:
            async with slots.exclusive():  # waits for the two in flight; starts no other
                order.append("seed")
                wave = slots.tickets(2, urgent=True)
                return [
                    asyncio.create_task(case(f"memory-{i}", t, False)) for i, t in enumerate(wave)
                ]

        seeding = asyncio.create_task(seed())
        await asyncio.sleep(0)
        tools_may_end.set()
        memory = await seeding
        await asyncio.gather(*tools, *memory)
        return order

    order = asyncio.run(asyncio.wait_for(go(), 5))
    assert order == ["tool-0", "tool-1", "seed", "memory-0", "memory-1", "tool-2", "tool-3"]


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(1, 4),
    plan=st.lists(
        st.tuples(
            st.sampled_from(["tool", "memory", "seed"]),
            st.integers(0, 3),
            st.none() | st.integers(0, 4),
        ),
        max_size=24,
    ),
)
def test_places_are_never_exceeded_lost_or_doubled(
    size: int, plan: list[tuple[str, int, int | None]]
) -> None:
    """Each job: a tool or memory case or a seed (``exclusive``), how many loop turns it holds
    its place(s), and after how many turns it is cancelled (if at all): waiting, just handed a
    place, or holding one. No case is ever in flight while a seed holds every place."""

    async def go() -> None:
        slots, busy, peak, seeding = _Slots(size), [0], [0], [0]

        async def job(kind: str, turns: int) -> None:
            if kind == "seed":
                async with slots.exclusive():
                    assert busy[0] == 0 and seeding[0] == 0
                    seeding[0] += 1
                    try:
                        for _ in range(turns):
                            await asyncio.sleep(0)
                    finally:
                        seeding[0] -= 1
                return
            async with hold(slots, kind == "memory"):
                assert seeding[0] == 0
                busy[0] += 1
                peak[0] = max(peak[0], busy[0])
                try:
                    for _ in range(turns):
                        await asyncio.sleep(0)
                finally:
                    busy[0] -= 1

        # One seed waits at a time, as in a run (the memory phases seed one wave after another).
        seeds = asyncio.Lock()

        async def one(kind: str, turns: int) -> None:
            if kind == "seed":
                async with seeds:
                    await job(kind, turns)
            else:
                await job(kind, turns)

        tasks = [asyncio.create_task(one(kind, turns)) for kind, turns, _ in plan]
        for turn in range(5):
            for task, (_, _, cancel_at) in zip(tasks, plan, strict=True):
                if cancel_at == turn:
                    task.cancel()
            await asyncio.sleep(0)
        await asyncio.gather(*tasks, return_exceptions=True)
        assert peak[0] <= size
        # Every place is free again: `size` new holders get in at once.
        entered = 0

        async def probe() -> None:
            nonlocal entered
            async with hold(slots, urgent=True):
                entered += 1
                await asyncio.sleep(0)

        await asyncio.wait_for(asyncio.gather(*(probe() for _ in range(size))), 1)
        assert entered == size and slots._free == size

    asyncio.run(go())
