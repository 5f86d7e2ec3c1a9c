"""Submitted source archives (``submissions``): the archive's bytes and SHA-256 and its
structural fingerprint, per run.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "submissions",
        sa.Column("run_id", sa.Text, primary_key=True),
        sa.Column("submitter", sa.Text, nullable=False),
        sa.Column("archive_sha256", sa.Text, nullable=False),
        sa.Column("archive_size", sa.Integer, nullable=False),
        sa.Column("archive", sa.LargeBinary, nullable=False),
        sa.Column("fingerprint_json", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
    )
    op.create_index("submissions_created", "submissions", ["created_at", "run_id"])


def downgrade() -> None:
    op.drop_index("submissions_created", "submissions")
    op.drop_table("submissions")
