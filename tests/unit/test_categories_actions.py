"""Direct-routing categories for content and personal tools: variety, bans, pins and wording."""

from __future__ import annotations

import re
from functools import cache

import pytest

from dittobench.catalog import get_tool
from dittobench.core.prng import Stream
from dittobench.core.text import words
from dittobench.generate.grammar import check_grammar, count_expansions, slots_in
from dittobench.generate.texts import public_texts
from dittobench.generate.tools.category import Category
from dittobench.generate.tools.render import Rendered, render

SEEDS = 2000
FIXTURE = {
    "subject": "Velmorix turbine",
    "job_id": "job-K3M9P2QX",
    "link": "https://drelomar.org/report/k7p2x9",
}

EXPECTED: dict[str, tuple[str, ...]] = {
    "web_search": ("search_web",),
    "link_read": ("read_links",),
    "image_create": ("create_image",),
    "artifacts_create": ("artifacts",),
    "agent_job": ("execute_agent_job",),
    "agent_workflow": ("execute_agent_workflow",),
    "capability_discovery": ("discover_capabilities",),
    "feedback": ("file_feedback_for_team",),
    "automation_list": ("list_automations",),
    "recipe_create": ("create_recipe",),
    "recipe_apply": ("apply_recipe",),
    "calendar_create": ("calendar_create_event",),
    "calendar_search": ("calendar_search_events",),
    "email_send": ("gmail_send",),
}

# Category -> the argument every pinned prompt must carry (categories with no pin are absent).
PINNED_ARG: dict[str, str] = {
    "link_read": "urls",
    "agent_job": "task",
    "agent_workflow": "goal",
    "feedback": "message",
    "recipe_create": "name",
    "recipe_apply": "name",
    "calendar_create": "title",
    "calendar_search": "query",
    "email_send": "to",
}

# The categories of the former modules direct_content, direct_agents, direct_personal and
# direct_calendar_mail, now in the pack's tools.json.
CATEGORIES: tuple[Category, ...] = tuple(public_texts().category(name) for name in EXPECTED)
PACK_ORDER = [category.name for category in public_texts().categories]
BY_NAME = {category.name: category for category in CATEGORIES}
_DOUBLED = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)
_BAD_PUNCT = re.compile(r"[,;:]\s*[.?!]|\s[,.;:?!]|,,|\.\.|\?\.|\.\?")


@cache
def sweep(name: str) -> tuple[Rendered, ...]:
    category = BY_NAME[name]
    return tuple(
        render(category, Stream(seed, "1.0", f"tool/case/{seed}"), FIXTURE) for seed in range(SEEDS)
    )


def _pack_run(first: str, count: int) -> list[str]:
    """The ``count`` category names the pack lists from ``first`` on."""
    start = PACK_ORDER.index(first)
    return PACK_ORDER[start : start + count]


def test_pack_lists_each_former_module_as_one_run_in_order() -> None:
    assert _pack_run("web_search", 4) == [
        "web_search",
        "link_read",
        "image_create",
        "artifacts_create",
    ]
    assert _pack_run("agent_job", 3) == [
        "agent_job",
        "agent_workflow",
        "capability_discovery",
    ]
    assert _pack_run("feedback", 4) == [
        "feedback",
        "automation_list",
        "recipe_create",
        "recipe_apply",
    ]
    assert _pack_run("calendar_create", 3) == [
        "calendar_create",
        "calendar_search",
        "email_send",
    ]
    # The four runs follow one another, as the registry concatenated the modules.
    assert _pack_run("web_search", len(CATEGORIES)) == [c.name for c in CATEGORIES]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_category_shape(name: str) -> None:
    category = BY_NAME[name]
    assert category.group == "direct_routing"
    assert category.tools == EXPECTED[name]
    check_grammar(category.grammar)
    assert count_expansions(category.grammar) >= 1000
    for pin in category.pins:
        tool = get_tool(category.tools[pin.tool])
        assert pin.arg in tool.parameters["properties"], (name, pin.arg)
    for tool_name in category.tools:
        for token in tool_name.split("_"):
            assert token in category.banned | category.allowed, (name, token)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sweep_is_varied_clean_and_free_of_markup(name: str) -> None:
    cases = sweep(name)  # rendering raises GrammarError on any banned word
    prompts = [case.prompt for case in cases]
    assert len(set(prompts)) >= 200
    for prompt in prompts:
        assert not set("#{}") & set(prompt), prompt
        assert "  " not in prompt, prompt
        assert prompt[0].isupper() or prompt[0] == '"', prompt
        assert prompt[-1] in ".?!", prompt
        assert not _DOUBLED.search(prompt), prompt
        assert not _BAD_PUNCT.search(prompt), prompt
        assert prompt.count(": ") <= 1 and prompt.count(" — ") <= 1, prompt
    assert all(tuple(t.name for t in case.expected_tools) == EXPECTED[name] for case in cases)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_pins_carry_values_shown_in_the_prompt(name: str) -> None:
    category = BY_NAME[name]
    pinned = 0
    for case in sweep(name):
        args = dict(case.expected_tools[0].required_args)
        if name not in PINNED_ARG:
            assert args == {}
            continue
        if args:
            pinned += 1
            assert set(args) == {PINNED_ARG[name]}
            value = args[PINNED_ARG[name]]
            assert value in case.prompt
            assert not set(words(value)) & category.banned, value
    if name in PINNED_ARG:
        # Every alternative of these grammars carries the pinned slot.
        assert pinned == SEEDS


def test_every_origin_alternative_of_a_pinned_category_names_its_slot() -> None:
    for name in PINNED_ARG:
        category = BY_NAME[name]
        slots = {pin.slot for pin in category.pins}
        for alternative in category.grammar["origin"]:
            text = alternative
            # Follow one level of symbols, which is where the slot may sit.
            for symbol in re.findall(r"#([a-z_]+)#", alternative):
                text += " ".join(category.grammar[symbol])
            assert slots & set(slots_in(text)), (name, alternative)


@pytest.mark.slow
def test_web_search_mostly_names_the_needle_subject() -> None:
    named = sum(FIXTURE["subject"] in case.prompt for case in sweep("web_search"))
    assert named > SEEDS // 2


@pytest.mark.slow
def test_feedback_pins_only_the_coined_detail() -> None:
    for case in sweep("feedback"):
        (message,) = dict(case.expected_tools[0].required_args).values()
        assert re.fullmatch(r"ERR-\d{4}|[A-Z][a-z]+", message), message


def test_email_word_is_allowed_on_purpose() -> None:
    email = BY_NAME["email_send"]
    assert "email" in email.allowed
    assert {"gmail", "send"} <= email.banned
