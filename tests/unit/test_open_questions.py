"""Open questions (bench 8.0): quotas, rubrics that rest on the history, wordings that give no
answer away, determinism and the dataset's own checks."""

from __future__ import annotations

import json
from functools import cache

import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset
from dittobench.spec.codec import DecodeError
from dittobench.spec.dataset import Dataset, dataset_from_json
from dittobench.spec.open import MUST_NOT_REASONS, OPEN_KINDS
from dittobench.spec.versions import get_policy

VERSION = "8.0.0"
SEEDS = range(1, 13)


@cache
def dataset(seed: int, size: str) -> Dataset:
    return build_dataset(seed, VERSION, size)


def history(data: Dataset, user: str) -> str:
    return "\n".join(
        f"{p.prompt}\n{p.response}" for w in data.memory_waves if w.user_id == user for p in w.pairs
    ).lower()


@pytest.mark.parametrize("size", ["small", "medium", "full"])
def test_every_run_carries_its_quota_of_each_kind(size: str) -> None:
    quota = get_policy(VERSION).run_size(size).open_quota
    assert sum(quota.values()) >= {"small": 2, "medium": 8, "full": 20}[size]
    for seed in SEEDS:
        made = dataset(seed, size)
        kinds = [c.open_kind for c in made.open_cases]
        assert {k: kinds.count(k) for k in set(kinds)} == dict(quota), seed


@pytest.mark.parametrize("size", ["medium", "full"])
def test_rubrics_rest_on_what_the_history_says(size: str) -> None:
    """Every value to state or not to assert is said in the person's history (a day of an event
    is a date, which the session stamps give); no value is both, but a superseded one, which the
    answer states as old and must not assert as current."""
    for seed in SEEDS:
        made = dataset(seed, size)
        for case in made.open_cases:
            said = history(made, case.user_id)
            for item in (*case.must_state, *case.must_not):
                if item.day and item.value not in said and item.day in item.accepted:
                    continue  # the day of an event
                assert any(f.lower() in said for f in (item.value, *item.accepted)), (seed, item)
            state = {i.value for i in case.must_state}
            for item in case.must_not:
                assert item.note in MUST_NOT_REASONS
                assert item.value not in state or item.note == "superseded", (seed, item)
            assert case.evidence_pair_ids, case.id


@pytest.mark.parametrize("size", ["medium", "full"])
def test_no_question_names_what_its_answer_must_state(size: str) -> None:
    for seed in SEEDS:
        for case in dataset(seed, size).open_cases:
            asked = case.question.lower()
            for item in case.must_state:
                for form in (item.value, *item.accepted):
                    assert form.lower() not in asked, (seed, case.question, form)


def test_each_kind_states_what_it_asks_for() -> None:
    """A change states the value at the period's start and ends on the current one; a summary
    lists its events in the period in order of their days; a task names three tastes; a
    multi-hop question states the day, then the value in force."""
    seen = set()
    for seed in SEEDS:
        for case in dataset(seed, "full").open_cases:
            seen.add(case.open_kind)
            days = [i.day for i in case.must_state]
            if case.open_kind == "change":
                assert case.must_state[-1].note == "current"
                assert days[0] < case.period_from <= days[1]
                assert any(i.note == "superseded" for i in case.must_not)
            elif case.open_kind == "summary":
                assert days == sorted(days) and len(days) >= 2
                assert all(case.period_from < d for d in days if case.period_from)
            elif case.open_kind == "task":
                assert len(case.must_state) == 3
                assert len({i.about for i in case.must_state}) == 3
            else:
                assert case.must_state[0].day == case.period_to
                assert case.must_state[-1].day < case.period_to
    assert seen == set(OPEN_KINDS)


def test_open_questions_are_asked_once_each_and_never_as_memory_questions() -> None:
    for seed in SEEDS:
        made = dataset(seed, "full")
        asked = [q for _id, _kind, _user, q, _wave in made.asked()]
        assert len(asked) == len(set(asked))
        ids = [c.id for c in made.open_cases]
        assert len(set(ids)) == len(ids)
        assert not set(ids) & {c.id for c in made.memory_cases}


def test_same_seed_same_bytes_and_a_round_trip() -> None:
    one = canonical_bytes(build_dataset(77, VERSION, "medium").to_json())
    two = canonical_bytes(build_dataset(77, VERSION, "medium").to_json())
    assert one == two
    back = dataset_from_json(json.loads(one))
    assert canonical_bytes(back.to_json()) == one


def test_earlier_versions_have_no_open_questions() -> None:
    made = build_dataset(5, "7.1.0", "medium")
    assert made.open_cases == ()
    assert "open_cases" not in made.to_json()


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("open_kind",), "essay", "open_kind: unknown kind"),
        (("must_state",), [], "at least one fact"),
        (("must_state", 0, "id"), "S9", "expected S1"),
        (("must_not", 0, "note"), "rumour", "unknown reason"),
    ],
)
def test_a_malformed_open_case_is_refused_naming_where(
    path: tuple[object, ...], value: object, message: str
) -> None:
    data = json.loads(canonical_bytes(dataset(3, "medium").to_json()))
    index = next(i for i, c in enumerate(data["open_cases"]) if c["must_not"])
    target = data["open_cases"][index]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(DecodeError, match=message) as caught:
        dataset_from_json(data)
    assert f"$.open_cases[{index}]" in str(caught.value)
