"""The run store on real databases: round trips, upserts, errors and durability across reopen.
Tests taking ``store_url`` or ``store`` run on a SQLite file and on a PostgreSQL server (skipped
where none is installed); the rest check SQLite files themselves."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dittobench.store import RunRow, RunStore, StoreError

T0 = "2025-01-01T00:00:00Z"
T1 = "2025-01-01T00:05:00Z"
T2 = "2025-01-01T00:10:00Z"
BIG_SEED = 2**63 - 1


def make_run(run_id: str = "run-1", *, seed: int = 42, created_at: str = T0) -> RunRow:
    return RunRow(
        run_id=run_id,
        seed=seed,
        bench_version="1.0",
        run_size="small",
        dataset_sha256="d" * 64,
        harness="echo",
        status="running",
        stage="generating",
        error="",
        created_at=created_at,
        updated_at=created_at,
        cases_done=0,
        cases_total=0,
        composite=None,
        composite_stderr=None,
        transcript_sha256="",
        waves_seeded=0,
    )


def report_for(composite: float = 0.75) -> dict[str, object]:
    return {
        "composite": composite,
        "composite_stderr": 0.05,
        "transcript_sha256": "t" * 64,
        "per_case": [{"case_id": "c1", "score": 1.0}],
        "note": "café ☕",
    }


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "nested" / "dir" / "runs.db"


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, db_path: Path) -> str:
    if request.param == "sqlite":
        return RunStore.sqlite_url(db_path)
    return str(request.getfixturevalue("postgres_database"))


@pytest.fixture
def store(store_url: str) -> Iterator[RunStore]:
    with RunStore(store_url) as opened:
        yield opened


def test_creates_parent_dirs_and_tables(db_path: Path) -> None:
    RunStore(RunStore.sqlite_url(db_path)).close()
    assert db_path.is_file()
    with sqlite3.connect(db_path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    conn.close()
    assert {"runs", "cases", "reports"} <= tables
    assert mode == "wal"


def test_create_get_list(store: RunStore) -> None:
    run = make_run()
    store.create_run(run)
    assert store.get_run("run-1") == run
    assert store.list_runs() == [run]
    assert store.report("run-1") is None
    assert store.transcript("run-1") is None
    assert store.recorded_cases("run-1") == {}


def test_who_chose_the_seed_is_kept_and_checked(store: RunStore) -> None:
    assert make_run().seed_source == "submitter"  # unless said otherwise: practice
    drawn = replace(make_run("run-2"), seed_source="operator")
    store.create_run(drawn)
    assert store.get_run("run-2").seed_source == "operator"
    with pytest.raises(StoreError, match="unknown seed source 'anyone'"):
        anyone: Any = "anyone"  # what mypy refuses, the store refuses too
        store.create_run(replace(make_run("run-3"), seed_source=anyone))
    assert [r.run_id for r in store.list_runs()] == ["run-2"]


def test_duplicate_id_is_refused(store: RunStore) -> None:
    store.create_run(make_run())
    with pytest.raises(StoreError, match=r"'run-1' already exists"):
        store.create_run(make_run(seed=7))
    assert store.get_run("run-1").seed == 42


def test_unknown_id_is_named(store: RunStore) -> None:
    with pytest.raises(StoreError, match=r"no run 'ghost'"):
        store.get_run("ghost")
    with pytest.raises(StoreError, match=r"no run 'ghost'"):
        store.update_run("ghost", updated_at=T1, status="failed")
    with pytest.raises(StoreError, match=r"no run 'ghost'"):
        store.record_case("ghost", "c1", "memory", {}, updated_at=T1)
    with pytest.raises(StoreError, match=r"no run 'ghost'"):
        store.save_report("ghost", report_for(), {}, updated_at=T1)
    with pytest.raises(StoreError, match=r"no run 'ghost'"):
        store.recorded_cases("ghost")
    with pytest.raises(StoreError, match=r"no run 'ghost'"):
        store.report("ghost")


def test_update_run_changes_only_given_fields(store: RunStore) -> None:
    run = make_run()
    store.create_run(run)
    store.update_run("run-1", updated_at=T1, stage="seeding", cases_total=12, waves_seeded=3)
    assert store.get_run("run-1") == replace(
        run, updated_at=T1, stage="seeding", cases_total=12, waves_seeded=3
    )
    store.update_run("run-1", updated_at=T2, status="failed", error="harness died")
    got = store.get_run("run-1")
    assert (got.status, got.error, got.stage, got.updated_at) == (
        "failed",
        "harness died",
        "seeding",
        T2,
    )


def test_update_run_rejects_unknown_status_and_stage(store: RunStore) -> None:
    store.create_run(make_run())
    with pytest.raises(StoreError, match="status 'finished'"):
        store.update_run("run-1", updated_at=T1, status="finished")  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="stage 'grading'"):
        store.update_run("run-1", updated_at=T1, stage="grading")  # type: ignore[arg-type]
    assert store.get_run("run-1").updated_at == T0


def test_record_case_upserts_and_counts(store: RunStore) -> None:
    store.create_run(make_run())
    store.record_case("run-1", "c1", "memory", {"answer": "first"}, updated_at=T1)
    store.record_case("run-1", "c2", "tool", {"calls": ["a"]}, updated_at=T1)
    assert store.get_run("run-1").cases_done == 2
    store.record_case("run-1", "c1", "memory", {"answer": "second"}, updated_at=T2)
    got = store.get_run("run-1")
    assert (got.cases_done, got.updated_at) == (2, T2)
    assert store.recorded_cases("run-1") == {"c1": {"answer": "second"}, "c2": {"calls": ["a"]}}
    with pytest.raises(StoreError, match="no run 'nope'"):
        store.record_case("nope", "c1", "memory", {}, updated_at=T2)


def test_a_case_write_that_fails_is_undone_whole(db_path: Path) -> None:
    """A case's write is one transaction on the driver's own connection: a statement failing
    midway leaves nothing of it (the run's row untouched), and the failure is a StoreError."""
    with RunStore(RunStore.sqlite_url(db_path)) as store:
        store.create_run(make_run())
        store.record_case("run-1", "c1", "memory", {"n": 1}, updated_at=T1)
        with sqlite3.connect(db_path) as conn:
            conn.execute(
                "CREATE TRIGGER refuse BEFORE INSERT ON cases "
                "BEGIN SELECT RAISE(ABORT, 'full'); END"
            )
        conn.close()
        with pytest.raises(StoreError, match=r"runs\.db: .*full"):
            store.record_case("run-1", "c2", "memory", {"n": 2}, updated_at=T2)
        got = store.get_run("run-1")
        assert (got.cases_done, got.updated_at) == (1, T1)  # its lock and stamp rolled back
        store.record_case("run-1", "c1", "memory", {"n": 3}, updated_at=T2)  # still writes
        assert store.recorded_cases("run-1") == {"c1": {"n": 3}}


def test_records_are_stored_as_json_text(db_path: Path) -> None:
    with RunStore(RunStore.sqlite_url(db_path)) as store:
        store.create_run(make_run())
        store.record_case("run-1", "c1", "memory", {"b": 1, "a": "second"}, updated_at=T1)
        store.record_case("run-1", "c2", "tool", {"calls": ["a"]}, updated_at=T1)
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT case_id, record_json FROM cases ORDER BY case_id").fetchall()
    conn.close()
    assert rows == [("c1", '{"a": "second", "b": 1}'), ("c2", '{"calls": ["a"]}')]


def test_cases_are_counted_per_run(store: RunStore) -> None:
    store.create_run(make_run("a"))
    store.create_run(make_run("b"))
    store.record_case("a", "c1", "memory", {}, updated_at=T1)
    store.record_case("b", "c1", "memory", {"x": 1}, updated_at=T1)
    store.record_case("b", "c2", "memory", {}, updated_at=T1)
    assert [store.get_run(r).cases_done for r in ("a", "b")] == [1, 2]
    assert store.recorded_cases("a") == {"c1": {}}


def test_recorded_cases_round_trip(store: RunStore) -> None:
    store.create_run(make_run())
    records = {
        "c1": {"answer": "naïve — ok", "latency_ms": 12, "nested": {"list": [1, 2.5, None]}},
        "c2": {"calls": [], "flag": True},
    }
    for case_id, record in records.items():
        store.record_case("run-1", case_id, "memory", record, updated_at=T1)
    assert store.recorded_cases("run-1") == records


def test_save_report_marks_done(store: RunStore) -> None:
    store.create_run(make_run())
    transcript = {"cases": [{"case_id": "c1"}], "seed": str(BIG_SEED)}
    store.save_report("run-1", report_for(0.8125), transcript, updated_at=T2)
    got = store.get_run("run-1")
    assert (got.status, got.stage, got.updated_at) == ("done", "done", T2)
    assert (got.composite, got.composite_stderr) == (0.8125, 0.05)
    assert got.transcript_sha256 == "t" * 64
    assert store.report("run-1") == report_for(0.8125)
    assert store.transcript("run-1") == transcript
    store.save_report("run-1", report_for(0.5), transcript, updated_at=T2)
    assert store.get_run("run-1").composite == 0.5
    assert store.report("run-1") == report_for(0.5)


def test_save_report_needs_its_fields(store: RunStore) -> None:
    store.create_run(make_run())
    with pytest.raises(StoreError, match="transcript_sha256"):
        store.save_report("run-1", {"composite": 1.0, "composite_stderr": 0.0}, {}, updated_at=T1)
    assert store.get_run("run-1").status == "running"


def test_everything_survives_reopen(store_url: str) -> None:
    url = store_url
    first = RunStore(url)
    first.create_run(make_run("old", created_at=T0))
    first.create_run(make_run("new", seed=BIG_SEED, created_at=T1))
    first.update_run("new", updated_at=T2, stage="running", cases_total=2, waves_seeded=1)
    first.record_case("new", "c1", "tool", {"calls": ["x"]}, updated_at=T2)
    first.save_report("old", report_for(), {"cases": []}, updated_at=T2)
    before = first.list_runs()
    first.close()

    with RunStore(url) as second:
        assert second.list_runs() == before
        new = second.get_run("new")
        assert (new.seed, new.cases_done, new.cases_total, new.waves_seeded) == (
            BIG_SEED,
            1,
            2,
            1,
        )
        assert second.recorded_cases("new") == {"c1": {"calls": ["x"]}}
        assert second.report("old") == report_for()
        assert second.transcript("old") == {"cases": []}
        assert second.get_run("old").status == "done"


def test_list_order_and_limit(store: RunStore) -> None:
    store.create_run(make_run("b", created_at=T1))
    store.create_run(make_run("c", created_at=T0))
    store.create_run(make_run("a", created_at=T1))
    store.create_run(make_run("d", created_at=T2))
    assert [r.run_id for r in store.list_runs()] == ["d", "a", "b", "c"]
    assert [r.run_id for r in store.list_runs(limit=2)] == ["d", "a"]


@pytest.mark.parametrize("seed", [0, 1, 2**53 + 1, BIG_SEED])
def test_big_seeds_round_trip(store_url: str, seed: int) -> None:
    with RunStore(store_url) as store:
        store.create_run(make_run(seed=seed))
    with RunStore(store_url) as store:
        assert store.get_run("run-1").seed == seed


def test_seeds_are_stored_as_text(db_path: Path) -> None:
    seed = BIG_SEED
    with RunStore(RunStore.sqlite_url(db_path)) as store:
        store.create_run(make_run(seed=seed))
    with sqlite3.connect(db_path) as conn:
        stored = conn.execute("SELECT seed, typeof(seed) FROM runs").fetchone()
    conn.close()
    assert stored == (str(seed), "text")


def test_garbage_file_is_refused_with_its_path(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    path.write_bytes(b"this is not a database\x00\xff" * 64)
    with pytest.raises(StoreError, match="cannot open run store") as info:
        RunStore(RunStore.sqlite_url(path))
    assert str(path) in str(info.value)


def test_foreign_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    conn.close()
    with pytest.raises(StoreError, match="not a dittobench run store") as info:
        RunStore(RunStore.sqlite_url(path))
    assert str(path) in str(info.value)


def test_incompatible_runs_table_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE runs (run_id TEXT PRIMARY KEY, seed TEXT)")
    conn.close()
    with pytest.raises(StoreError, match="table 'runs' lacks bench_version"):
        RunStore(RunStore.sqlite_url(path))


def test_odd_file_names_survive_the_url(tmp_path: Path) -> None:
    path = tmp_path / "a dir?#%" / "runs 1.db"
    with RunStore(RunStore.sqlite_url(path)) as store:
        store.create_run(make_run())
    assert path.is_file()


def test_closed_store_refuses_use(db_path: Path) -> None:
    store = RunStore(RunStore.sqlite_url(db_path))
    store.close()
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.list_runs()


def test_writers_of_one_run_never_collide(store_url: str) -> None:
    """Several connections recording the same new cases at once: each case is kept once, the
    count is exact and no writer fails."""
    with RunStore(store_url) as first:
        first.create_run(make_run())
    case_ids = [f"c{i}" for i in range(12)]
    failures: list[BaseException] = []

    def writer(number: int) -> None:
        try:
            with RunStore(store_url) as mine:
                for case_id in case_ids:
                    mine.record_case("run-1", case_id, "tool", {"by": number}, updated_at=T1)
                mine.save_report("run-1", report_for(), {"cases": []}, updated_at=T2)
        except BaseException as exc:  # reported below, not lost in the thread
            failures.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with RunStore(store_url) as after:
        assert after.get_run("run-1").cases_done == len(case_ids)
        assert sorted(after.recorded_cases("run-1")) == sorted(case_ids)
        assert after.report("run-1") == report_for()


def test_first_use_from_several_processes_at_once(store_url: str) -> None:
    failures: list[BaseException] = []
    ready = threading.Barrier(4)

    def opener() -> None:
        try:
            ready.wait()
            RunStore(store_url).close()
        except BaseException as exc:  # reported below, not lost in the thread
            failures.append(exc)

    threads = [threading.Thread(target=opener) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
