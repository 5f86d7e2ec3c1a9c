"""The comparison's case list: only the cases whose score changed (every case on request), worst
first, each with the question, both answers and both rules in words with the answer key's values
(as the case page explains them); a category of one case has no interval in the maths, the JSON,
the page and the command line's table."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dittobench.cli.viewing import _interval
from dittobench.spec.report import CaseScore, ScoreReport
from dittobench.views.compare import Delta, Side, compare, flips
from dittobench.views.comparing import (
    compare_reports,
    comparison_json,
    side_of,
    with_cases,
)
from dittobench.views.frame import Chrome
from dittobench.views.pages import case_link
from dittobench.views.pages_more import compare_page
from tests.helpers.judged_reports import dataset, reports
from tests.unit.test_views_nuance import records

HALVES = {"tool": 0.5, "memory": 0.5}
A_ID = "r-20261201-000000-aaaaaa"
B_ID = "r-20261201-000000-bbbbbb"


def side(scores: dict[str, float], categories: dict[str, str] | None = None) -> Side:
    kinds = dict.fromkeys(scores, "memory")
    cats = categories or dict.fromkeys(scores, "c")
    return Side(scores, kinds, cats, 0.5, 0.1, 0.5, {})


def test_only_changed_cases_are_listed_largest_drop_first_then_the_gains() -> None:
    a = side({"w": 1.0, "x": 1.0, "y": 0.0, "z": 0.5, "same": 0.5, "only-a": 1.0})
    b = side({"w": 0.5, "x": 0.0, "y": 1.0, "z": 0.75, "same": 0.5 + 1e-12, "only-b": 0.0})
    listed = flips(a, b)
    assert [f.case_id for f in listed] == ["x", "w", "z", "y"]
    assert [f.delta for f in listed] == [-1.0, -0.5, 0.25, 1.0]
    every = flips(a, b, changed_only=False)
    assert [f.case_id for f in every] == ["x", "w", "same", "z", "y"]
    assert not every[2].changed


def test_a_category_of_one_case_has_no_interval() -> None:
    a = side({"m1": 1.0, "m2": 0.0, "m3": 1.0}, {"m1": "one", "m2": "two", "m3": "two"})
    b = side({"m1": 0.0, "m2": 1.0, "m3": 0.5}, {"m1": "one", "m2": "two", "m3": "two"})
    made = {c.category: c for c in compare(a, b, paired=True, halves=HALVES).categories}
    alone = made["one"].delta
    assert made["one"].count == 1 and not alone.interval
    assert (alone.low, alone.high) == (-1.0, -1.0) and not alone.clear
    assert made["two"].delta.interval and made["two"].delta.low < made["two"].delta.high
    assert _interval(alone) == "–"
    assert _interval(Delta(0.5, 0.1)) == "[+0.304, +0.696]"


def test_an_unpaired_category_of_one_case_has_no_interval() -> None:
    a = Side({"t1": 1}, {"t1": "tool"}, {"t1": "c"}, 0.4, 0.03, 0.4, {"c": (0.4, 0.0, 1)})
    b = Side({"t9": 1}, {"t9": "tool"}, {"t9": "c"}, 0.5, 0.04, 0.5, {"c": (0.6, 0.04, 12)})
    (only,) = compare(a, b, paired=False, halves=HALVES).categories
    assert only.count == 1 and not only.delta.interval


def _dropped(report: ScoreReport, case_ids: dict[str, tuple[float, str]]) -> ScoreReport:
    """``report`` with the scores and reasons of ``case_ids`` changed."""
    cases = []
    for case in report.per_case:
        if case.case_id in case_ids:
            value, reason = case_ids[case.case_id]
            case = replace(case, score=value, correct=value >= 1.0, reason=reason)  # type: ignore[arg-type]
        cases.append(case)
    return replace(report, per_case=tuple(cases))


def _memory_with_distractors() -> tuple[str, str, str]:
    made = next(m for m in dataset().memory_cases if m.distractors and m.expected_answer)
    return made.id, made.distractors[0], made.expected_answer


def _pair() -> tuple[ScoreReport, ScoreReport, str, str, str]:
    a = reports()["none"]
    case_id, wrong, expected = _memory_with_distractors()
    tool = next(c for c in a.per_case if c.kind == "tool")
    b = _dropped(a, {case_id: (0.0, "distractor"), tool.case_id: (0.5, "arguments")})
    return a, b, case_id, wrong, expected


def test_the_case_list_explains_each_flip_with_the_words_of_the_case_page() -> None:
    a, b, case_id, wrong, expected = _pair()
    records_b = records()
    records_b[case_id] = {**records_b[case_id], "response": {"answer": wrong, "final_text": ""}}
    made = with_cases(
        compare_reports(A_ID, a, B_ID, b), dataset(), records(), records_b, link=case_link
    )
    assert next(c.flip.case_id for c in made.cases) == case_id  # the largest drop first
    assert len(made.cases) == 2 and made.cases[1].flip.delta == pytest.approx(-0.5)
    first = made.cases[0]
    question = next(m.question for m in dataset().memory_cases if m.id == case_id)
    assert first.asked == question and first.answer_b == wrong
    assert first.why_a.rule == "" and first.why_b.rule == "distractor"
    assert first.why_b.named == (wrong,) and first.why_b.expected == expected
    assert first.href_a == case_link(A_ID, case_id) and first.href_b == case_link(B_ID, case_id)
    as_json = comparison_json(made)
    assert as_json["cases_listed"] == "changed"
    (shown, _) = as_json["cases"]
    assert shown["case_id"] == case_id and shown["delta"] == -1.0
    assert shown["question"] == question and shown["expected"] == expected
    assert shown["why_b"]["rule"] == "distractor" and shown["why_b"]["named"] == [wrong]
    assert shown["answer_b"] == wrong


def test_every_case_on_request_and_none_when_unpaired() -> None:
    a, b, *_ = _pair()
    made = compare_reports(A_ID, a, B_ID, b)
    every = with_cases(made, dataset(), records(), records(), all_cases=True)
    assert len(every.cases) == len(a.per_case) and every.all_cases
    assert comparison_json(every)["cases_listed"] == "all"
    other = replace(b, dataset_sha256="0" * 64)
    unpaired = with_cases(compare_reports(A_ID, a, B_ID, other), dataset(), records(), records())
    assert unpaired.cases == () and comparison_json(unpaired)["cases"] == []


def test_a_missing_dataset_leaves_the_words_out_but_keeps_the_rules() -> None:
    a, b, _case_id, *_ = _pair()
    made = with_cases(compare_reports(A_ID, a, B_ID, b), None, {}, {}, note="gone")
    assert made.cases[0].asked == "" and made.cases[0].why_b.rule == "distractor"
    assert made.cases_note == "gone"


def test_the_compare_page_lists_the_flips_with_links_and_no_interval_for_one_case() -> None:
    a, b, case_id, _wrong, _ = _pair()
    made = with_cases(
        compare_reports(A_ID, a, B_ID, b), dataset(), records(), records(), link=case_link
    )
    page = compare_page([], A_ID, B_ID, made, Chrome())
    table = page.split('id="case-changes"', 1)[1].split("</table>", 1)[0]
    assert table.count("<tr data-delta=") == 2
    assert f'href="/runs/{A_ID}/cases/{case_id}"' in table
    assert f'href="/runs/{B_ID}/cases/{case_id}"' in table
    assert "<code>distractor</code>" in table
    assert "cases=all" in page  # the link to every case
    singles = [c for c in made.result.categories if c.count == 1]
    categories = page.split('id="category-deltas"', 1)[1].split("</table>", 1)[0]
    for single in singles:
        row = categories.split(f"<td>{single.category}</td>", 1)[1].split("</tr>", 1)[0]
        assert "[" not in row and "one case: no interval" in row
    assert singles, "the judged reports have categories of one case"


def test_a_side_is_read_from_the_report() -> None:
    a = reports()["none"]
    made = side_of(a)
    first: CaseScore = a.per_case[0]
    assert made.scores[first.case_id] == first.score
