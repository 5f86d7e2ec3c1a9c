"""The order a harness sees, checked from a real harness process's own log: every memory case runs
after its wave is seeded and before the next wave is, in both schedules; by default (the safe
schedule) no ``/seed`` arrives while any ``/run`` is in flight, yet tool cases still fill the places
the memory phases leave idle; ``overlap`` (opt-in) lets tool cases run through seeding. The
harness logs the ids it was shown, read back through the run's nonce."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from dittobench.engine.client import ClientLimits
from dittobench.engine.runner import RunOptions, start_run
from dittobench.generate.assemble import build_dataset
from dittobench.spec.vocab import RunSizeName
from dittobench.spec.wire import DEFAULT_USER_ID
from dittobench.spec.wireids import WireIds
from dittobench.store import RunStore
from tests.helpers.harness_process import harness

LIMITS = ClientLimits(health_wait_s=10, health_interval_s=0.05, run_deadline_s=5.0)
SEED, VERSION = 17, "1.1.0"
SIZE: RunSizeName = "medium"
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def events_of_a_run(tmp_path: Path, schedule: str) -> list[list[Any]]:
    """The harness's log, with the case and user ids it was shown mapped to the dataset's."""
    with harness("slow", "--delay-ms", "20") as url:
        with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
            options = RunOptions(
                url,
                SEED,
                SIZE,
                VERSION,
                4,
                tmp_path / "out",
                LIMITS,
                strict_order=schedule == "strict",
                overlap=schedule == "overlap",
            )
            start_run(store, "r-order", options, lambda: "2026-11-30T00:00:00Z", lambda p: None)
            row = store.get_run("r-order")
            assert row.schedule == ("overlap" if schedule == "overlap" else "safe")
        with OPENER.open(f"{url}/stats", timeout=5) as reply:
            events: list[list[Any]] = json.loads(reply.read())["events"]
    ids = WireIds.of(build_dataset(SEED, VERSION, SIZE), row.wire_nonce)
    assert ids.nonce and all(ids.dataset_id(e[1]) != e[1] for e in events)
    return [[e[0], ids.dataset_id(e[1]), *e[2:]] for e in events]


def position(events: list[list[Any]]) -> dict[tuple[str, str], int]:
    """(what, case id or "user/wave") -> index in the log."""
    where = {}
    for index, event in enumerate(events):
        key = f"{event[1]}/{event[2]}" if event[0] == "seed" else event[1]
        where[(event[0], key)] = index
    return where


def check_wave_barriers(events: list[list[Any]]) -> None:
    dataset = build_dataset(SEED, VERSION, SIZE)
    at = position(events)
    waves = [w.wave for w in dataset.memory_waves if w.user_id == DEFAULT_USER_ID]
    starts = [e for e in events if e[0] == "start"]
    assert len(starts) == len(dataset.tool_cases) + len(dataset.memory_cases)  # each once
    assert len({e[1] for e in starts}) == len(starts)
    for case in dataset.memory_cases:
        assert at[("seed", f"{DEFAULT_USER_ID}/{case.run_after_wave}")] < at[("start", case.id)]
        later = [w for w in waves if w > case.run_after_wave]
        if later:
            assert at[("end", case.id)] < at[("seed", f"{DEFAULT_USER_ID}/{later[0]}")]
    seeds = [(e[1], e[2]) for e in events if e[0] == "seed"]
    assert seeds == [(w.user_id, w.wave) for w in dataset.memory_waves]


def seeds_while_running(events: list[list[Any]]) -> list[list[Any]]:
    """The ``/seed`` events that arrived while some ``/run`` was in flight."""
    in_flight, found = 0, []
    for event in events:
        in_flight += {"start": 1, "end": -1}.get(event[0], 0)
        if event[0] == "seed" and in_flight:
            found.append(event)
    return found


@pytest.mark.parametrize("schedule", ["default", "strict", "overlap"])
def test_memory_cases_keep_their_wave_barriers(tmp_path: Path, schedule: str) -> None:
    check_wave_barriers(events_of_a_run(tmp_path, schedule))


@pytest.mark.parametrize("schedule", ["default", "strict"])
def test_no_seed_while_a_case_is_in_flight_by_default(tmp_path: Path, schedule: str) -> None:
    events = events_of_a_run(tmp_path, schedule)
    assert seeds_while_running(events) == []
    # Tool cases still fill the places memory phases leave idle: some run between seeds.
    tool_ids = {c.id for c in build_dataset(SEED, VERSION, SIZE).tool_cases}
    first_seed = next(i for i, e in enumerate(events) if e[0] == "seed")
    last_seed = max(i for i, e in enumerate(events) if e[0] == "seed")
    assert any(e[0] == "start" and e[1] in tool_ids for e in events[first_seed:last_seed])


def test_overlap_lets_tool_cases_run_through_seeding(tmp_path: Path) -> None:
    events = events_of_a_run(tmp_path, "overlap")
    assert seeds_while_running(events), "no /seed overlapped a tool case"
    memory_ids = {c.id for c in build_dataset(SEED, VERSION, SIZE).memory_cases}
    for seed in seeds_while_running(events):
        at = events.index(seed)
        running = set()
        for event in events[:at]:
            if event[0] == "start":
                running.add(event[1])
            elif event[0] == "end":
                running.discard(event[1])
        assert not running & memory_ids  # never a memory case: the wave barrier holds
