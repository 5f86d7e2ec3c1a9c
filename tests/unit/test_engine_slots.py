"""The engine's places in flight: never more than the concurrency, a freed place goes to a waiting
memory case before a waiting tool case, and cancelled waiters never leak or double-book a place."""

from __future__ import annotations

import asyncio

from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.engine.orchestrate import _Slots


def test_a_freed_place_goes_to_a_memory_case_first() -> None:
    async def go() -> list[str]:
        slots, order = _Slots(1), []
        release = asyncio.Event()

        async def holder() -> None:
            async with slots.hold(urgent=False):
                await release.wait()

        async def waiter(name: str, urgent: bool) -> None:
            async with slots.hold(urgent):
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


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(1, 4),
    plan=st.lists(
        st.tuples(st.booleans(), st.integers(0, 3), st.none() | st.integers(0, 4)), max_size=24
    ),
)
def test_places_are_never_exceeded_lost_or_doubled(
    size: int, plan: list[tuple[bool, int, int | None]]
) -> None:
    """Each job: urgent or not, how many loop turns it holds its place, and after how many
    turns it is cancelled (if at all): waiting, just handed a place, or holding one."""

    async def go() -> None:
        slots, busy, peak = _Slots(size), [0], [0]

        async def job(urgent: bool, turns: int) -> None:
            async with slots.hold(urgent):
                busy[0] += 1
                peak[0] = max(peak[0], busy[0])
                try:
                    for _ in range(turns):
                        await asyncio.sleep(0)
                finally:
                    busy[0] -= 1

        tasks = [asyncio.create_task(job(urgent, turns)) for urgent, turns, _ in plan]
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
            async with slots.hold(urgent=True):
                entered += 1
                await asyncio.sleep(0)

        await asyncio.wait_for(asyncio.gather(*(probe() for _ in range(size))), 1)
        assert entered == size and slots._free == size

    asyncio.run(go())
