"""The transparency log's entries (``log_entries``, migration 0006), in order, append-only.

This module only appends and reads; the database refuses every UPDATE and DELETE of the table
(triggers made by the migration). Each row is one entry's RFC 8785 bytes (``receipts.logentries``
makes them; the store does not interpret them) and the time it was logged. ``append`` dates an
entry no earlier than the one before it, so times never decrease along the log.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa
from sqlalchemy.engine import Connection

_metadata = sa.MetaData()

log_table = sa.Table(
    "log_entries",
    _metadata,
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("entry_json", sa.Text, nullable=False),
    sa.Column("logged_at", sa.Text, nullable=False),
)

LOG_LOCK_KEY = 0x6C6F67
"""The PostgreSQL advisory lock appends take ("log")."""

EntryMaker = Callable[[str], bytes]
"""Makes an entry's bytes given the time it is logged at."""


def append(conn: Connection, make: EntryMaker, now: str) -> tuple[int, bytes]:
    """Append the entry ``make`` builds, dated ``now`` or, if the last entry is dated later,
    that entry's time; its index and bytes. Call inside a write transaction."""
    table = log_table
    if conn.dialect.name == "postgresql":
        # Two writers must not both read the same last entry (SQLite's write transactions are
        # already one at a time): hold the log's lock until this transaction ends.
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOG_LOCK_KEY})
    last = conn.execute(
        sa.select(table.c.seq, table.c.logged_at).order_by(table.c.seq.desc()).limit(1)
    ).first()
    seq = 0 if last is None else int(last[0]) + 1
    at = now if last is None else max(now, str(last[1]))
    data = make(at)
    conn.execute(table.insert().values(seq=seq, entry_json=data.decode("utf-8"), logged_at=at))
    return seq, data


def size(conn: Connection) -> int:
    found = conn.execute(sa.select(sa.func.count()).select_from(log_table)).scalar()
    return int(found or 0)


def read(conn: Connection, start: int, end: int) -> list[bytes]:
    """The bytes of entries ``start`` to ``end - 1``, in order."""
    table = log_table
    rows = conn.execute(
        sa.select(table.c.entry_json)
        .where((table.c.seq >= start) & (table.c.seq < end))
        .order_by(table.c.seq)
    ).all()
    return [str(row[0]).encode("utf-8") for row in rows]


__all__ = ["EntryMaker", "append", "log_table", "read", "size"]
