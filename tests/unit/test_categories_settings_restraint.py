"""Settings and restraint categories: variety, bans, pins and (for restraint) the absence of
tools and of any value a missing-argument prompt must not carry."""

from __future__ import annotations

import pytest

from dittobench.catalog import get_tool
from dittobench.core.prng import Stream
from dittobench.generate.grammar import check_grammar, count_expansions
from dittobench.generate.texts import public_texts
from dittobench.generate.tools.category import Category
from dittobench.generate.tools.render import Rendered, render

SEEDS = range(2000)
FIXTURE = {
    "subject": "Velmorix turbine",
    "job_id": "job-K3M9P2QX",
    "link": "https://drelomar.org/report/k7p2x9",
}
T = public_texts()
PACK_ORDER = [c.name for c in T.categories]
# The former direct_settings module's categories: those that call one of the settings tools.
SETTINGS = tuple(c for c in T.categories if any(tool.startswith("set_") for tool in c.tools))
# The former restraint module's categories: the whole restraint group.
RESTRAINT = tuple(c for c in T.categories if c.group == "restraint")
ALL = SETTINGS + RESTRAINT


def _sweep(category: Category) -> list[Rendered]:
    return [render(category, Stream(seed, "1.0", f"tool/case/{seed}"), FIXTURE) for seed in SEEDS]


_CACHE: dict[str, list[Rendered]] = {}


def sweep(category: Category) -> list[Rendered]:
    if category.name not in _CACHE:
        _CACHE[category.name] = _sweep(category)
    return _CACHE[category.name]


def test_names_and_order() -> None:
    assert [c.name for c in SETTINGS] == [
        "settings", "set_model", "set_effort", "set_tool_prefs", "set_accent", "set_font",
    ]  # fmt: skip
    assert [c.tools for c in SETTINGS] == [
        ("set_theme",), ("set_main_model",), ("set_reasoning_effort",),
        ("set_chat_tool_preferences",), ("set_accent_color",), ("set_chat_font",),
    ]  # fmt: skip
    assert {c.group for c in SETTINGS} == {"direct_routing"}
    assert [c.name for c in RESTRAINT] == ["no_tool", "abstention", "arg_hallucination"]
    # Each former module is one run of the pack's categories, in the module's order.
    for run in (SETTINGS, RESTRAINT):
        start = PACK_ORDER.index(run[0].name)
        assert PACK_ORDER[start : start + len(run)] == [c.name for c in run]
    assert {c.group for c in RESTRAINT} == {"restraint"}


@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_grammar_is_sound_and_large(category: Category) -> None:
    check_grammar(category.grammar)
    assert count_expansions(category.grammar) >= 1000


@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_sweep_is_varied_and_clean(category: Category) -> None:
    rendered = sweep(category)  # rendering raises on any banned word
    prompts = [r.prompt for r in rendered]
    assert len(set(prompts)) >= 200
    for prompt in prompts:
        assert not set(prompt) & set("#{}"), prompt
        assert prompt[:1].isupper(), prompt
        assert "  " not in prompt and ",," not in prompt, prompt


@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_tool_name_tokens_are_classified(category: Category) -> None:
    for tool in category.tools:
        for token in tool.split("_"):
            assert token in category.banned | category.allowed, (category.name, token)


@pytest.mark.parametrize("category", SETTINGS, ids=lambda c: c.name)
def test_pins_are_real_arguments(category: Category) -> None:
    for pin in category.pins:
        tool = get_tool(category.tools[pin.tool])
        assert pin.arg in tool.parameters["properties"], (category.name, pin.arg)
        assert pin.slot in category.slots, (category.name, pin.slot)


@pytest.mark.parametrize("category", SETTINGS, ids=lambda c: c.name)
def test_every_prompt_pins_the_value_it_carries(category: Category) -> None:
    arg = category.pins[0].arg
    values: set[str] = set()
    for rendered in sweep(category):
        (expected,) = rendered.expected_tools
        pinned = dict(expected.required_args)
        assert arg in pinned, rendered.prompt
        assert pinned[arg].lower() in rendered.prompt.lower(), rendered.prompt
        values.add(pinned[arg])
    assert len(values) >= 3


def test_effort_levels_are_the_enum() -> None:
    seen = set()
    for rendered in sweep(T.category("set_effort")):
        seen.add(dict(rendered.expected_tools[0].required_args)["effort"])
    assert seen == {"low", "medium", "high"}


@pytest.mark.parametrize("category", RESTRAINT, ids=lambda c: c.name)
def test_restraint_expects_nothing(category: Category) -> None:
    assert category.tools == ()
    assert category.behavior.strip()
    assert not category.slots and not category.pins
    assert all(r.expected_tools == () for r in sweep(category))


def test_missing_argument_prompts_carry_no_value() -> None:
    for rendered in sweep(T.category("arg_hallucination")):
        prompt = rendered.prompt
        assert not any(ch.isdigit() for ch in prompt), prompt
        assert "@" not in prompt and "://" not in prompt, prompt
