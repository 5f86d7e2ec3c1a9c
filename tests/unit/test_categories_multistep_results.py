"""Multi-step and result-usage categories: wording variety, bans, pins and carried values."""

from __future__ import annotations

import re
from functools import cache

import pytest

from dittobench.catalog import get_tool
from dittobench.core.prng import Stream
from dittobench.generate.grammar import check_grammar, count_expansions, slots_in
from dittobench.generate.texts import public_texts
from dittobench.generate.tools.category import CARRIED_SLOTS, Category
from dittobench.generate.tools.render import Rendered, render

SEEDS = 2000
SUBJECT = "Velmorix turbine"
JOB_ID = "job-K3M9P2QX"
LINK = "https://drelomar.org/report/k7p2x9"
FIXTURE = {"subject": SUBJECT, "job_id": JOB_ID, "link": LINK}

T = public_texts()
PACK_ORDER = [c.name for c in T.categories]
# The former multistep and result_usage modules' categories: the whole of each group.
MULTISTEP: tuple[Category, ...] = tuple(c for c in T.categories if c.group == "multi_step")
RESULT_USAGE: tuple[Category, ...] = tuple(c for c in T.categories if c.group == "result_usage")
ALL: tuple[Category, ...] = (*MULTISTEP, *RESULT_USAGE)
MARKUP = re.compile(r"[#{}]")


@cache
def rendered(name: str) -> tuple[Rendered, ...]:
    category = next(c for c in ALL if c.name == name)
    return tuple(
        render(category, Stream(seed, "1.0", f"tool/case/{seed}"), FIXTURE) for seed in range(SEEDS)
    )


def pinned(case: Rendered, tool: int) -> dict[str, str]:
    return dict(case.expected_tools[tool].required_args)


def _is_one_pack_run(cats: tuple[Category, ...]) -> bool:
    start = PACK_ORDER.index(cats[0].name)
    return PACK_ORDER[start : start + len(cats)] == [c.name for c in cats]


def test_multistep_order_and_shape() -> None:
    cats = MULTISTEP
    assert _is_one_pack_run(cats)
    assert [c.name for c in cats] == [
        "multi_web_read",
        "parallel_web_image",
        "multi_subject_scope",
        "multi_job_status",
        "multi_image_edit",
    ]
    assert [c.tools for c in cats] == [
        ("search_web", "read_links"),
        ("search_web", "create_image"),
        ("search_subjects", "search_memories_in_subjects"),
        ("execute_agent_job", "get_agent_job_status"),
        ("create_image", "edit_image"),
    ]
    assert all(c.group == "multi_step" for c in cats)
    assert [c.unordered for c in cats] == [False, True, False, False, False]
    assert [c.carries_job_id for c in cats] == [False, False, False, True, False]
    assert not any(c.uses_result or c.fail_first or c.allow_extra_tools for c in cats)


def test_result_usage_order_and_shape() -> None:
    cats = RESULT_USAGE
    assert _is_one_pack_run(cats)
    assert [c.name for c in cats] == [
        "web_result_usage",
        "multi_web_result_usage",
        "job_chain_result_usage",
        "web_recovery_result_usage",
    ]
    assert [c.tools for c in cats] == [
        ("search_web",),
        ("search_web", "read_links"),
        ("execute_agent_job", "get_agent_job_status"),
        ("search_web",),
    ]
    assert all(c.group == "result_usage" and c.uses_result and c.behavior for c in cats)
    assert [c.carries_job_id for c in cats] == [False, False, True, False]
    assert [c.allow_extra_tools for c in cats] == [False, False, False, True]
    assert [c.fail_first for c in cats] == [False, False, False, True]
    assert "retry" in cats[3].behavior


@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_grammar_is_sound_and_large(category: Category) -> None:
    check_grammar(category.grammar)
    assert count_expansions(category.grammar) >= 1000


@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_tool_name_tokens_are_classified(category: Category) -> None:
    for tool in category.tools:
        for token in tool.split("_"):
            assert token in category.banned | category.allowed, (tool, token)
    assert not category.banned & category.allowed


@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_pins_name_real_arguments(category: Category) -> None:
    for pin in category.pins:
        tool = get_tool(category.tools[pin.tool])
        assert pin.arg in tool.parameters["properties"], (tool.name, pin.arg)


@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_carried_slots_never_written(category: Category) -> None:
    for alternatives in category.grammar.values():
        for text in alternatives:
            assert not set(slots_in(text)) & CARRIED_SLOTS, text


@pytest.mark.slow
@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_sweep_renders_varied_clean_prompts(category: Category) -> None:
    # Rendering raises GrammarError on any banned word, so the sweep itself checks the bans.
    cases = rendered(category.name)
    assert len({case.prompt for case in cases}) >= 200
    for case in cases:
        assert not MARKUP.search(case.prompt), case.prompt
        assert [tool.name for tool in case.expected_tools] == list(category.tools)


@pytest.mark.slow
@pytest.mark.parametrize("category", RESULT_USAGE, ids=lambda c: c.name)
def test_result_usage_names_the_subject(category: Category) -> None:
    for case in rendered(category.name):
        assert SUBJECT in case.prompt, case.prompt
        if category.tools[0] == "search_web":
            assert pinned(case, 0) == {"queries": SUBJECT}
        else:
            assert pinned(case, 0) == {"task": SUBJECT}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "tool", "arg", "value"),
    [
        ("multi_web_read", 1, "urls", LINK),
        ("multi_web_result_usage", 1, "urls", LINK),
        ("multi_job_status", 1, "job_id", JOB_ID),
        ("job_chain_result_usage", 1, "job_id", JOB_ID),
    ],
)
def test_carried_pins_resolve(name: str, tool: int, arg: str, value: str) -> None:
    for case in rendered(name):
        assert pinned(case, tool) == {arg: value}
        assert value not in case.prompt


@pytest.mark.slow
def test_job_task_pins_the_topic_the_prompt_names() -> None:
    for case in rendered("multi_job_status"):
        topic = pinned(case, 0)["task"]
        assert re.search(rf"\b{re.escape(topic)}\b", case.prompt), case.prompt


@pytest.mark.slow
def test_multi_web_read_uses_subject_and_coined_topics() -> None:
    prompts = [case.prompt for case in rendered("multi_web_read")]
    with_subject = sum(SUBJECT in prompt for prompt in prompts)
    assert 0 < with_subject < len(prompts)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["parallel_web_image", "multi_subject_scope", "multi_image_edit"])
def test_unpinned_categories_pin_nothing(name: str) -> None:
    for case in rendered(name):
        assert all(tool.required_args == () for tool in case.expected_tools)
