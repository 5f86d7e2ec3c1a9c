"""Who chose each run's seed (``runs.seed_source``, ``service_jobs.seed_source``): ``operator``
or ``submitter`` (``spec.seeds``). Only operator-seeded runs are ranked.

Rows made before it read ``submitter``: nothing recorded whether a single run's seed was given or
drawn, and a run wrongly ranked is worse than one wrongly left as practice. The one kind of old
run provably drawn fresh is a suite's: every build that made suites drew each of their seeds
itself (the service refuses ``seed`` beside ``seeds``; the command line makes a suite only of
fresh draws). Those are set to ``operator``: the jobs with a ``suite_id``, and the runs those jobs
or a suite (``suites.run_ids_json``, which also lists the command line's local suite runs) name.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels: str | None = None
depends_on: str | None = None

_TABLES = ("runs", "service_jobs")


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    for table in _TABLES:
        # Added only where missing, as 0001 adds its columns: a store is taken from where it is.
        if "seed_source" not in {column["name"] for column in inspector.get_columns(table)}:
            op.add_column(
                table,
                sa.Column("seed_source", sa.Text, nullable=False, server_default="submitter"),
            )
    drawn = _suite_run_ids()
    if not drawn:
        return
    for table in _TABLES:
        marked = sa.table(table, sa.column("run_id", sa.Text), sa.column("seed_source", sa.Text))
        for chunk in _chunks(sorted(drawn)):
            op.execute(
                marked.update().where(marked.c.run_id.in_(chunk)).values(seed_source="operator")
            )


def _suite_run_ids() -> set[str]:
    """The ids of every run that belonged to a suite: its seed was drawn fresh."""
    conn = op.get_bind()
    jobs = sa.table("service_jobs", sa.column("run_id", sa.Text), sa.column("suite_id", sa.Text))
    found = {
        str(run_id)
        for (run_id,) in conn.execute(sa.select(jobs.c.run_id).where(jobs.c.suite_id != ""))
    }
    suites = sa.table("suites", sa.column("run_ids_json", sa.Text))
    for (text,) in conn.execute(sa.select(suites.c.run_ids_json)):
        try:
            listed = json.loads(text)
        except (TypeError, ValueError):
            continue  # an unreadable suite row proves nothing: its runs stay submitter
        if isinstance(listed, list):
            found.update(item for item in listed if isinstance(item, str))
    return found


def _chunks(items: list[str], size: int = 500) -> list[list[str]]:
    """Bounded IN lists (SQLite's limit on bound parameters)."""
    return [items[start : start + size] for start in range(0, len(items), size)]


def downgrade() -> None:
    for table in reversed(_TABLES):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("seed_source")
