"""The tool grader (grade/tools.py): selection, arguments, order, discipline, restraint, the
self-report cap and result usage, on hand-built cases."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.grade.tools import ToolVerdict, grade_tool, value_matches
from dittobench.spec.dataset import ExpectedTool, ToolCase, ToolFixture
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.versions import GRADING_1
from dittobench.spec.vocab import ToolGroup
from dittobench.spec.wire import RunResponse, ToolCall

P = GRADING_1
URL = "https://x/y"


# --- builders ----------------------------------------------------------------------------------


def case(
    *tools: ExpectedTool,
    group: ToolGroup = "direct_routing",
    budget: int | None = None,
    allow_extra: bool = False,
    unordered: bool = False,
) -> ToolCase:
    return ToolCase(
        id="case-1",
        category="test",
        group=group,
        prompt="do it",
        expected_tools=tools,
        max_tool_calls=len(tools) if budget is None else budget,
        allow_extra_tools=allow_extra,
        unordered=unordered,
        expected_behavior="",
    )


def tool(name: str, **args: str) -> ExpectedTool:
    return ExpectedTool(name, tuple(sorted(args.items())))


def call(name: str, **args: Any) -> ToolCall:
    return ToolCall(name, args)


def record(
    *,
    observed: tuple[ToolCall, ...] = (),
    reported: tuple[ToolCall, ...] = (),
    text: str = "Done.",
    answer: str | None = None,
) -> CaseRecord:
    response = RunResponse(final_text=text, tool_calls=reported, answer=answer)
    return CaseRecord("case-1", "tool", "miner", response, observed)


def fixture() -> ToolFixture:
    return ToolFixture(
        case_id="case-1",
        subject="Velmorix turbine",
        unit="megawatt-hours",
        decoy_figure="12,345,678",
        job_id="job-7",
        link=URL,
        bearer="search_web",
        needle="the Velmorix turbine reached 48,213,907 megawatt-hours",
        needle_figure="48,213,907",
    )


def grade(c: ToolCase, r: CaseRecord | None, f: ToolFixture | None = None) -> ToolVerdict:
    return grade_tool(c, f, r, P)


READ = case(tool("read_links", urls=URL))
WEB_READ = case(tool("search_web", queries="Velmorix turbine"), tool("read_links", urls=URL))
WEB_IMAGE = case(
    tool("search_web", queries="Velmorix turbine"),
    tool("create_image", prompt="a lighthouse"),
    unordered=True,
)
RESTRAINT = case(group="restraint", budget=0)
MEMORY = case(tool("search_memories", queries="Velmorix turbine"))
RECOVERY = case(
    tool("search_web", queries="Velmorix turbine"), group="result_usage", allow_extra=True
)
USAGE = case(tool("search_web", queries="Velmorix turbine"), group="result_usage")

SEARCH = call("search_web", queries=["Velmorix turbine"])
READ_OK = call("read_links", urls=[URL])
IMAGE = call("create_image", prompt="a lighthouse")


# --- one call ----------------------------------------------------------------------------------


def test_perfect_single_observed_call() -> None:
    v = grade(READ, record(observed=(call("read_links", urls=URL),)))
    assert v == ToolVerdict(1.0, 1.0, "", ("read_links",), True, False, 1)


@pytest.mark.parametrize(
    ("calls", "reason"),
    [
        ((call("search_web", queries=[URL]),), "wrong_tools"),
        ((), "no_call"),
    ],
)
def test_wrong_tool_or_no_call_scores_zero(calls: tuple[ToolCall, ...], reason: str) -> None:
    v = grade(READ, record(observed=calls))
    assert (v.score, v.trajectory, v.reason) == (0.0, 0.0, reason)


@pytest.mark.parametrize(
    "args",
    [
        {},
        {"urls": "https://x/z"},
        {"urls": ["https://elsewhere/"]},
        {"urls": None},
        {"urls": {"u": URL}},
        {"urls": True},
        {"links": URL},
    ],
)
def test_missing_or_wrong_argument_loses_the_argument_part(args: dict[str, Any]) -> None:
    v = grade(READ, record(observed=(ToolCall("read_links", args),)))
    # selection 1 x 0.4 + arguments 0 x 0.4 + order 1 x 0.2
    assert v.score == pytest.approx(P.tool_selection + P.tool_order_discipline)
    assert v.score == pytest.approx(0.6)
    assert v.reason == "arguments"


@pytest.mark.parametrize("args", [None, "https://x/y", [URL], 7])
def test_non_object_arguments_lose_the_argument_part(args: Any) -> None:
    v = grade(READ, record(observed=(ToolCall("read_links", args),)))
    assert v.score == pytest.approx(0.6)


STUFFED = (
    "please find every single thing you can about the Velmorix turbine and also its "
    "history, its owners, its output, its weather, its stock price and anything else at all"
)

# (observed value, wanted value, matches)
VALUES: list[tuple[Any, str, bool]] = [
    (URL, URL, True),
    ([URL], URL, True),
    (["https://a/", URL], URL, True),
    ([["nested", URL]], URL, True),
    (["https://a/"], URL, False),
    ([], URL, False),
    ([f"https://site{i}.example/page" for i in range(8)] + [URL], URL, True),
    ([{"u": URL}], URL, False),
    ([True], "true", False),
    ([None], "none", False),
    ("  VELMORIX \t Turbine  ", "Velmorix turbine", True),
    ("velmorix turbine", "VELMORIX TURBINE", True),
    ("Velmorix-turbine", "Velmorix turbine", True),
    ("Velmorix turbines", "Velmorix turbine", False),
    ("Velmorix", "Velmorix turbine", False),
    ("1,500", "1500", True),
    ("1500", "1,500", True),
    (1500, "1500", True),
    ("15000", "1500", False),
    ("15,000", "1500", False),
    ("150", "1500", False),
    ("Velmorix turbine output", "Velmorix turbine", True),
    ("latest Velmorix turbine figures", "Velmorix turbine", True),
    (STUFFED, "Velmorix turbine", False),
    (None, "x1", False),
    (True, "true", False),
    ({"Velmorix turbine": 1}, "Velmorix turbine", False),
    ("anything", "", False),
    ("the", "the", True),
]


@pytest.mark.parametrize(("observed", "wanted", "matches"), VALUES)
def test_value_matches(observed: Any, wanted: str, matches: bool) -> None:
    assert value_matches(observed, wanted, P) is matches


def test_stuffed_value_is_long_enough_to_be_stuffed() -> None:
    """The stuffing case above must really exceed both thresholds, or it tests nothing."""
    assert len(STUFFED) > P.stuffing_ratio * len("Velmorix turbine")
    assert len(STUFFED.split()) >= P.stuffing_min_words
    assert value_matches(STUFFED[:120], "Velmorix turbine", P)


@pytest.mark.parametrize(
    ("value", "score"),
    [
        ("Velmorix turbine output", 1.0),
        ([" velmorix   TURBINE "], 1.0),
        ("Velmorix " + "turbine and a great many other words " * 5, 0.6),
        ("Velmorix", 0.6),
    ],
)
def test_argument_match_feeds_the_score(value: Any, score: float) -> None:
    c = case(tool("search_web", queries="Velmorix turbine"))
    v = grade(c, record(observed=(call("search_web", queries=value),)))
    assert v.score == pytest.approx(score)


def test_number_argument_tokens() -> None:
    c = case(tool("run_code", code="1500"))
    assert grade(c, record(observed=(call("run_code", code="1,500"),))).score == 1.0
    assert grade(c, record(observed=(call("run_code", code="15000"),))).score == pytest.approx(0.6)


def test_partial_arguments_are_an_f1() -> None:
    c = case(tool("calendar_create_event", title="Dentist", when="Friday 3pm"))
    v = grade(c, record(observed=(call("calendar_create_event", title="Dentist", when="Monday"),)))
    # present 2, correct 1, wanted 2: precision 1/2, recall 1/2, F1 1/2
    assert v.score == pytest.approx(0.4 + 0.4 * 0.5 + 0.2)
    v = grade(c, record(observed=(call("calendar_create_event", title="Dentist"),)))
    # present 1, correct 1, wanted 2: precision 1, recall 1/2, F1 2/3
    assert v.score == pytest.approx(0.4 + 0.4 * 2 / 3 + 0.2)


# --- two calls: order --------------------------------------------------------------------------


def test_ordered_two_steps_in_order() -> None:
    v = grade(WEB_READ, record(observed=(SEARCH, READ_OK)))
    assert (v.score, v.reason, v.called) == (1.0, "", ("search_web", "read_links"))


def test_ordered_two_steps_reversed_loses_only_the_order_part() -> None:
    v = grade(WEB_READ, record(observed=(READ_OK, SEARCH)))
    assert v.score == pytest.approx(0.8)
    assert v.score == pytest.approx(1 - P.tool_order_discipline)
    assert v.reason == "order"


def test_unordered_two_steps_reversed_is_full_marks() -> None:
    assert grade(WEB_IMAGE, record(observed=(SEARCH, IMAGE))).score == 1.0
    assert grade(WEB_IMAGE, record(observed=(IMAGE, SEARCH))).score == 1.0


def test_two_steps_with_one_missing() -> None:
    v = grade(WEB_READ, record(observed=(SEARCH,)))
    # recall 1/2, precision 1 -> selection 2/3; arguments: wanted 2, present 1, correct 1 -> 2/3;
    # order: the pair is incomplete -> 0
    assert v.score == pytest.approx(0.4 * 2 / 3 + 0.4 * 2 / 3)
    assert v.reason == "arguments"


# --- extra calls and the budget ----------------------------------------------------------------


def test_one_extra_unrelated_call() -> None:
    v = grade(READ, record(observed=(READ_OK, IMAGE)))
    # selection: precision 1/2, recall 1 -> F1 2/3; order 1 but the discipline penalty is full
    # (one call over a budget of one, one extra per expected call)
    assert v.score == pytest.approx(0.4 * 2 / 3 + 0.4)
    assert v.score < 1
    assert v.reason == "extra_or_missing_calls"


def test_repeated_call_without_allowance() -> None:
    v = grade(READ, record(observed=(READ_OK, READ_OK)))
    assert v.score == pytest.approx(0.4 * 2 / 3 + 0.4)


def test_budget_overrun_on_a_two_step_case() -> None:
    v = grade(WEB_READ, record(observed=(SEARCH, READ_OK, READ_OK)))
    # selection: precision 2/3, recall 1 -> F1 0.8; penalty max(1/2 over budget, 1/2 extras)
    assert v.score == pytest.approx(0.4 * 0.8 + 0.4 + 0.2 * 0.5)
    assert v.reason == "extra_or_missing_calls"


def test_more_extras_cost_more() -> None:
    one = grade(WEB_READ, record(observed=(SEARCH, READ_OK, IMAGE))).score
    two = grade(WEB_READ, record(observed=(SEARCH, READ_OK, IMAGE, IMAGE))).score
    assert 0 < two < one < 1


def test_allowed_retry_is_full_marks() -> None:
    v = grade(RECOVERY, record(observed=(SEARCH, SEARCH), text="It reached 48,213,907."), fixture())
    assert (v.score, v.reason, v.observed_calls) == (1.0, "", 2)


def test_allowed_extras_still_need_the_expected_call() -> None:
    v = grade(RECOVERY, record(observed=(IMAGE, IMAGE), text="48,213,907"), fixture())
    assert v.trajectory == 0.0
    assert v.reason == "wrong_tools"


# --- restraint ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rec", "score", "reason"),
    [
        (record(text="Hello! Nice to meet you."), 1.0, ""),
        (record(text="", answer="Sure, happy to chat."), 1.0, ""),
        (record(observed=(SEARCH,), text="Hello!"), 0.0, "called_in_restraint"),
        (record(reported=(SEARCH,), text="Hello!"), 0.0, "called_in_restraint"),
        (record(reported=(call("search_memories", queries=["x"]),)), 0.0, "called_in_restraint"),
        (record(text=""), 0.0, "empty"),
        (record(text=" \n\t "), 0.0, "empty"),
    ],
)
def test_restraint(rec: CaseRecord, score: float, reason: str) -> None:
    v = grade(RESTRAINT, rec)
    assert (v.score, v.reason) == (score, reason)


def test_restraint_reports_what_was_called() -> None:
    v = grade(RESTRAINT, record(observed=(SEARCH, IMAGE)))
    assert v.called == ("search_web", "create_image")
    assert v.observed and v.observed_calls == 2


# --- self-reported calls -----------------------------------------------------------------------


def test_self_report_only_is_capped_even_when_perfect() -> None:
    v = grade(READ, record(reported=(READ_OK,)))
    assert v.trajectory == 1.0
    assert v.score == P.self_report_cap == 0.5
    assert v.capped and not v.observed
    assert v.reason == "self_reported"


def test_self_report_below_the_cap_keeps_its_score() -> None:
    v = grade(WEB_READ, record(reported=(READ_OK, SEARCH)))
    assert v.trajectory == pytest.approx(0.8)
    assert v.score == 0.5
    v = grade(READ, record(reported=(call("read_links", urls="https://other/"),)))
    assert v.score == pytest.approx(0.5)
    v = grade(READ, record(reported=(IMAGE,)))
    assert v.score == 0.0


def test_observed_calls_win_over_the_report() -> None:
    v = grade(READ, record(observed=(READ_OK,), reported=(IMAGE, IMAGE, IMAGE)))
    assert (v.score, v.capped, v.observed) == (1.0, False, True)
    v = grade(READ, record(observed=(IMAGE,), reported=(READ_OK,)))
    assert (v.score, v.capped) == (0.0, False)


def test_memory_only_case_graded_on_the_report_uncapped() -> None:
    v = grade(MEMORY, record(reported=(call("search_memories", queries=["Velmorix turbine"]),)))
    assert (v.score, v.capped, v.observed) == (1.0, False, False)


def test_memory_only_case_prefers_observed_memory_calls() -> None:
    mem = call("search_memories", queries=["Velmorix turbine"])
    v = grade(MEMORY, record(observed=(mem,), reported=(mem, IMAGE)))
    assert (v.score, v.observed) == (1.0, True)


def test_memory_only_case_counts_observed_extras_with_the_report() -> None:
    mem = call("search_memories", queries=["Velmorix turbine"])
    v = grade(MEMORY, record(observed=(SEARCH,), reported=(mem,)))
    assert v.called == ("search_memories", "search_web")
    assert v.observed and not v.capped
    assert 0 < v.score < 1


# --- result usage ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "answer", "score", "reason"),
    [
        ("The Velmorix turbine reached 48,213,907 megawatt-hours.", None, 1.0, ""),
        ("It reached 48213907 MWh.", None, 1.0, ""),
        ("", "48 213 907", 1.0, ""),
        ("I could not find the figure.", None, 0.4, "no_figure"),
        ("Either 48,213,907 or 12,345,678.", None, 0.4, "decoy_figure"),
        ("It reached 48,213,907.", "12345678", 0.4, "decoy_figure"),
        ("It reached 12,345,678.", None, 0.4, "decoy_figure"),
        ("It reached 148,213,907.", None, 0.4, "no_figure"),
    ],
)
def test_result_usage(text: str, answer: str | None, score: float, reason: str) -> None:
    v = grade(USAGE, record(observed=(SEARCH,), text=text, answer=answer), fixture())
    assert v.trajectory == 1.0
    assert v.score == pytest.approx(score)
    assert v.score == pytest.approx(P.result_trajectory + P.result_usage * (score == 1.0))
    assert v.reason == reason


def test_result_usage_with_a_weak_trajectory() -> None:
    v = grade(USAGE, record(observed=(IMAGE,), text="48,213,907"), fixture())
    assert v.score == pytest.approx(P.result_usage)
    assert v.reason == "wrong_tools"


def test_result_usage_self_reported_is_capped() -> None:
    v = grade(USAGE, record(reported=(SEARCH,), text="48,213,907"), fixture())
    assert (v.score, v.capped) == (0.5, True)


def test_result_usage_without_fixture_is_graded_on_the_trajectory() -> None:
    assert grade(USAGE, record(observed=(SEARCH,), text="nothing")).score == 1.0


# --- undelivered -------------------------------------------------------------------------------


@pytest.mark.parametrize("c", [READ, RESTRAINT, USAGE])
@pytest.mark.parametrize(
    "rec", [None, CaseRecord("case-1", "tool", "miner", None, (READ_OK, SEARCH))]
)
def test_undelivered(c: ToolCase, rec: CaseRecord | None) -> None:
    assert grade(c, rec, fixture()) == ToolVerdict(0.0, 0.0, "undelivered", (), False, False, 0)


# --- property: never raises, bounded, deterministic --------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
NAMES = st.sampled_from(["search_web", "read_links", "search_memories", "create_image"]) | st.text()
ARG_KEYS = st.sampled_from(["queries", "urls", "prompt"]) | st.text()
ARGS = JSON | st.dictionaries(ARG_KEYS, JSON, max_size=4)
CALLS = st.lists(st.builds(ToolCall, NAMES, ARGS, st.integers()), max_size=5).map(tuple)
CASES = st.sampled_from([READ, WEB_READ, WEB_IMAGE, RESTRAINT, MEMORY, RECOVERY, USAGE])


@settings(max_examples=300, deadline=None)
@given(
    CASES,
    st.none() | st.just(fixture()),
    CALLS,
    CALLS,
    st.text(),
    st.none() | st.text(),
)
def test_grade_tool_total_bounded_and_deterministic(
    c: ToolCase,
    f: ToolFixture | None,
    observed: tuple[ToolCall, ...],
    reported: tuple[ToolCall, ...],
    text: str,
    answer: str | None,
) -> None:
    rec = record(observed=observed, reported=reported, text=text, answer=answer)
    first = grade_tool(c, f, rec, P)
    assert 0.0 <= first.score <= 1.0
    assert 0.0 <= first.trajectory <= 1.0
    assert first.observed_calls == len(observed)
    assert (first.reason == "") == (first.score == 1.0)
    if first.capped:
        assert first.score <= P.self_report_cap
    if not c.expected_tools and (observed or reported):
        assert first.score == 0.0
    assert grade_tool(c, f, rec, P) == first
