"""Where this installation keeps its local files: the run store (``--db``), its signing key, the
built-in harness's memory. Read here, at the edge, from ``$XDG_DATA_HOME`` or ``$HOME``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from dittobench.cli.common import fail

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from dittobench.store import RunStore

DB_HELP = (
    "Run database: a SQLite file, or a database URL such as "
    "postgresql+psycopg://user@host/dittobench (needs the `postgres` extra)."
)


def default_db() -> Path:
    """The run database under the user's data directory (``$XDG_DATA_HOME`` or
    ``~/.local/share``), read here at the edge. A relative ``XDG_DATA_HOME`` is ignored, as the
    XDG spec says; a home folder that cannot be found or is relative exits 2."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "dittobench" / "runs.db"
    given = os.environ.get("HOME")
    if given is not None and not Path(given).is_absolute():  # "" would mean the root folder
        raise fail(f"HOME is {given!r}, not an absolute path: set it, or pass --db")
    try:
        home = Path.home()
    except RuntimeError:
        raise fail("cannot find the home folder: set HOME or XDG_DATA_HOME, or pass --db") from None
    return home / ".local" / "share" / "dittobench" / "runs.db"


def sqlite_file(db: str | None) -> Path | None:
    """The SQLite file ``--db`` names (the default one without it); None for a database URL."""
    if db is not None and "://" in db:
        return None
    return Path(db).expanduser() if db is not None else default_db()


def store_location(db: str | None) -> tuple[str, Path]:
    """The run store's URL and the folder for this installation's local files (its signing
    key, the built-in harness's memory): beside a SQLite file, else the user's data folder."""
    from dittobench.store import RunStore

    path = sqlite_file(db)
    if path is None:
        return db or "", default_db().parent
    return RunStore.sqlite_url(path), path.parent


def open_store(url: str, *, create: bool = True) -> RunStore:
    """The run store at ``url``, or exit 2 saying why it cannot be opened (without ``create``,
    a SQLite file that does not exist is such a reason, and nothing is created)."""
    from dittobench.store import RunStore, StoreError

    try:
        return RunStore(url, create=create)
    except StoreError as exc:
        raise fail(str(exc)) from None


def installation_key(key_file: Path | None, home: Path) -> Ed25519PrivateKey:
    """The key that signs receipts: ``--key`` when given, else this installation's own key,
    created once in ``keys/`` under ``home`` and kept (never a throw-away key)."""
    from dittobench.receipts.keys import (
        PRIVATE_KEY_NAME,
        generate_private_key,
        load_private_key,
        save_keypair,
    )

    if key_file is not None:
        return load_private_key(key_file)
    folder = home / "keys"
    path = folder / PRIVATE_KEY_NAME
    if not path.exists():
        save_keypair(generate_private_key(), folder)
        typer.echo(f"created this installation's signing key: {path}", err=True)
    return load_private_key(path)


def key_to_trust(key_file: Path | None, home: Path) -> Path | None:
    """The key file ``verify`` must be given (``--trusted-keys``) to trust the receipts signed
    by ``installation_key(key_file, home)``: ``--key``'s, or the public key in ``keys/`` beside a
    ``--db`` store; None for this installation's own key, which ``verify`` always trusts."""
    from dittobench.cli.inputs import same_file
    from dittobench.cli.signers import own_key_folder
    from dittobench.receipts.keys import PUBLIC_KEY_NAME

    if key_file is not None:
        return key_file
    own = own_key_folder()
    folder = home / "keys"
    return None if own is not None and same_file(folder, own) else folder / PUBLIC_KEY_NAME


__all__ = [
    "DB_HELP",
    "default_db",
    "installation_key",
    "key_to_trust",
    "open_store",
    "sqlite_file",
    "store_location",
]
