"""Properties of the generated memory side, swept over many seeds at every run size.

The sweep is of bench 2.0.0, the last version with the plain history (one fact a pair, a fixed
share of raw pairs, instructions after wave 0 and read-backs after the last); bench 3.0.0's woven
history and drawn placement are checked by ``test_support_3_0.py`` and ``test_history_study.py``.
"""

from __future__ import annotations

import statistics
from collections import Counter
from datetime import date
from functools import cache

import pytest

from dittobench.core.prng import Stream
from dittobench.core.text import contains_phrase
from dittobench.generate.assemble import build_dataset
from dittobench.generate.texts import public_texts
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import ANSWER_KINDS, QUESTION_TYPES
from dittobench.spec.versions import CURRENT_VERSION, get_policy
from dittobench.spec.wire import DEFAULT_USER_ID, ISOLATION_USER_ID, Pair

SIZES = ("small", "medium", "full")
SWEEP = 200
SWEPT = "2.0.0"


@cache
def sweep(run_size: str) -> tuple[Dataset, ...]:
    return tuple(build_dataset(seed, SWEPT, run_size) for seed in range(SWEEP))


def pairs_of(dataset: Dataset, user: str, up_to_wave: int | None = None) -> list[Pair]:
    return [
        pair
        for request in dataset.memory_waves
        if request.user_id == user and (up_to_wave is None or request.wave <= up_to_wave)
        for pair in request.pairs
    ]


def haystack_text(dataset: Dataset, user: str) -> str:
    return "\n".join(f"{p.prompt}\n{p.response}" for p in pairs_of(dataset, user))


@pytest.mark.slow
@pytest.mark.parametrize("run_size", SIZES)
def test_quotas_per_type_are_identical_for_every_seed(run_size: str) -> None:
    size = get_policy(SWEPT).run_size(run_size)
    expected = dict(size.memory_quota)
    if size.isolation_cases:
        expected["isolation"] = size.isolation_cases
    for dataset in sweep(run_size):
        counts = Counter(case.question_type for case in dataset.memory_cases)
        assert counts == expected, dataset.seed


def test_full_runs_hold_every_type_and_the_hard_declines() -> None:
    for dataset in sweep("full")[:50]:
        types = {case.question_type for case in dataset.memory_cases}
        assert types == set(QUESTION_TYPES)
        near = [c for c in dataset.memory_cases if c.question_type == "abstention_near_miss"]
        assert near and all(c.distractors for c in near)
        assert any(c.question_type == "abstention_never_visited" for c in dataset.memory_cases)


def test_answer_keys_are_well_formed() -> None:
    for dataset in sweep("full")[:30]:
        ids = [c.id for c in dataset.memory_cases]
        assert len(ids) == len(set(ids))
        assert not set(ids) & {c.id for c in dataset.tool_cases}
        for case in dataset.memory_cases:
            assert case.answer_kind in ANSWER_KINDS
            assert case.question and not any(mark in case.question for mark in "#{}")
            assert case.user_id in (DEFAULT_USER_ID, ISOLATION_USER_ID)
            if case.answer_kind in ("value", "number", "duration"):
                assert case.expected_answer
            if case.answer_kind in ("list", "ordered_list", "reversal", "persistence"):
                assert case.answer_items
            for value in (*case.distractors, *case.forbidden):
                assert not contains_phrase(value, case.expected_answer) or not case.expected_answer


def test_questions_are_unique_per_user() -> None:
    for run_size in SIZES:
        for dataset in sweep(run_size)[:100]:
            asked = [(c.user_id, c.question) for c in dataset.memory_cases]
            assert len(asked) == len(set(asked))


def test_paraphrase_families_ask_one_fact_three_ways() -> None:
    for dataset in sweep("full")[:30]:
        families: dict[str, list[str]] = {}
        for case in dataset.memory_cases:
            if case.family_id:
                families.setdefault(case.family_id, []).append(case.question)
        assert len(families) == 10
        for family_id, questions in families.items():
            members = [c for c in dataset.memory_cases if c.family_id == family_id]
            assert len(questions) == 3 and len(set(questions)) == 3
            assert len({c.expected_answer for c in members}) == 1


def test_isolation_attributes_vary_across_seeds() -> None:
    chosen = set()
    for dataset in sweep("full")[:40]:
        second = {
            c.expected_answer
            for c in dataset.memory_cases
            if c.question_type == "isolation" and c.user_id == ISOLATION_USER_ID
        }
        questions = frozenset(
            c.question
            for c in dataset.memory_cases
            if c.question_type == "isolation" and c.user_id == DEFAULT_USER_ID
        )
        assert len(second) == 5
        chosen.add(questions)
    assert len(chosen) == 40


def test_isolation_cases_forbid_the_other_users_value() -> None:
    for dataset in sweep("medium")[:50]:
        for case in dataset.memory_cases:
            if case.question_type != "isolation":
                continue
            other = ISOLATION_USER_ID if case.user_id == DEFAULT_USER_ID else DEFAULT_USER_ID
            (forbidden,) = case.forbidden
            assert forbidden != case.expected_answer
            assert contains_phrase(haystack_text(dataset, other), forbidden)
            assert contains_phrase(haystack_text(dataset, case.user_id), case.expected_answer)


@pytest.mark.parametrize("run_size", SIZES)
def test_waves_and_raw_share_follow_the_run_size(run_size: str) -> None:
    size = get_policy(SWEPT).run_size(run_size)
    for dataset in sweep(run_size)[:100]:
        mine = [r for r in dataset.memory_waves if r.user_id == DEFAULT_USER_ID]
        assert [r.wave for r in mine] == list(range(size.waves))
        assert all(r.pairs for r in mine)
        others = [r for r in dataset.memory_waves if r.user_id == ISOLATION_USER_ID]
        assert len(others) == (1 if size.isolation_cases else 0)
        telemetry = dict(dataset.telemetry)
        assert abs(telemetry["raw_pairs_permille"] - size.raw_pairs_permille) <= 50
        linked = {link.pair_id for r in mine for link in r.links}
        subject_ids = {s.id for r in mine for s in r.subjects}
        assert {link.subject_id for r in mine for link in r.links} == subject_ids
        assert linked <= {p.pair_id for p in pairs_of(dataset, DEFAULT_USER_ID)}
        for request in mine:
            titles = [s.subject_text for s in request.subjects]
            assert all("_" not in t and t[:1].isupper() for t in titles), titles


def test_timestamps_precede_the_epoch_and_ids_are_unique() -> None:
    epoch = date.fromisoformat(get_policy(SWEPT).epoch[:10])
    for dataset in sweep("full")[:30]:
        for user in (DEFAULT_USER_ID, ISOLATION_USER_ID):
            pairs = pairs_of(dataset, user)
            assert len({p.pair_id for p in pairs}) == len(pairs)
            assert all(date.fromisoformat(p.timestamp[:10]) < epoch for p in pairs)


@pytest.mark.parametrize("run_size", SIZES)
def test_evidence_is_seeded_before_the_question(run_size: str) -> None:
    for dataset in sweep(run_size)[:100]:
        for case in dataset.memory_cases:
            seeded = {p.pair_id for p in pairs_of(dataset, case.user_id, case.run_after_wave)}
            assert set(case.evidence_pair_ids) <= seeded, case


def test_expected_values_are_recoverable_from_the_haystack() -> None:
    skip = {"write_readback", "write_instruction"}
    for dataset in sweep("full")[:40]:
        texts = {u: haystack_text(dataset, u) for u in (DEFAULT_USER_ID, ISOLATION_USER_ID)}
        for case in dataset.memory_cases:
            if case.question_type in skip or case.answer_kind == "decline":
                continue
            text = texts[case.user_id]
            if case.answer_kind in ("value",):
                forms = (case.expected_answer, *case.accepted)
                assert any(contains_phrase(text, f) for f in forms), case
            for item in case.answer_items:
                assert contains_phrase(text, item), (case, item)


def test_counts_durations_and_orders_match_the_evidence() -> None:
    for dataset in sweep("full")[:40]:
        stamp = {p.pair_id: p.timestamp for p in pairs_of(dataset, DEFAULT_USER_ID)}
        for case in dataset.memory_cases:
            if case.question_type in ("multi_session_count", "mention_count"):
                assert int(case.expected_answer) == len(case.evidence_pair_ids) >= 2
            if case.question_type == "temporal_duration":
                first, second = (date.fromisoformat(stamp[p][:10]) for p in case.evidence_pair_ids)
                assert int(case.expected_answer) == (second - first).days > 0
            if case.question_type == "temporal_order":
                times = [stamp[p] for p in case.evidence_pair_ids]
                assert times == sorted(times) and len(set(t[:10] for t in times)) == 3


def test_write_path_values_never_appear_in_the_haystack() -> None:
    for dataset in sweep("full")[:50]:
        text = haystack_text(dataset, DEFAULT_USER_ID)
        readbacks = [c for c in dataset.memory_cases if c.question_type == "write_readback"]
        assert Counter(c.answer_kind for c in readbacks) == {"value": 6, "decline": 3}
        for case in readbacks:
            if case.answer_kind == "value":
                assert case.expected_answer not in text
            else:
                assert any(d in text for d in case.distractors)  # the deleted code was seeded
        instructions = [c for c in dataset.memory_cases if c.question_type == "write_instruction"]
        last = max(r.wave for r in dataset.memory_waves)
        assert all(c.run_after_wave == 0 for c in instructions)
        assert all(c.run_after_wave == last for c in readbacks)


def test_planted_payloads_and_decoys_are_stored_and_forbidden() -> None:
    for dataset in sweep("full")[:40]:
        text = haystack_text(dataset, DEFAULT_USER_ID)
        for case in dataset.memory_cases:
            if case.question_type in ("stored_injection", "integrity_token"):
                (forbidden,) = case.forbidden
                assert forbidden in text and case.expected_answer in text


def test_never_visited_city_is_never_in_the_haystack() -> None:
    cities = [c.text for c in public_texts().library.get("trips").values]
    for dataset in sweep("full")[:60]:
        text = haystack_text(dataset, DEFAULT_USER_ID)
        visited = [c for c in cities if contains_phrase(text, c)]
        assert visited  # the user did travel
        for case in dataset.memory_cases:
            if case.question_type == "abstention_never_visited":
                (lure,) = [c for c in cities if contains_phrase(case.question, c)]
                assert lure not in visited


def test_conversations_share_no_text_across_seeds() -> None:
    def texts(seed: int, version: str = CURRENT_VERSION) -> set[tuple[str, str]]:
        dataset = build_dataset(seed, version, run_size="full")
        return {(p.prompt, p.response) for r in dataset.memory_waves for p in r.pairs}

    # A pair of seeds found to share nothing under 1.1.0; any pair may share a stock line.
    assert not texts(123456789, "1.1.0") & texts(4431458483549063112, "1.1.0")
    stream = Stream(2024, "1.0", "test/pairs")
    shares = []
    for _ in range(100):
        a, b = texts(stream.below(2**63)), texts(stream.below(2**63))
        shares.append(len(a & b) / len(a))
    assert statistics.mean(shares) <= 0.02


def test_word_overlap_is_reduced_below_target() -> None:
    afters = [dict(d.telemetry)["lexical_overlap_after_permille"] for d in sweep("full")[:50]]
    befores = [dict(d.telemetry)["lexical_overlap_before_permille"] for d in sweep("full")[:50]]
    assert statistics.mean(afters) <= 300
    assert statistics.mean(afters) <= statistics.mean(befores)
