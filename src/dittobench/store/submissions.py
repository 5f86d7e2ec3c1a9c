"""Submitted source archives (``submissions``, migration 0004): one row per archive run, keyed
by its run id: who sent it, the archive's bytes and SHA-256, and its structural fingerprint
(``sandbox.fingerprint``, JSON), so a worker on another machine can build it from the store and
``GET /v1/runs/{id}/similar`` can compare it with earlier ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dittobench.store.errors import StoreError

_metadata = sa.MetaData()

submissions_table = sa.Table(
    "submissions",
    _metadata,
    sa.Column("run_id", sa.Text, primary_key=True),
    sa.Column("submitter", sa.Text, nullable=False),
    sa.Column("archive_sha256", sa.Text, nullable=False),
    sa.Column("archive_size", sa.Integer, nullable=False),
    sa.Column("archive", sa.LargeBinary, nullable=False),
    sa.Column("fingerprint_json", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
)


@dataclass(frozen=True, slots=True)
class SubmissionRow:
    run_id: str
    submitter: str
    archive_sha256: str
    archive_size: int
    archive: bytes
    fingerprint_json: str
    created_at: str


def insert(conn: Connection, row: SubmissionRow, where: str) -> None:
    table = submissions_table
    found = conn.execute(sa.select(table.c.run_id).where(table.c.run_id == row.run_id)).first()
    if found is not None:
        raise StoreError(f"submission {row.run_id!r} already exists in {where}")
    conn.execute(table.insert().values(**_columns(row)))


def select(conn: Connection, run_id: str) -> SubmissionRow | None:
    table = submissions_table
    found = conn.execute(sa.select(table).where(table.c.run_id == run_id)).first()
    return None if found is None else SubmissionRow(**dict(found._mapping))


def fingerprints_before(
    conn: Connection, created_at: str, run_id: str
) -> list[tuple[str, str, str, str]]:
    """``(run_id, submitter, archive_sha256, fingerprint_json)`` of every submission made before
    ``created_at`` (or at that time with a smaller run id), oldest first; archives not read."""
    table = submissions_table
    earlier = (table.c.created_at < created_at) | (
        (table.c.created_at == created_at) & (table.c.run_id < run_id)
    )
    query = (
        sa.select(
            table.c.run_id, table.c.submitter, table.c.archive_sha256, table.c.fingerprint_json
        )
        .where(earlier)
        .order_by(table.c.created_at, table.c.run_id)
    )
    return [(r[0], r[1], r[2], r[3]) for r in conn.execute(query)]


def delete(conn: Connection, run_id: str) -> None:
    conn.execute(submissions_table.delete().where(submissions_table.c.run_id == run_id))


def _columns(row: SubmissionRow) -> dict[str, Any]:
    return {
        "run_id": row.run_id,
        "submitter": row.submitter,
        "archive_sha256": row.archive_sha256,
        "archive_size": row.archive_size,
        "archive": row.archive,
        "fingerprint_json": row.fingerprint_json,
        "created_at": row.created_at,
    }


__all__ = [
    "SubmissionRow",
    "delete",
    "fingerprints_before",
    "insert",
    "select",
    "submissions_table",
]
