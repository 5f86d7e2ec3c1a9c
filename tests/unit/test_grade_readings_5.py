"""grading-5 readings of what careful answers say beside their answer, swept over generated cases:
each honest phrasing passes and the same phrasing around a wrong value still fails."""

from __future__ import annotations

import re
from datetime import date

from dittobench.grade.memory import HistoryKeys, grade_memory
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.versions import GRADING_4, GRADING_5
from dittobench.spec.wire import RunResponse
from tests.helpers.datasets import cases_of, graded_dataset

SEEDS = (2000, 2001, 2002)


def dataset(seed: int) -> tuple[Dataset, dict[str, HistoryKeys]]:
    return graded_dataset(seed, "6.0.0")


def cases(question_type: str) -> list[tuple[MemoryCase, HistoryKeys]]:
    return cases_of("6.0.0", SEEDS, question_type)


def score(case: MemoryCase, keys: HistoryKeys, text: str) -> float:
    return grade_memory(case, RunResponse(final_text=text), GRADING_5, False, keys).score


def test_her_name_is_names_the_one_asked_about() -> None:
    swept = 0
    for case, keys in cases("single_session_recall"):
        if len(case.distractors) < 2 or case.expected_answer in case.question:
            continue
        right, other = case.expected_answer, case.distractors[0]
        said = f"Her name is {right}. {other} is Osvaldo's gran, so don't mix them up."
        swapped = f"Her name is {other}. {right} is Osvaldo's gran, so don't mix them up."
        assert (score(case, keys, said), score(case, keys, swapped)) == (1.0, 0.0), case.question
        swept += 1
    assert swept >= 5


def test_another_persons_like_for_like_after_a_decline_is_context() -> None:
    swept = 0
    for case, keys in cases("abstention_near_miss"):
        names = sorted(n for n in keys.people if len(n) > 3)
        if len(names) < 2:
            continue
        first, second = (n.capitalize() for n in names[:2])
        one = case.distractors[0]
        others = [v for v in case.distractors[1:4] if v not in one and one not in v]
        if not others:
            continue
        two = others[0]  # the second look-alike (its short forms come beside each)
        subject = case.answer_items[-2]
        declined = (
            f"Never told me {subject}. I know {first} picked the {one} and {second} the {two}."
        )
        named = f"It was the {one}, and {second} the {two}."
        assert (score(case, keys, declined), score(case, keys, named)) == (1.0, 0.0), case.question
        swept += 1
    assert swept >= 5


def test_a_status_said_before_another_activity_is_about_the_one_asked() -> None:
    swept = 0
    for case, keys in cases("activity_ongoing"):
        if not case.distractors:
            continue
        activity, other = case.answer_items[0], case.distractors[0]
        going = f"That's {activity}. You're still at it, unlike {other}, which you've dropped."
        ended = f"That's {activity}. You've dropped it, unlike {other}, which you're still at."
        assert (score(case, keys, going), score(case, keys, ended)) == (1.0, 0.0), case.question
        swept += 1
    assert swept >= 5


_ASKED_DAY = re.compile(
    r"(January|February|March|April|May|June|July|August|September|October|November|December)"
    r" (\d{1,2}), (\d{4})"
)


def test_a_tally_may_name_the_day_its_question_is_set_on() -> None:
    swept = 0
    for case, keys in cases("mention_count") + cases("multi_session_count"):
        asked = _ASKED_DAY.search(case.question)
        if asked is None:
            continue
        first = date.fromisoformat(case.answer_items[0])
        on = f"{first.day} {first:%B %Y}"
        noted = f"on {asked.group(2)} {asked.group(1)}, the day of those notes"
        honest = f"{case.expected_answer} times; the first was {on}. Note that {noted}, fewer had."
        guessed = f"{case.expected_answer} times; the first was {asked.group(2)} {asked.group(1)}."
        assert score(case, keys, honest) == 1.0, (case.question, honest)
        if asked.group(0) != f"{first:%B} {first.day}, {first.year}":
            assert score(case, keys, guessed) == 0.0, (case.question, guessed)
        swept += 1
    assert swept >= 5


def test_grading_4_keeps_its_verdicts() -> None:
    """The readings are grading-5's: a 5.0.0 receipt regrades to what it was signed with."""
    case, keys = next((c, k) for c, k in cases("single_session_recall") if len(c.distractors) >= 2)
    said = f"Her name is {case.expected_answer}. {case.distractors[0]} is Osvaldo's gran."
    response = RunResponse(final_text=said)
    assert grade_memory(case, response, GRADING_4, False, keys).score == 0.0
    assert grade_memory(case, response, GRADING_5, False, keys).score == 1.0


def test_a_value_said_in_a_hypothetical_is_set_aside() -> None:
    swept = 0
    for case, keys in cases("abstention_unknown"):
        value = case.distractors[0]
        subject = case.answer_items[-2]
        dreamt = f"I don't know {subject}. You only mentioned {value} 'in a parallel universe'."
        owned = f"I don't know {subject}. You mentioned {value} on the 25th."
        assert (score(case, keys, dreamt), score(case, keys, owned)) == (1.0, 0.0), case.question
        swept += 1
    assert swept >= 5


def test_what_a_list_leaves_out_may_be_named_after_not_included() -> None:
    swept = 0
    for case, keys in cases("multi_session_list"):
        if not case.distractors:
            continue
        items = ", ".join(case.answer_items)
        left_out = f"{items}. Not included: {case.distractors[0]}, which you didn't go to."
        added = f"{items}, {case.distractors[0]}."
        assert (score(case, keys, left_out), score(case, keys, added)) == (1.0, 0.0)
        swept += 1
    assert swept >= 5


def test_pleasantries_relations_and_remarks_set_nothing_aside() -> None:
    swept = 0
    for case, keys in cases("single_session_recall"):
        if not case.distractors or case.expected_answer in case.question:
            continue
        right, other = case.expected_answer, case.distractors[0]
        named = {v.lower() for v in (*case.distractors, right)}
        companion = next(n for n in sorted(keys.people) if n not in named).capitalize()
        for said in (
            f"No problem: it's {right}.",
            f"Your older sister is {right}.",
            f"It's {right} (you said something else first, then corrected it).",
            f"It's {right}, with {companion} running alongside you.",
        ):
            assert score(case, keys, said) == 1.0, (case.question, said)
        assert score(case, keys, f"No problem: it's {other}.") == 0.0
        swept += 1
    assert swept >= 5


def test_a_count_without_one_or_as_a_frequency_is_no_second_claim() -> None:
    swept = 0
    for case, keys in cases("mention_count"):
        count = int(case.expected_answer)
        first = date.fromisoformat(case.answer_items[0])
        on = f"{first.day} {first:%B %Y}"
        honest = (
            f"{count} times, once a week; the first was {on}. Leave one out and it's {count - 1}."
        )
        hedged = f"{count} times or {count - 1} times; the first was {on}."
        assert (score(case, keys, honest), score(case, keys, hedged)) == (1.0, 0.0), case.question
        swept += 1
    assert swept >= 5


def test_a_reply_far_longer_than_any_answer_is_read_whole() -> None:
    swept = 0
    for case, keys in cases("single_session_recall"):
        others = [v for v in case.distractors if v.lower() not in case.question.lower()][:3]
        if len(others) < 3 or case.expected_answer in case.question:
            continue
        said = f"Landed in {case.expected_answer} an hour ago. " + " ".join(
            f"Then {v}." for v in others
        )
        padding = " The weather's been all over the place." * 80
        assert score(case, keys, said) == 1.0, case.question  # what follows the lead: context
        assert score(case, keys, said + padding) == 0.0, case.question  # a dump: read whole
        swept += 1
    assert swept >= 5
