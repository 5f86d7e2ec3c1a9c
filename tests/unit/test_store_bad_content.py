"""A run store that is valid SQLite but holds values the store never writes (edited by hand,
damaged, or written by another program): every read names the run and the column, and listing
still shows every other run. Also: what opening a store creates, and with which modes."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from dittobench.store import (
    BadContentError,
    NoStoreError,
    RunRow,
    RunStore,
    StoreError,
    UnreadableRun,
)
from tests.unit.test_store import make_run as base_run

T0 = "2025-01-01T00:00:00Z"


def make_run(run_id: str, created_at: str = T0) -> RunRow:
    """The store tests' run, running with two cases."""
    run = base_run(run_id, created_at=created_at)
    return replace(run, harness="builtin", stage="running", cases_total=2)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "runs.db"
    with RunStore(RunStore.sqlite_url(path)) as store:
        store.create_run(make_run("good", "2025-01-01T00:00:00Z"))
        store.create_run(make_run("bad", "2025-01-02T00:00:00Z"))
        store.record_case("bad", "c1", "tool", {"case_id": "c1"}, updated_at=T0)
        report = {"composite": 0.5, "composite_stderr": 0.1, "transcript_sha256": "t"}
        store.save_report("bad", report, {"cases": []}, updated_at=T0)
    return path


def poke(db: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(sql, params)


@pytest.fixture
def store(db: Path) -> Iterator[RunStore]:
    with RunStore(RunStore.sqlite_url(db)) as opened:
        yield opened


BAD_COLUMNS = [
    ("seed", "abc"),
    ("seed", "-1"),
    ("seed", " 42"),
    ("seed", "1_000"),
    ("seed", str(2**63)),
    ("seed", 42.5),
    ("status", "paused"),
    ("stage", None),
    ("harness", b"\x00\xff"),
    ("created_at", b"2025"),
    ("cases_done", "x"),
    ("cases_total", -1),
    ("waves_seeded", 1.5),
    ("composite", "high"),
    ("composite_stderr", float("inf")),
    ("seed_source", "anyone"),
    ("seed_source", ""),
]


@pytest.mark.parametrize(("column", "value"), BAD_COLUMNS)
def test_a_bad_column_is_named_and_hides_no_other_run(db: Path, column: str, value: object) -> None:
    # Rebuild the table without NOT NULL so a NULL can be planted too, as another program could.
    if value is None:
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA writable_schema=ON")
            conn.execute(
                "UPDATE sqlite_schema SET sql=replace(sql, 'NOT NULL', '') WHERE name='runs'"
            )
    poke(db, f"UPDATE runs SET {column}=? WHERE run_id='bad'", value)
    with RunStore(RunStore.sqlite_url(db)) as store:
        with pytest.raises(BadContentError) as raised:
            store.get_run("bad")
        message = str(raised.value)
        assert "'bad'" in message and f"column {column} " in message and str(db) in message
        assert "\n" not in message
        listed = store.list_runs()
        assert [type(r) for r in listed] == [UnreadableRun, RunRow]
        assert listed[0] == UnreadableRun("bad", message)
        assert store.get_run("good").seed == 42


@pytest.mark.parametrize(
    ("text", "said"),
    [("{not json", "not valid JSON"), ("[1, 2]", "not a JSON object"), ("[" * 100_000, "JSON")],
)
def test_bad_stored_json_is_named(store: RunStore, db: Path, text: str, said: str) -> None:
    checks: list[tuple[str, Callable[[], object], str]] = [
        ("UPDATE reports SET report_json=?", lambda: store.report("bad"), "report_json"),
        (
            "UPDATE reports SET transcript_json=?",
            lambda: store.transcript("bad"),
            "transcript_json",
        ),
        ("UPDATE cases SET record_json=?", lambda: store.recorded_cases("bad"), "record_json"),
    ]
    for sql, read, column in checks:
        poke(db, sql, text)
        with pytest.raises(BadContentError) as raised:
            read()
        message = str(raised.value)
        assert f"run 'bad' in {db}: column {column}" in message and said in message
        assert "\n" not in message
    assert "case 'c1'" in message


def test_a_blob_where_json_belongs_is_named(store: RunStore, db: Path) -> None:
    poke(db, "UPDATE reports SET report_json=?", b"\x00{}")
    with pytest.raises(BadContentError, match="column report_json is bytes"):
        store.report("bad")


def test_opening_without_create_makes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "runs.db"
    with pytest.raises(NoStoreError, match=str(path)):
        RunStore(RunStore.sqlite_url(path), create=False)
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(StoreError, match="is not a folder") as raised:
        RunStore(RunStore.sqlite_url(tmp_path / "file" / "x" / "runs.db"), create=False)
    assert not isinstance(raised.value, NoStoreError)


def test_a_folder_that_cannot_be_made_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(StoreError, match="Not a directory") as raised:
        RunStore(RunStore.sqlite_url(tmp_path / "file" / "sub" / "runs.db"))
    assert str(tmp_path / "file") in str(raised.value)


def test_a_new_store_is_owner_only_whatever_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "new" / "deeper" / "runs.db"
    before = os.umask(0)
    try:
        with RunStore(RunStore.sqlite_url(path)) as store:
            store.create_run(make_run("r"))
            files = [path, *path.parent.glob("runs.db-*")]  # the -wal and -shm files too
            modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in files}
    finally:
        os.umask(before)
    assert len(modes) == 3 and set(modes.values()) == {0o600}, modes
    for folder in (tmp_path / "new", path.parent):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700


SECRET_PIECES = ("zq7", "xk9", "vb3")


@pytest.mark.parametrize(
    "url",
    [
        "postgresql+psycopg://me:zq7@xk9:vb3@127.0.0.1:1/runs",
        "postgresql+psycopg://me:zq7:xk9@vb3@127.0.0.1:notaport/runs",
        "postgresql+psycopg://me:zq7/xk9@vb3@127.0.0.1:1/runs",
        "postgresql+psycopg://me:zq7@xk9/vb3@127.0.0.1:1/runs",
        "mysql://me:zq7@xk9:vb3@[::1/runs",
        "nosuchdb://me:zq7@xk9:vb3@host/runs",
    ],
)
def test_no_message_shows_any_part_of_a_password(url: str) -> None:
    with pytest.raises(StoreError) as raised:
        RunStore(url)
    for piece in SECRET_PIECES:
        assert piece not in str(raised.value), str(raised.value)
