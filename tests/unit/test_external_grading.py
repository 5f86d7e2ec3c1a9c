"""Grading an external suite: a short value passes only when the answer commits to it (a dump of
every value, a hedge or a decline fails), an abstention question only on a grounded decline, and
open questions are scored by the judge's recorded verdicts, apart from the rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dittobench.generate.external import TYPES, load_external
from dittobench.grade.external import ExternalGradeError, grade_decline, grade_external, open_case
from dittobench.grade.external_values import grade_value, read_gold
from dittobench.grade.judging import judge_request, request_sha256
from dittobench.spec.external import ExternalQuestion, ExternalSuite
from dittobench.spec.external_transcript import ExternalTranscript
from dittobench.spec.judging import JUDGE_1, CaseJudgement, JudgeCall, JudgeRecord
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.wire import RunResponse

DATA = Path(__file__).resolve().parents[1] / "data" / "external"


def _said(text: str, answer: str | None = None, abstain: bool | None = None) -> RunResponse:
    return RunResponse(final_text=text, answer=answer, abstain=abstain)


def _value(question: str, gold: str, text: str, rivals: tuple[str, ...] = ()) -> tuple[float, str]:
    verdict = grade_value(question, gold, _said(text), rivals)
    return verdict.score, verdict.reason


# --- a right value passes ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "gold", "text"),
    [
        ("What degree did I graduate with?", "Business Administration",
         "You graduated with a degree in Business Administration."),
        ("What degree did I graduate with?", "Business Administration", "business-administration"),
        ("How many bikes do I own?", "3", "You own 3 bikes."),
        ("How many bikes do I own?", "3", "Three."),
        ("When did Caroline go to the support group?", "7 May 2023", "On May 7, 2023."),
        ("When did Caroline go to the support group?", "7 May 2023", "the 7th of May"),
        ("When did Caroline go to the support group?", "7 May 2023", "2023-05-07"),
        ("When did Caroline go to the support group?", "7 May 2023",
         "We talked on May 8, 2023, and she had gone the day before, on May 7."),
        ("When is Melanie going camping?", "June 2023", "In June 2023."),
        ("How long has she had her friends?", "4 years", "For four years."),
        ("How many days passed between the two?", "21 days", "3 weeks"),
        ("When did Melanie paint a sunrise?", "2022", "She painted it in 2022."),
        ("What did the house cost?", "$400,000", "It cost 400,000 dollars."),
        ("Where did Caroline move from?", "Sweden", "She moved here from Sweden four years ago."),
    ],
)  # fmt: skip
def test_the_right_value_passes(question: str, gold: str, text: str) -> None:
    assert _value(question, gold, text) == (1.0, "")


def test_the_answer_slot_is_the_answer() -> None:
    said = _said("Going by what you told me, it was in 2022.", answer="May 8, 2023")
    assert grade_value("When did Melanie paint a sunrise?", "2022", said).reason == "wrong"
    slot = _said("Let me think about your degrees.", answer="Business Administration")
    assert grade_value("What degree did I graduate with?", "Business Administration", slot).score


# --- a wrong value, a dump or a hedge fails ----------------------------------------------------


@pytest.mark.parametrize(
    ("question", "gold", "text", "reason"),
    [
        ("How many bikes do I own?", "3", "You own 2 bikes.", "wrong"),
        ("When did Caroline go to the support group?", "7 May 2023", "On 7 May 2022.", "wrong"),
        ("When is Melanie going camping?", "June 2023", "In June.", "wrong"),
        ("What degree did I graduate with?", "Business Administration", "Economics.", "missing"),
        # negated or someone else's: named, not committed to
        ("What degree did I graduate with?", "Business Administration",
         "You did not study Business Administration; you studied Economics.", "missing"),
    ],
)  # fmt: skip
def test_a_wrong_value_fails(question: str, gold: str, text: str, reason: str) -> None:
    assert _value(question, gold, text) == (0.0, reason)


DEGREES = ("Computer Science", "Biology", "Economics", "Nursing", "Law", "Philosophy")


@pytest.mark.parametrize(
    "text",
    [
        "Business Administration, Computer Science, Biology, Economics, Nursing, Law",
        "- Business Administration\n- Computer Science\n- Biology\n- Economics\n- Nursing",
        "It was Business Administration. Or Computer Science. Or Biology. Or Economics.",
        "Business Administration. Computer Science. Biology. Economics. Nursing.",
        "x " * 2000 + "Business Administration",
    ],
)
def test_a_dump_of_every_value_fails(text: str) -> None:
    score, reason = _value(
        "What degree did I graduate with?", "Business Administration", text, DEGREES
    )
    assert score == 0.0 and reason in ("dump", "hedge")


def test_a_dump_fails_even_without_known_rivals() -> None:
    listed = "Business Administration, Computer Science, Biology, Economics"
    assert _value("What degree did I graduate with?", "Business Administration", listed) == (
        0.0,
        "dump",
    )
    for numbers in ("1, 2, 3, 4, 5", "2 or 3 or 4"):
        assert _value("How many bikes do I own?", "3", numbers)[0] == 0.0
    days = "May 6, May 7, May 8 and May 9"
    assert _value("When did she go?", "7 May 2023", days)[0] == 0.0
    assert _value("When did she paint it?", "2022", "2020, 2021, 2022, 2023") == (0.0, "dump")


@pytest.mark.parametrize(
    ("question", "gold", "text"),
    [
        ("What degree did I graduate with?", "Business Administration",
         "Either Business Administration or Economics."),
        ("What degree did I graduate with?", "Business Administration",
         "Maybe Business Administration?"),
        ("How many bikes do I own?", "3", "You own 2 or 3 bikes."),
        ("How long has she had her friends?", "4 years", "About 4 or 5 years."),
        ("When is Melanie going camping?", "June 2023", "June 2023 or July 2023."),
    ],
)  # fmt: skip
def test_a_hedge_fails(question: str, gold: str, text: str) -> None:
    assert _value(question, gold, text) == (0.0, "hedge")


def test_a_decline_or_no_answer_scores_nothing_on_a_value_question() -> None:
    question, gold = "What degree did I graduate with?", "Business Administration"
    said = _said("I don't know, but maybe Business Administration.")
    assert grade_value(question, gold, said).reason == "declined"
    assert grade_value(question, gold, _said("", abstain=True)).reason == "declined"
    assert grade_value(question, gold, None).reason == "undelivered"
    assert grade_value(question, gold, _said("  ")).reason == "empty"


def test_gold_kinds() -> None:
    assert read_gold("3").kind == "number"
    assert read_gold("2022").kind == "year"
    assert read_gold("7 May 2023").kind == "date"
    assert read_gold("13 August").day == (8, 13, None)
    assert read_gold("June 2023").month == (6, 2023)
    assert read_gold("4 years").kind == "duration" and read_gold("4 years").number == 1460
    assert read_gold("Sweden").kind == "text"


# --- abstention questions pass only on a decline ------------------------------------------------


def _abstention(question: str, trap: tuple[str, ...] = ()) -> ExternalQuestion:
    return ExternalQuestion(
        "q", "u", question, "", "2023-05-30T23:40:00Z", "adversarial", "q", True, "decline",
        not_answers=trap,
    )  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        "You haven't mentioned a hamster to me.",
        "I don't have any record of a hamster.",
        "Your hamster's name was not mentioned in our conversations.",
    ],
)
def test_a_grounded_decline_passes(text: str) -> None:
    assert grade_decline(_abstention("What is the name of my hamster?"), _said(text)) == (1.0, "")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("Your hamster is called Biscuit.", "answered"),
        ("I don't know.", "ungrounded"),
        ("I don't have a record of your hamster; maybe it's Biscuit?", "offered"),
        ("", "empty"),
    ],
)
def test_anything_but_a_decline_fails(text: str, reason: str) -> None:
    question = _abstention("What is the name of my hamster?")
    assert grade_decline(question, _said(text)) == (0.0, reason)
    assert grade_decline(question, None) == (0.0, "undelivered")


def test_a_decline_that_asserts_the_trap_fails() -> None:
    question = _abstention(
        "What did Melanie realize after the charity race?", ("self-care is important",)
    )
    declined = "There's no mention of Melanie at a charity race."
    assert grade_decline(question, _said(declined)) == (1.0, "")
    asserted = "Not mentioned directly, but Melanie realized self-care is important."
    assert grade_decline(question, _said(asserted)) == (0.0, "asserted")


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("Nothing. Jon didn't lose anything at a bank. It was Gina who lost her job there.", 1.0),
        ("Jon never lost anything at the bank; Gina lost her job there.", 1.0),
        ("Nothing.", 0.0),  # ungrounded: says nothing of what was asked
        ("Nothing, Jon lost his job.", 0.0),
        ("Jon didn't do anything wrong, but he lost his job at the bank.", 0.0),
        ("Jon didn't lose anything, maybe his job?", 0.0),
    ],
)
def test_rejecting_a_false_premise_is_a_decline_unless_it_asserts_the_trap(
    text: str, score: float
) -> None:
    question = _abstention("What did Jon lose at the bank?", ("his job",))
    assert grade_decline(question, _said(text))[0] == score


def test_the_abstain_flag_declines_with_grounded_words() -> None:
    question = _abstention("What is the name of my hamster?")
    flagged = _said("A hamster never came up.", abstain=True)
    assert grade_decline(question, flagged) == (1.0, "")
    assert grade_decline(question, _said("", abstain=True)) == (0.0, "ungrounded")


# --- a whole run ------------------------------------------------------------------------------


def _suite(name: str, fmt: str) -> ExternalSuite:
    return load_external(DATA / f"{name}-mini.json", fmt, allow_unknown=True)


def _transcript(
    suite: ExternalSuite, answers: dict[str, str], judge: JudgeRecord | None = None
) -> ExternalTranscript:
    records = tuple(
        CaseRecord(q.id, "external", q.user_id, _said(answers[q.id]) if q.id in answers else None)
        for q in suite.questions
    )
    return ExternalTranscript(
        suite.source.format, suite.sha256, suite.source.sha256, "test", records, judge=judge
    )


def _oracle(suite: ExternalSuite) -> dict[str, str]:
    """The gold of every value question, and a decline naming the end of every abstention
    question ("…: nothing about the charity race")."""
    declined = "That was never mentioned: I have nothing about {}."
    return {
        q.id: declined.format(" ".join(q.question.rstrip("?").split()[-4:]))
        if q.abstention
        else f"It is {q.gold}."
        for q in suite.questions
    }


@pytest.mark.parametrize(("name", "fmt"), [("longmemeval", "longmemeval"), ("locomo", "locomo")])
def test_a_run_reports_rules_and_judged_parts_apart(name: str, fmt: str) -> None:
    suite = _suite(name, fmt)
    report = grade_external(suite, _transcript(suite, _oracle(suite)), TYPES[fmt])
    rules = [v for v in report.per_question if v.graded_by != "open"]
    assert report.rules.n == len(rules) and report.rules.mean == 1.0, [
        (v.question_id, v.reason) for v in rules if v.score != 1.0
    ]
    opened = [v for v in report.per_question if v.graded_by == "open"]
    assert opened and all(v.status == "not_judged" and v.score is None for v in opened)
    assert report.judged.n == len(opened) and report.judged.mean is None
    assert sum(t.n for t in report.per_type) == len(suite.questions)
    order = [t.source_type for t in report.per_type]
    assert order == [t for t in TYPES[fmt] if t in order]
    data = report.to_json()
    assert data["label"] == "external suite, not a dittobench score"
    assert "composite" not in json.dumps(data)


@pytest.mark.parametrize(("name", "fmt"), [("longmemeval", "longmemeval"), ("locomo", "locomo")])
def test_dumping_every_gold_and_declining_everything_score_nothing_on_values(
    name: str, fmt: str
) -> None:
    suite = _suite(name, fmt)
    golds = ", ".join(q.gold for q in suite.questions if q.graded_by == "value")
    dump = grade_external(suite, _transcript(suite, {q.id: golds for q in suite.questions}))
    assert [v.score for v in dump.per_question if v.graded_by == "value"] == [0.0] * sum(
        1 for q in suite.questions if q.graded_by == "value"
    )
    never = "I don't know; that was never mentioned."
    declined = grade_external(suite, _transcript(suite, {q.id: never for q in suite.questions}))
    values = [v for v in declined.per_question if v.graded_by == "value"]
    assert values and all(v.score == 0.0 and v.reason == "declined" for v in values)


def test_judged_verdicts_make_the_judged_part() -> None:
    suite = _suite("locomo", "locomo")
    answers = _oracle(suite)
    opened = [q for q in suite.questions if q.graded_by == "open"]
    judgements = []
    for question in opened:
        case = open_case(question, JUDGE_1)
        reply = json.dumps({item: "YES" for item in case.item_ids})
        calls = tuple(
            JudgeCall(k, 1, request_sha256(judge_request(JUDGE_1, case, answers[question.id], k)),
                      "ok", JUDGE_1.model, reply, {item: "YES" for item in case.item_ids})
            for k in range(JUDGE_1.panel)
        )  # fmt: skip
        judgements.append(CaseJudgement(question.id, calls))
    record = JudgeRecord(JUDGE_1, tuple(judgements))
    report = grade_external(suite, _transcript(suite, answers, record), TYPES["locomo"])
    assert report.judged.mean == 1.0 and report.judged.scored == len(opened)
    assert report.nuance.official
    assert all(v.status == "judged" for v in report.per_question if v.graded_by == "open")
    # The rules part is the same with or without the judge.
    unjudged = grade_external(suite, _transcript(suite, answers), TYPES["locomo"])
    assert unjudged.rules == report.rules


def test_a_transcript_of_another_suite_is_refused() -> None:
    suite, other = _suite("locomo", "locomo"), _suite("longmemeval", "longmemeval")
    with pytest.raises(ExternalGradeError, match="not this one"):
        grade_external(suite, _transcript(other, {}))


@pytest.mark.parametrize(("name", "fmt"), [("longmemeval", "longmemeval"), ("locomo", "locomo")])
def test_a_careful_readers_own_words_pass_the_rules(name: str, fmt: str) -> None:
    """Answers a careful reader wrote from the histories alone (tests/data/external/
    honest-answers.json: its words, a clause of context, premises rejected): every value and
    abstention question passes."""
    suite = _suite(name, fmt)
    written = json.loads((DATA / "honest-answers.json").read_text(encoding="utf-8"))
    answers = {q.id: written[q.question] for q in suite.questions}
    report = grade_external(suite, _transcript(suite, answers), TYPES[fmt])
    ruled = [v for v in report.per_question if v.graded_by != "open"]
    assert ruled and [(v.question_id, v.reason) for v in ruled if v.score != 1.0] == []
