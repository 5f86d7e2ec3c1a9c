"""How the run store names a database in messages without showing any secret of its URL
(messages end up in logs): passwords as given and percent-encoded, passwords in the query, and
whatever an unescaped ``@`` pushed into the host."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa


def secrets_of(url: sa.URL) -> tuple[str, ...]:
    """What no message may show: the password (as given and percent-encoded), one given as a
    query parameter, and whatever an unescaped ``@`` in a password pushed into the host. Longest
    first, for ``_redact``."""
    found = [url.password or ""]
    for key, value in url.query.items():
        if "password" in key.lower():
            found.extend(value if isinstance(value, tuple) else (value,))
    if url.host and "@" in url.host:
        found.append(url.host.rsplit("@", 1)[0])
    found += [quote(str(s), safe="") for s in found if s]
    return tuple(sorted({str(s) for s in found if s}, key=len, reverse=True))


def redact(text: str, secrets: tuple[str, ...]) -> str:
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,40}")


def scheme_only(url: str) -> str:
    """All a message may show of a URL that cannot be split safely: its scheme. Anything after
    it may be part of a password."""
    scheme = url.split("://", 1)[0] if "://" in url else ""
    return f"{scheme}://..." if _SCHEME.fullmatch(scheme) else "the database URL"


def unescaped_at(url: str, parsed: sa.URL) -> bool:
    """True when the credentials hold an unescaped ``@``: the URL parser splits at the first
    ``@``, so the rest of the password would be taken for the host (printed, and looked up)."""
    authority = url.split("://", 1)[1].split("?", 1)[0] if "://" in url else ""
    return authority.count("@") > 1 or "@" in (parsed.host or "")


def describe(url: sa.URL) -> str:
    """Where the store lives, for messages: the file for SQLite, the URL without its secrets
    otherwise (messages end up in logs)."""
    if url.get_backend_name() == "sqlite":
        return url.database or ":memory:"
    return redact(url.render_as_string(hide_password=True), secrets_of(url))


def sqlite_file(url: sa.URL) -> Path | None:
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:"):  # a URI filename; leave it to SQLite
        return None
    return Path(database)
