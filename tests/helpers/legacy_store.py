"""Make a SQLite run store look as the last version without migrations left it: no revision
table and only the run tables (the columns a test drops are its own business)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

RUN_TABLES = {"runs", "cases", "reports"}


def as_before_migrations(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        names = [
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        for name in names:
            if name not in RUN_TABLES and not name.startswith("sqlite_"):
                conn.execute(f'DROP TABLE "{name}"')
    conn.close()
