"""How many times each run was resumed (``runs.resumes``): 0 for a fresh start, one more for
each ``--resume`` (or worker pick-up) that took the run over. Rows made before it read 0: no
resume was counted then.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    # Added only where missing, as 0001 and 0005 add theirs: a store is taken from where it is.
    if "resumes" not in {column["name"] for column in inspector.get_columns("runs")}:
        op.add_column("runs", sa.Column("resumes", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("resumes")
