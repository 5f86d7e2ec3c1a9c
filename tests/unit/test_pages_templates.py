"""The pages from templates: the one environment escapes every value and refuses an undefined
name, its templates ship inside the package, no page code writes HTML, a hostile harness name or
answer is text on every page that shows it, a run is reached by one path (API and pages), and a
run whose rebuilt dataset is not the one it stored is refused naming both hashes (the view and
the served page)."""

from __future__ import annotations

import html
import io
import tokenize
from dataclasses import replace
from importlib.resources import files
from pathlib import Path
from typing import Any, cast

import pytest
from jinja2 import UndefinedError

from dittobench.spec.codec import decode
from dittobench.spec.external_report import ExternalReport
from dittobench.spec.transcript import CaseRecord
from dittobench.store import RunRow, RunStore
from dittobench.store.jobs import JobRow, ServiceStore
from dittobench.views.access import MaySee, reach_job, reach_run
from dittobench.views.board import Board, board_row, leaderboard_page
from dittobench.views.comparing import compare_reports
from dittobench.views.external import external_page
from dittobench.views.frame import Chrome, Hashes, error_page, sign_in_page
from dittobench.views.model import DatasetMismatch, StoredRun, ViewError, case_detail, dataset_of
from dittobench.views.nuance import open_texts
from dittobench.views.pages import CaseFilter, ListedRow, case_page, run_page, runs_page
from dittobench.views.pages_more import compare_page, dataset_page
from dittobench.views.ranking import RunFilter, leaderboard
from dittobench.views.report import case_texts, standalone_report
from dittobench.views.templating import environment
from dittobench.views.windows import windows_page
from tests.helpers.judged_reports import VERSION, dataset, reports
from tests.unit.test_views_nuance import board_items, listed, records, run_row

NAME = '<script>alert("name")</script>"><img src=x onerror=alert(1)>'
ANSWER = '"><img src=y onerror=alert(2)><script>alert("answer")</script>'
ZEROS = "0" * 64
VIEWS = Path(str(files("dittobench.views")))


def shown_as_text(page: str, *values: str) -> None:
    """None of the hostile markup is live in ``page``; each of ``values`` is there as text."""
    assert "<script>alert" not in page and "<img src=" not in page
    for value in values:
        assert html.escape(value, quote=True) in page


def test_the_environment_escapes_every_value_and_refuses_undefined_names() -> None:
    made = environment()
    assert made is environment() and made.autoescape is True
    assert made.from_string("{{ v }}").render(v=NAME) == html.escape(NAME, quote=True)
    with pytest.raises(UndefinedError):
        made.from_string("{{ nobody }}").render()


def test_every_template_ships_in_the_package_and_compiles() -> None:
    names = environment().list_templates()
    for expected in ("base.html", "run.html", "case.html", "report.html", "external.html"):
        assert expected in names
        assert (VIEWS / "templates" / expected).is_file()
    for name in names:
        environment().get_template(name)


def _html_literals(path: Path) -> list[str]:
    """The string literals of ``path`` that open with a tag, and every escape call."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(path.read_text("utf-8")).readline):
        if token.type == tokenize.STRING:
            body = token.string.lstrip("rbfuRBFU").strip("\"'")
            if (body[:1] == "<" and body[1:2].isalpha()) or body[:2] == "</":
                found.append(f"{path.name}:{token.start[0]} {token.string[:40]}")
        if token.type == tokenize.NAME and token.string in ("esc", "escape"):
            found.append(f"{path.name}:{token.start[0]} {token.string}")
    return found


def test_no_page_code_writes_html_or_escapes_by_hand() -> None:
    modules = [
        p for p in sorted(VIEWS.glob("*.py")) if p.name not in ("explain.py", "templating.py")
    ]
    assert len(modules) > 10
    assert [line for path in modules for line in _html_literals(path)] == []


def _hostile_records(case_id: str) -> dict[str, dict[str, object]]:
    made = records()
    made[case_id] = {**made.get(case_id, {}), "response": {"answer": ANSWER, "final_text": ANSWER}}
    return made


def test_a_hostile_harness_name_and_answer_are_text_on_every_run_page() -> None:
    report, data = reports()["official"], dataset()
    case_id = data.memory_cases[0].id
    said = _hostile_records(case_id)
    row, item = replace(run_row(report), harness=NAME), listed(report, harness=NAME)
    texts, opens = case_texts(data, said, report), open_texts(data, said)
    who = Chrome(who=NAME, csrf=NAME)
    page = run_page(
        row, item, report, texts, CaseFilter(), who, tier="operator-run", receipt_note=NAME,
        stage="done", opens=opens,
    )  # fmt: skip
    shown_as_text(page, NAME, ANSWER)
    running = replace(item, status="running", failure=NAME, window_id=NAME)
    live = run_page(None, running, None, {}, CaseFilter(q=NAME), who, tier=NAME, receipt_note="",
                    stage=NAME, sealed=NAME)  # fmt: skip
    shown_as_text(live, NAME)
    shown_as_text(standalone_report(row, report, texts, "operator-run", opens), NAME, ANSWER)

    class Records:
        def case_records(self, run_id: str) -> dict[str, CaseRecord]:
            return {case: decode(CaseRecord, dict(record)) for case, record in said.items()}

    store = cast(RunStore, Records())
    detail = case_detail(store, StoredRun(row, report), case_id, data)
    shown_as_text(case_page(NAME, detail, who), NAME, ANSWER)


def test_a_hostile_harness_name_is_text_on_every_list_page() -> None:
    reps = reports()
    item = listed(reps["official"], harness=NAME)
    rows = [ListedRow(item, NAME, 0.5, 0.5, reps["official"].nuance)]
    choices = {"status": [NAME], "bench_version": [VERSION], "run_size": ["medium"]}
    shown_as_text(runs_page(rows, RunFilter(harness=NAME), choices, Chrome(), 1), NAME)
    made = compare_reports(item.run_id, reps["none"], NAME, reps["official"])
    shown_as_text(compare_page([item], item.run_id, NAME, made, Chrome()), NAME)
    items = [replace(i, harness=NAME + i.harness) for i in board_items()]
    ranked = tuple(
        board_row(r, lambda _i: "operator-run", lambda _i: None)
        for r in leaderboard(items, VERSION, "medium")
    )
    board = leaderboard_page(VERSION, [VERSION, NAME], [Board("medium", ranked, 1)], Chrome())
    shown_as_text(board, NAME)
    window = {
        "window_id": NAME, "state": "revealed", "bench_version": VERSION, "run_size": NAME,
        "pack_sha256": NAME, "opened_at": NAME, "revealed_at": NAME, "pack_url": NAME,
    }  # fmt: skip
    shown_as_text(windows_page([window], 1, Chrome(who=NAME)), NAME)
    shown_as_text(dataset_page(None, NAME, "small", VERSION, [NAME], Chrome(), NAME), NAME)
    shown_as_text(sign_in_page(NAME, NAME, NAME), NAME)
    shown_as_text(error_page(404, NAME, Chrome(who=NAME), Hashes(NAME, NAME, NAME)), NAME)


def test_a_hostile_harness_name_is_text_on_the_external_page() -> None:
    from tests.unit.test_external_receipt import _run

    report: ExternalReport = _run()[0]
    shown_as_text(external_page(replace(report, harness=NAME, identity={"system": NAME})), NAME)


def test_a_run_whose_dataset_hashes_otherwise_is_refused_naming_both_hashes() -> None:
    report = reports()["none"]
    row = run_row(report)
    assert dataset_of(row).seed == report.seed  # the stored hash: rebuilt, checked, kept
    with pytest.raises(DatasetMismatch) as caught:
        dataset_of(replace(row, dataset_sha256=ZEROS))
    refused = caught.value
    assert (refused.run_id, refused.stored, refused.rebuilt) == (
        row.run_id, ZEROS, report.dataset_sha256,
    )  # fmt: skip
    assert all(part in str(refused) for part in (row.run_id, ZEROS, report.dataset_sha256))
    with pytest.raises(DatasetMismatch):  # never kept: asked again, refused again
        dataset_of(replace(row, dataset_sha256=ZEROS))


T0 = "2026-12-01T00:00:00Z"


def _job(run_id: str, submitter: str, sha: str) -> JobRow:
    return JobRow(
        run_id, 0, submitter, "submit", "http://h.example", 5, "medium", VERSION, sha, "done",
        "", False, "", "", T0, T0, "", seed_source="operator",
    )  # fmt: skip


def _submitted_by(name: str) -> MaySee:
    """The API's rule for a submitter: its own service jobs only."""

    def may_see(by: str, job: bool) -> bool:
        return job and by == name

    return may_see


def test_the_api_and_the_pages_reach_a_run_by_one_rule(tmp_path: Path) -> None:
    report = reports()["none"]
    with ServiceStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
        mine, local = "r-20261201-000001-aaaaaa", "r-20261201-000002-aaaaaa"
        store.create_run(replace(run_row(report), run_id=mine))
        store.create_job(_job(mine, "alice", report.dataset_sha256))
        store.create_run(replace(run_row(report), run_id=local))
        assert reach_job(store, mine, lambda by, _job: by == "alice").submitter == "alice"
        assert reach_run(store, local, lambda _by, _job: True).job is None
        for run_id, rule in ((mine, "bob"), (local, "alice"), ("r-20261201-000009-aaaaaa", "")):
            with pytest.raises(ViewError, match=f"^no run {run_id}$") as caught:
                reach_run(store, run_id, _submitted_by(rule))
            assert caught.value.missing
        with pytest.raises(ViewError, match=r"^no run r-1$"):
            reach_run(store, "r-1", lambda _by, _job: True)


def _client(tmp_path: Path, row: RunRow) -> Any:
    import warnings

    from starlette.exceptions import StarletteDeprecationWarning

    from dittobench.service.app import create_app
    from dittobench.service.settings import load_settings
    from tests.unit.test_service_nuance import ADMIN

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StarletteDeprecationWarning)
        from starlette.testclient import TestClient
    report = reports()["none"]
    with ServiceStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
        store.create_run(row)
        store.save_report(row.run_id, report.to_json(), {}, updated_at=T0)
        store.create_job(_job(row.run_id, "admin", row.dataset_sha256), one_per_submitter=False)
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{ADMIN}\n", "utf-8")
    settings = load_settings(db=str(tmp_path / "runs.db"), token_file=tokens, data_dir=tmp_path)
    return TestClient(create_app(settings), headers={"Authorization": f"Bearer {ADMIN}"})


@pytest.mark.filterwarnings("ignore::starlette.exceptions.StarletteDeprecationWarning")
def test_the_page_of_a_run_whose_dataset_hashes_otherwise_names_both_hashes(
    tmp_path: Path,
) -> None:
    report = reports()["none"]
    row = replace(run_row(report), run_id="r-20261201-000007-aaaaaa", dataset_sha256=ZEROS)
    with _client(tmp_path, row) as client:
        case_id = report.per_case[0].case_id
        for path in (f"/runs/{row.run_id}", f"/runs/{row.run_id}/cases/{case_id}"):
            page = client.get(path)
            assert page.status_code == 500, path
            assert "<dt>Stored dataset_sha256</dt><dd><code>" + ZEROS in page.text
            assert report.dataset_sha256 in page.text and row.run_id in page.text
        assert client.get(f"/v1/runs/{row.run_id}").status_code == 200  # the API rebuilds nothing
        unknown = client.get("/v1/runs/r-20261201-000008-aaaaaa")
        assert unknown.status_code == 404 and "no run r-20261201-000008-aaaaaa" in unknown.text
