"""Multi-seed suites (``suites``, migration 0003): a suite's id, what it runs (harness, size,
version), who asked, its runs in order, and once every run is over its signed suite receipt
(``receipts.suite``). Each run is an ordinary run (and, from the service or the workers, a job
whose ``suite_id`` names the suite)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dittobench.store.errors import BadContentError, StoreError

SUITE_ID_PATTERN = r"s-\d{8}-\d{6}-[0-9a-f]{6}"

_metadata = sa.MetaData()

suites_table = sa.Table(
    "suites",
    _metadata,
    sa.Column("suite_id", sa.Text, primary_key=True),
    sa.Column("submitter", sa.Text, nullable=False),
    sa.Column("harness", sa.Text, nullable=False),
    sa.Column("run_size", sa.Text, nullable=False),
    sa.Column("bench_version", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Text, nullable=False),
    sa.Column("run_ids_json", sa.Text, nullable=False),
    sa.Column("receipt_json", sa.Text, nullable=False),
)


@dataclass(frozen=True, slots=True)
class SuiteRow:
    suite_id: str
    submitter: str
    harness: str
    run_size: str
    bench_version: str
    created_at: str
    updated_at: str
    run_ids: tuple[str, ...]
    receipt_json: str = ""


def new_suite_id() -> str:
    """A suite id (``SUITE_ID_PATTERN``): like a run id, with ``s-``."""
    return "s-" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + "-" + os.urandom(3).hex()


def insert(conn: Connection, suite: SuiteRow, where: str) -> None:
    found = conn.execute(
        sa.select(suites_table.c.suite_id).where(suites_table.c.suite_id == suite.suite_id)
    ).first()
    if found is not None:
        raise StoreError(f"suite {suite.suite_id!r} already exists in {where}")
    values: dict[str, Any] = {
        "suite_id": suite.suite_id,
        "submitter": suite.submitter,
        "harness": suite.harness,
        "run_size": suite.run_size,
        "bench_version": suite.bench_version,
        "created_at": suite.created_at,
        "updated_at": suite.updated_at,
        "run_ids_json": json.dumps(list(suite.run_ids)),
        "receipt_json": suite.receipt_json,
    }
    conn.execute(suites_table.insert().values(**values))


def select(conn: Connection, suite_id: str) -> SuiteRow | None:
    row = conn.execute(sa.select(suites_table).where(suites_table.c.suite_id == suite_id)).first()
    if row is None:
        return None
    values = dict(row._mapping)
    try:
        run_ids = json.loads(values.pop("run_ids_json"))
        if not isinstance(run_ids, list) or not all(isinstance(r, str) for r in run_ids):
            raise ValueError("not a list of run ids")
    except ValueError as exc:
        raise BadContentError(f"suite {suite_id!r}: column run_ids_json: {exc}") from None
    return SuiteRow(run_ids=tuple(run_ids), **values)


def set_receipt(conn: Connection, suite_id: str, receipt_json: str, updated_at: str) -> bool:
    """Keep the suite's receipt unless it has one already; whether this one was kept."""
    return bool(
        conn.execute(
            suites_table.update()
            .where((suites_table.c.suite_id == suite_id) & (suites_table.c.receipt_json == ""))
            .values(receipt_json=receipt_json, updated_at=updated_at)
        ).rowcount
    )


__all__ = ["SUITE_ID_PATTERN", "SuiteRow", "insert", "new_suite_id", "select", "set_receipt"]
