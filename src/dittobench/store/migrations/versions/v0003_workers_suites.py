"""Distributed mode and suites: which worker drives each job and which suite it belongs to
(``service_jobs.worker``, ``service_jobs.suite_id``), the workers' heartbeats (``workers``), and
multi-seed suites (``suites``).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    for name in ("worker", "suite_id"):
        op.add_column("service_jobs", sa.Column(name, sa.Text, nullable=False, server_default=""))
    op.create_table(
        "workers",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("host", sa.Text, nullable=False),
        sa.Column("pid", sa.Integer, nullable=False),
        sa.Column("concurrency", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Text, nullable=False),
        sa.Column("seen_at", sa.Text, nullable=False),
        sa.Column("active_json", sa.Text, nullable=False),
        sa.Column("runs_done", sa.Integer, nullable=False),
    )
    op.create_table(
        "suites",
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


def downgrade() -> None:
    op.drop_table("suites")
    op.drop_table("workers")
    with op.batch_alter_table("service_jobs") as batch:
        batch.drop_column("suite_id")
        batch.drop_column("worker")
