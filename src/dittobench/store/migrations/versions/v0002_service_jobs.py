"""The scoring service's jobs (``service_jobs``). A store the service opened before migrations
has the table already.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_TEXT = (
    "submitter",
    "mode",
    "harness_url",
    "seed",
    "run_size",
    "bench_version",
    "dataset_sha256",
    "status",
    "failure_kind",
)


def upgrade() -> None:
    if "service_jobs" in sa.inspect(op.get_bind()).get_table_names():
        return
    op.create_table(
        "service_jobs",
        sa.Column("run_id", sa.Text, primary_key=True),
        sa.Column("seq", sa.Integer, nullable=False, unique=True),
        *(sa.Column(name, sa.Text, nullable=False) for name in _TEXT),
        sa.Column("failure_retryable", sa.Integer, nullable=False),
        sa.Column("failure_message", sa.Text, nullable=False),
        sa.Column("cancelled_by", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False),
        sa.Column("receipt_json", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("service_jobs")
