"""Seeding the baseline's store costs work in proportion to what is seeded: twice the pairs (and
subjects), about twice the SQLite work, never four times. Counted in SQLite virtual-machine
steps (a progress handler called every 100 of them), which are the same on every run, not
timed. The store once looked up a pair's subject titles by walking every subject of the user,
once per pair, which made a 10,000-pair history take seconds (benchmarks/baseline_seed.py)."""

from __future__ import annotations

from dittobench_baseline.store import MemoryStore
from tests.helpers.seed_waves import synthetic


def steps_to_seed(pairs: int) -> int:
    """Hundreds of SQLite steps to seed a fresh store with a wave of ``pairs`` pairs and a
    quarter as many subjects."""
    with MemoryStore() as store:
        ticks = [0]

        def tick() -> int:
            ticks[0] += 1
            return 0  # carry on

        store._conn.set_progress_handler(tick, 100)
        store.upsert(synthetic(1, pairs))
        return ticks[0]


def test_seeding_work_grows_linearly_with_the_history() -> None:
    small, large = steps_to_seed(400), steps_to_seed(800)
    assert small > 0
    assert large / small < 2.3, (small, large)  # linear: about 2; the quadratic lookup: 3.6
