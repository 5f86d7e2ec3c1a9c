"""The run page's table of the cases recorded so far while the run goes: rows by case id with
their provisional scores and outcomes, hostile names as text, the "provisional" mark, and no
table once the run is over."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from typing import Any

from dittobench.views.frame import Chrome
from dittobench.views.pages import CaseFilter, provisional_data, provisional_rows, run_page
from tests.helpers.judged_reports import reports
from tests.unit.test_views_nuance import listed

NAME = '<script>alert("name")</script>"><img src=x onerror=alert(1)>'
MARK = "provisional: final scores come when the run is graded"
ROW = re.compile(
    r'<tr data-passed="(yes|no)"><td><code>(.*?)</code></td><td>(.*?)</td><td>(.*?)</td>'
    r'<td class=num>(.*?)</td><td class="(?:ok|bad)">(.*?)</td></tr>'
)


def _score(case_id: str, score: float, correct: bool, reason: str = "", **more: Any) -> Any:
    return {
        "case_id": case_id, "category": "recall", "kind": "memory", "score": score,
        "correct": correct, "reason": reason, **more,
    }  # fmt: skip


def _page(status: str, partial: list[dict[str, Any]], job: bool = True) -> str:
    item = replace(listed(reports()["official"]), status=status, cases_done=2, cases_total=9)
    item = replace(item, job=job)
    return run_page(
        None, item, None, {}, CaseFilter(), Chrome(), tier="operator-run", receipt_note="",
        stage="running", provisional=provisional_rows(partial),
    )  # fmt: skip


def _table(page: str) -> list[tuple[str, ...]]:
    found = re.search(r'<table id="provisional-table">(.*?)</table>', page)
    assert found, page
    return [tuple(html.unescape(cell) for cell in row) for row in ROW.findall(found.group(1))]


def test_the_rows_are_by_case_id_with_their_provisional_scores_and_outcomes() -> None:
    partial = [
        _score("m-0002", 0.25, False, "distractor"),
        _score("m-0001", 1.0, True),
        _score("m-0003", 0.0, False),
        {"case_id": "x", "score": "not a number"},  # not a case score: left out
    ]
    rows = provisional_rows(partial)
    assert [row.case_id for row in rows] == ["m-0001", "m-0002", "m-0003"]
    assert [row.outcome for row in rows] == ["pass", "fail: distractor", "fail"]
    assert [row.score for row in rows] == ["1.000", "0.250", "0.000"]
    page = _page("running", partial)
    assert MARK in page
    assert _table(page) == [
        ("yes", "m-0001", "memory", "recall", "1.000", "pass"),
        ("no", "m-0002", "memory", "recall", "0.250", "fail: distractor"),
        ("no", "m-0003", "memory", "recall", "0.000", "fail"),
    ]
    assert 'data-source="/runs/r-20261201-000000-aaaaaa/provisional.json"' in page
    data = provisional_data("running", rows)
    assert data["provisional"] is True and data["status"] == "running"
    assert [c["case_id"] for c in data["cases"]] == ["m-0001", "m-0002", "m-0003"]
    assert data["cases"][1] == {
        "case_id": "m-0002", "kind": "memory", "category": "recall", "score": "0.250",
        "passed": False, "outcome": "fail: distractor",
    }  # fmt: skip


def test_a_hostile_case_id_and_category_are_text() -> None:
    page = _page("running", [_score(NAME, 0.5, False, category=NAME)])
    assert "<script>alert" not in page and "<img src=" not in page
    assert _table(page) == [("no", NAME, "memory", NAME, "0.500", "fail")]


def test_no_case_recorded_yet_is_an_empty_table_and_a_finished_run_has_none() -> None:
    """Nor has a run that is not a service job: the service grades no provisional score."""
    waiting = _page("queued", [])
    assert MARK in waiting and _table(waiting) == []
    assert "<span id=provisional-count>0</span>" in waiting
    over = _page("done", [_score("m-0001", 1.0, True)])
    assert MARK not in over and "provisional-table" not in over
    assert "provisional-table" not in _page("running", [], job=False)
