"""Scoring windows (``windows``), the transparency log (``log_entries``, append-only: triggers
refuse every UPDATE and DELETE on SQLite and PostgreSQL) and the window of each job
(``service_jobs.window_id``, ``""`` outside a window).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels: str | None = None
depends_on: str | None = None

_REFUSAL = "the transparency log is append-only"


def upgrade() -> None:
    op.create_table(
        "windows",
        sa.Column("window_id", sa.Text, primary_key=True),
        sa.Column("bench_version", sa.Text, nullable=False),
        sa.Column("run_size", sa.Text, nullable=False),
        sa.Column("pack_id", sa.Text, nullable=False),
        sa.Column("pack_sha256", sa.Text, nullable=False),
        sa.Column("pack_path", sa.Text, nullable=False),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("opened_by", sa.Text, nullable=False),
        sa.Column("opened_at", sa.Text, nullable=False),
        sa.Column("revealed_at", sa.Text, nullable=False),
    )
    op.create_table(
        "log_entries",
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("entry_json", sa.Text, nullable=False),
        sa.Column("logged_at", sa.Text, nullable=False),
    )
    inspector = sa.inspect(op.get_bind())
    if "window_id" not in {c["name"] for c in inspector.get_columns("service_jobs")}:
        op.add_column(
            "service_jobs", sa.Column("window_id", sa.Text, nullable=False, server_default="")
        )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE OR REPLACE FUNCTION log_entries_append_only() RETURNS trigger "
            f"LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '{_REFUSAL}'; END $$"
        )
        op.execute(
            "CREATE TRIGGER log_entries_append_only BEFORE UPDATE OR DELETE ON log_entries "
            "FOR EACH ROW EXECUTE FUNCTION log_entries_append_only()"
        )
    else:
        for event in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER log_entries_no_{event.lower()} BEFORE {event} ON log_entries "
                f"BEGIN SELECT RAISE(ABORT, '{_REFUSAL}'); END"
            )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER log_entries_append_only ON log_entries")
        op.execute("DROP FUNCTION log_entries_append_only()")
    with op.batch_alter_table("service_jobs") as batch:
        batch.drop_column("window_id")
    op.drop_table("log_entries")
    op.drop_table("windows")
