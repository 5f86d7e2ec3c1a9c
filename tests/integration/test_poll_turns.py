"""Status polls of a running run are answered at most once a turn per client (service/events.py
``PollTurns``, used by ``GET /v1/runs/{id}``): a client polling back to back waits for its next
turn, polls that come together share one, another client and a finished run never wait."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from dittobench.service import routes_runs
from dittobench.service.app import create_app
from dittobench.service.context import ServiceState
from dittobench.service.events import POLL_S, PollTurns
from dittobench.service.settings import load_settings
from dittobench.store.jobs import JobRow

with warnings.catch_warnings():  # starlette asks for httpx2; its test client still works on httpx
    from starlette.exceptions import StarletteDeprecationWarning

    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::starlette.exceptions.StarletteDeprecationWarning")

ADMIN = "adm1n-T0ken-0123456789abcdef"
ALICE = "al1ce-T0ken-0123456789abcdef"
RUN_ID = "r-20261207-090000-abcdef"
T0 = "2026-12-07T09:00:00Z"


def test_a_client_is_answered_once_a_turn_and_polls_together_share_one() -> None:
    turns = PollTurns(every_s=0.25)
    assert turns.wait("a", "r", 10.0) == 0  # the first poll is due at once
    assert turns.wait("a", "r", 10.1) == pytest.approx(0.15)  # back to back: the next turn
    assert turns.wait("a", "r", 10.2) == pytest.approx(0.05)  # waiting with it: the same turn
    assert turns.wait("b", "r", 10.2) == 0  # another client
    assert turns.wait("a", "other", 10.2) == 0  # another run
    assert turns.wait("a", "r", 10.6) == 0  # a poll after its turn is due at once
    assert turns.wait("a", "r", 10.7) == pytest.approx(0.15)


def test_what_is_kept_is_bounded() -> None:
    turns = PollTurns(every_s=0.25, keep=3)
    for client in "abcd":
        turns.wait(client, "r", 10.0)
    assert turns.wait("a", "r", 10.01) == 0  # forgotten: treated as a first poll


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{ADMIN}\n{ALICE} submitter alice\n", "utf-8")
    settings = load_settings(db=str(tmp_path / "runs.db"), token_file=tokens, data_dir=tmp_path)
    with TestClient(create_app(settings)) as opened:
        yield opened


def test_the_status_route_waits_for_the_callers_turn(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    waited: list[float] = []

    async def no_sleep(seconds: float) -> None:
        waited.append(seconds)

    # the route's asyncio, and only its: the test client's own loop still sleeps
    monkeypatch.setattr(f"{routes_runs.__name__}.asyncio", SimpleNamespace(sleep=no_sleep))
    service = client.app.state.service  # type: ignore[attr-defined]
    assert isinstance(service, ServiceState)
    job = JobRow(
        RUN_ID, 0, "alice", "submit", "http://127.0.0.1:9", 5, "small", "8.0.0", "", "running",
        "", False, "", "", T0, T0, "",
    )  # fmt: skip
    service.store.create_job(job)  # made after the queue started: nobody drives it
    path = f"/v1/runs/{RUN_ID}?partial=false"
    as_alice = {"Authorization": f"Bearer {ALICE}"}
    as_admin = {"Authorization": f"Bearer {ADMIN}"}
    assert client.get(path, headers=as_alice).json()["status"] == "running"
    assert waited == []
    assert client.get(path, headers=as_alice).status_code == 200
    assert len(waited) == 1 and 0 < waited[0] <= POLL_S  # back to back: its next turn
    assert client.get(path, headers=as_admin).status_code == 200
    assert len(waited) == 1  # another client is due at once
    service.store.update_job(RUN_ID, updated_at=T0, status="failed", failure=("run", False, "x"))
    for _ in range(3):
        assert client.get(path, headers=as_alice).json()["status"] == "failed"
    assert len(waited) == 1  # a finished run never waits
