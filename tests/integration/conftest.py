"""Fixtures the worker tests share: a flushed Redis database for the broker, a signing key."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import redis_service
from tests.helpers.cli import dittobench


@pytest.fixture
def broker_db() -> Iterator[int]:
    """A Redis database of the machine's server, empty before and after (skips without one)."""
    reason = redis_service.why_no_redis()
    if reason is not None:
        pytest.skip(reason)
    db = redis_service.database_index()
    redis_service.flush(db)
    yield db
    redis_service.flush(db)


@pytest.fixture
def key(tmp_path: Path) -> Path:
    """A fresh Ed25519 signing key, made by ``dittobench keys generate``."""
    made = dittobench("keys", "generate", "--out", str(tmp_path / "keys"))
    assert made.returncode == 0, made.stderr
    return tmp_path / "keys" / "dittobench-ed25519.pem"
