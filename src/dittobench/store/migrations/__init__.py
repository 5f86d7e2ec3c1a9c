"""The run store's schema migrations (alembic), shipped in the package.

Every store carries its revision in alembic's ``alembic_version`` table. Opening a store brings
it to ``HEAD`` (``store.schema.prepare_schema``, inside the write transaction that also holds
PostgreSQL's schema lock, so processes opening one database at once migrate it once);
``dittobench db upgrade`` does the same on its own. A store made before migrations (tables, no
revision) is taken from where it stands: the first revisions add only what it lacks.

Alembic is imported only when a store is behind: reading the revision is one query.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection

if TYPE_CHECKING:
    from alembic.config import Config

HEAD = "0007"
"""The newest revision; ``tests/unit/test_store_migrations.py`` checks it is the scripts' head."""
VERSION_TABLE = "alembic_version"
SCRIPTS = Path(__file__).parent


def current_revision(conn: Connection) -> str | None:
    """The store's revision; None for a database without a revision table."""
    if not sa.inspect(conn).has_table(VERSION_TABLE):
        return None
    found = conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
    return str(found[0]) if len(found) == 1 else None


def known_revisions() -> set[str]:
    """Every revision this version of dittobench ships."""
    from alembic.script import ScriptDirectory

    return {script.revision for script in ScriptDirectory(str(SCRIPTS)).walk_revisions()}


def script_head() -> str:
    from alembic.script import ScriptDirectory

    return str(ScriptDirectory(str(SCRIPTS)).get_current_head())


def upgrade(conn: Connection, target: str = "head") -> None:
    """Run every migration the store lacks, on ``conn`` (inside the caller's transaction)."""
    from alembic import command

    command.upgrade(_config(conn), target)


def downgrade(conn: Connection, target: str) -> None:
    """Undo migrations down to ``target`` (``base``: no tables at all), on ``conn``."""
    from alembic import command

    command.downgrade(_config(conn), target)


def _config(conn: Connection) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(SCRIPTS).replace("%", "%%"))
    config.attributes["connection"] = conn
    return config
