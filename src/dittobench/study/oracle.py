"""The oracle: every case answered from its answer key, the way a perfect assistant would.

It scores 1.000 on every seed and size (``tests/unit/test_grade_redteam.py``); the study uses it
as the ceiling every other strategy is measured against.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from dittobench.catalog import get_tool
from dittobench.core.dates import spoken_date
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.memory import MemoryCase
from dittobench.spec.wire import RunResponse, ToolCall

SAMPLE_ARGS: dict[str, Any] = {
    "queries": ["latest figures"],
    "urls": ["https://example.org/"],
    "prompt": "a lighthouse",
    "image_url": "https://img.example/1.png",
    "instruction": "make it autumn",
    "task": "research",
    "goal": "plan",
    "job_id": "job-x",
    "subject_id": "subj-1",
    "pairIds": ["p-1"],
    "pair_id": "p-1",
    "content": "note",
    "spec": "a page",
    "message": "hello",
    "theme": "dark",
    "model": "m",
    "effort": "low",
    "preferences": "none",
    "schedule": "daily",
    "name": "routine",
    "steps": ["one"],
    "title": "t",
    "when": "tomorrow",
    "query": "q",
    "to": "a@b.c",
    "body": "hi",
    "color": "teal",
    "font": "Inter",
}
"""A filler value for every required argument no pin asks for (graders never read them)."""


def oracle_call(case: ToolCase, fixture: ToolFixture, index: int) -> ToolCall:
    expected = case.expected_tools[index]
    schema = get_tool(expected.name).parameters
    args = {name: SAMPLE_ARGS.get(name, "x") for name in schema["required"]}
    if expected.name == "search_web":
        args["queries"] = [fixture.subject]
    if expected.name == "read_links":
        args["urls"] = [fixture.link]
    for arg, value in expected.required_args:
        args[arg] = [value] if schema["properties"][arg]["type"] == "array" else value
    return ToolCall(expected.name, args, index)


def oracle_tool(case: ToolCase, fixture: ToolFixture) -> tuple[RunResponse, tuple[ToolCall, ...]]:
    calls = [oracle_call(case, fixture, i) for i in range(len(case.expected_tools))]
    if fixture.fail_first and calls:
        calls = [calls[0], *calls]  # the first call fails; the retry succeeds
    text = "Done."
    if case.group == "result_usage":
        text = f"It reached {fixture.needle_figure} {fixture.unit}."
    elif not case.expected_tools:
        text = "Happy to help with that without any tools."
    return RunResponse(final_text=text), tuple(calls)


def oracle_memory(case: MemoryCase, dataset: Dataset) -> RunResponse:
    kind, items = case.answer_kind, case.answer_items
    if kind in ("value", "number"):
        return RunResponse(final_text=f"It is {case.expected_answer}.", answer=case.expected_answer)
    if kind in ("list", "ordered_list"):
        return RunResponse(final_text=", ".join(items), answer=", ".join(items))
    if kind == "tally":
        first = spoken_date(date.fromisoformat(items[0]))
        return RunResponse(final_text=f"{case.expected_answer}; the first on {first}.")
    if kind == "duration":
        return RunResponse(final_text=f"About {case.expected_answer} days.")
    if kind == "reversal":
        return RunResponse(final_text=f"You gave up {items[0]}; you no longer do it.")
    if kind == "persistence":
        return RunResponse(final_text=f"Yes, you still do {items[0]} regularly.")
    if kind == "decline":
        if case.answer_items:  # the subject it declines about (bench 2.0)
            return RunResponse(
                final_text=f"I have no record of {case.answer_items[0]}.", abstain=True
            )
        return RunResponse(
            final_text=f"I have no record of that. You asked: {case.question}", abstain=True
        )
    return RunResponse(final_text="Done, I've saved that.", tool_calls=write_calls(case))


def write_calls(case: MemoryCase) -> tuple[ToolCall, ...]:
    """The memory-tool call a write instruction asks for, as a harness would report it."""
    pair = case.evidence_pair_ids[0] if case.evidence_pair_ids else ""
    code = case.answer_items[0] if case.answer_items else ""
    if case.write_op == "save":
        return (ToolCall("save_memory", {"content": f"{case.expected_answer}: {code}"}),)
    if case.write_op == "update":
        return (ToolCall("update_memory", {"pair_id": pair, "content": code}),)
    if case.write_op == "delete":
        return (ToolCall("delete_memory", {"pair_id": pair}),)
    return ()
