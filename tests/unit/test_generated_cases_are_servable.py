"""Generator and mock tools agree: an agent that follows a case's plan gets the needle.

For every generated case with a figure-bearing tool, calling the expected tools in order with the
pinned arguments (plus ordinary defaults for the rest) serves the needle from the bearer and only
there; recovery cases need one retry; the decoy figure never comes from the bearer.
"""

from __future__ import annotations

from typing import Any

from dittobench.catalog import get_tool
from dittobench.catalog.content import CONTENT_TOOLS
from dittobench.mocktools import TRANSIENT_ERROR, execute
from dittobench.spec.dataset import ToolCase, ToolFixture
from tests.helpers.datasets import CONTENT_VERSION, tool_side
from tests.helpers.tool_routers import Setting

SAMPLE_ARGS: dict[str, Any] = {
    "queries": ["latest figures"],
    "urls": ["https://example.org/"],
    "prompt": "a lighthouse at dusk",
    "image_url": "https://img.example/1.png",
    "instruction": "make it autumn",
    "task": "research",
    "goal": "plan",
    "job_id": "job-unknown",
    "subject_id": "subj-1",
}


def _args_for(case: ToolCase, fixture: ToolFixture, index: int) -> dict[str, Any]:
    expected = case.expected_tools[index]
    schema = get_tool(expected.name).parameters
    args = {name: SAMPLE_ARGS.get(name, "x") for name in schema["required"]}
    if expected.name == "read_links":
        args["urls"] = [fixture.link]
    if expected.name == "search_web":
        args["queries"] = [fixture.subject]
    for arg, value in expected.required_args:
        args[arg] = [value] if schema["properties"][arg]["type"] == "array" else value
    return args


def _follow_plan(
    seed: int, case: ToolCase, fixture: ToolFixture, version: str = CONTENT_VERSION
) -> dict[str, str]:
    earlier: list[str] = []
    results: dict[str, str] = {}
    for index, expected in enumerate(case.expected_tools):
        args = _args_for(case, fixture, index)
        reply = execute(seed, version, case, fixture, expected.name, args, earlier)
        earlier.append(expected.name)
        if fixture.fail_first and reply.error == TRANSIENT_ERROR:
            reply = execute(seed, version, case, fixture, expected.name, args, earlier)
            earlier.append(expected.name)
        assert reply.error is None or expected.name not in (fixture.bearer,), (case, reply)
        results[expected.name] = reply.result
    return results


def test_following_the_plan_serves_the_needle_from_the_bearer_only() -> None:
    checked = 0
    for seed in range(40):
        for case, fixture in zip(*tool_side(seed, "full"), strict=True):
            if not fixture.bearer:
                continue
            results = _follow_plan(seed, case, fixture)
            assert fixture.needle in results[fixture.bearer], (case.category, results)
            assert fixture.decoy_figure not in results[fixture.bearer]
            for name, text in results.items():
                if name != fixture.bearer:
                    assert fixture.needle_figure not in text, (case.category, name)
            checked += 1
    assert checked >= 40 * 8


def test_following_a_draft_plan_serves_the_dated_needle_from_the_bearer_only() -> None:
    """Bench 3.0: the bearer serves the fixture's needle sentence, every other content tool the
    fixture's decoy sentence, both as generated."""
    setting = Setting.of("3.0.0")
    checked = 0
    for seed in range(20):
        for case, fixture in zip(*setting.tool_side(seed, "full"), strict=True):
            if not fixture.bearer:
                continue
            results = _follow_plan(seed, case, fixture, setting.version)
            assert fixture.needle in results[fixture.bearer], (case.category, results)
            assert fixture.decoy_figure not in results[fixture.bearer]
            for name, text in results.items():
                if name != fixture.bearer and name in CONTENT_TOOLS:
                    assert fixture.decoy in text, (case.category, name, text)
            checked += 1
    assert checked >= 20 * 8


def test_recovery_cases_fail_exactly_once() -> None:
    for seed in range(40):
        for case, fixture in zip(*tool_side(seed, "full"), strict=True):
            if not fixture.fail_first:
                continue
            args = _args_for(case, fixture, 0)
            first = execute(seed, CONTENT_VERSION, case, fixture, "search_web", args, [])
            again = execute(
                seed, CONTENT_VERSION, case, fixture, "search_web", args, ["search_web"]
            )
            assert first.error == TRANSIENT_ERROR and not first.result
            assert again.error is None and fixture.needle in again.result
