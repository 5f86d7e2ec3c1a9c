"""Properties of the generated tool side, swept over many seeds at every run size."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from dittobench.catalog import get_tool, is_known_tool
from dittobench.core.text import words
from dittobench.generate.tools.build import by_group, group_quotas
from dittobench.spec.dataset import TOOL_GROUPS
from tests.helpers.datasets import texts, tool_side

SIZES = ("small", "medium", "full")
CATEGORIES = texts().categories


def test_pack_has_45_categories_in_5_groups() -> None:
    assert len(CATEGORIES) == 45
    assert len({c.name for c in CATEGORIES}) == 45
    assert {g: len(cats) for g, cats in by_group(CATEGORIES).items()} == {
        "direct_routing": 25,
        "routing_traps": 8,
        "restraint": 3,
        "multi_step": 5,
        "result_usage": 4,
    }


def test_every_category_names_catalog_tools_and_real_arguments() -> None:
    for category in CATEGORIES:
        assert category.group in TOOL_GROUPS
        for name in category.tools:
            assert is_known_tool(name), f"{category.name}: unknown tool {name}"
        for pin in category.pins:
            tool = get_tool(category.tools[pin.tool])
            assert pin.arg in tool.parameters["properties"], f"{category.name}: {pin}"


def test_tool_name_words_are_banned_or_deliberately_allowed() -> None:
    for category in CATEGORIES:
        for name in category.tools:
            for token in name.split("_"):
                assert token in category.banned | category.allowed, (category.name, token)


@pytest.mark.parametrize("run_size", SIZES)
def test_counts_per_group_are_identical_for_every_seed(run_size: str) -> None:
    per_seed = set()
    for seed in range(60):
        cases, _ = tool_side(seed, run_size)
        per_seed.add(tuple(sorted(Counter(c.group for c in cases).items())))
    assert len(per_seed) == 1
    (counts,) = per_seed
    sizes = {g: len(c) for g, c in by_group(CATEGORIES).items()}
    total = sum(n for _, n in counts)
    assert dict(counts) == group_quotas(total, sizes)
    assert all(n >= 1 for _, n in counts)


def test_full_runs_cover_every_category_evenly() -> None:
    for seed in range(60):
        cases, _ = tool_side(seed, "full")
        counts = Counter(c.category for c in cases)
        assert set(counts) == {c.name for c in CATEGORIES}
        assert max(counts.values()) - min(counts.values()) <= 1


def test_smaller_runs_do_not_always_take_the_same_categories() -> None:
    for run_size in ("small", "medium"):
        picks = {frozenset(c.category for c in tool_side(seed, run_size)[0]) for seed in range(40)}
        assert len(picks) > 10, run_size


@pytest.mark.slow
@pytest.mark.parametrize("run_size", SIZES)
def test_no_duplicate_prompts_in_a_run(run_size: str) -> None:
    for seed in range(200):
        cases, _ = tool_side(seed, run_size)
        prompts = [c.prompt for c in cases]
        assert len(prompts) == len(set(prompts)), seed


@pytest.mark.parametrize("run_size", SIZES)
def test_case_shape(run_size: str) -> None:
    for seed in range(30):
        cases, fixtures = tool_side(seed, run_size)
        assert [f.case_id for f in fixtures] == [c.id for c in cases]
        assert len({c.id for c in cases}) == len(cases)
        for case in cases:
            assert case.max_tool_calls == len(case.expected_tools)
            assert not any(mark in case.prompt for mark in "#{}"), case.prompt
            assert case.expected_behavior
            if case.group == "restraint":
                assert case.expected_tools == ()
            for tool in case.expected_tools:
                for _arg, value in tool.required_args:
                    assert value.strip(), case


def test_pinned_values_come_from_the_prompt_or_an_earlier_result() -> None:
    for seed in range(60):
        cases, fixtures = tool_side(seed, "full")
        for case, fixture in zip(cases, fixtures, strict=True):
            carried = {fixture.job_id, fixture.link}
            for tool in case.expected_tools:
                for arg, value in tool.required_args:
                    assert value in case.prompt or value in carried, (case.category, arg, value)


def test_banned_words_never_reach_a_prompt() -> None:
    by_name = {c.name: c for c in CATEGORIES}
    for seed in range(100):
        for case in tool_side(seed, "full")[0]:
            hit = set(words(case.prompt)) & by_name[case.category].banned
            assert not hit, (case.category, hit, case.prompt)


@pytest.mark.slow
def test_variety_per_category_across_2000_seeds() -> None:
    distinct: defaultdict[str, set[str]] = defaultdict(set)
    for seed in range(2000):
        for case in tool_side(seed, "full")[0]:
            distinct[case.category].add(case.prompt)
    thin = {name: len(p) for name, p in distinct.items() if len(p) < 200}
    assert not thin


@pytest.mark.slow
def test_two_seeds_share_few_prompts() -> None:
    shares = []
    for seed in range(0, 200, 2):
        a = {c.prompt for c in tool_side(seed, "full")[0]}
        b = {c.prompt for c in tool_side(seed + 1, "full")[0]}
        shares.append(len(a & b) / len(a))
    assert sum(shares) / len(shares) <= 0.05


@pytest.mark.slow
def test_needles_are_distinct_over_10000_seeds() -> None:
    needles = set()
    for seed in range(10_000):
        fixtures = tool_side(seed, "small")[1]
        needles.add(next(f.needle for f in fixtures if f.needle))
    assert len(needles) == 10_000


def test_fixtures_keep_needle_and_decoy_apart() -> None:
    for seed in range(60):
        for case, fixture in zip(*tool_side(seed, "full"), strict=True):
            assert fixture.decoy_figure and fixture.decoy_figure != fixture.needle_figure
            if fixture.bearer:
                assert fixture.bearer in [t.name for t in case.expected_tools]
                assert fixture.needle_figure in fixture.needle
                assert fixture.subject in fixture.needle
            else:
                assert not fixture.needle and not fixture.needle_figure
            if case.group == "result_usage":
                assert fixture.bearer and fixture.subject in case.prompt
