"""Finished cases are written to the run store a few at a time (``engine.casebook``): in batches
of at most ``BATCH_CASES``, within ``BATCH_WAIT_S`` of finishing, before any other call reaches
the store, and when the run stops. An engine killed outright and resumed asks the harness again
for no case that was recorded before the kill."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from dittobench.engine.casebook import BATCH_CASES, BATCH_WAIT_S, BatchedStore
from dittobench.engine.client import ClientLimits
from dittobench.engine.runner import RunOptions, resume_run
from dittobench.generate.assemble import build_dataset
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.wireids import WireIds
from dittobench.store import RunRow, RunStore
from dittobench.store.runs import RunTakenError
from tests.helpers.harness_process import harness

T0 = "2026-01-01T00:00:00Z"
RUN = "r-20260101-000000-abcdef"
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Counting(RunStore):
    """A store that counts its transactions of case records and logs every call in order."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.batches: list[list[str]] = []
        self.calls: list[str] = []

    def record_cases(self, run_id: str, records: Any, **kwargs: Any) -> None:
        self.batches.append([case_id for case_id, _kind, _record in records])
        self.calls.append("record_cases")
        super().record_cases(run_id, records, **kwargs)

    def update_run(self, run_id: str, **kwargs: Any) -> None:
        self.calls.append("update_run")
        super().update_run(run_id, **kwargs)


def a_run(store: RunStore) -> None:
    row = RunRow(RUN, 1, CURRENT_VERSION, "small", "0" * 64, "h", "running", "running", "", T0, T0,
                 0, 100, None, None, "", 0)  # fmt: skip
    store.create_run(row)


def test_cases_are_written_in_batches_and_none_is_left_behind(tmp_path: Path) -> None:
    store = Counting(RunStore.sqlite_url(tmp_path / "runs.db"))
    a_run(store)
    batched = BatchedStore(store)

    async def finish_cases() -> None:
        for n in range(BATCH_CASES + 3):
            batched.record_case(RUN, f"c{n:02d}", "tool", {"n": n}, updated_at=T0)
        assert len(store.batches) == 1  # the full batch went at once, the rest waits
        batched.record_case(RUN, "c00", "tool", {"n": "again"}, updated_at=T0)
        await asyncio.sleep(BATCH_WAIT_S * 2)  # the wait's timer fires first

    asyncio.run(finish_cases())
    assert [len(b) for b in store.batches] == [BATCH_CASES, 4]
    kept = store.recorded_cases(RUN)
    assert len(kept) == BATCH_CASES + 3 and kept["c00"] == {"n": "again"}
    assert store.get_run(RUN).cases_done == BATCH_CASES + 3


def test_pending_cases_are_written_before_any_other_call_and_on_flush(tmp_path: Path) -> None:
    store = Counting(RunStore.sqlite_url(tmp_path / "runs.db"))
    a_run(store)
    batched = BatchedStore(store)

    async def go() -> None:
        batched.record_case(RUN, "c1", "memory", {}, updated_at=T0)
        batched.update_run(RUN, updated_at=T0, waves_seeded=1)  # a wave marked seeded after it
        batched.record_case(RUN, "c2", "memory", {}, updated_at=T0)
        batched.flush()  # the run stops

    asyncio.run(go())
    assert store.calls == ["record_cases", "update_run", "record_cases"]
    assert set(store.recorded_cases(RUN)) == {"c1", "c2"}


def test_a_write_that_failed_in_the_background_is_raised_by_the_next_call(
    tmp_path: Path,
) -> None:
    store = RunStore(RunStore.sqlite_url(tmp_path / "runs.db"))
    a_run(store)
    store.claim_run(RUN, "a", now=T0, until="2026-01-01T00:01:00Z")
    store.claim_run(RUN, "b", now="2026-01-01T00:02:00Z", until="2026-01-01T00:03:00Z")
    batched = BatchedStore(store)

    async def go() -> None:
        batched.record_case(RUN, "c1", "memory", {}, updated_at=T0, holder="a")
        await asyncio.sleep(BATCH_WAIT_S * 2)
        with pytest.raises(RunTakenError):
            batched.get_run(RUN)

    asyncio.run(go())
    assert store.recorded_cases(RUN) == {}


def _started(url: str) -> list[str]:
    with OPENER.open(f"{url}/stats", timeout=5) as reply:
        events: list[list[Any]] = json.loads(reply.read())["events"]
    return [event[1] for event in events if event[0] == "start"]


def _wait_for_cases(db: Path, at_least: int, timeout: float = 60) -> str:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        if db.exists():
            with RunStore(RunStore.sqlite_url(db)) as probe:
                runs = [r for r in probe.list_runs() if isinstance(r, RunRow)]
                if runs and runs[0].cases_done >= at_least:
                    return runs[0].run_id
        time.sleep(0.05)
    raise AssertionError(f"no run reached {at_least} recorded cases")


@pytest.mark.slow
def test_a_killed_engine_resumed_asks_no_recorded_case_again(tmp_path: Path) -> None:
    db, seed = tmp_path / "runs.db", 3
    with harness("slow", "--delay-ms", "40") as url:
        command = [
            sys.executable, "-m", "dittobench", "run", "--harness", url, "--seed", str(seed),
            "--run-size", "small", "--concurrency", "2", "--db", str(db),
            "--out-dir", str(tmp_path / "out"), "--bench-version", CURRENT_VERSION,
        ]  # fmt: skip
        with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as run:
            try:
                run_id = _wait_for_cases(db, 3)
            finally:
                run.send_signal(signal.SIGKILL)
                run.wait(timeout=10)
        asked_before = len(_started(url))
        with RunStore(RunStore.sqlite_url(db)) as store:
            row = store.get_run(run_id)
            recorded = set(store.recorded_cases(run_id))
            total = row.cases_total
            assert row.status == "running" and 3 <= len(recorded) < total
            limits = ClientLimits(health_wait_s=10, health_interval_s=0.05, run_deadline_s=10)
            options = RunOptions(url, 0, "small", CURRENT_VERSION, 2, tmp_path / "out", limits)
            resume_run(store, run_id, options, lambda: T0, lambda _p: None)
            assert store.get_run(run_id).status == "done"
            assert len(store.recorded_cases(run_id)) == total
        asked_after = _started(url)[asked_before:]
    dataset = build_dataset(seed, CURRENT_VERSION, "small")
    ids = WireIds.of(dataset, row.wire_nonce)
    writes = {case.id for case in dataset.memory_cases if case.write_op}  # replayed on resume
    again = {case for case in recorded - writes if ids.case(case) in asked_after}
    assert again == set()
    unrecorded = {c.id for c in dataset.tool_cases} | {q[0] for q in dataset.asked()}
    assert {ids.case(c) for c in unrecorded - recorded} <= set(asked_after)
