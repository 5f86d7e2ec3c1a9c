"""The workers' heartbeats (``workers``, migration 0003): who is alive, what each drives, how
many runs each has finished. A worker writes its row every few seconds; readers call a worker
alive while its last beat is recent. Rows are never deleted: a stopped worker simply ages."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

_metadata = sa.MetaData()

workers_table = sa.Table(
    "workers",
    _metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("host", sa.Text, nullable=False),
    sa.Column("pid", sa.Integer, nullable=False),
    sa.Column("concurrency", sa.Integer, nullable=False),
    sa.Column("started_at", sa.Text, nullable=False),
    sa.Column("seen_at", sa.Text, nullable=False),
    sa.Column("active_json", sa.Text, nullable=False),
    sa.Column("runs_done", sa.Integer, nullable=False),
)


@dataclass(frozen=True, slots=True)
class WorkerRow:
    """One worker as last seen: ``active`` are the run ids it was driving then."""

    name: str
    host: str
    pid: int
    concurrency: int
    started_at: str
    seen_at: str
    active: tuple[str, ...]
    runs_done: int


def beat(conn: Connection, worker: WorkerRow) -> None:
    """Write the worker's row (made on its first beat; ``runs_done`` is kept as counted)."""
    values: dict[str, Any] = {
        "host": worker.host,
        "pid": worker.pid,
        "concurrency": worker.concurrency,
        "started_at": worker.started_at,
        "seen_at": worker.seen_at,
        "active_json": json.dumps(sorted(worker.active)),
    }
    key = workers_table.c.name == worker.name
    if not conn.execute(workers_table.update().where(key).values(**values)).rowcount:
        conn.execute(workers_table.insert().values(name=worker.name, runs_done=0, **values))


def count_done(conn: Connection, name: str) -> None:
    conn.execute(
        workers_table.update()
        .where(workers_table.c.name == name)
        .values(runs_done=workers_table.c.runs_done + 1)
    )


def seen_since(conn: Connection, since: str) -> list[WorkerRow]:
    """Workers whose last beat is at or after ``since`` (UTC ``YYYY-MM-DDTHH:MM:SSZ``)."""
    rows = conn.execute(
        sa.select(workers_table)
        .where(workers_table.c.seen_at >= since)
        .order_by(workers_table.c.name)
    ).all()
    found = []
    for row in rows:
        values = dict(row._mapping)
        try:
            active = tuple(str(r) for r in json.loads(values.pop("active_json")))
        except (ValueError, TypeError):
            active = ()
        found.append(WorkerRow(active=active, **values))
    return found


__all__ = ["WorkerRow", "beat", "count_done", "seen_since", "workers_table"]
