"""The service's one error handler: any ``DittobenchError`` a route lets through is answered
``{"error": message}`` with its class's ``http_status`` (an ``ApiError`` with its own status and
headers); one whose status is 500 is the server's own fault, so its message goes to the log and
the body says only "internal error"."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from dittobench.core.errors import DittobenchError
from dittobench.core.prng import SeedError
from dittobench.engine.client import HarnessError
from dittobench.service.app import create_app
from dittobench.service.context import ApiError
from dittobench.service.settings import load_settings
from dittobench.service.ssrf import UnsafeURLError
from dittobench.store import StoreError
from dittobench.store.jobs import WindowStateError
from dittobench.workers.broker import BrokerError

ADMIN = "adm1n-T0ken-0123456789abcdef"
AS_ADMIN = {"Authorization": f"Bearer {ADMIN}"}
INTERNAL = {"error": "internal error; the operator's log has the details"}

RAISED: dict[str, DittobenchError] = {
    "seed": SeedError("seed -1 is outside 0..2**63-1"),
    "window": WindowStateError("window w-1 has runs queued or running"),
    "harness": HarnessError("harness https://h.example never answered /health"),
    "broker": BrokerError("broker redis://queue:6379/0 cannot be reached"),
    "api": ApiError(429, "too many requests; try again in 7 s", {"Retry-After": "7"}),
    "store": StoreError("database /srv/private/runs.db is locked"),
}


def refuse_all(host: str, port: int) -> list[str]:
    raise UnsafeURLError(f"host {host!r} does not resolve (test resolver)")


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{ADMIN}\n", "utf-8")
    made = create_app(
        load_settings(db=str(tmp_path / "runs.db"), token_file=tokens, data_dir=tmp_path),
        resolver=refuse_all,
    )

    @made.get("/v1/catalog-raises/{which}")
    def raises(which: str) -> None:
        raise RAISED[which]

    return made


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    # Server exceptions are raised in the test: an error the handler did not answer fails it.
    with TestClient(app) as opened:
        yield opened


@pytest.mark.parametrize(
    ("which", "status"),
    [("seed", 400), ("window", 409), ("harness", 502), ("broker", 503), ("api", 429)],
)
def test_an_error_is_answered_with_its_class_status_and_message(
    client: TestClient, which: str, status: int
) -> None:
    answer = client.get(f"/v1/catalog-raises/{which}", headers=AS_ADMIN)
    assert answer.status_code == status
    assert answer.json() == {"error": str(RAISED[which])}


def test_an_api_error_keeps_its_headers(client: TestClient) -> None:
    answer = client.get("/v1/catalog-raises/api", headers=AS_ADMIN)
    assert answer.headers["retry-after"] == "7"


def test_a_server_fault_keeps_its_message_for_the_log(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="dittobench.service"):
        answer = client.get("/v1/catalog-raises/store", headers=AS_ADMIN)
    assert answer.status_code == 500
    assert answer.json() == INTERNAL
    assert "/srv/private" not in answer.text
    logged = [r for r in caplog.records if r.exc_info and r.exc_info[1] is RAISED["store"]]
    assert logged, "the error and its traceback go to the operator's log"


def test_one_handler_serves_the_whole_tree(app: FastAPI) -> None:
    assert DittobenchError in app.exception_handlers
    assert ApiError not in app.exception_handlers  # no longer a handler of its own
