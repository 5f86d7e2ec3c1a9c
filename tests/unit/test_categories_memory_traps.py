"""Memory routing and routing-trap categories: wording variety, bans, pins and slot values."""

from __future__ import annotations

import re
from functools import cache

import pytest

from dittobench.catalog import get_tool
from dittobench.core.prng import Stream
from dittobench.core.text import words
from dittobench.generate.grammar import check_grammar, count_expansions, expand, slots_in
from dittobench.generate.texts import public_texts
from dittobench.generate.tools import makers
from dittobench.generate.tools.category import CARRIED_SLOTS, FIXTURE_SLOTS, Category
from dittobench.generate.tools.render import Rendered, render

SEEDS = 2000
FIXTURE = {
    "subject": "Velmorix turbine",
    "job_id": "job-K3M9P2QX",
    "link": "https://drelomar.org/report/k7p2x9",
}

T = public_texts()
WORDS = T.words
PACK_ORDER = [c.name for c in T.categories]
# The former direct_memory module's categories (direct routing to the memory tools) and the
# former traps module's (the whole routing-traps group), in pack order.
DIRECT_MEMORY: tuple[Category, ...] = tuple(
    c for c in T.categories if c.group == "direct_routing" and c.name.startswith("memory_")
)
TRAPS: tuple[Category, ...] = tuple(c for c in T.categories if c.group == "routing_traps")
ALL: tuple[Category, ...] = (*DIRECT_MEMORY, *TRAPS)
BY_NAME = {category.name: category for category in ALL}
MARKUP = re.compile(r"[#{}]")
DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
PAIR_ID = re.compile(r"\bp-[0-9a-f]{8}\b")


def stream(seed: int) -> Stream:
    return Stream(seed, "1.0", f"tool/case/{seed}")


@cache
def rendered(name: str) -> tuple[Rendered, ...]:
    return tuple(render(BY_NAME[name], stream(seed), FIXTURE) for seed in range(SEEDS))


def pinned(case: Rendered) -> dict[str, str]:
    return dict(case.expected_tools[0].required_args)


def _is_one_pack_run(cats: tuple[Category, ...]) -> bool:
    start = PACK_ORDER.index(cats[0].name)
    return PACK_ORDER[start : start + len(cats)] == [c.name for c in cats]


def test_direct_memory_order_and_shape() -> None:
    cats = DIRECT_MEMORY
    assert _is_one_pack_run(cats)
    assert [(c.name, c.tools) for c in cats] == [
        ("memory_lookup", ("search_memories",)),
        ("memory_subject", ("search_subjects",)),
        ("memory_fetch", ("fetch_memories",)),
        ("memory_update", ("update_memory",)),
        ("memory_delete", ("delete_memory",)),
    ]
    assert all(c.group == "direct_routing" for c in cats)
    assert [[(p.arg, p.slot) for p in c.pins] for c in cats] == [
        [],
        [],
        [("pairIds", "pair_id")],
        [("pair_id", "pair_id")],
        [("pair_id", "pair_id")],
    ]


def test_traps_order_and_shape() -> None:
    cats = TRAPS
    assert _is_one_pack_run(cats)
    assert [(c.name, c.tools) for c in cats] == [
        ("route_memory_not_web", ("search_memories",)),
        ("route_web_not_memory", ("search_web",)),
        ("agent_run_not_read", ("execute_agent_job",)),
        ("agent_read_not_run", ("list_agent_jobs",)),
        ("image_edit_not_create", ("edit_image",)),
        ("workflow_not_job", ("execute_agent_workflow",)),
        ("automation_not_job", ("create_automation",)),
        ("memory_save_not_search", ("save_memory",)),
    ]
    assert all(c.group == "routing_traps" for c in cats)
    assert {c.name: sorted({p.arg for p in c.pins}) for c in cats} == {
        "route_memory_not_web": [],
        "route_web_not_memory": [],
        "agent_run_not_read": ["task"],
        "agent_read_not_run": [],
        "image_edit_not_create": ["image_url"],
        "workflow_not_job": ["goal"],
        "automation_not_job": ["schedule"],
        "memory_save_not_search": ["content"],
    }


def test_flags_stay_default() -> None:
    for c in ALL:
        assert not (c.unordered or c.allow_extra_tools or c.carries_job_id), c.name
        assert not (c.fail_first or c.uses_result), c.name


@pytest.mark.parametrize(
    ("name", "words_banned"),
    [
        ("memory_lookup", {"search", "memory", "memories"}),
        ("memory_subject", {"search", "subjects", "subject"}),
        ("memory_fetch", {"fetch", "memory", "memories", "pair", "conversation", "full"}),
        ("memory_update", {"update", "memory"}),
        ("memory_delete", {"delete", "memory"}),
        ("route_memory_not_web", {"memories", "memory"}),
        ("route_web_not_memory", {"web", "search"}),
        ("agent_run_not_read", {"execute", "agent"}),
        ("agent_read_not_run", {"list", "recent", "agent", "jobs"}),
        ("image_edit_not_create", {"edit", "image"}),
        ("workflow_not_job", {"execute", "agent", "workflow"}),
        ("automation_not_job", {"create", "automation"}),
        ("memory_save_not_search", {"save", "memory"}),
    ],
)
def test_required_bans(name: str, words_banned: set[str]) -> None:
    assert words_banned <= BY_NAME[name].banned


@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_grammar_is_sound_and_large(category: Category) -> None:
    check_grammar(category.grammar)
    assert count_expansions(category.grammar) >= 1000
    # The category's own wording, without the shared lead-ins and trailers, is varied too.
    bare = {**category.grammar, "lead": ("",), "trail": ("",)}
    assert count_expansions(bare) >= 200


@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_tool_name_tokens_are_classified(category: Category) -> None:
    for tool in category.tools:
        for token in tool.split("_"):
            assert token in category.banned | category.allowed, (tool, token)
    assert not category.banned & category.allowed


@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_pins_name_real_arguments_and_known_slots(category: Category) -> None:
    written = {
        slot for alts in category.grammar.values() for text in alts for slot in slots_in(text)
    }
    assert not written & CARRIED_SLOTS
    assert written - FIXTURE_SLOTS == set(category.slots)
    for pin in category.pins:
        tool = get_tool(category.tools[pin.tool])
        assert pin.arg in tool.parameters["properties"], (tool.name, pin.arg)
        assert pin.slot in written, pin.slot


@pytest.mark.slow
@pytest.mark.parametrize("category", ALL, ids=lambda c: c.name)
def test_sweep_renders_varied_clean_prompts(category: Category) -> None:
    # Rendering raises GrammarError on any banned word, so the sweep itself checks the bans.
    cases = rendered(category.name)
    assert len({case.prompt for case in cases}) >= 200
    templates = {expand(category.grammar, stream(seed)) for seed in range(SEEDS)}
    assert len(templates) >= 200
    for case in cases:
        assert not MARKUP.search(case.prompt), case.prompt
        assert not DOUBLED.search(case.prompt), case.prompt
        # A sentence opens with a capital, unless it opens with a verbatim value (an id).
        starts_with_value = any(case.prompt.startswith(v) for v in pinned(case).values())
        assert case.prompt[:1].isupper() or starts_with_value, case.prompt
        assert [tool.name for tool in case.expected_tools] == list(category.tools)


@pytest.mark.slow
@pytest.mark.parametrize("category", [c for c in ALL if c.pins], ids=lambda c: c.name)
def test_sweep_pins_every_case_with_a_value_the_prompt_carries(category: Category) -> None:
    args = {pin.arg for pin in category.pins}
    for case in rendered(category.name):
        pins = pinned(case)
        assert set(pins) == args, case.prompt
        for value in pins.values():
            assert value in case.prompt, (value, case.prompt)
            assert not set(words(value)) & category.banned, value


@pytest.mark.slow
@pytest.mark.parametrize("name", ["memory_fetch", "memory_update", "memory_delete"])
def test_sweep_id_categories_carry_exactly_one_id(name: str) -> None:
    for case in rendered(name):
        ids = PAIR_ID.findall(case.prompt)
        assert len(ids) == 1, case.prompt
        assert ids[0] in pinned(case).values()


@pytest.mark.slow
@pytest.mark.parametrize("category", [c for c in ALL if not c.pins], ids=lambda c: c.name)
def test_sweep_unpinned_categories_pin_nothing(category: Category) -> None:
    for case in rendered(category.name):
        assert pinned(case) == {}, case.prompt


_TIME = r"(?:(?:[1-9]|1[01])(?::(?:15|30|45))? (?:am|pm)|noon)"
_DAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
_SCHEDULE_FORMS = (
    rf"every {_DAY} at {_TIME}",
    rf"every weekday at {_TIME}",
    rf"every day at {_TIME}",
    rf"every other {_DAY} at {_TIME}",
    rf"every {_DAY} morning at (?:[6-9]|1[01])(?::(?:15|30|45))?",
    rf"every {_DAY} evening at [6-9](?::(?:15|30|45))?",
    rf"every {_DAY} and {_DAY} at {_TIME}",
    rf"on the (?:[1-9]|1\d|2[0-8])(?:st|nd|rd|th) of (?:each|every) month at {_TIME}",
    rf"on the (?:first|second|third|last) {_DAY} of every month at {_TIME}",
)
SCHEDULE = re.compile("|".join(f"(?:{form})" for form in _SCHEDULE_FORMS))
DAY_ORDER = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def test_schedules_are_well_formed_and_consistent() -> None:
    seen = set()
    for seed in range(SEEDS):
        value = makers.schedule(stream(seed), WORDS)
        seen.add(value)
        assert SCHEDULE.fullmatch(value), value
        days = re.findall(_DAY, value)
        assert [DAY_ORDER.index(d) for d in days] == sorted({DAY_ORDER.index(d) for d in days})
        for number, suffix in re.findall(r"\b(\d+)(st|nd|rd|th)\b", value):
            n = int(number)
            expected = "th" if 11 <= n <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
            assert suffix == expected, value
        if " am" in value:
            assert int(re.findall(r"(\d+)(?::\d\d)? am", value)[0]) >= 6, value
    assert len(seen) >= 500


def test_image_urls_point_at_pictures() -> None:
    urls = {makers.image_url(stream(seed), WORDS) for seed in range(SEEDS)}
    assert len(urls) == SEEDS
    pattern = re.compile(
        r"https://[a-z]+\.(?:com|org|net|io|dev)/[a-z]+/[a-z2-9]{6,8}\.(?:png|jpg)"
    )
    assert all(pattern.fullmatch(url) for url in urls)


def test_saved_values_are_varied() -> None:
    codes = {makers.digit_code(stream(seed), WORDS) for seed in range(SEEDS)}
    refs = {makers.reference_code(stream(seed), WORDS) for seed in range(SEEDS)}
    people = {makers.person_name(stream(seed), WORDS) for seed in range(SEEDS)}
    assert all(code.isdigit() and 4 <= len(code) <= 6 for code in codes)
    assert all(len(ref) == 7 for ref in refs)
    assert all(len(person.split()) == 2 for person in people)
    assert min(len(codes), len(refs), len(people)) >= SEEDS * 9 // 10
