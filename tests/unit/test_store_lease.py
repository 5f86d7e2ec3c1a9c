"""The run lease on real databases (a SQLite file and a PostgreSQL server, skipped where none is
installed): one holder at a time, even when claims race from many threads; renewal and release
only by the holder; a lease that ran out, or whose holder is known dead, can be taken over; and a
store made before the lease and schedule columns gains them when opened."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from dittobench.store import RunStore, StoreError
from dittobench.store.runs import RunBusyError, RunTakenError
from tests.helpers.legacy_store import as_before_migrations
from tests.unit.test_store import T0, T1, T2, make_run

LATER = "2025-01-01T00:15:00Z"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return RunStore.sqlite_url(tmp_path / "runs.db")
    return str(request.getfixturevalue("postgres_database"))


@pytest.fixture
def store(store_url: str) -> Iterator[RunStore]:
    with RunStore(store_url) as opened:
        opened.create_run(make_run())
        yield opened


def test_one_holder_at_a_time(store: RunStore) -> None:
    store.claim_run("run-1", "a", now=T0, until=T2)
    store.claim_run("run-1", "a", now=T1, until=LATER)  # the holder may claim again
    with pytest.raises(RunBusyError, match="another process \\(a\\)") as refused:
        store.claim_run("run-1", "b", now=T1, until=LATER)
    assert (refused.value.owner, refused.value.until) == ("a", LATER)
    row = store.get_run("run-1")
    assert (row.lease_owner, row.lease_until) == ("a", LATER)


def test_renew_and_release_only_by_the_holder(store: RunStore) -> None:
    store.claim_run("run-1", "a", now=T0, until=T1)
    assert not store.renew_lease("run-1", "b", until=LATER)
    store.release_run("run-1", "b")
    assert store.get_run("run-1").lease_owner == "a"
    assert store.renew_lease("run-1", "a", until=LATER)
    assert store.get_run("run-1").lease_until == LATER
    store.release_run("run-1", "a")
    assert (store.get_run("run-1").lease_owner, store.get_run("run-1").lease_until) == ("", "")
    store.claim_run("run-1", "b", now=T1, until=T2)  # free again
    assert not store.renew_lease("run-1", "a", until=LATER)  # a lost it


def test_a_lease_that_ran_out_or_a_dead_holder_is_taken_over(store: RunStore) -> None:
    store.claim_run("run-1", "a", now=T0, until=T1)
    store.claim_run("run-1", "b", now=T1, until=T2)  # a's lease ended at T1
    with pytest.raises(RunBusyError):
        store.claim_run("run-1", "c", now=T1, until=LATER, take_over="a")  # a is not the holder
    store.claim_run("run-1", "c", now=T1, until=LATER, take_over="b")
    assert store.get_run("run-1").lease_owner == "c"


def test_claiming_an_unknown_run_is_named(store: RunStore) -> None:
    with pytest.raises(StoreError, match="no run 'ghost'"):
        store.claim_run("ghost", "a", now=T0, until=T1)


def test_racing_claims_have_exactly_one_winner(store_url: str, store: RunStore) -> None:
    winners: list[str] = []
    start = threading.Barrier(8)

    def claim(owner: str) -> None:
        with RunStore(store_url) as mine:
            start.wait()
            try:
                mine.claim_run("run-1", owner, now=T0, until=T1)
            except RunBusyError:
                return
            winners.append(owner)

    threads = [threading.Thread(target=claim, args=(f"p{i}",)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(winners) == 1
    assert store.get_run("run-1").lease_owner == winners[0]


def test_the_schedule_is_kept(store: RunStore) -> None:
    store.update_run("run-1", updated_at=T1, schedule="safe")
    assert store.get_run("run-1").schedule == "safe"


def test_a_store_made_before_the_lease_gains_its_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with RunStore(RunStore.sqlite_url(path)) as store:
        store.create_run(make_run())
    with sqlite3.connect(path) as conn:  # as an earlier version left it: no migrations yet
        for column in ("schedule", "lease_owner", "lease_until", "resumes"):
            conn.execute(f"ALTER TABLE runs DROP COLUMN {column}")
    conn.close()
    as_before_migrations(path)
    with RunStore(RunStore.sqlite_url(path)) as store:
        row = store.get_run("run-1")
        assert (row.schedule, row.lease_owner, row.run_id) == ("", "", "run-1")
        assert row.resumes == 0
        store.claim_run("run-1", "a", now=T0, until=T1)


def test_a_case_is_recorded_only_while_its_holder_holds_the_run(store: RunStore) -> None:
    store.claim_run("run-1", "a", now=T0, until=T1)
    store.record_case("run-1", "c1", "memory", {"n": 1}, updated_at=T0, holder="a")
    store.claim_run("run-1", "b", now=T1, until=T2)  # a's lease ran out: b took the run
    with pytest.raises(RunTakenError, match="no longer held by a"):
        store.record_case("run-1", "c2", "memory", {"n": 2}, updated_at=T1, holder="a")
    store.record_case("run-1", "c3", "memory", {"n": 3}, updated_at=T1, holder="b")
    assert sorted(store.recorded_cases("run-1")) == ["c1", "c3"]
    assert store.get_run("run-1").cases_done == 2
    with pytest.raises(StoreError, match="no run 'ghost'"):
        store.record_case("ghost", "c1", "memory", {}, updated_at=T1, holder="b")
