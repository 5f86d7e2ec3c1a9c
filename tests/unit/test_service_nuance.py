"""The nuance score through the store and a real service in process: the store picks a report's
``nuance`` out by itself (SQLite and PostgreSQL), the leaderboard ranks by the composite with the
nuance score in its own column, the run page shows it with its open questions, and the API hands
the report's ``nuance`` to clients unchanged."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.exceptions import StarletteDeprecationWarning

from dittobench.service.app import create_app
from dittobench.service.settings import load_settings
from dittobench.spec.report import ScoreReport
from dittobench.store import RunRow, RunStore
from dittobench.store.jobs import JobRow, ServiceStore
from dittobench.store.listing import nuance_of
from tests.helpers.judged_reports import VERSION, dataset, nuance, reports, transcript

with warnings.catch_warnings():  # starlette asks for httpx2; its test client still works on httpx
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::starlette.exceptions.StarletteDeprecationWarning")

ADMIN = "adm1n-T0ken-0123456789abcdef"
T0 = "2026-12-01T00:00:00Z"
RUNS = {
    # run id: (harness, report, composite): the best composite was never judged
    "r-20261201-000001-aaaaaa": ("http://unjudged.example", "none", 0.9),
    "r-20261201-000002-aaaaaa": ("http://judged.example", "official", 0.5),
    "r-20261201-000003-aaaaaa": ("http://other.example", "other", 0.3),
}


def stored_report(name: str, composite: float) -> dict[str, Any]:
    report: ScoreReport = replace(reports()[name], composite=composite, composite_stderr=0.001)
    return report.to_json()


def fill(store: RunStore, *, jobs: bool) -> None:
    """The three runs, finished, on seeds the operator drew; with ``jobs``, as service jobs."""
    for index, (run_id, (harness, name, composite)) in enumerate(RUNS.items()):
        report = stored_report(name, composite)
        sha = report["dataset_sha256"]
        row = RunRow(
            run_id, 5, VERSION, "medium", sha, harness, "running", "running", "", T0, T0, 0, 0,
            None, None, "", 0, seed_source="operator",
        )  # fmt: skip
        store.create_run(row)
        if name == "official":
            for record in transcript().cases:
                if record.kind == "open":
                    store.record_case(run_id, record.case_id, "open", record.to_json(),
                                      updated_at=T0)  # fmt: skip
        store.save_report(run_id, report, {}, updated_at=T0)
        if jobs:
            assert isinstance(store, ServiceStore)
            job = JobRow(
                run_id, 0, f"user{index}", "submit", harness, 5, "medium", VERSION, sha, "done",
                "", False, "", "", T0, T0, "", seed_source="operator",
            )  # fmt: skip
            store.create_job(job, one_per_submitter=False)


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return RunStore.sqlite_url(tmp_path / "runs.db")
    return str(request.getfixturevalue("postgres_database"))


def test_the_store_picks_the_nuance_out_of_the_reports(store_url: str) -> None:
    with RunStore(store_url) as store:
        fill(store, jobs=False)
        found = nuance_of(store, [*RUNS, "r-20261201-000009-aaaaaa"])
        assert nuance_of(store, []) == {}
    assert set(found) == set(RUNS)
    for run_id, (_harness, name, _composite) in RUNS.items():
        assert found[run_id] == nuance(name).to_json()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with ServiceStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
        fill(store, jobs=True)
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{ADMIN}\n", "utf-8")
    settings = load_settings(db=str(tmp_path / "runs.db"), token_file=tokens, data_dir=tmp_path)
    app = create_app(settings)
    with TestClient(app, headers={"Authorization": f"Bearer {ADMIN}"}) as opened:
        yield opened


def test_the_served_pages_and_the_api_show_the_nuance_score(client: TestClient) -> None:
    board = client.get("/leaderboard", params={"bench_version": VERSION})
    assert board.status_code == 200
    rows = re.findall(r"<tr(?: class=tied)?><td class=num>.*?</tr>", board.text)
    assert [re.search(r"http://(\w+)", row).group(1) for row in rows] == [  # type: ignore[union-attr]
        "unjudged", "judged", "other",
    ]  # fmt: skip
    official, other = nuance("official"), nuance("other")
    assert "<td class=num>0.9000 ± 0.0010</td><td class=num></td>" in rows[0]
    assert (
        f"<td class=num>0.5000 ± 0.0010</td><td class=num>{official.score:.4f} ± "
        f"{official.stderr:.4f}</td>"
    ) in rows[1]
    assert f"{other.score:.4f} ± {other.stderr:.4f} <span class=warn" in rows[2]

    run_id = "r-20261201-000002-aaaaaa"
    page = client.get(f"/runs/{run_id}")
    assert page.status_code == 200
    assert f"<div class=big>{official.score:.4f} ± {official.stderr:.4f}</div>" in page.text
    assert "<div class=big>0.5000 ± 0.0010</div>" in page.text  # the composite, as stored
    table = re.search(r'<table id="open-table">.*?</table>', page.text)
    assert table is not None
    first = dataset().open_cases[0]
    assert first.question.replace("'", "&#x27;") in table.group(0)
    assert first.must_state[0].value in table.group(0)  # the answer, as recorded

    listed = client.get("/", params={"bench_version": VERSION})
    assert "Nuance ± SE (judged)" in listed.text and ">unofficial</span>" in listed.text

    job = client.get(f"/v1/runs/{run_id}")
    assert job.status_code == 200
    assert job.json()["report"]["nuance"] == json.loads(json.dumps(official.to_json()))
    assert job.json()["report"]["composite"] == 0.5
