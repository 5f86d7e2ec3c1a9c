"""Long tables paged and sorted on the server: the page maths (held to the last page, at most 200
rows), the sort query (``-`` for descending, unknown columns ignored), the header links and the
pager keeping the filters; the run page shows one page of its cases, the standalone report every
case, and the dataset page one section at a time."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

from dittobench.views.explain import explain
from dittobench.views.frame import Chrome
from dittobench.views.model import CaseDetail, StoredRun
from dittobench.views.pages import CaseFilter, CaseView, back_query, case_page, run_page
from dittobench.views.pages_more import dataset_page, history_lines
from dittobench.views.paging import (
    MAX_PER,
    Sort,
    pager,
    paging,
    parse_sort,
    sort_cases,
    sort_link,
)
from dittobench.views.report import standalone_report
from tests.helpers.judged_reports import dataset, reports
from tests.unit.test_views_nuance import listed, run_row

ROW = re.compile(r"<tr data-kind=")


def test_the_page_maths() -> None:
    made = paging(2, 50, 120)
    assert (made.page, made.pages, made.start, made.end) == (2, 3, 50, 100)
    assert made.caption == "rows 51–100 of 120, page 2 of 3"
    assert paging(3, 50, 120).rows(list(range(120))) == tuple(range(100, 120))
    assert paging(99, 50, 120).page == 3  # past the last: the last
    assert paging(0, 50, 120).page == 1
    assert paging(1, 10_000, 500).per == MAX_PER
    assert paging(1, 0, 5).per == 1
    empty = paging(4, 50, 0)
    assert (empty.page, empty.pages, empty.rows([]), empty.caption) == (1, 1, (), "no rows")
    assert paging(1, 50, 100).pages == 2 and paging(1, 50, 101).pages == 3


def test_the_pager_links_keep_the_query_and_stop_at_the_ends() -> None:
    query = {"kind": "memory", "q": "a&b", "sort": "-score", "rule": ""}
    middle = pager(paging(2, 50, 120), query)
    assert parse_qs(middle.previous) == {
        "kind": ["memory"], "q": ["a&b"], "sort": ["-score"], "page": ["1"], "per": ["50"],
    }  # fmt: skip
    assert parse_qs(middle.next)["page"] == ["3"] and parse_qs(middle.last)["page"] == ["3"]
    first = pager(paging(1, 50, 120), query)
    assert first.first == first.previous == "" and first.next
    last = pager(paging(3, 50, 120), query)
    assert last.next == last.last == "" and parse_qs(last.first)["page"] == ["1"]


def test_the_sort_query() -> None:
    assert parse_sort("score") == Sort("score", False)
    assert parse_sort("-latency") == Sort("latency", True)
    assert parse_sort("-latency").text == "-latency"
    assert parse_sort("nonsense") == Sort() and parse_sort("") == Sort()
    assert Sort().text == ""


def test_cases_sort_by_each_column_ties_by_case_id() -> None:
    cases = reports()["none"].per_case
    by_score = sort_cases(cases, Sort("score", True))
    assert [c.score for c in by_score] == sorted((c.score for c in cases), reverse=True)
    by_latency = sort_cases(cases, Sort("latency"))
    assert [c.latency_ms for c in by_latency] == sorted(c.latency_ms for c in cases)
    by_case = sort_cases(cases, Sort("case"))
    assert [c.case_id for c in by_case] == sorted(c.case_id for c in cases)
    by_category = sort_cases(cases, Sort("category", True))
    assert [(c.category, c.case_id) for c in by_category] == sorted(
        ((c.category, c.case_id) for c in cases), reverse=True
    )
    assert sort_cases(cases, Sort()) == tuple(cases)


def test_a_header_link_sorts_ascending_then_descending_back_on_page_one() -> None:
    query = {"kind": "tool", "per": "20"}
    fresh = sort_link("Score", "score", Sort(), query)
    assert fresh.state == "none" and parse_qs(fresh.query) == {
        "kind": ["tool"], "per": ["20"], "sort": ["score"],
    }  # fmt: skip
    up = sort_link("Score", "score", Sort("score"), query)
    assert up.state == "ascending" and parse_qs(up.query)["sort"] == ["-score"]
    down = sort_link("Score", "score", Sort("score", True), query)
    assert down.state == "descending" and parse_qs(down.query)["sort"] == ["score"]


def _run_page(view: CaseView) -> str:
    report = reports()["none"]
    return run_page(
        run_row(report), listed(report), report, {}, view, Chrome(),
        tier="self-reported", receipt_note="", stage="done",
    )  # fmt: skip


def test_the_run_page_shows_one_page_of_cases_sorted() -> None:
    report = reports()["none"]
    total = len(report.per_case)
    assert total > 50
    first = _run_page(CaseView(CaseFilter(), Sort("latency", True), 1, 50))
    assert len(ROW.findall(first)) == 50
    assert f"rows 1–50 of {total}, page 1 of 2" in first
    assert 'aria-sort="descending"' in first and "sort=-latency&amp;page=2&amp;per=50" in first
    second = _run_page(CaseView(CaseFilter(), Sort("latency", True), 2, 50))
    assert len(ROW.findall(second)) == total - 50
    latencies = [int(v) for v in re.findall(r"<td class=num>(\d+) ms</td>", first + second)]
    assert latencies == sorted(latencies, reverse=True) and len(latencies) == total
    kept = _run_page(CaseView(CaseFilter(kind="memory"), Sort("score"), 1, 10))
    memory = sum(1 for c in report.per_case if c.kind == "memory")
    assert len(ROW.findall(kept)) == min(10, memory)
    assert 'data-kind="tool"' not in kept
    assert '<input type=hidden name="sort" value="score">' in kept  # the filter form keeps it
    assert "kind=memory&amp;per=10&amp;sort=-score" in kept  # the header keeps the filter


def test_the_standalone_report_shows_every_case_unpaged() -> None:
    report = reports()["none"]
    page = standalone_report(run_row(report), report, {}, "self-reported")
    assert len(ROW.findall(page)) == len(report.per_case)
    assert "page 1 of" not in page and "data-sort" not in page


def test_the_dataset_page_shows_one_section_a_page_at_a_time() -> None:
    data = dataset()
    tools = dataset_page(data, "5", "medium", "8.0.0", ["8.0.0"], Chrome(), per=10)
    assert tools.count("<tr><td><code>") == min(10, len(data.tool_cases))
    assert "Memory cases (" in tools and "section=memory" in tools
    pairs = history_lines(data)
    last = -(-len(pairs) // 20)
    history = dataset_page(
        data, "5", "medium", "8.0.0", ["8.0.0"], Chrome(), section="history", page=99, per=20
    )
    assert f"page {last} of {last}" in history
    rows = re.findall(r"<tr><td>\d+</td>", history)
    assert len(rows) == len(pairs) - 20 * (last - 1)
    assert "per=20" in history and "section=history" in history


def test_a_long_distractor_list_folds_behind_a_disclosure() -> None:
    data = dataset()
    page = dataset_page(
        data, "5", "medium", "8.0.0", ["8.0.0"], Chrome(), section="memory", per=MAX_PER
    )
    long = [m for m in data.memory_cases if len(m.distractors) > 6]
    assert page.count("<details><summary>") == len(long)
    for m in long:
        assert f"({len(m.distractors)} in all)</summary>" in page


def test_a_case_link_carries_the_run_page_back_and_the_case_page_returns_to_it() -> None:
    page = _run_page(CaseView(CaseFilter(kind="memory"), Sort("score", True), 2, 10))
    links = re.findall(r'<a href="(/runs/[^"]+/cases/[^"]+)">', page)
    assert links and all(
        "?back=kind%3Dmemory%26per%3D10%26sort%3D-score%26page%3D2" in link for link in links
    )
    plain = _run_page(CaseView())
    assert re.findall(r'<a href="/runs/[^"]+/cases/(c[0-9a-f]+)">', plain)  # no query at all
    assert back_query("kind=tool&evil=1&q=a%26b&page=3&next=https://x.example") == (
        "kind=tool&q=a%26b&page=3"
    )
    assert back_query("") == ""
    report = reports()["none"]
    stored = StoredRun(run_row(report), report)
    detail = CaseDetail(report.per_case[0], "", explain(""))
    shown = case_page(stored.row.run_id, detail, Chrome(), back="sort=-score&page=2&x=<b>")
    assert f'<a id=back href="/runs/{stored.row.run_id}?sort=-score&amp;page=2#cases">' in shown
    bare = case_page(stored.row.run_id, detail, Chrome())
    assert f'<a id=back href="/runs/{stored.row.run_id}#cases">' in bare
