"""Answers that never read the history must not score: a search for the best constant answers,
and the honest side (correct answers in other words) kept at full marks.

The constants are chosen on 20 seeds and measured on 80 others, per question kind: the best
single constant and the best three-constant answer (the three run together) must each pass at
most 2% of that kind's cases, and the best constant over all memory cases at most 1%. The search
runs on bench 2.0.0 and 3.0.0 under their grading, each with the floors it still has (strict
xfails), and on bench 4.0.0 under the current version's grading.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest

from dittobench import study as T
from dittobench.generate.assemble import build_dataset
from dittobench.grade.memory import HistoryKeys, grade_memory
from dittobench.grade.run import grade_run, history_keys
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import QUESTION_TYPES, MemoryCase
from dittobench.spec.versions import CURRENT_VERSION, get_policy
from dittobench.spec.wire import RunResponse
from tests.helpers import redteam as R

POLICY = get_policy(CURRENT_VERSION).grading
TRAIN = range(1000, 1020)
TEST = range(2000, 2080)
"""Measured on 80 seeds, not 20: with 20 a kind's few hundred cases put a constant that passes
1.5% of them over 2% by chance (bench 3.0.0's preference questions: 2.5%, 1.5%, 1.0%, 2.0% on
four blocks of 20)."""

GENERIC = (
    "Yes.",
    "No.",
    "I don't know.",
    "I don't have any record of that.",
    "You never told me about that.",
    "I have no information about your family, your work, your trips or your hobbies.",
    "Done, saved.",
    "Saved! I'll remember that.",
    "Deleted, it's gone.",
    "Updated.",
    "You gave it up.",
    "You still do it regularly.",
    "You're still at it, you haven't given up.",
    "You stopped a while ago; no longer.",
    "67 days. Done, saved. 1, 2, 3, 4, 5, 6, 7",
    "1, 2, 3, 4, 5, 6, 7",
    "3 or 4",
    "between 2 and 5",
    "About 2 weeks.",
    "About a month.",
    # grading-4's further phrasings, and every cue of commitment at once
    "You've never actually told me that; it never came up.",
    "I don't think you've told me. The only one that's come up was someone else's.",
    "It didn't last: that's behind you now.",
    "Still going well, a fixture every Saturday morning.",
    "Here's how it changed: the old one, then the new one, and now the latest.",
)


SEARCHED = ("2.0.0", "3.0.0", "4.0.0")
"""The versions the constant search runs on (each version pinned, whatever the default)."""


@cache
def datasets(seeds: tuple[int, ...], version: str = CURRENT_VERSION) -> tuple[Dataset, ...]:
    return tuple(build_dataset(seed, version, run_size="full") for seed in seeds)


def cases_by_type(seeds: range, version: str = CURRENT_VERSION) -> dict[str, list[MemoryCase]]:
    out: dict[str, list[MemoryCase]] = {}
    for dataset in datasets(tuple(seeds), version):
        for case in dataset.memory_cases:
            out.setdefault(case.question_type, []).append(case)
    return out


def candidates(kind_cases: list[MemoryCase]) -> list[str]:
    """Constants worth trying for one question type: the generic ones, every count and
    duration a guesser would try, and the answers most common on the training seeds."""
    common = Counter(c.expected_answer for c in kind_cases if c.expected_answer)
    items = Counter(i for c in kind_cases for i in c.answer_items)
    out = list(GENERIC)
    out += [value for value, _n in common.most_common(25)]
    out += [item for item, _n in items.most_common(10)]
    if kind_cases[0].answer_kind in ("number", "tally"):
        out += [str(n) for n in range(16)] + [T.number_words(n) for n in range(16)]
    if kind_cases[0].answer_kind == "tally":  # a guessed count with the commonest first days
        days = [day for day, _n in items.most_common(3)]
        out += [f"{n}, the first on {day}" for n in range(2, 15) for day in days]
    if kind_cases[0].answer_kind == "duration":
        out += [f"{n} days" for n in range(1, 366)]
    return list(dict.fromkeys(out))


@cache
def keys(version: str) -> dict[str, HistoryKeys]:
    """What grading-4 reads of each case's history, for every dataset the search builds."""
    out: dict[str, HistoryKeys] = {}
    for seeds in (TRAIN, TEST):
        for dataset in datasets(tuple(seeds), version):
            out.update(history_keys(dataset))
    return out


def pass_rate(cases: list[MemoryCase], text: str, version: str = CURRENT_VERSION) -> float:
    """The share of ``cases`` (all of ``version``) that ``text`` passes under the version's
    own grading."""
    response = RunResponse(final_text=text)
    policy = GRADED_BY.get(version, get_policy(version).grading)
    known = keys(version) if policy.committed_scans else {}
    passed = sum(
        grade_memory(c, response, policy, False, known.get(c.id, HistoryKeys())).score >= 1
        for c in cases
    )
    return passed / len(cases)


def best(cases: list[MemoryCase], options: list[str], version: str = CURRENT_VERSION) -> str:
    return max(options, key=lambda text: (pass_rate(cases, text, version), text))


COUNT_FLOOR = pytest.mark.xfail(
    reason="counts are 2 to 6, so one guessed number passes about a fifth of count cases; "
    "needs counts drawn from wide ranges (bench 2.0 content)",
    strict=True,
)
POOL_FLOOR = pytest.mark.xfail(
    reason="these questions are about one of about 30 subjects or 34 activities, so naming the "
    "most common one with a decline or a cue passes 3-5%; needs larger, coined pools "
    "(bench 2.0 content)",
    strict=True,
)
FLOORS = {
    "2.0.0": {
        "mention_count": COUNT_FLOOR,
        "multi_session_count": COUNT_FLOOR,
        "abstention_near_miss": POOL_FLOOR,
        "abstention_unknown": POOL_FLOOR,
        "activity_quit": POOL_FLOOR,
        "activity_ongoing": POOL_FLOOR,  # 3.0% on the 80 test seeds (0.5% on their first 20)
    },
    # Bench 3.0: no floor left (tallies, one weekday question, 85 fixed attributes, 72
    # activities); every kind is held to 2%.
    "3.0.0": {},
    # The current grading (what an answer commits to) is held to the same bounds.
    "4.0.0": {},
}
GRADED_BY = {"4.0.0": POLICY}
"""Bench 4.0.0 is searched under the current grading: the same content as its grading-3 runs
had, so what the search finds is what the new grading lets through (5.0's content differs by its
seeds' draw: its most common ongoing activity is 2.25-2.5% of those cases on the 80 test seeds
under any grading)."""
TYPES = [
    pytest.param(version, name, marks=FLOORS[version][name])
    if name in FLOORS[version]
    else pytest.param(version, name)
    for version in SEARCHED
    for name in sorted(set(QUESTION_TYPES) - {"isolation"})
]


@pytest.mark.slow
@pytest.mark.parametrize(("version", "question_type"), TYPES)
def test_best_constants_pass_at_most_two_percent(version: str, question_type: str) -> None:
    train = cases_by_type(TRAIN, version)[question_type]
    test = cases_by_type(TEST, version)[question_type]
    options = candidates(train)
    single = best(train, options, version)
    assert pass_rate(test, single, version) <= 0.02, single
    # The best three constants run together, chosen greedily on the training seeds.
    chosen = [single]
    for _ in range(2):
        chosen.append(
            max(options, key=lambda o: (pass_rate(train, " ".join([*chosen, o]), version), o))
        )
    together = " ".join(chosen)
    assert pass_rate(test, together, version) <= 0.02, together


SHARDS = 4
"""The search over all memory cases is split into shards of the options, each held to the bound
on its own best: the best of all is one of theirs, and the shards run side by side."""
SCREEN = range(TRAIN.start, TRAIN.start + 5)
SHORTLIST = 8
"""Over all memory cases each option is first tried on the first five training seeds; the
eight best go on to all twenty, where the best is chosen (a constant that passes over 1% of
cases is among the best on any five seeds; the screen makes the search a third as long)."""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("version", "shard"),
    [pytest.param("2.0.0", -1, marks=COUNT_FLOOR)]  # its floor is one shard's: searched whole
    + [pytest.param(v, shard) for v in ("3.0.0", "4.0.0") for shard in range(SHARDS)],
)
def test_best_constant_over_all_memory_cases_passes_at_most_one_percent(
    version: str, shard: int
) -> None:
    train = [c for cases in cases_by_type(TRAIN, version).values() for c in cases]
    screen = [c for cases in cases_by_type(SCREEN, version).values() for c in cases]
    test = [c for cases in cases_by_type(TEST, version).values() for c in cases]
    by_type = cases_by_type(TRAIN, version).values()
    options = list(GENERIC) + [o for cases in by_type for o in candidates(cases)[:30]]
    options = list(dict.fromkeys(options))
    searched = options if shard < 0 else options[shard::SHARDS]
    ranked = sorted(searched, key=lambda text: (-pass_rate(screen, text, version), text))
    single = best(train, ranked[:SHORTLIST], version)
    assert pass_rate(test, single, version) <= 0.01, single


Strategy = Callable[[MemoryCase, Dataset], RunResponse]


def memory_mean(strategy: Strategy, seeds: range, size: str = "full") -> float:
    reports = [
        grade_run(d, T.build(d, memory=strategy, tool=T.no_tools)).report
        for d in (build_dataset(seed, run_size=size) for seed in seeds)
    ]
    return statistics.mean(r.memory_mean for r in reports)


@pytest.mark.parametrize(
    "strategy",
    R.NEVER_READ,
)
def test_strategies_that_never_read_the_history_score_nothing(strategy: Strategy) -> None:
    assert memory_mean(strategy, range(5)) <= 0.02


@pytest.mark.slow
@pytest.mark.parametrize("size", ["small", "medium", "full"])
def test_the_oracle_scores_everything(size: str) -> None:
    for seed in range(50):
        dataset = build_dataset(seed, run_size=size)
        assert grade_run(dataset, T.build(dataset)).report.composite == 1.0, seed


def test_correct_answers_in_other_words_keep_scoring() -> None:
    assert memory_mean(T.paraphrase_memory, range(10)) >= 0.97


@pytest.mark.parametrize(
    "hedge",
    ["1, 2, 3, 4, 5, 6, 7", "3 or 4", "between 2 and 5", "two or three", "2-6", "It's 3, maybe 4."],
)
def test_counts_that_name_more_than_one_number_fail(hedge: str) -> None:
    counts = [c for t in ("mention_count", "multi_session_count") for c in cases_by_type(TEST)[t]]
    assert pass_rate(counts, hedge) == 0.0


def test_a_count_beside_dates_and_durations_still_scores() -> None:
    # A plain count (bench 2.0.0; a 3.0.0 tally also needs its first day: test_grade_tally.py).
    case = cases_by_type(TEST, "2.0.0")["multi_session_count"][0]
    n = int(case.expected_answer)
    said = f"{T.number_words(n).capitalize()}: on May 4, June 10 and July 2, 2026, over 3 months."
    assert grade_memory(case, RunResponse(final_text=said), POLICY).score == 1.0
    said = f"{n} times; the last one at 10:30 on the 3rd of June."
    assert grade_memory(case, RunResponse(final_text=said), POLICY).score == 1.0
