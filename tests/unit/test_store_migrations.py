"""The run store's migrations on real databases (a SQLite file and a PostgreSQL server): a new
store is made at the newest revision; a store made before migrations (run tables without the
columns added since, the service's jobs table) is brought up keeping its rows; down to nothing
and up again; a revision this version does not know is refused; processes opening one empty
PostgreSQL database at once migrate it once; `dittobench db` upgrades and reports."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from dittobench.store import RunStore, StoreError, migrations
from dittobench.store.jobs import ServiceStore
from tests.helpers.cli import dittobench
from tests.unit.test_store import make_run

_OLD_JOBS = """CREATE TABLE service_jobs (run_id TEXT PRIMARY KEY, seq INTEGER NOT NULL UNIQUE,
 submitter TEXT NOT NULL, mode TEXT NOT NULL, harness_url TEXT NOT NULL, seed TEXT NOT NULL,
 run_size TEXT NOT NULL, bench_version TEXT NOT NULL, dataset_sha256 TEXT NOT NULL,
 status TEXT NOT NULL, failure_kind TEXT NOT NULL, failure_retryable INTEGER NOT NULL,
 failure_message TEXT NOT NULL, cancelled_by TEXT NOT NULL, created_at TEXT NOT NULL,
 updated_at TEXT NOT NULL, receipt_json TEXT NOT NULL)"""


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return RunStore.sqlite_url(tmp_path / "runs.db")
    return str(request.getfixturevalue("postgres_database"))


def _tables(url: str) -> set[str]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return set(sa.inspect(conn).get_table_names())
    finally:
        engine.dispose()


def _execute(url: str, *statements: str) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(sa.text(statement))
    finally:
        engine.dispose()


def test_the_head_constant_is_the_scripts_head() -> None:
    assert migrations.script_head() == migrations.HEAD
    assert migrations.known_revisions() == {"0001", "0002", "0003", "0004", "0005", "0006", "0007"}


def test_a_new_store_is_made_at_the_newest_revision(store_url: str) -> None:
    with RunStore(store_url) as store:
        assert store.schema_revision() == migrations.HEAD
    expected = {"alembic_version", "runs", "cases", "reports", "service_jobs", "workers", "suites"}
    expected |= {"submissions", "windows", "log_entries"}
    assert _tables(store_url) == expected


def test_a_store_made_before_migrations_keeps_its_rows(store_url: str) -> None:
    with RunStore(store_url) as store:
        store.create_run(make_run())
        store.record_case("run-1", "t-1", "tool", {"case_id": "t-1"}, updated_at="x")
    # As the last version without migrations left it: no revision, no workers or suites, the
    # jobs table of the service's first release, runs without the columns added later.
    _execute(
        store_url,
        "DROP TABLE alembic_version",
        "DROP TABLE workers",
        "DROP TABLE suites",
        "DROP TABLE submissions",
        "DROP TABLE log_entries",
        "DROP TABLE windows",
        "DROP TABLE service_jobs",
        _OLD_JOBS,
        "ALTER TABLE runs DROP COLUMN wire_nonce",
        "ALTER TABLE runs DROP COLUMN pack_path",
        "ALTER TABLE runs DROP COLUMN seed_source",
        "ALTER TABLE runs DROP COLUMN resumes",
    )
    with ServiceStore(store_url) as store:
        assert store.schema_revision() == migrations.HEAD
        assert store.get_run("run-1").wire_nonce == ""
        assert store.get_run("run-1").seed_source == "submitter"
        assert store.get_run("run-1").resumes == 0
        assert list(store.recorded_cases("run-1")) == ["t-1"]
        assert store.jobs_in(frozenset({"queued"})) == []


def _job_insert(run_id: str, seq: int, suite_id: str) -> str:
    return (
        "INSERT INTO service_jobs (run_id, seq, submitter, mode, harness_url, seed, run_size, "
        "bench_version, dataset_sha256, status, failure_kind, failure_retryable, "
        "failure_message, cancelled_by, created_at, updated_at, receipt_json, worker, suite_id) "
        f"VALUES ('{run_id}', {seq}, 'alice', 'submit', 'http://h', '5', 'small', '2.0.0', '', "
        f"'done', '', 0, '', '', 'x', 'x', '', '', '{suite_id}')"
    )


def test_old_runs_are_practice_unless_a_suite_drew_their_seeds(store_url: str) -> None:
    """0005 reads every run made before it as the submitter's seed, except the runs of a suite
    (a job with a suite id, or a run a suite row lists: the command line's local suites have no
    jobs), whose seeds every build drew fresh."""
    with RunStore(store_url) as store:
        for run_id in ("single", "in-suite-job", "in-cli-suite"):
            store.create_run(make_run(run_id))
    engine = sa.create_engine(store_url)
    try:
        with engine.begin() as conn:
            migrations.downgrade(conn, "0004")
    finally:
        engine.dispose()
    _execute(
        store_url,
        _job_insert("single", 1, ""),
        _job_insert("in-suite-job", 2, "s-1"),
        _job_insert("queued-suite-job", 3, "s-1"),
        "INSERT INTO suites VALUES ('s-2', 'cli', 'builtin', 'small', '2.0.0', 'x', 'x', "
        """'["in-cli-suite"]', '')""",
        "INSERT INTO suites VALUES ('s-3', 'cli', 'builtin', 'small', '2.0.0', 'x', 'x', "
        "'not json', '')",
    )
    with ServiceStore(store_url) as store:
        assert store.schema_revision() == migrations.HEAD
        runs = {r: store.get_run(r).seed_source for r in ("single", "in-suite-job", "in-cli-suite")}
        assert runs == {
            "single": "submitter",
            "in-suite-job": "operator",
            "in-cli-suite": "operator",
        }
        jobs = {j: store.get_job(j) for j in ("single", "in-suite-job", "queued-suite-job")}
        assert {name: job.seed_source for name, job in jobs.items() if job} == {
            "single": "submitter",
            "in-suite-job": "operator",
            "queued-suite-job": "operator",
        }


def test_a_store_at_0006_upgrades_and_counts_no_resumes(store_url: str) -> None:
    with RunStore(store_url) as store:
        store.create_run(make_run())
        store.update_run("run-1", updated_at="x", resumes=2)
    engine = sa.create_engine(store_url)
    try:
        with engine.begin() as conn:
            migrations.downgrade(conn, "0006")
            columns = {c["name"] for c in sa.inspect(conn).get_columns("runs")}
    finally:
        engine.dispose()
    assert "resumes" not in columns
    with RunStore(store_url) as store:
        assert store.schema_revision() == migrations.HEAD
        assert store.get_run("run-1").resumes == 0  # nothing was counted before 0007
        store.update_run("run-1", updated_at="y", resumes=1)
        assert store.get_run("run-1").resumes == 1


def test_down_to_nothing_and_up_again(store_url: str) -> None:
    with RunStore(store_url) as store:
        store.create_run(make_run())
    engine = sa.create_engine(store_url)
    try:
        with engine.begin() as conn:
            migrations.downgrade(conn, "base")
    finally:
        engine.dispose()
    assert _tables(store_url) == {"alembic_version"}
    with RunStore(store_url) as store:
        assert store.schema_revision() == migrations.HEAD
        store.create_run(make_run())


def test_a_revision_from_a_newer_version_is_refused(store_url: str) -> None:
    RunStore(store_url).close()
    _execute(store_url, "UPDATE alembic_version SET version_num = '0999'")
    with pytest.raises(StoreError, match=r"revision '0999'.*upgrade dittobench"):
        RunStore(store_url)


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    url = RunStore.sqlite_url(tmp_path / "other.db")
    _execute(url, "CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    with pytest.raises(StoreError, match="not a dittobench run store"):
        RunStore(url)
    assert _tables(url) == {"invoices"}


def test_racing_opens_of_an_empty_database_migrate_it_once(store_url: str) -> None:
    start, failures = threading.Barrier(6), []

    def open_it() -> None:
        start.wait()
        try:
            RunStore(store_url).close()
        except StoreError as exc:
            failures.append(exc)

    threads = [threading.Thread(target=open_it) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with RunStore(store_url) as store:
        assert store.schema_revision() == migrations.HEAD


def test_db_upgrade_and_current_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    missing = dittobench("db", "current", "--db", db)
    assert missing.returncode == 2
    assert "no run store" in missing.stderr
    made = dittobench("db", "upgrade", "--db", db)
    assert made.returncode == 0, made.stderr
    assert f"schema revision {migrations.HEAD} (newest)" in made.stdout
    shown = dittobench("db", "current", "--db", db)
    assert shown.stdout.strip() == (
        f"schema revision {migrations.HEAD}; newest {migrations.HEAD} (up to date)"
    )
