"""The current grading against the honest-answer corpus and the red team.

Capable readers answered blind medium and full runs of benches 4.0.0 to 8.1.0 in three styles
(concise, with the answer slot; chatty, prose only; structured); every memory answer was
adjudicated right or wrong by a reader who saw the keys (``tests/helpers/honest.py``). The grader
must fail every answer adjudicated wrong and pass at least 98% of the right ones in every run
(``benchmarks/honest_corpus.py`` prints the figures). Answers that never read the history keep
scoring nothing.
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from dittobench import study as T
from dittobench.generate.assemble import build_dataset
from dittobench.grade.memory import grade_memory
from dittobench.grade.run import grade_run, history_keys
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.versions import (
    CURRENT_VERSION,
    GRADING_3,
    GRADINGS,
    GradingPolicy,
    get_policy,
)
from dittobench.spec.wire import RunResponse
from tests.helpers import honest
from tests.helpers import redteam as R

RUNS = {folder.name: folder for folder in honest.runs()}
CURRENT = get_policy().grading
"""The current version's grading, which the corpus holds to the verdicts."""
TARGET = 0.98
"""Of the answers adjudicated right, the share the current grading must pass in every run."""


@cache
def tally(name: str, policy: GradingPolicy) -> honest.Tally:
    return honest.tally(RUNS[name], policy)


def test_the_corpus_covers_both_styles_and_sizes() -> None:
    kinds = {(tally(n, CURRENT).style, tally(n, CURRENT).run_size) for n in RUNS}
    assert kinds >= {("concise", "medium"), ("concise", "full"), ("chatty", "medium"),
                     ("chatty", "full")}  # fmt: skip
    assert len({json_seed(RUNS[n]) for n in RUNS}) >= 3


def json_seed(folder: Path) -> int:
    return int(json.loads((folder / "run.json").read_text())["seed"])


@pytest.mark.parametrize("name", sorted(RUNS))
def test_answers_adjudicated_wrong_fail(name: str) -> None:
    assert tally(name, CURRENT).wrong_but_passed == ()


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_current_grading_passes_answers_adjudicated_right(name: str) -> None:
    result = tally(name, CURRENT)
    assert result.right_passed >= TARGET * result.right, result.right_but_failed
    assert result.right_passed > tally(name, GRADING_3).right_passed or result.right == (
        tally(name, GRADING_3).right_passed
    )


@pytest.mark.parametrize("name", sorted(RUNS))
def test_each_grading_passes_every_right_answer_the_one_before_passed(name: str) -> None:
    """A new grading's readings only set more aside: no answer adjudicated right that grading-N
    passed fails under grading-N+1 (grading-4 on)."""
    order = [GRADINGS[f"dittobench-grading-{n}"] for n in range(4, 8)]
    for before, after in itertools.pairwise(order):
        lost = set(tally(name, after).right_but_failed) - set(tally(name, before).right_but_failed)
        assert not lost, (before.id, after.id, sorted(lost))


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_careful_reader_scores_like_one(name: str) -> None:
    """Regraded under the current grading, each run's memory mean is at least 0.95 of the share
    of its answers adjudicated right (a run with wrong answers loses them) and its tool mean at
    least 0.90 (grading-3 gave the chatty runs 0.25-0.44 for memory)."""
    report = honest.report(RUNS[name], CURRENT)
    result = tally(name, CURRENT)
    assert report.memory_mean >= 0.95 * result.right / (result.right + result.wrong), name
    meta = json.loads((RUNS[name] / "run.json").read_text())
    if meta.get("answered", "all") == "all":  # some runs answered the memory cases only
        assert report.tool_mean >= 0.90, name


@cache
def datasets(seeds: tuple[int, ...]) -> tuple[Dataset, ...]:
    return tuple(build_dataset(seed, CURRENT_VERSION, "full") for seed in seeds)


def decline_with_guess_in_slot(case: MemoryCase, dataset: Dataset) -> RunResponse:
    """A guess in the slot and a grounded decline in the prose, to pass both kinds at once."""
    guess = (*case.distractors, *case.dump_guard, "")[0]
    return RunResponse(final_text=f"I have no record of that: {case.question}", answer=guess)


def everything_set_aside(case: MemoryCase, dataset: Dataset) -> RunResponse:
    """Every candidate named, each set aside, so that whichever is right is 'mentioned'."""
    values = (case.expected_answer, *case.distractors, *case.dump_guard)
    said = " ".join(f"It's not {v}." for v in values if v)
    return RunResponse(final_text=said)


def every_session_day(case: MemoryCase, dataset: Dataset) -> RunResponse:
    """A count that lists every day the user talked, first to last, claiming that many."""
    days = sorted(
        {p.timestamp[:10] for w in dataset.memory_waves if w.user_id == case.user_id
         for p in w.pairs}
    )  # fmt: skip
    return RunResponse(final_text=f"{len(days)} times: " + ", ".join(days) + ".")


def history_told_then_guess(case: MemoryCase, dataset: Dataset) -> RunResponse:
    """Every candidate told as history, with the commonest kind of answer put as current."""
    values = [v for v in (*case.distractors, *case.dump_guard) if v]
    told = ", then ".join(values)
    return RunResponse(final_text=f"Here's how it changed: {told}, and now {values[:1]}.")


@pytest.mark.parametrize(
    "strategy",
    [
        every_session_day,
        history_told_then_guess,
        *R.NEVER_READ,
        decline_with_guess_in_slot,
        everything_set_aside,
    ],
)
def test_answers_that_never_read_the_history_still_score_nothing(
    strategy: Callable[[MemoryCase, Dataset], RunResponse],
) -> None:
    means = [
        grade_run(d, T.build(d, memory=strategy, tool=T.no_tools), CURRENT).report.memory_mean
        for d in datasets((2000, 2001, 2002))
    ]
    assert statistics.mean(means) <= 0.02


def test_the_oracle_and_its_paraphrase_keep_full_marks() -> None:
    for d in datasets((2000,)):
        assert grade_run(d, T.build(d), CURRENT).report.memory_mean == 1.0
        paraphrased = T.build(d, memory=T.paraphrase_memory)
        assert grade_run(d, paraphrased, CURRENT).report.memory_mean >= 0.97


def test_other_activities_with_the_other_status_are_context_not_answers() -> None:
    d = datasets((2000,))[0]
    quits = [c for c in d.memory_cases if c.question_type == "activity_quit" and c.distractors]
    assert quits
    keys = history_keys(d)
    for case in quits:
        other = case.distractors[0]
        said = f"You gave up {case.answer_items[0]}. {other} is still going, every Saturday."
        swapped = f"You gave up {other}. {case.answer_items[0]} is still going, every Saturday."
        both = f"You gave up {case.answer_items[0]}. You gave up {other} too."
        grade = [
            grade_memory(case, RunResponse(final_text=t), CURRENT, False, keys[case.id]).score
            for t in (said, swapped, both)
        ]
        assert grade == [1.0, 0.0, 0.0], (case.question, grade)
