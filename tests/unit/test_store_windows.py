"""Scoring windows and the transparency log in the store, on SQLite and PostgreSQL: entries are
appended in order and never dated before the last one, the database refuses to change or delete
one, a window job needs an open window, and a window with an unfinished run cannot be revealed."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa

from dittobench.store import RunStore, StoreError
from dittobench.store.jobs import JobRow, ServiceStore, WindowStateError
from dittobench.store.windows import OPEN, REVEALED, WindowRow

T0 = "2026-03-01T10:00:00Z"
T1 = "2026-03-01T11:00:00Z"


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServiceStore]:
    if request.param == "sqlite":
        url = RunStore.sqlite_url(tmp_path / "runs.db")
    else:
        url = str(request.getfixturevalue("postgres_database"))
    with ServiceStore(url) as opened:
        yield opened


def window(window_id: str = "w-1") -> WindowRow:
    return WindowRow(window_id, "6.0.0", "small", "sealed", "ab" * 32, "/p", OPEN, "operator", T0)


def job(run_id: str, window_id: str) -> JobRow:
    return JobRow(
        run_id, 0, "alice", "submit", "http://203.0.114.7:9000", 7, "small", "6.0.0", "",
        "queued", "", False, "", "", T0, T0, "", seed_source="operator", window_id=window_id,
    )  # fmt: skip


def entry(at: str) -> bytes:
    return f'{{"at":"{at}"}}'.encode()


def test_entries_append_in_order_and_never_go_back_in_time(store: ServiceStore) -> None:
    assert store.log_size() == 0
    assert store.append_log(entry, T1) == (0, entry(T1))
    assert store.append_log(entry, T0) == (1, entry(T1))  # a clock behind the log: the log's time
    assert store.log_size() == 2
    assert store.log_entries(0, 2) == [entry(T1), entry(T1)]
    assert store.log_entries(1, 5) == [entry(T1)]


@pytest.mark.parametrize(
    "change", ["UPDATE log_entries SET entry_json = '{}'", "DELETE FROM log_entries"]
)
def test_the_database_refuses_to_rewrite_the_log(store: ServiceStore, change: str) -> None:
    store.append_log(entry, T0)
    with pytest.raises(StoreError, match="append-only"), store._writing() as conn:
        conn.execute(sa.text(change))
    assert store.log_entries(0, 1) == [entry(T0)]


def test_a_window_opens_and_reveals_with_its_entries(store: ServiceStore) -> None:
    assert store.open_window(window(), entry, T0) == 0
    with pytest.raises(StoreError, match="already exists"):
        store.open_window(window(), entry, T0)
    assert store.log_size() == 1  # the refused opening logged nothing
    store.create_job(job("r-1", "w-1"))
    with pytest.raises(WindowStateError, match="run r-1 of window w-1 is not finished"):
        store.reveal_window("w-1", entry, T1)
    store.update_job("r-1", updated_at=T1, status="done")
    assert store.reveal_window("w-1", entry, T1) == 1
    found = store.get_window("w-1")
    assert found == replace(window(), state=REVEALED, revealed_at=T1)
    with pytest.raises(WindowStateError, match="not open"):
        store.reveal_window("w-1", entry, T1)
    with pytest.raises(WindowStateError, match="window w-1 is not open"):
        store.create_job(job("r-2", "w-1"))
    with pytest.raises(WindowStateError, match="window w-9 is not open"):
        store.create_job(job("r-3", "w-9"))
    assert [w.window_id for w in store.list_windows()] == ["w-1"]
    assert store.get_job("r-1") is not None and store.get_job("r-1").window_id == "w-1"  # type: ignore[union-attr]


def test_writers_appending_at_once_each_get_the_next_entry(store: ServiceStore) -> None:
    """Two workers logging receipts at the same moment: no entry is lost or refused."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        indexes = list(pool.map(lambda _n: store.append_log(entry, T0)[0], range(24)))
    assert sorted(indexes) == list(range(24))
    assert store.log_size() == 24
