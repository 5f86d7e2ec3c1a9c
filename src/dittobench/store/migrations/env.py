"""Alembic's entry point for the run store. It is run only by ``store.migrations.upgrade``,
which hands it a connection already inside the store's write transaction (and, on PostgreSQL,
holding the schema lock), so every migration commits or rolls back with it. Imported any other
way (a module walk), it does nothing: alembic's context exists only while alembic runs it."""

from __future__ import annotations

from alembic import context


def run_migrations() -> None:
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=None, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):
    run_migrations()
