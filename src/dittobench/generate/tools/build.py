"""Build a run's tool cases: stratify categories, render each case, attach its fixture."""

from __future__ import annotations

from collections.abc import Mapping

from dittobench.core.ids import case_id
from dittobench.core.prng import Stream
from dittobench.generate.grammar import GrammarError
from dittobench.generate.texts import Texts
from dittobench.generate.tools.category import Category
from dittobench.generate.tools.findings import results_grammar
from dittobench.generate.tools.fixtures import fixture_values, make_fixture
from dittobench.generate.tools.render import Rendered, render
from dittobench.spec.dataset import TOOL_GROUPS, ExpectedTool, ToolCase, ToolFixture
from dittobench.spec.versions import CONTENT_1, ContentPolicy

MAX_REDRAWS = 64
"""Redraws allowed when a prompt repeats one already in the run (then generation fails loudly)."""


def group_quotas(total: int, group_sizes: dict[str, int]) -> dict[str, int]:
    """Cases per group: one each (when ``total`` allows), the rest in proportion to the number of
    categories in the group by largest remainder, ties to the earlier group. Seed-independent."""
    groups = list(group_sizes)
    base = 1 if total >= len(groups) else 0
    rest = total - base * len(groups)
    all_categories = sum(group_sizes.values())
    shares = {g: rest * group_sizes[g] for g in groups}  # in units of 1/all_categories
    quotas = {g: base + shares[g] // all_categories for g in groups}
    leftover = total - sum(quotas.values())
    by_remainder = sorted(groups, key=lambda g: (-(shares[g] % all_categories), groups.index(g)))
    for g in by_remainder[:leftover]:
        quotas[g] += 1
    return quotas


def by_group(categories: tuple[Category, ...]) -> dict[str, tuple[Category, ...]]:
    """Categories of each group, in pack order, groups in ``TOOL_GROUPS`` order."""
    return {group: tuple(c for c in categories if c.group == group) for group in TOOL_GROUPS}


def plan_categories(stream: Stream, total: int, categories: tuple[Category, ...]) -> list[Category]:
    """The run's categories in case order: each group's quota spread over its categories as
    evenly as possible (which categories get the extra one is seeded), then shuffled."""
    groups = by_group(categories)
    quotas = group_quotas(total, {g: len(cats) for g, cats in groups.items()})
    picked: list[Category] = []
    for group, categories in groups.items():
        quota = quotas[group]
        each, extra = divmod(quota, len(categories))
        lucky = {c.name for c in stream.sample(categories, extra)}
        for category in categories:
            picked.extend([category] * (each + (1 if category.name in lucky else 0)))
    return stream.shuffle(picked)


def build_tool_cases(
    root: Stream, total: int, texts: Texts, content: ContentPolicy = CONTENT_1
) -> tuple[tuple[ToolCase, ...], tuple[ToolFixture, ...]]:
    """The tool cases and fixtures of one run (``root``: the dataset's root stream), in case
    order. Prompts are unique in a run."""
    plan = plan_categories(root.fork("tool/plan"), total, texts.categories)
    results = results_grammar(texts.pack) if content.findings_from_pack else None
    cases: list[ToolCase] = []
    fixtures: list[ToolFixture] = []
    seen: set[str] = set()
    for ordinal, category in enumerate(plan):
        cid = case_id(root.seed, root.content_version, "tool", ordinal)
        stream = root.fork(f"tool/case/{ordinal}")
        fixture = make_fixture(
            stream.fork("fixture"),
            cid,
            category,
            texts.words,
            results,
            either_side=content.decoys_either_side,
        )
        about = (category, texts.words) if content.fixtures_about_request else (None, None)
        rendered = _unique_render(category, stream, fixture_values(fixture, *about), seen)
        seen.add(rendered.prompt)
        cases.append(_tool_case(cid, category, rendered, texts.describe))
        fixtures.append(fixture)
    return tuple(cases), tuple(fixtures)


def _unique_render(
    category: Category, stream: Stream, values: dict[str, str], seen: set[str]
) -> Rendered:
    for _ in range(MAX_REDRAWS):
        rendered = render(category, stream, values)
        if rendered.prompt not in seen:
            return rendered
    raise GrammarError(f"{category.name}: no unique prompt after {MAX_REDRAWS} draws")


def _tool_case(
    cid: str, category: Category, rendered: Rendered, wording: Mapping[str, str]
) -> ToolCase:
    return ToolCase(
        id=cid,
        category=category.name,
        group=category.group,
        prompt=rendered.prompt,
        expected_tools=rendered.expected_tools,
        max_tool_calls=len(category.tools),
        allow_extra_tools=category.allow_extra_tools,
        unordered=category.unordered,
        expected_behavior=category.behavior or describe(category, rendered.expected_tools, wording),
    )


def describe(
    category: Category, expected: tuple[ExpectedTool, ...], wording: Mapping[str, str]
) -> str:
    """The generated ``expected_behavior`` sentence for categories that do not set one, in the
    pack's ``describe`` wording (values are quoted Python-style, as ``repr`` prints them)."""
    names = [tool.name for tool in expected]
    if not names:
        return wording["no_tool"]
    if len(names) == 1:
        sentence = wording["one"].format(tool=names[0])
    elif category.unordered:
        sentence = wording["unordered"].format(tools=wording["unordered_join"].join(names))
    else:
        sentence = wording["ordered"].format(tools=wording["ordered_join"].join(names))
    pins = [
        wording["pin"].format(tool=tool.name, arg=arg, value=repr(value))
        for tool in expected
        for arg, value in tool.required_args
    ]
    if pins:
        sentence += wording["pins"].format(pins=wording["pins_join"].join(pins))
    if category.uses_result:
        sentence += wording["uses_result"]
    return sentence + wording["end"]
