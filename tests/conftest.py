"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.postgres import fresh_database, postgres_server, server_binaries, why_not


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A running PostgreSQL server's base URL, for the whole session (skips without one)."""
    reason, binaries = why_not(), server_binaries()
    if reason is not None or binaries is None:
        pytest.skip(reason or "no PostgreSQL server")
    with postgres_server(binaries) as url:
        yield url


@pytest.fixture
def postgres_database(postgres_url: str) -> str:
    """The URL of a new, empty database on that server."""
    return fresh_database(postgres_url)
