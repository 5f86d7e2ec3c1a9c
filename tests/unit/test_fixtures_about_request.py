"""Bench 5.0's content that does not contradict itself: tool results about what was asked, a
page that agrees with its teaser, the calendar holding the event a lookup names, and isolation
values the tested user's own history never names. Bench 4.0 keeps what it served."""

from __future__ import annotations

from functools import cache

import pytest

from dittobench.generate.assemble import build_dataset
from dittobench.grade.match import hit, prepare
from dittobench.mocktools.serve import execute
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture

SEEDS = range(1, 9)
TOPIC_CATEGORIES = ("agent_job", "agent_workflow", "multi_job_status", "workflow_not_job")


@cache
def dataset(seed: int, version: str) -> Dataset:
    return build_dataset(seed, version, "full")


def cases(version: str, *categories: str) -> list[tuple[Dataset, ToolCase, ToolFixture]]:
    out = []
    for seed in SEEDS:
        d = dataset(seed, version)
        fixtures = {f.case_id: f for f in d.tool_fixtures}
        out += [(d, c, fixtures[c.id]) for c in d.tool_cases if c.category in categories]
    assert out, categories
    return out


def test_a_job_finds_something_about_its_own_task() -> None:
    for _d, case, fixture in cases("5.0.0", *TOPIC_CATEGORIES):
        topic = dict(case.expected_tools[0].required_args)[
            "task" if "job" in case.expected_tools[0].name else "goal"
        ]
        assert hit(fixture.subject, topic) and hit(fixture.decoy, topic), case.prompt


def test_bench_4_jobs_found_an_unrelated_subject() -> None:
    unrelated = [
        c
        for _d, c, f in cases("4.0.0", *TOPIC_CATEGORIES)
        if not hit(f.subject, next(v for _k, v in c.expected_tools[0].required_args))
    ]
    assert unrelated


@pytest.mark.parametrize(("version", "agrees"), [("5.0.0", True), ("4.0.0", False)])
def test_a_single_search_page_agrees_with_its_teaser(version: str, agrees: bool) -> None:
    for d, case, fixture in cases(version, "web_result_usage"):
        cv = version[:3]
        page = execute(d.seed, cv, case, fixture, "read_links", {"urls": [fixture.link]}, [])
        assert (fixture.needle_figure in page.result) is agrees


def test_pages_that_are_about_telling_figures_apart_still_differ() -> None:
    for d, case, fixture in cases("5.0.0", "multi_web_result_usage"):
        teaser = execute(d.seed, "5.0", case, fixture, "search_web", {"queries": ["x"]}, [])
        page = execute(d.seed, "5.0", case, fixture, "read_links", {"urls": [fixture.link]}, [])
        assert fixture.decoy_figure in teaser.result and fixture.needle_figure in page.result


def test_the_calendar_holds_the_event_asked_about() -> None:
    for d, case, fixture in cases("5.0.0", "calendar_search"):
        asked = dict(case.expected_tools[0].required_args)["query"]
        found = execute(d.seed, "5.0", case, fixture, "calendar_search_events",
                        {"query": asked}, [])  # fmt: skip
        other = execute(d.seed, "5.0", case, fixture, "calendar_search_events",
                        {"query": "dentist appointment"}, [])  # fmt: skip
        assert asked in found.result and ("Found" in found.result or "One" in found.result)
        assert asked not in other.result


def test_no_isolation_case_forbids_what_the_users_own_history_holds() -> None:
    def share(version: str) -> float:
        hits = total = 0
        for seed in range(1, 21):
            d = dataset(seed, version)
            said: dict[str, list[str]] = {}
            for wave in d.memory_waves:
                said.setdefault(wave.user_id, []).extend(p.prompt for p in wave.pairs)
            own = {user: prepare("\n".join(texts)) for user, texts in said.items()}
            for case in d.memory_cases:
                if case.question_type == "isolation":
                    total += 1
                    hits += any(hit(own[case.user_id], f) for f in case.forbidden)
        return hits / total

    assert share("4.0.0") > 0.04
    assert share("5.0.0") <= 0.01
