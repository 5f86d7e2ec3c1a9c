"""One producer per run for the event streams (service/events.py): however many listen, the run
is read once a tick; each listener gets the bytes one reader alone would have sent; a listener
that does not read never holds the others up and is handed the newest state, not a backlog; the
producer stops when its last listener leaves or the run ends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from dittobench.service import events
from dittobench.service.events import RunFeeds, stream

OVER = ("done", "failed", "cancelled")
State = dict[str, Any]


def state(status: str, done: int) -> State:
    return {"status": status, "progress": {"stage": status, "done": done, "total": 3}}


def terminal(seen: State) -> bool:
    return seen["status"] in OVER


class Script:
    """A job's states, one per read; the last one is read again once the script is spent."""

    def __init__(self, states: list[State | None]) -> None:
        self.states, self.reads = iter(states), 0
        self.last: State | None = None

    def __call__(self) -> State | None:
        self.reads += 1
        self.last = next(self.states, self.last)
        return self.last


RUN = [state("queued", 0), state("queued", 0), state("running", 1), state("running", 2)]
RUN_BYTES = (
    b'event: progress\ndata: {"status":"queued","progress":{"stage":"queued","done":0,"total":3}}'
    b'\n\nevent: progress\ndata: {"status":"running","progress":{"stage":"running","done":1,'
    b'"total":3}}\n\nevent: progress\ndata: {"status":"running","progress":{"stage":"running",'
    b'"done":2,"total":3}}\n\nevent: progress\ndata: {"status":"done","progress":{"stage":"done",'
    b'"done":3,"total":3}}\n\nevent: end\ndata: {"status":"done"}\n\n'
)


async def collect(chunks: AsyncIterator[bytes]) -> bytes:
    return b"".join([chunk async for chunk in chunks])


def listen(feeds: RunFeeds, read: Callable[[], State | None], released: list[int]) -> Any:
    return stream(feeds, "r-1", read, terminal, lambda: released.append(1))


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ([*RUN, state("done", 3)], RUN_BYTES),
        ([None], b'event: end\ndata: {"status":"unknown"}\n\n'),
        (
            [state("failed", 0)],
            b'event: progress\ndata: {"status":"failed","progress":{"stage":"failed","done":0,'
            b'"total":3}}\n\nevent: end\ndata: {"status":"failed"}\n\n',
        ),
    ],
)
def test_a_listener_gets_the_events_one_reader_sent(
    script: list[State | None], expected: bytes
) -> None:
    released: list[int] = []
    feeds = RunFeeds(poll_s=0.001)
    got = asyncio.run(collect(listen(feeds, Script(script), released)))
    assert got == expected
    assert released == [1]


def test_many_listeners_share_one_read_a_tick() -> None:
    async def main() -> tuple[list[bytes], int, int]:
        feeds = RunFeeds(poll_s=0.01)
        read = Script([*RUN, state("done", 3)])
        released: list[int] = []
        got = await asyncio.gather(*(collect(listen(feeds, read, released)) for _ in range(50)))
        return got, read.reads, len(released)

    got, reads, released = asyncio.run(main())
    assert got == [RUN_BYTES] * 50
    assert reads == 5  # one producer: each state read once, not once a listener
    assert released == 50


def test_a_listener_that_does_not_read_holds_no_one_up_and_gets_the_newest() -> None:
    async def main() -> tuple[bytes, bytes, int]:
        feeds = RunFeeds(poll_s=0.001)
        released: list[int] = []
        stuck = listen(feeds, Script([*RUN, state("done", 3)]), released)
        first = await anext(stuck)  # then it sends nothing while the run goes on
        others = await collect(listen(feeds, lambda: None, released))  # never its producer's
        rest = await collect(stuck)
        return first + rest, others, feeds.producing()

    stuck, others, producing = asyncio.run(main())
    assert others == RUN_BYTES  # served in full while the first listener sent nothing
    assert stuck.startswith(RUN_BYTES[: RUN_BYTES.index(b"\n\n") + 2])
    assert stuck.endswith(RUN_BYTES[RUN_BYTES.index(b'event: progress\ndata: {"status":"done"') :])
    assert stuck.count(b"event: progress") == 2  # the states it had no time for are skipped
    assert producing == 0


def test_the_producer_stops_when_its_last_listener_leaves() -> None:
    async def main() -> tuple[int, int, int, int]:
        feeds = RunFeeds(poll_s=0.001)
        read = Script([state("running", 1)])  # never ends
        released: list[int] = []
        streams = [listen(feeds, read, released) for _ in range(3)]
        for one in streams:
            await anext(one)
        await streams[0].aclose()
        await asyncio.sleep(0.02)
        still = read.reads
        await asyncio.sleep(0.02)
        assert read.reads > still  # two listeners left: still read
        running = feeds.producing()
        for one in streams[1:]:
            await one.aclose()
        stopped = read.reads
        await asyncio.sleep(0.05)
        return running, feeds.producing(), read.reads - stopped, len(released)

    running, after, reads_after, released = asyncio.run(main())
    assert (running, after) == (1, 0)
    assert reads_after <= 1  # at most the read that was under way
    assert released == 3


def test_a_listener_after_the_end_gets_a_producer_of_its_own() -> None:
    async def main() -> tuple[bytes, bytes]:
        feeds = RunFeeds(poll_s=0.001)
        released: list[int] = []
        first = await collect(listen(feeds, Script([*RUN, state("done", 3)]), released))
        late = await collect(listen(feeds, Script([state("done", 3)]), released))
        return first, late

    first, late = asyncio.run(main())
    assert first == RUN_BYTES
    assert late == RUN_BYTES[RUN_BYTES.index(b'event: progress\ndata: {"status":"done"') :]


def test_a_failing_read_ends_every_stream_with_the_error() -> None:
    def broken() -> State | None:
        raise RuntimeError("the store is gone")

    async def main() -> list[BaseException | bytes]:
        feeds = RunFeeds(poll_s=0.001)
        released: list[int] = []
        ends = [collect(listen(feeds, broken, released)) for _ in range(3)]
        return await asyncio.gather(*ends, return_exceptions=True)

    assert [str(end) for end in asyncio.run(main())] == ["the store is gone"] * 3


def test_a_quiet_run_gets_a_heartbeat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "HEARTBEAT_S", 0.02)

    async def main() -> list[bytes]:
        feeds = RunFeeds(poll_s=0.001)
        quiet = listen(feeds, Script([state("running", 1)]), [])
        got = [await anext(quiet), await anext(quiet)]
        await quiet.aclose()
        return got

    first, second = asyncio.run(main())
    assert first.startswith(b"event: progress\n")
    assert second == b": keep-alive\n\n"
