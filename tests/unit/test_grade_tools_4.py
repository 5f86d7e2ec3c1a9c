"""grading-4's tool rules: natural descriptions, one corrective retry, a verifying read, and a
decoy named and set aside; each with the cheat it still stops."""

from __future__ import annotations

from typing import Any

import pytest

from dittobench.grade.tools import grade_tool, value_matches
from dittobench.spec.dataset import ExpectedTool, ToolCase, ToolFixture
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.versions import GRADING_3, GRADING_4
from dittobench.spec.vocab import ToolGroup
from dittobench.spec.wire import RunResponse, ToolCall

REQUEST = "Could you trace Kuvim's funding history and draft a timeline so it's off my plate?"


def case(
    *tools: ExpectedTool, group: ToolGroup = "direct_routing", prompt: str = REQUEST
) -> ToolCase:
    return ToolCase("c", "test", group, prompt, tools, len(tools), False, False, "")


def record(*calls: ToolCall, text: str = "Done.") -> CaseRecord:
    return CaseRecord("c", "tool", "u", RunResponse(final_text=text), calls)


def call(name: str, **args: Any) -> ToolCall:
    return ToolCall(name, args)


FIXTURE = ToolFixture(
    case_id="c",
    subject="Velmorix turbine",
    unit="units",
    decoy_figure="12,345,678",
    job_id="job-7",
    link="https://x/y",
    bearer="search_web",
    needle_figure="48,213,907",
)


@pytest.mark.parametrize(
    ("argument", "matches"),
    [
        ("Trace Kuvim's funding history and draft a timeline of it", True),
        ("Research Kuvim's funding rounds, investors and dates; write it up as a timeline", True),
        ("Kuvim Brolrail Zeimken Klasten Dainmis Saifir funding history timeline", False),
        ("Trace the funding of Kuvim, Brolrail and Zeimken and draft timelines for each", False),
        ("Trace Kuvim's funding history " + "and more detail " * 60, False),
    ],
)
def test_a_task_described_in_words_matches_unless_it_stuffs(argument: str, matches: bool) -> None:
    assert value_matches(argument, "Kuvim", GRADING_4, REQUEST) is matches
    # grading-3 took any long description for stuffing
    assert not value_matches(argument, "Kuvim", GRADING_3, REQUEST)


def test_an_address_must_still_be_the_address() -> None:
    c = case(ExpectedTool("read_links", (("urls", "https://x/y"),)))
    sentence = (
        "please read the essay at https://x/y and tell me whether it is worth my while, "
        "thank you so much"
    )
    assert len(sentence) > GRADING_4.stuffing_ratio * len("https://x/y")
    graded = grade_tool(c, None, record(call("read_links", urls=[sentence])), GRADING_4)
    assert graded.reason == "arguments"


def test_one_corrective_retry_is_not_an_extra_call() -> None:
    c = case(ExpectedTool("search_web", ()))
    once = record(call("search_web", queries=["a"]), call("search_web", queries=["a b"]))
    twice = record(*(call("search_web", queries=[q]) for q in ("a", "b", "c")))
    assert grade_tool(c, None, once, GRADING_4).score == 1.0
    assert grade_tool(c, None, once, GRADING_3).score < 1.0
    assert grade_tool(c, None, twice, GRADING_4).score < 1.0


def test_a_verifying_read_is_not_extra_where_a_result_is_used() -> None:
    c = case(ExpectedTool("search_web", ()), group="result_usage")
    r = record(
        call("search_web", queries=["Velmorix turbine"]),
        call("read_links", urls=["https://x/y"]),
        text="The Velmorix turbine reached 48,213,907 units.",
    )
    assert grade_tool(c, FIXTURE, r, GRADING_4).score == 1.0
    assert grade_tool(case(ExpectedTool("search_web", ())), None, r, GRADING_4).score < 1.0


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("The page says 48,213,907. The search preview had shown 12,345,678.", 1.0),
        ("The snippet said 12,345,678, but the page itself gives 48,213,907.", 1.0),
        ("It reached 48,213,907, or maybe 12,345,678.", 0.4),
        ("It is 12,345,678 units.", 0.4),
    ],
)
def test_a_decoy_set_aside_does_not_cancel_the_needle(text: str, score: float) -> None:
    c = case(ExpectedTool("search_web", ()), group="result_usage")
    r = record(call("search_web", queries=["Velmorix turbine"]), text=text)
    assert grade_tool(c, FIXTURE, r, GRADING_4).score == pytest.approx(score)
