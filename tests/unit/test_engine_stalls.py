"""The stall watch's clock (``engine.stalls``), on a clock the test moves: lateness beyond the
threshold is left out, at once (before the watch wakes) and for good (after), and the clock
never goes backwards."""

from __future__ import annotations

import asyncio

from dittobench.engine.stalls import StallWatch


def test_lateness_beyond_the_threshold_is_left_out_and_the_clock_never_goes_back() -> None:
    now = [100.0]
    watch = StallWatch(tick_s=0.05, threshold_s=0.25, monotonic=lambda: now[0])
    seen: list[float] = []

    async def go() -> None:
        watch.start()  # due at 100.05
        now[0] = 100.2  # late, within the threshold: jitter, counted as time
        seen.append(watch.clock())
        assert watch.stalled_s == 0
        for step in (0.5, 1.0, 2.05):  # a stall under way, before the watch has woken
            now[0] = 100.0 + step
            seen.append(watch.clock())
        assert abs(watch.stalled_s - 1.75) < 1e-9  # 2.0 s late, less 0.25 s of jitter
        await asyncio.sleep(0.1)  # the watch wakes (the moved clock stands still meanwhile)
        assert abs(watch.stalled_s - 1.75) < 1e-9
        seen.append(watch.clock())
        now[0] = 102.1  # an ordinary 50 ms later
        seen.append(watch.clock())
        await watch.stop()
        now[0] = 110.0  # not watched any more: time runs on, nothing is left out
        seen.append(watch.clock())

    asyncio.run(go())
    assert seen == sorted(seen)
    assert seen[0] == 100.2  # then it runs until 0.25 s late (100.3) and stands still
    assert all(abs(t - 100.3) < 1e-9 for t in seen[1:5])
    assert abs(seen[-2] - (102.1 - 1.75)) < 1e-9 and abs(seen[-1] - (110.0 - 1.75)) < 1e-9


def test_the_clock_is_monotonic_time_when_nothing_stalls() -> None:
    now = [5.0]
    watch = StallWatch(monotonic=lambda: now[0])
    assert watch.clock() == 5.0  # not started: nothing to leave out
    now[0] = 9.0
    assert watch.clock() == 9.0 and watch.stalled_s == 0
