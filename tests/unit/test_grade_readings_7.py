"""grading-7 readings of what careful answers say beside their answer (readers of bench 8.1's
medium runs), swept over generated cases: each honest phrasing passes under grading-7 and failed
under grading-6, the same words around a wrong value still fail, and claims that merely resemble
the new cues stay claims."""

from __future__ import annotations

import re

import pytest

from dittobench.grade.memory import HistoryKeys, grade_memory
from dittobench.spec.memory import MemoryCase
from dittobench.spec.versions import GRADING_6, GRADING_7, GradingPolicy
from dittobench.spec.wire import RunResponse
from tests.helpers.datasets import cases_of, declines_heard

SEEDS = (2000, 2001, 2002)
VERSION = "8.1.0"
"""Bench 9.0.0's content (8.1.0's), read under both gradings."""


def cases(question_type: str) -> list[tuple[MemoryCase, HistoryKeys]]:
    return cases_of(VERSION, SEEDS, question_type)


def score(
    case: MemoryCase, keys: HistoryKeys, text: str, policy: GradingPolicy = GRADING_7
) -> float:
    return grade_memory(case, RunResponse(final_text=text), policy, False, keys).score


@pytest.mark.parametrize(
    "aside",
    [
        "The closest is {other}, and you said you'd probably love it if anyone taught you.",
        "The closest I have is {other}, and you said you two were meant to be friends.",
        "{other} came up, but I wouldn't put it down as your answer.",
        "{other} came up once, so I can't call it your pick.",
    ],
)
def test_a_look_alike_so_named_grounds_a_decline(aside: str) -> None:
    """Each grounds the decline under grading-7 and failed under grading-6 (which read the
    look-alike as offered); the same words offering it outright still fail."""
    for case, keys, subject, heard in declines_heard(VERSION, SEEDS):
        said = f"You've never told me {subject}. " + aside.format(other=heard)
        offered = f"You've never told me {subject}. It's probably {heard}."
        assert score(case, keys, said) == 1.0, (case.question, said)
        assert score(case, keys, said, GRADING_6) == 0.0, (case.question, said)
        assert score(case, keys, offered) == 0.0, (case.question, offered)


def _latest_orders() -> list[tuple[MemoryCase, HistoryKeys, list[str], str]]:
    """Ordered lists asking for the latest items, with an earlier item named nowhere else."""
    out = []
    for case, keys in cases("temporal_order"):
        if not re.search(r"\b(?:last|latest|most recent)\b", case.question):
            continue
        items = list(case.answer_items)
        earlier = [
            d
            for d in case.distractors
            if d.lower() not in case.question.lower() and all(d not in i for i in items)
        ]
        if len(items) == 3 and earlier:
            out.append((case, keys, items, earlier[0]))
    assert len(out) >= 5
    return out


def _listed(items: list[str], then: str) -> str:
    return f"Earliest first: {items[0]}, then {items[1]}, then {items[2]}. {then}"


@pytest.mark.parametrize(
    "aside",
    [
        "{other} came before those, so it's not in the last three.",
        "{other} was earlier: it isn't one of the last three.",
        "I didn't count {other}, which is not among them.",
    ],
)
def test_an_earlier_item_said_to_be_outside_the_list_is_set_aside(aside: str) -> None:
    for case, keys, items, other in _latest_orders():
        said = _listed(items, aside.format(other=other))
        swapped = _listed([other, *items[1:]], aside.format(other=items[0]))
        assert score(case, keys, said) == 1.0, (case.question, said)
        assert score(case, keys, swapped) == 0.0, (case.question, swapped)
        if aside.startswith("{other} came before"):
            assert score(case, keys, said, GRADING_6) == 0.0, (case.question, said)


@pytest.mark.parametrize(
    "claim",
    [  # each names the other value as part of the answer
        "{other} was one of them as well, which is not in doubt.",
        "And {other}, which is not in doubt.",
        "Then {other}: I can't call it a close one.",
    ],
)
def test_what_only_resembles_a_new_cue_is_still_a_claim(claim: str) -> None:
    for case, keys, items, other in _latest_orders():
        said = _listed(items, claim.format(other=other))
        assert score(case, keys, said) == 0.0, (case.question, said)


def test_a_tally_saying_how_it_counted_an_item_claims_no_second_count() -> None:
    """ "I counted X once" beside a count of things is how X was counted; where the question
    counts times, "once" is still a count."""
    swept = changed = 0
    for case, keys in cases("multi_session_count"):
        count, first = case.expected_answer, case.answer_items[0]
        if count == "1":
            continue
        said = f"{count} in all, the first on {first}. I counted the renamed entry once."
        guessed = f"{count} in all, the first on {first}. Or once, maybe."
        assert score(case, keys, said) == 1.0, (case.question, said)
        assert score(case, keys, guessed) == 0.0, (case.question, guessed)
        changed += score(case, keys, said, GRADING_6) == 0.0
        swept += 1
    assert swept >= 5 and changed == swept
    for case, keys in cases("mention_count"):
        count, first = case.expected_answer, case.answer_items[0]
        said = f"{count} times, the first on {first}. I counted it once."
        assert score(case, keys, said) == 0.0, (case.question, said)


def test_a_value_said_to_be_outside_something_else_is_still_the_answer() -> None:
    """ "not in Spain", "not in the guidebook": only what was asked for takes a value out."""
    swept = 0
    for case, keys in cases("single_session_recall"):
        right = case.expected_answer
        if right.lower() in case.question.lower():
            continue
        for tail in ("which is not in the guidebook", "and that's not in Spain"):
            said = f"It's {right}, {tail}."
            assert score(case, keys, said) == score(case, keys, said, GRADING_6), said
            assert score(case, keys, said) == 1.0, (case.question, said)
        swept += 1
    assert swept >= 10


@pytest.mark.parametrize(
    "bet",
    [
        "It's {o}, though I can't call it your pick for sure.",
        "{o}, though I wouldn't put it down as certain, but that's my bet.",
        "I'd go with {o}, though it's not in your list.",
        "I bet it's {o}, and I'd really like to know if I'm right.",
        "My money's on {o}, and I'd love to hear if I'm right.",
        "I'd bet on {o}, and you said you'd love to confirm.",
    ],
)
def test_a_bet_beside_a_decline_still_offers_the_look_alike(bet: str) -> None:
    """The new cues never hide a guess: a refusal with a qualifier after it, a wish of the
    assistant's own, a bet."""
    for case, keys, subject, heard in declines_heard(VERSION, SEEDS):
        said = f"I don't know {subject}. " + bet.format(o=heard)
        assert score(case, keys, said) == 0.0, (case.question, said)


@pytest.mark.parametrize(
    "hedge",
    [
        "I counted once, maybe.",
        "Counting again I got twice.",
        "A stricter count gives thrice.",
        "The way I count it could be twice.",
        "I counted them once more and got one.",
        "I counted the entries again and it may be once.",
        "When I counted the entries strictly it came to once.",
        "I counted the entries once, maybe.",
    ],
)
def test_a_second_count_near_counted_is_still_a_second_count(hedge: str) -> None:
    for case, keys in cases("multi_session_count"):
        count, first = case.expected_answer, case.answer_items[0]
        if count in ("1", "2", "3"):
            continue
        said = f"{count} in all, the first on {first}. {hedge}"
        assert score(case, keys, said) == 0.0, (case.question, said)


@pytest.mark.parametrize(
    "remark",
    [
        "It was {v}, and I'd love to hear how it went!",
        "It's {v}, but I'd like to double-check that with you.",
        "{v}, though I'd really like to know if that's changed.",
        "It's {v}, which is not among the ones you disliked.",
        "It's {v}, which came before the others you mentioned.",
        "It's {v}, though I won't list them all here.",
        "It was {v}, though they weren't in the first group.",
        "{v} joined you, though there were others and I can't list them, sorry.",
        "It was {v}, and you said you wished the day had lasted longer.",
        "It was {v}, and you said you'd really like to do it again next year.",
    ],
)
def test_remarks_about_something_else_leave_the_answer_as_it_was(remark: str) -> None:
    swept = 0
    for case, keys in cases("single_session_recall"):
        said = remark.format(v=case.expected_answer)
        assert score(case, keys, said) == score(case, keys, said, GRADING_6), (case.question, said)
        swept += 1
    assert swept >= 20


def test_a_list_said_not_to_be_in_order_is_still_the_list() -> None:
    swept = 0
    for case, keys in cases("multi_session_list"):
        items = ", ".join(case.answer_items)
        for tail in ("(I didn't list them by date)", "and I won't list them by date"):
            said = f"You've mentioned {items} {tail}."
            assert score(case, keys, said) == score(case, keys, said, GRADING_6), said
        swept += 1
    assert swept >= 5


def test_a_count_of_two_said_as_twice_after_counted_is_the_count() -> None:
    for case, keys in cases("multi_session_count"):
        first = case.answer_items[0]
        for said in (
            f"I counted them twice, the first on {first}.",
            f"By my count twice, first on {first}.",
        ):
            assert score(case, keys, said) == score(case, keys, said, GRADING_6), said


@pytest.mark.parametrize(
    "guess",
    [
        "I suspect {o}, but I can't call it your pick.",
        "I reckon {o}, but I wouldn't put it down as your answer.",
        "Odds are it's {o}, but I wouldn't put it down.",
        "{o} is my hunch, but I can't call it your pick.",
        "It's {o}, unless I shouldn't count it.",
        "It's {o}, and you said you'd love it.",
    ],
)
def test_a_guess_with_a_take_back_beside_a_decline_still_offers_it(guess: str) -> None:
    for case, keys, subject, heard in declines_heard(VERSION, SEEDS):
        said = f"I don't know {subject}. " + guess.format(o=heard)
        assert score(case, keys, said) == 0.0, (case.question, said)


def test_a_conditional_take_back_is_no_take_back() -> None:
    swept = 0
    for case, keys, right, other in _recall():
        for said in (
            f"{other}, unless I shouldn't count it; otherwise {right}.",
            f"Maybe {other}, though I can't count it; or {right}.",
        ):
            assert score(case, keys, said) == 0.0, (case.question, said)
        swept += 1
    assert swept >= 20


def _recall() -> list[tuple[MemoryCase, HistoryKeys, str, str]]:
    out = []
    for case, keys in cases("single_session_recall"):
        others = [d for d in case.distractors if d not in case.expected_answer]
        right = case.expected_answer
        if not others or right in case.question or others[0] in right:
            continue
        if others[0].lower() in case.question.lower():
            continue
        out.append((case, keys, right, others[0]))
    return out
