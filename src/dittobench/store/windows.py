"""Scoring windows (``windows``, migration 0006): a sealed pack's commitment for one bench
version and run size, ``open`` while the window's runs are scored on it and ``revealed`` once
the operator has published the pack. The store never reads the clock: callers pass times."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dittobench.store.errors import StoreError

OPEN = "open"
REVEALED = "revealed"

_metadata = sa.MetaData()

windows_table = sa.Table(
    "windows",
    _metadata,
    sa.Column("window_id", sa.Text, primary_key=True),
    sa.Column("bench_version", sa.Text, nullable=False),
    sa.Column("run_size", sa.Text, nullable=False),
    sa.Column("pack_id", sa.Text, nullable=False),
    sa.Column("pack_sha256", sa.Text, nullable=False),
    sa.Column("pack_path", sa.Text, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("opened_by", sa.Text, nullable=False),
    sa.Column("opened_at", sa.Text, nullable=False),
    sa.Column("revealed_at", sa.Text, nullable=False),
)


@dataclass(frozen=True, slots=True)
class WindowRow:
    window_id: str
    bench_version: str
    run_size: str
    pack_id: str
    pack_sha256: str
    """The commitment: the sealed pack's SHA-256 (``packs``)."""
    pack_path: str
    """The sealed pack's folder on the server (never shown before the reveal)."""
    state: str
    opened_by: str
    opened_at: str
    revealed_at: str = ""

    def covers(self, bench_version: str, run_size: str, at: str) -> bool:
        """Whether the window was open for ``bench_version`` and ``run_size`` at ``at`` (times
        have whole seconds: the second it opened and the second it was revealed both count, so
        a run made in either is taken as beside the window, practice rather than ranked)."""
        return (
            self.bench_version == bench_version
            and self.run_size == run_size
            and self.opened_at <= at
            and (self.state == OPEN or at <= self.revealed_at)
        )


def insert(conn: Connection, row: WindowRow) -> None:
    table = windows_table
    if conn.execute(sa.select(table.c.window_id).where(table.c.window_id == row.window_id)).first():
        raise StoreError(f"window {row.window_id!r} already exists")
    conn.execute(table.insert().values(**_columns(row)))


def select(conn: Connection, window_id: str) -> WindowRow | None:
    table = windows_table
    found = conn.execute(sa.select(table).where(table.c.window_id == window_id)).first()
    return None if found is None else WindowRow(**dict(found._mapping))


def select_all(conn: Connection) -> list[WindowRow]:
    """Every window, oldest first."""
    table = windows_table
    if not sa.inspect(conn).has_table(table.name):
        return []
    rows = conn.execute(sa.select(table).order_by(table.c.opened_at, table.c.window_id)).all()
    return [WindowRow(**dict(row._mapping)) for row in rows]


def mark_revealed(conn: Connection, window_id: str, at: str) -> bool:
    """Set an open window ``revealed`` at ``at``; False when it was not open."""
    table = windows_table
    done = conn.execute(
        table.update()
        .where((table.c.window_id == window_id) & (table.c.state == OPEN))
        .values(state=REVEALED, revealed_at=at)
    )
    return bool(done.rowcount)


def _columns(row: WindowRow) -> dict[str, str]:
    return {
        "window_id": row.window_id,
        "bench_version": row.bench_version,
        "run_size": row.run_size,
        "pack_id": row.pack_id,
        "pack_sha256": row.pack_sha256,
        "pack_path": row.pack_path,
        "state": row.state,
        "opened_by": row.opened_by,
        "opened_at": row.opened_at,
        "revealed_at": row.revealed_at,
    }


__all__ = [
    "OPEN",
    "REVEALED",
    "WindowRow",
    "insert",
    "mark_revealed",
    "select",
    "select_all",
    "windows_table",
]
