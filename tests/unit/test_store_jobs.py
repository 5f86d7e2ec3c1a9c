"""The service's jobs in the run store (``store.jobs``), on SQLite and PostgreSQL: queue order,
one active job per submitter, guarded status changes, listing, and survival across reopen."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dittobench.store import RunStore, StoreError
from dittobench.store.jobs import ACTIVE, ActiveJobError, JobRow, ServiceStore

T0 = "2026-01-01T00:00:00Z"


def job(run_id: str, submitter: str = "alice", seed: int = 2**63 - 1) -> JobRow:
    return JobRow(
        run_id, 0, submitter, "submit", "http://203.0.114.7:9000", seed, "small", "2.0.0", "",
        "queued", "", False, "", "", T0, T0, "",
    )  # fmt: skip


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return RunStore.sqlite_url(tmp_path / "runs.db")
    return str(request.getfixturevalue("postgres_database"))


@pytest.fixture
def store(store_url: str) -> Iterator[ServiceStore]:
    with ServiceStore(store_url) as opened:
        yield opened


def test_jobs_queue_in_order_and_survive_reopen(store: ServiceStore, store_url: str) -> None:
    made = [store.create_job(job(f"r-{i}", f"user{i}")) for i in range(3)]
    assert [m.seq for m in made] == [1, 2, 3]
    assert [j.run_id for j in store.jobs_in(frozenset({"queued"}))] == ["r-0", "r-1", "r-2"]
    store.close()
    with ServiceStore(store_url) as again:
        kept = again.get_job("r-2")
        assert kept is not None and kept.seed == 2**63 - 1 and kept.status == "queued"


def test_one_unfinished_job_per_submitter(store: ServiceStore) -> None:
    store.create_job(job("r-1"))
    with pytest.raises(ActiveJobError) as refused:
        store.create_job(job("r-2"))
    assert refused.value.run_id == "r-1"
    store.create_job(job("r-3", "bob"))  # another submitter is not held up
    store.update_job("r-1", updated_at=T0, status="done")
    store.create_job(job("r-2"))  # finished: the next may come


def test_guarded_updates_never_reopen_a_finished_job(store: ServiceStore) -> None:
    store.create_job(job("r-1"))
    assert store.update_job(
        "r-1", updated_at=T0, status="cancelled", only_from=frozenset({"queued"})
    )
    assert not store.update_job("r-1", updated_at=T0, status="running", only_from=ACTIVE)
    store.update_job("r-1", updated_at=T0, failure=("harness", True, "gone"))
    got = store.get_job("r-1")
    assert got is not None and got.status == "cancelled" and got.failure_retryable
    with pytest.raises(StoreError):
        exploded: Any = "exploded"  # what mypy refuses, the store refuses too
        store.update_job("r-1", updated_at=T0, status=exploded)
    with pytest.raises(StoreError):
        store.update_job("nope", updated_at=T0, status="done")


def test_listing_filters_and_pages_newest_first(store: ServiceStore) -> None:
    for i in range(5):
        store.create_job(job(f"r-{i}", "alice" if i % 2 else "bob"), one_per_submitter=False)
    page, total = store.list_jobs(limit=2, offset=1)
    assert [j.run_id for j in page] == ["r-3", "r-2"] and total == 5
    mine, total = store.list_jobs(submitter="alice")
    assert [j.run_id for j in mine] == ["r-3", "r-1"] and total == 2
    store.update_job("r-0", updated_at=T0, status="done")
    done, total = store.list_jobs(status="done")
    assert [j.run_id for j in done] == ["r-0"] and total == 1


def test_a_new_database_becomes_a_run_store_first(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    ServiceStore(RunStore.sqlite_url(path)).close()
    RunStore(RunStore.sqlite_url(path)).close()  # a plain run store opens it as its own
    with sqlite3.connect(path) as conn:
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert {"runs", "cases", "reports", "service_jobs"} <= names


def test_a_job_keeps_who_chose_its_seed(store: ServiceStore) -> None:
    assert store.create_job(job("r-1")).seed_source == "submitter"  # the default: practice
    store.create_job(replace(job("r-2", "bob"), seed_source="operator"))
    kept = store.get_job("r-2")
    assert kept is not None and kept.seed_source == "operator"
    with pytest.raises(StoreError, match="unknown seed source"):
        carol: Any = "carol"
        store.create_job(replace(job("r-3", "carol"), seed_source=carol))
    assert store.get_job("r-3") is None


def test_a_damaged_row_is_named(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with ServiceStore(RunStore.sqlite_url(path)) as store:
        store.create_job(replace(job("r-1"), seed=5))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE service_jobs SET seed = 'x7'")
    conn.close()
    with ServiceStore(RunStore.sqlite_url(path)) as store, pytest.raises(StoreError, match="r-1"):
        store.get_job("r-1")


@pytest.mark.parametrize(("column", "value"), [("run_size", "huge"), ("mode", "rerun")])
def test_a_job_whose_size_or_mode_was_edited_is_named(
    tmp_path: Path, column: str, value: str
) -> None:
    path = tmp_path / "runs.db"
    with ServiceStore(RunStore.sqlite_url(path)) as store:
        store.create_job(job("r-1"))
    with sqlite3.connect(path) as conn:
        conn.execute(f"UPDATE service_jobs SET {column} = ?", (value,))
    conn.close()
    with (
        ServiceStore(RunStore.sqlite_url(path)) as store,
        pytest.raises(StoreError, match=rf"r-1.*{column} holds '{value}'"),
    ):
        store.get_job("r-1")


def test_a_job_whose_seed_source_was_edited_is_named(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with ServiceStore(RunStore.sqlite_url(path)) as store:
        store.create_job(job("r-1"))
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE service_jobs SET seed_source = 'me'")
    conn.close()
    with (
        ServiceStore(RunStore.sqlite_url(path)) as store,
        pytest.raises(StoreError, match=r"r-1.*seed_source holds 'me'"),
    ):
        store.get_job("r-1")
