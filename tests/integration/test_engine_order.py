"""The order a harness sees, checked from a real harness process's own log: every memory case runs
after its wave is seeded and before the next wave is, in both schedules; by default tool cases fill
the places memory phases leave idle, and ``strict_order`` runs them all before any seeding with no
``/seed`` while a case is in flight."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from dittobench.engine.client import ClientLimits
from dittobench.engine.runner import RunOptions, start_run
from dittobench.generate.assemble import build_dataset
from dittobench.spec.wire import DEFAULT_USER_ID
from dittobench.store import RunStore
from tests.helpers.harness_process import harness

LIMITS = ClientLimits(health_wait_s=10, health_interval_s=0.05, run_deadline_s=5.0)
SEED, SIZE = 17, "medium"
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def events_of_a_run(tmp_path: Path, strict_order: bool) -> list[list[Any]]:
    with harness("slow", "--delay-ms", "20") as url:
        with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
            options = RunOptions(
                url, SEED, SIZE, "1.1.0", 4, tmp_path / "out", LIMITS, strict_order=strict_order
            )
            start_run(store, "r-order", options, lambda: "2026-11-30T00:00:00Z", lambda p: None)
        with OPENER.open(f"{url}/stats", timeout=5) as reply:
            events: list[list[Any]] = json.loads(reply.read())["events"]
    return events


def position(events: list[list[Any]]) -> dict[tuple[str, str], int]:
    """(what, case id or "user/wave") -> index in the log."""
    where = {}
    for index, event in enumerate(events):
        key = f"{event[1]}/{event[2]}" if event[0] == "seed" else event[1]
        where[(event[0], key)] = index
    return where


def check_wave_barriers(events: list[list[Any]]) -> None:
    dataset = build_dataset(SEED, run_size=SIZE)
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


@pytest.mark.parametrize("strict_order", [False, True])
def test_memory_cases_keep_their_wave_barriers(tmp_path: Path, strict_order: bool) -> None:
    check_wave_barriers(events_of_a_run(tmp_path, strict_order))


def test_by_default_tool_cases_fill_the_memory_phases(tmp_path: Path) -> None:
    events = events_of_a_run(tmp_path, strict_order=False)
    tool_ids = {c.id for c in build_dataset(SEED, run_size=SIZE).tool_cases}
    first_seed = next(i for i, e in enumerate(events) if e[0] == "seed")
    last_seed = max(i for i, e in enumerate(events) if e[0] == "seed")
    late_tools = [e for e in events[first_seed:] if e[0] == "start" and e[1] in tool_ids]
    assert late_tools, "no tool case ran once seeding had begun"
    # Memory cases take a freed place first: no memory case waits for the tool cases to finish.
    last_tool_start = max(i for i, e in enumerate(events) if e[0] == "start" and e[1] in tool_ids)
    assert last_tool_start > last_seed


def test_strict_order_runs_every_tool_case_before_any_seeding(tmp_path: Path) -> None:
    events = events_of_a_run(tmp_path, strict_order=True)
    tool_ids = {c.id for c in build_dataset(SEED, run_size=SIZE).tool_cases}
    first_seed = next(i for i, e in enumerate(events) if e[0] == "seed")
    assert {e[1] for e in events[:first_seed] if e[0] == "end"} == tool_ids
    in_flight = 0
    for event in events:
        in_flight += {"start": 1, "end": -1}.get(event[0], 0)
        if event[0] == "seed":
            assert in_flight == 0, f"/seed {event[1:]} arrived while a case was in flight"
