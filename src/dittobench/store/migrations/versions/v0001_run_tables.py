"""The run tables: runs, cases, reports.

A store made before migrations has these tables already, some without the columns added since
(``schedule``, the lease, the pack, ``wire_nonce``): they are added, empty, instead of the
tables being made.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

_ADDED_LATER = (
    "schedule",
    "lease_owner",
    "lease_until",
    "pack_id",
    "pack_sha256",
    "pack_path",
    "wire_nonce",
)


def upgrade() -> None:
    existing = set(sa.inspect(op.get_bind()).get_table_names())
    if "runs" in existing:
        _add_missing_run_columns()
    else:
        _create_runs()
    if "cases" not in existing:
        op.create_table(
            "cases",
            sa.Column("run_id", sa.Text, sa.ForeignKey("runs.run_id"), primary_key=True),
            sa.Column("case_id", sa.Text, primary_key=True),
            sa.Column("kind", sa.Text, nullable=False),
            sa.Column("record_json", sa.Text, nullable=False),
        )
    if "reports" not in existing:
        op.create_table(
            "reports",
            sa.Column("run_id", sa.Text, sa.ForeignKey("runs.run_id"), primary_key=True),
            sa.Column("report_json", sa.Text, nullable=False),
            sa.Column("transcript_json", sa.Text, nullable=False),
        )


def _create_runs() -> None:
    text = ("bench_version", "run_size", "dataset_sha256", "harness", "status", "stage", "error")
    op.create_table(
        "runs",
        sa.Column("run_id", sa.Text, primary_key=True),
        sa.Column("seed", sa.Text, nullable=False),
        *(sa.Column(name, sa.Text, nullable=False) for name in text),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False),
        sa.Column("cases_done", sa.Integer, nullable=False),
        sa.Column("cases_total", sa.Integer, nullable=False),
        sa.Column("composite", sa.Float, nullable=True),
        sa.Column("composite_stderr", sa.Float, nullable=True),
        sa.Column("transcript_sha256", sa.Text, nullable=False),
        sa.Column("waves_seeded", sa.Integer, nullable=False),
        *(sa.Column(name, sa.Text, nullable=False, server_default="") for name in _ADDED_LATER),
    )


def _add_missing_run_columns() -> None:
    have = {column["name"] for column in sa.inspect(op.get_bind()).get_columns("runs")}
    for name in _ADDED_LATER:
        if name not in have:
            op.add_column("runs", sa.Column(name, sa.Text, nullable=False, server_default=""))


def downgrade() -> None:
    op.drop_table("reports")
    op.drop_table("cases")
    op.drop_table("runs")
