"""The run store's tables, and how a database is prepared for them: SQLite in WAL mode with
writers taking the lock up front, PostgreSQL with an advisory lock around table creation, and the
columns a store made by an older version lacks added on open."""

from __future__ import annotations

import sqlite3
import time
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from dittobench.store import migrations
from dittobench.store.errors import StoreError

# Execution option marking a connection that will write: on SQLite its transaction starts with
# BEGIN IMMEDIATE, taking the write lock up front. A deferred transaction that reads and then
# writes can fail with "database is locked" when another writer commits in between, and the
# busy timeout does not retry that case.
WRITE_OPTION = "dittobench_write"

WAL_SWITCH_WAIT_S = 10.0
_SCHEMA_LOCK = 0x6469_7474_6F62  # "dittob": the PostgreSQL advisory lock held while creating tables

_metadata = sa.MetaData()

runs_table = sa.Table(
    "runs",
    _metadata,
    sa.Column("run_id", sa.Text, primary_key=True),
    # TEXT, not INTEGER: seeds are 63-bit and some backends (and JSON tooling) lose precision.
    sa.Column("seed", sa.Text, nullable=False),
    sa.Column("bench_version", sa.Text, nullable=False),
    sa.Column("run_size", sa.Text, nullable=False),
    sa.Column("dataset_sha256", sa.Text, nullable=False),
    sa.Column("harness", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("stage", sa.Text, nullable=False),
    sa.Column("error", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Text, nullable=False),
    sa.Column("cases_done", sa.Integer, nullable=False),
    sa.Column("cases_total", sa.Integer, nullable=False),
    sa.Column("composite", sa.Float, nullable=True),
    sa.Column("composite_stderr", sa.Float, nullable=True),
    sa.Column("transcript_sha256", sa.Text, nullable=False),
    sa.Column("waves_seeded", sa.Integer, nullable=False),
    # Added later; a store made before them gains them on open (migration 0001).
    sa.Column("schedule", sa.Text, nullable=False, server_default=""),
    sa.Column("lease_owner", sa.Text, nullable=False, server_default=""),
    sa.Column("lease_until", sa.Text, nullable=False, server_default=""),
    sa.Column("pack_id", sa.Text, nullable=False, server_default=""),
    sa.Column("pack_sha256", sa.Text, nullable=False, server_default=""),
    sa.Column("pack_path", sa.Text, nullable=False, server_default=""),
    # The run's wire nonce (hex): keys every id its harness is shown. Empty for a run made before.
    sa.Column("wire_nonce", sa.Text, nullable=False, server_default=""),
    # Who chose the seed (``spec.seeds``; migration 0005): only ``operator`` runs are ranked.
    # A row made before it reads ``submitter`` unless it provably drew a fresh seed.
    sa.Column("seed_source", sa.Text, nullable=False, server_default="submitter"),
    # How many times the run was resumed (migration 0007): 0 for a fresh start and for a row
    # made before it.
    sa.Column("resumes", sa.Integer, nullable=False, server_default="0"),
)

cases_table = sa.Table(
    "cases",
    _metadata,
    sa.Column("run_id", sa.Text, sa.ForeignKey("runs.run_id"), primary_key=True),
    sa.Column("case_id", sa.Text, primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("record_json", sa.Text, nullable=False),
)

reports_table = sa.Table(
    "reports",
    _metadata,
    sa.Column("run_id", sa.Text, sa.ForeignKey("runs.run_id"), primary_key=True),
    sa.Column("report_json", sa.Text, nullable=False),
    sa.Column("transcript_json", sa.Text, nullable=False),
)


def run_exists(conn: Connection, run_id: str) -> bool:
    query = sa.select(runs_table.c.run_id).where(runs_table.c.run_id == run_id)
    return conn.execute(query).first() is not None


def configure_sqlite(engine: Engine) -> None:
    """WAL (readers never block the writer), enforced foreign keys, and transactions SQLAlchemy
    begins itself: the sqlite3 module's legacy mode starts none for reads or DDL."""

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            _use_wal(cursor)
            # In WAL mode NORMAL never corrupts the file; a power cut can lose the last few
            # commits, which a resume simply runs again. FULL would fsync on every case.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _use_wal(cursor: Any) -> None:
    """Switch the file to WAL (it stays so). The switch needs the file to itself and SQLite does
    not wait for it as it waits for locks, so processes opening a new store at once retry."""
    give_up = time.monotonic() + WAL_SWITCH_WAIT_S
    while cursor.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > give_up:
                raise
            time.sleep(0.02)


def prepare_schema(conn: Connection, where: str, *, sqlite: bool) -> None:
    """Bring the store to the newest revision (``store.migrations``), but refuse a database
    whose tables are not ours (writing runs into another program's database, or an incompatible
    layout, would corrupt both) and one a newer dittobench has migrated past what this one knows."""
    if conn.dialect.name == "postgresql":
        # Processes opening an empty database at once would race to migrate it (SQLite's write
        # transaction already serialises them).
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
    existing = set(sa.inspect(conn).get_table_names())
    if sqlite and existing and not existing & (set(_metadata.tables) | {migrations.VERSION_TABLE}):
        raise StoreError(
            f"{where} is not a dittobench run store (it holds other tables: "
            f"{', '.join(sorted(existing))})"
        )
    revision = migrations.current_revision(conn)
    if revision != migrations.HEAD:
        if revision is not None and revision not in migrations.known_revisions():
            raise StoreError(
                f"{where} is at schema revision {revision!r}, which this version of dittobench "
                "does not know (a newer one migrated it): upgrade dittobench to use it"
            )
        _check_columns(conn, where)
        migrations.upgrade(conn)
    _check_columns(conn, where)


def _check_columns(conn: Connection, where: str) -> None:
    """Every column of the run tables is there (those a migration adds are, once it ran)."""
    inspector = sa.inspect(conn)
    existing = set(inspector.get_table_names())
    for name in sorted(existing & set(_metadata.tables)):
        have = {column["name"] for column in inspector.get_columns(name)}
        missing = [
            c.name
            for c in _metadata.tables[name].columns
            if c.name not in have and c.server_default is None
        ]
        if missing:
            raise StoreError(
                f"{where} is not a dittobench run store: table {name!r} lacks {', '.join(missing)}"
            )
