"""The `db` commands: bring a run store to the newest schema, or say where it stands."""

from __future__ import annotations

from typing import Annotated

import typer

from dittobench.cli.common import command_group, fail
from dittobench.cli.places import DB_HELP, store_location

db_app = command_group(
    "db", "The run store's schema: upgrade it (migrations also run on open), or show it."
)
DbOpt = Annotated[str | None, typer.Option(help=DB_HELP)]


@db_app.command()
def upgrade(db: DbOpt = None) -> None:
    """Apply every migration the store lacks (creating an empty store), then print its revision.
    Safe to run while workers use the store: migrations take the schema lock."""
    from dittobench.store import RunStore, StoreError

    url = store_location(db)[0]
    try:
        with RunStore(url) as store:
            typer.echo(f"{store.where}: schema revision {store.schema_revision()} (newest)")
    except StoreError as exc:
        raise fail(str(exc)) from None


@db_app.command()
def current(db: DbOpt = None) -> None:
    """Print the store's schema revision and the newest this version knows, changing nothing."""
    from dittobench.store import RunStore, StoreError
    from dittobench.store.migrations import HEAD

    url = store_location(db)[0]
    try:
        with RunStore(url, create=False, migrate=False) as store:
            revision = store.schema_revision()
    except StoreError as exc:
        raise fail(str(exc)) from None
    state = "up to date" if revision == HEAD else "behind: run `dittobench db upgrade`"
    typer.echo(f"schema revision {revision or 'none'}; newest {HEAD} ({state})")
