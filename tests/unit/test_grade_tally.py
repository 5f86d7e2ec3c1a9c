"""Bench 3.0's counts are tallies: the exact count and the day of the first one it counts. A
guessed number alone, a hedge, a list of days or the wrong day fails; the honest answer in other
words (numbers as words, the day in any common form, with or without the year) passes."""

from __future__ import annotations

import pytest

from dittobench.grade.dates import days_in
from dittobench.grade.memory import grade_memory
from dittobench.spec.versions import GRADING_2
from dittobench.spec.wire import RunResponse
from tests.unit.test_grade_memory import case

TALLY = case(
    "tally",
    "12",
    question="How many times has my landlord come up, and when was the first time?",
    items=("2026-03-08",),
)


def score(text: str) -> float:
    return grade_memory(TALLY, RunResponse(final_text=text), GRADING_2).score


@pytest.mark.parametrize(
    "honest",
    [
        "12, the first on March 8, 2026.",
        "Twelve times; it first came up on the 8th of March.",
        "I count twelve, starting 8 March 2026.",
        "12 (first: 2026-03-08).",
        "Twelve. The earliest was Mar. 8th, the latest November 2.",
        "That's come up 12 times since March 8.",
    ],
)
def test_the_count_with_the_first_day_in_other_words_passes(honest: str) -> None:
    assert score(honest) == 1.0


@pytest.mark.parametrize(
    "wrong",
    [
        "12.",  # no day
        "12 times.",
        "March 8.",  # no count
        "11, the first on March 8.",  # the wrong count
        "12, the first on March 9.",  # the wrong day
        "12, the first on March 8, 2025.",  # the wrong year
        "12 or 13, the first on March 8.",  # a hedged count
        "Between 10 and 14, starting March 8.",
        "12, on March 8, March 9 or March 10.",  # a list of days
        "12, first on 08/03/2026.",  # a numeric day other than ISO is ambiguous
    ],
)
def test_a_guess_a_hedge_or_the_wrong_day_fails(wrong: str) -> None:
    assert score(wrong) == 0.0


def test_an_iso_day_adds_no_candidate_count() -> None:
    # "2026-03-08" holds 03 and 08; neither may read as a second count.
    assert score("12 in total, the first on 2026-03-08") == 1.0


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("August 3rd, 2026", [(8, 3, 2026)]),
        ("3 Aug 2026", [(8, 3, 2026)]),
        ("on the 3rd of August.", [(8, 3, None)]),
        ("2026-08-03", [(8, 3, 2026)]),
        ("june the 2nd, then the 14th of may 2026", [(6, 2, None), (5, 14, 2026)]),
        ("may I say 3 things", []),
        ("March 32 and February 30", []),  # not real days
        ("08/03/2026", []),
    ],
)
def test_days_read_from_an_answer(text: str, days: list[tuple[int, int, int | None]]) -> None:
    assert days_in(text) == days
