"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.postgres import (
    MACHINE_SERVICE,
    fresh_database,
    machine_service_reachable,
    postgres_server,
    server_binaries,
    why_not,
)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A running PostgreSQL server's base URL, for the whole session (skips without one)."""
    reason, binaries = why_not(), server_binaries()
    if reason is None and binaries is not None:
        with postgres_server(binaries) as url:
            yield url
        return
    # No server of our own: the machine's service, where one runs (each test its own database).
    if not machine_service_reachable():
        pytest.skip(f"{reason or 'no PostgreSQL server'}, and none answers at {MACHINE_SERVICE}")
    yield MACHINE_SERVICE


@pytest.fixture
def postgres_database(postgres_url: str) -> str:
    """The URL of a new, empty database on that server."""
    return fresh_database(postgres_url)
