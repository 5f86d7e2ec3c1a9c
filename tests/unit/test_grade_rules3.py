"""grading-3's rules (bench 4.0), one table of answers per rule: the exploit it closes fails,
honest answers in other words pass, and grading-2 still grades as it did (docs/grading.md,
"grading-3")."""

from __future__ import annotations

import pytest

from dittobench.grade.memory import grade_memory
from dittobench.spec.memory import MemoryCase
from dittobench.spec.versions import GRADING_2, GRADING_3, GradingPolicy
from dittobench.spec.wire import RunResponse
from tests.unit.test_grade_memory import case


def score(
    memory_case: MemoryCase,
    text: str,
    answer: str | None = None,
    policy: GradingPolicy = GRADING_3,
) -> float:
    return grade_memory(memory_case, RunResponse(final_text=text, answer=answer), policy).score


PHONE = case(
    "value",
    "Galaxy Petrem",
    question="Which phone do I carry now?",
    accepted=("Petrem",),
    # bench 4.0 lists each scanned value's other forms beside it (alias_scans)
    distractors=("Surface Milper", "Milper", "Nokia Resdein", "Resdein"),
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # honest: the answer, in full or short, and the old phone named as the old one
        ("The Galaxy Petrem.", 1.0),
        ("Petrem, these days.", 1.0),
        ("Not Surface Milper any more: it's the Galaxy Petrem now.", 1.0),
        ("You had the Surface Milper before; these days it's the Petrem.", 1.0),
        # the exploit: every candidate in its short form
        ("Petrem, Resdein or Milper.", 0.0),
        # the short form named as the answer beside its full form named as the old one
        ("You had the Surface Milper before, and Milper is still what you carry.", 0.0),
    ],
)
def test_a_short_form_names_a_wrong_value_unless_its_full_form_was_the_old_one(
    text: str, expected: float
) -> None:
    assert score(PHONE, text) == expected


def test_under_grading_2_a_former_full_form_does_not_excuse_its_short_form() -> None:
    """Bench 3.0 lists no short forms as distractors; where a case did, grading-2 looked for
    each on its own, and keeps doing so (its receipts regrade to the same figures)."""
    text = "Not Surface Milper any more: it's the Galaxy Petrem now."
    assert score(PHONE, text, policy=GRADING_2) == 0.0


CITY = case("value", "Lund", question="Which city did I move to in the spring?")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Lund.", 1.0),
        ("You moved to Lund; you never told me the street.", 1.0),  # about the user's telling
        ("You haven't been back to Oslo since you moved to Lund.", 1.0),  # about the world
        ("I don't know, but maybe Lund.", 0.0),
        ("I have no record of that. Lund, Gent, Århus.", 0.0),
        ("I'm not sure - Lund?", 0.0),
        ("Can't recall exactly; Lund.", 0.0),
    ],
)
def test_an_answer_that_also_says_it_does_not_know_is_a_hedge(text: str, expected: float) -> None:
    verdict = grade_memory(CITY, RunResponse(final_text=text), GRADING_3)
    assert verdict.score == expected
    if not expected:
        assert verdict.reason == "wrongful_decline"
    assert grade_memory(CITY, RunResponse(final_text=text), GRADING_2).score == 1.0


def test_a_question_that_says_it_does_not_know_is_not_the_answer_s_hedge() -> None:
    asked = case("value", "Lund", question="I don't remember - which city did I move to?")
    assert score(asked, "I don't remember - which city did I move to? Lund.") == 1.0


DAYS = case("duration", "37", question="How many days passed between the two weddings?")


@pytest.mark.parametrize(
    ("text", "answer", "expected"),
    [
        ("37 days.", None, 1.0),
        ("37 days, just over a month.", None, 1.0),  # 30 and 37: a paraphrase, 19% apart
        ("It was 37 days (five weeks and two days).", None, 1.0),
        ("Thirty-seven days.", "37 days", 1.0),
        ("The two weddings were 37 days apart.", "37", 1.0),
        ("Here is what I found.", "37 days", 1.0),  # a prose that states nothing agrees
        # the exploits: a window of guesses, or one guess per part
        ("32 days, 33 days, 34 days, 35 days, 36 days or 37 days.", None, 0.0),
        ("36 days, 37 days or 38 days.", None, 0.0),
        ("It was 32 days.", "37 days", 0.0),
        ("It was 37 days.", "32 days", 0.0),
    ],
)
def test_a_duration_is_one_figure_said_alike_in_the_slot_and_the_prose(
    text: str, answer: str | None, expected: float
) -> None:
    assert score(DAYS, text, answer) == expected


def test_grading_2_kept_the_better_part_and_the_wider_window() -> None:
    assert score(DAYS, "It was 32 days.", "37 days", GRADING_2) == 1.0
    assert score(DAYS, "33 days, 34 days, 35 days, 36 days or 37 days.", None, GRADING_2) == 1.0


ORDER = case(
    "ordered_list",
    "Lisbon, Kyoto, Oslo",
    question="Can you sort my trip to Kyoto, the Oslo trip and my visit to Lisbon by date?",
    items=("Lisbon", "Kyoto", "Oslo"),
)


@pytest.mark.parametrize(
    ("text", "answer", "expected"),
    [
        ("Lisbon, then Kyoto, then Oslo.", None, 1.0),
        ("First Lisbon, then Kyoto, and Oslo last.", "Lisbon, Kyoto, Oslo", 1.0),
        ("In order of date:", "Lisbon, Kyoto, Oslo", 1.0),
        ("Kyoto, Lisbon, Oslo.", "Lisbon, Kyoto, Oslo", 0.0),
        ("Lisbon, Kyoto, Oslo.", "Oslo, Kyoto, Lisbon", 0.0),
    ],
)
def test_an_order_is_one_order_in_the_slot_and_the_prose(
    text: str, answer: str | None, expected: float
) -> None:
    assert score(ORDER, text, answer) == expected


CARRY = case(
    "value", "Galaxy Petrem", question="Which phone do I carry now?", distractors=("Nokia Resdein",)
)


@pytest.mark.parametrize(
    "text",
    [
        "The Galaxy Petrem now; before that it was the Nokia Resdein.",
        "You switched to the Galaxy Petrem after leaving the Nokia Resdein.",
        "Currently the Galaxy Petrem. Earlier you had the Nokia Resdein.",
        "The Nokia Resdein was the old one; now it is the Galaxy Petrem.",
    ],
)
def test_more_ways_of_naming_the_old_value_as_old(text: str) -> None:
    assert score(CARRY, text) == 1.0
    assert score(CARRY, text, policy=GRADING_2) == 0.0  # grading-2 keeps its verdicts


@pytest.mark.parametrize(
    "text",
    [
        "Before that it was the Galaxy Petrem, and now the Nokia Resdein.",
        "Earlier you had the Galaxy Petrem; the Nokia Resdein is what you carry.",
    ],
)
def test_the_right_value_named_only_as_the_old_one_is_not_the_answer(text: str) -> None:
    assert score(CARRY, text) == 0.0


QUIT = case(
    "reversal",
    "pottery",
    question="What became of the hobby I took up on March 3?",
    items=("pottery",),
    distractors=("archery", "surfing"),
)
STILL = case(
    "persistence",
    "pottery",
    question="What became of the hobby I took up on March 3?",
    items=("pottery",),
    distractors=("archery", "surfing"),
)


@pytest.mark.parametrize(
    ("memory_case", "text"),
    [
        (QUIT, "You gave pottery up."),
        (QUIT, "You put pottery on hold."),
        (QUIT, "Pottery didn't stick; you haven't done it in months."),
        (STILL, "You're sticking with pottery."),
        (STILL, "You kept pottery up."),
        (STILL, "You're keeping your pottery up."),
        (STILL, "You've stuck with pottery."),
    ],
)
def test_endings_and_continuations_in_more_words(memory_case: MemoryCase, text: str) -> None:
    assert score(memory_case, text) == 1.0
    assert score(memory_case, text, policy=GRADING_2) == 0.0  # grading-2 keeps its verdicts
    other = QUIT if memory_case is STILL else STILL
    assert score(other, text) == 0.0  # the opposite question is not passed by the same words


def test_saying_both_still_fails() -> None:
    for memory_case in (QUIT, STILL):
        assert score(memory_case, "You gave pottery up, but you're sticking with it.") == 0.0


UNKNOWN = case(
    "decline",
    question="What is my signature dish?",
    items=("your signature dish",),
    distractors=("lasagne",),
)


@pytest.mark.parametrize(
    ("text", "not_knowing"),
    [
        ("I have no idea what your signature dish is.", True),
        ("I don't think you've ever told me your signature dish.", False),
        ("That's not something you've shared - your signature dish.", False),
    ],
)
def test_declines_in_more_words(text: str, not_knowing: bool) -> None:
    assert score(UNKNOWN, text) == 1.0
    assert score(UNKNOWN, text, policy=GRADING_2) == 0.0
    # On an answerable question, not knowing is a hedge; what the user told is the user's world
    # ("you never told me the street"), which an answer may mention.
    assert score(CITY, f"{text} Lund.") == (0.0 if not_knowing else 1.0)


GUARDED = case(
    "value",
    "Lund",
    question="Which city did I move to in the spring?",
    dump_guard=("pears", "Volvo", "tennis", "Rex", "Milo", "blue", "jazz", "Tuesday", "Kiwi"),
)


@pytest.mark.parametrize(
    ("text", "grading_3", "grading_2"),
    [
        ("Lund.", 1.0, 1.0),
        ("Lund - you moved there with Rex and Milo.", 1.0, 1.0),  # two of nine: an answer
        ("Lund. Also: pears, Volvo, tennis.", 0.0, 1.0),  # three of nine: a dump
        ("Lund, pears, Volvo, tennis, Rex, Milo.", 0.0, 0.0),  # five of nine: grading-2's half
    ],
)
def test_a_dump_trips_at_a_third_of_the_guard(
    text: str, grading_3: float, grading_2: float
) -> None:
    assert score(GUARDED, text) == grading_3
    assert score(GUARDED, text, policy=GRADING_2) == grading_2
