"""grading-6 readings of what careful answers say beside their answer (readers of bench 6.1's
look-alikes, which are wishes, plans that fell through and negations), swept over generated
cases: each honest phrasing passes under grading-6 and failed under grading-5, and the same
phrasing with the values swapped still fails; claims that merely resemble the new cues ("you
would have been in Leeds then", "which isn't far") stay claims."""

from __future__ import annotations

import pytest

from dittobench.grade.match import hit
from dittobench.grade.memory import HistoryKeys, grade_memory
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.versions import GRADING_5, GRADING_6, GradingPolicy
from dittobench.spec.wire import RunResponse
from tests.helpers.datasets import cases_of, declines_heard, graded_dataset

SEEDS = (2000, 2001, 2002)
VERSION = "7.0.0"


def dataset(seed: int) -> tuple[Dataset, dict[str, HistoryKeys]]:
    return graded_dataset(seed, VERSION)


def cases(question_type: str) -> list[tuple[MemoryCase, HistoryKeys]]:
    return cases_of(VERSION, SEEDS, question_type)


def score(
    case: MemoryCase,
    keys: HistoryKeys,
    text: str,
    policy: GradingPolicy = GRADING_6,
    slot: str | None = None,
    abstain: bool | None = None,
) -> float:
    response = RunResponse(final_text=text, answer=slot, abstain=abstain)
    return grade_memory(case, response, policy, False, keys).score


def _recall() -> list[tuple[MemoryCase, HistoryKeys, str, str]]:
    out = []
    for case, keys in cases("single_session_recall"):
        others = [d for d in case.distractors if d not in case.expected_answer]
        right = case.expected_answer
        if not others or right in case.question or others[0] in right or "." in right + others[0]:
            continue
        if {right.lower(), others[0].lower()} & keys.people or others[0] in case.question:
            continue  # people are read by grade.people's own rules
        out.append((case, keys, right, others[0]))
    assert len(out) >= 20
    return out


@pytest.mark.parametrize(
    ("aside", "new"),
    [
        ("You only said {other} would have suited you, but that isn't the answer.", True),
        ("All you said was that you'd have taken up {other} if you could.", True),
        ("You'd love it to be {other}, but that was only ever a wish.", False),
        ("{other} is only the one you wish you had.", False),
        ("You first typed {other}, then corrected it.", False),
    ],
)
def test_beside_a_decline_a_look_alike_so_named_offers_nothing(aside: str, new: bool) -> None:
    """Each passes under grading-6 (the ``new`` ones failed under grading-5, which read them
    as a candidate offered), and the same decline offering the value fails."""
    changed = swept = 0
    for case, keys in cases("abstention_near_miss") + cases("abstention_unknown"):
        subject = case.answer_items[-1] if case.answer_items else ""
        others = [d for d in case.distractors if d.lower() not in case.question.lower()]
        if not subject or not others:
            continue
        said = f"You've never told me {subject}. " + aside.format(other=others[0])
        offered = f"You've never told me {subject}. It may be {others[0]}."
        assert score(case, keys, said) == 1.0, (case.question, said)
        assert score(case, keys, offered) == 0.0, (case.question, offered)
        changed += score(case, keys, said, GRADING_5) == 0.0
        swept += 1
    assert swept >= 20
    assert changed == (swept if new else 0)


def test_a_remark_on_a_correction_is_about_what_was_corrected() -> None:
    swept = 0
    for case, keys, right, other in _recall():
        said = f"It's {right} (you corrected that from {other})."
        swapped = f"It's {other} (you corrected that from {right})."
        assert score(case, keys, said) == 1.0, (case.question, said)
        assert score(case, keys, said, GRADING_5) == 0.0  # read "corrected" as about the answer
        assert score(case, keys, swapped) == 0.0, (case.question, swapped)
        swept += 1
    assert swept >= 20


@pytest.mark.parametrize(
    "claim",
    [  # each a second answer beside the right one
        "and on that day you would have been with {other}",
        "and you almost always pick {other}",
        "or {other}, which isn't far off",
    ],
)
def test_what_only_resembles_a_new_cue_is_still_a_claim(claim: str) -> None:
    for case, keys, right, other in _recall():
        said = f"It's {right}, " + claim.format(other=other) + "."
        assert score(case, keys, said) == 0.0, (case.question, said)


def test_a_slot_naming_part_of_the_answer_leaves_it_to_the_prose() -> None:
    swept = 0
    for case, keys, right, other in _recall():
        words = right.split()
        part = words[-1]
        if len(words) < 2 or any(part in d.split() for d in case.distractors):
            continue
        if part.lower() in {a.lower() for a in case.accepted}:
            continue  # an accepted form is the answer itself
        assert score(case, keys, f"It's {right}.", slot=part) == 1.0, (case.question, part)
        assert score(case, keys, f"It's {right}.", GRADING_5, slot=part) == 0.0
        assert score(case, keys, f"It's {other}.", slot=part) == 0.0
        swept += 1
    assert swept >= 3


def test_a_slot_is_read_for_what_it_sets_aside() -> None:
    swept = 0
    for case, keys in cases("multi_session_list"):
        wrong = [d for d in case.distractors if all(d not in i for i in case.answer_items)]
        if not wrong:
            continue
        items = "; ".join(case.answer_items)
        slot = f"{items} (didn't go to {wrong[0]})"
        assert score(case, keys, f"These: {items}.", slot=slot) == 1.0, slot
        assert score(case, keys, f"These: {items}.", GRADING_5, slot=slot) == 0.0
        assert score(case, keys, "These.", slot=f"{items}; {wrong[0]}") == 0.0
        swept += 1
    assert swept >= 5


def test_where_to_look_in_a_decline_offers_nothing() -> None:
    swept = 0
    for case, keys in cases("abstention_unknown"):
        subject = case.answer_items[-1] if case.answer_items else ""
        if not subject:
            continue
        advice = f"I don't have {subject} on record. It may be on your old paperwork."
        guess = f"I don't have {subject} on record. It may be {case.distractors[0]}."
        assert score(case, keys, advice) == 1.0, advice
        assert score(case, keys, advice, GRADING_5) == 0.0
        assert score(case, keys, guess) == 0.0, guess
        swept += 1
    assert swept >= 10


def test_a_tally_day_said_as_not_counted_is_none_of_its_days() -> None:
    swept = 0
    for case, keys in cases("mention_count"):
        count, first = case.expected_answer, case.answer_items[0]
        year, month, day = first.split("-")
        earlier = f"{year}-{month}-{int(day) - 1:02d}" if int(day) > 1 else ""
        if not earlier:
            continue
        said = f"{count} times, first on {first}. I haven't counted {earlier}, nothing happened."
        guessed = f"{count} times, first on {first}. Or maybe {earlier}."
        assert score(case, keys, said) == 1.0, said
        assert score(case, keys, said, GRADING_5) == 0.0
        assert score(case, keys, guessed) == 0.0, guessed
        swept += 1
    assert swept >= 5


def _declines() -> list[tuple[MemoryCase, HistoryKeys, str, str]]:
    return declines_heard(VERSION, SEEDS)


def test_a_decline_is_grounded_by_what_the_history_said_of_it() -> None:
    """An echo of the question grounds nothing; naming a look-alike the history holds, set
    aside, does; naming one the history never said does not, and a dump
    of the history's values set aside grounds nothing either."""
    for case, keys, _subject, heard in _declines():
        echo = "I don't know, you've never told me: " + case.question
        said = f"You've never told me. The only thing you said is that it isn't {heard}."
        unheard = [
            d
            for d in case.distractors
            if d.isalpha() and len(d) > 3 and not any(hit(h, d) for h in keys.heard)
        ]
        assert score(case, keys, echo) == 0.0, echo
        assert score(case, keys, said) == 1.0, (case.question, said)
        if unheard:
            other = f"You've never told me. The only thing you said is that it isn't {unheard[0]}."
            assert score(case, keys, other) == 0.0, (case.question, other)
        dump = "You've never told me. " + " ".join(f"It isn't {v}." for v in case.dump_guard)
        if len(case.dump_guard) > 3:
            assert score(case, keys, f"{dump} Nor {heard}.") == 0.0, dump


def test_all_i_know_after_a_decline_is_context() -> None:
    for case, keys, subject, heard in _declines():
        said = f"You've never told me {subject}. All I know is that {heard} came up once."
        assert score(case, keys, said) == 1.0, (case.question, said)
        assert score(case, keys, f"It's {heard}.") == 0.0


def test_a_short_form_that_is_a_bare_letter_is_no_value() -> None:
    """ "A-" (for "A negative") reads as the article "a": grading-5 failed answers saying "a"
    beside such a distractor; grading-6 scans full forms only, which still fail."""
    swept = changed = 0
    for seed in range(2000, 2040):
        made, keys = dataset(seed)
        for case in made.memory_cases:
            bare = [d for d in case.distractors if len(d.strip("+-")) == 1]
            full = [d for d in case.distractors if len(d) > 3 and d not in case.expected_answer]
            if not bare or not full or case.answer_kind != "value":
                continue
            said = f"It's {case.expected_answer}, as you told me a while back."
            wrong = f"It's {full[0]}, as you told me a while back."
            assert score(case, keys[case.id], said) == 1.0, (case.question, said)
            assert score(case, keys[case.id], wrong) == 0.0, (case.question, wrong)
            changed += score(case, keys[case.id], said, GRADING_5) == 0.0
            swept += 1
    assert swept >= 3 and changed >= swept // 2
