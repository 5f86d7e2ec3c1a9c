"""grading-2's rules, one table of answers per rule: the exploit it closes fails, honest answers
in other words pass (docs/grading.md, "grading-2")."""

from __future__ import annotations

import pytest

from dittobench import study as T
from dittobench.grade.memory import grade_memory
from dittobench.grade.run import grade_run
from dittobench.spec.memory import MemoryCase
from dittobench.spec.versions import GRADING_1, GRADING_2
from dittobench.spec.wire import RunResponse, ToolCall
from tests.unit.test_grade_memory import case


def score(memory_case: MemoryCase, text: str, abstain: bool | None = None) -> float:
    response = RunResponse(final_text=text, abstain=abstain)
    return grade_memory(memory_case, response, GRADING_2).score


COUNT = case("number", "4", question="How many weddings have I been to?")
ORDER = case(
    "ordered_list",
    "Lisbon, Kyoto, Oslo",
    question="Can you sort my trip to Kyoto, the Oslo trip and my visit to Lisbon by date?",
    items=("Lisbon", "Kyoto", "Oslo"),
)
DAYS = case("duration", "148", question="How many days passed between the two weddings?")
QUIT = case(
    "reversal",
    "pottery",
    question="Is pottery part of my life these days?",
    items=("pottery",),
    distractors=("archery", "surfing"),
)
STILL = case(
    "persistence",
    "pottery",
    question="Is pottery part of my life these days?",
    items=("pottery",),
    distractors=("archery", "surfing"),
)
CURRENT = case(
    "value",
    "Apple Watch",
    question="What's on my wrist these days?",
    distractors=("Fitbit Sense", "Garmin Venu"),
)
DECLINE = case(
    "decline",
    question="Which artist do I admire most?",
    items=("the painter I admire most", "my favourite artist"),
    distractors=("Claude Monet", "the team I support", "the team you support"),
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4", 1.0),
        ("Four weddings so far.", 1.0),
        ("You've been to four: in May, June 10 and July 2, 2026, over 3 months.", 1.0),
        ("Four weddings, 2 of them in June; the last one in July.", 1.0),
        ("1, 2, 3, 4, 5, 6, 7", 0.0),
        ("4 or 5", 0.0),
        ("between 3 and 4", 0.0),
        ("3-4", 0.0),
        ("It's 4, maybe 5.", 0.0),
    ],
)
def test_a_count_states_one_candidate(text: str, expected: float) -> None:
    assert score(COUNT, text) == expected
    assert grade_memory(COUNT, RunResponse(final_text="4 or 5"), GRADING_1).score == 0.0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("First Lisbon, then Kyoto, and Oslo last.", 1.0),
        ("Lisbon -> Kyoto -> Oslo", 1.0),
        (ORDER.question, 0.0),
        (" ".join([ORDER.question] * 3), 0.0),
        ("Lisbon, Kyoto, Oslo. Or Kyoto, Lisbon, Oslo.", 0.0),
        ("Oslo, Kyoto, Lisbon", 0.0),
    ],
)
def test_an_order_names_each_item_once(text: str, expected: float) -> None:
    assert score(ORDER, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("148 days", 1.0),
        ("It was 21 weeks and 1 day.", 1.0),
        ("148 days, about 21 weeks.", 1.0),
        ("67 days", 0.0),
        ("About 5 months.", 0.0),
        ("Either 148 days or 67 days.", 0.0),
    ],
)
def test_a_duration_is_exact_and_single(text: str, expected: float) -> None:
    assert score(DAYS, text) == expected


@pytest.mark.parametrize(
    ("memory_case", "text", "expected"),
    [
        (QUIT, "You gave up pottery a while ago.", 1.0),
        (QUIT, "No, you quit pottery; you don't do it these days.", 1.0),
        (QUIT, "Pottery is part of your life these days.", 0.0),  # the question's own cue
        (QUIT, "You quit pottery, or maybe you still do it.", 0.0),  # both
        (QUIT, "You gave up pottery, archery and surfing.", 0.0),  # a scattershot
        (QUIT, "pottery", 0.0),
        (STILL, "Yes, you're still doing pottery.", 1.0),
        (STILL, "You haven't given up pottery.", 1.0),
        (STILL, STILL.question, 0.0),
        (STILL, "Is pottery part of your life these days?", 0.0),
        (STILL, "pottery these days", 0.0),
        (STILL, "You still do pottery, though you used to do it more.", 0.0),
    ],
)
def test_ended_or_ongoing_is_determined(
    memory_case: MemoryCase, text: str, expected: float
) -> None:
    assert score(memory_case, text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It's the Apple Watch.", 1.0),
        ("You moved from the Fitbit Sense to an Apple Watch.", 1.0),
        ("Not the Fitbit Sense any more: an Apple Watch.", 1.0),
        ("You had the Fitbit Sense before; now it's an Apple Watch.", 1.0),
        ("The Apple Watch took over from the Fitbit Sense in May.", 1.0),
        ("Fitbit Sense until March, then the Apple Watch.", 1.0),
        ("Apple Watch before, Fitbit Sense now.", 0.0),
        ("Fitbit Sense, Garmin Venu, Apple Watch", 0.0),
        ("Formerly Fitbit Sense, formerly Apple Watch.", 0.0),
        ("You used to wear the Apple Watch.", 0.0),
    ],
)
def test_former_values_are_named_as_such(text: str, expected: float) -> None:
    assert score(CURRENT, text) == expected


@pytest.mark.parametrize(
    ("text", "abstain", "expected"),
    [
        ("I don't know who your favourite artist is.", None, 1.0),
        ("I don't know which artist you admire most.", None, 1.0),
        ("You never told me about the painter you admire most.", True, 1.0),
        (f"I don't have any record of that: {DECLINE.question}", True, 0.0),  # an echo
        ("I don't know.", True, 0.0),
        ("I don't know anything about art.", None, 0.0),  # one shared word is not the subject
        ("I don't know your favourite artist. Maybe Claude Monet?", None, 0.0),
        ("I don't know your favourite artist; perhaps a painter of some kind.", None, 0.0),
        ("No record of your favourite artist or the team you support.", None, 0.0),
    ],
)
def test_a_decline_names_its_subject_and_offers_nothing(
    text: str, abstain: bool | None, expected: float
) -> None:
    assert score(DECLINE, text, abstain) == expected


def test_a_write_instruction_needs_the_write_and_its_read_back() -> None:
    from dittobench.generate.assemble import build_dataset

    dataset = build_dataset(11, run_size="full")
    writes = [c for c in dataset.memory_cases if c.write_op]
    assert {c.write_op for c in writes} == {"save", "update", "delete"}
    readbacks = {c.confirmed_by for c in writes}
    assert readbacks <= {c.id for c in dataset.memory_cases if c.question_type == "write_readback"}

    def verdicts(memory: T.MemoryAnswer) -> dict[str, float]:
        report = grade_run(dataset, T.build(dataset, memory=memory)).report
        return {s.case_id: s.score for s in report.per_case if s.category == "write_instruction"}

    assert set(verdicts(T.oracle_memory).values()) == {1.0}

    def acknowledge_only(c: MemoryCase, d: object) -> RunResponse:
        if c.question_type == "write_instruction":
            return RunResponse(final_text="Done, saved.")
        return T.oracle_memory(c, dataset)

    assert set(verdicts(acknowledge_only).values()) == {0.0}

    def no_read_back(c: MemoryCase, d: object) -> RunResponse:
        if c.question_type == "write_readback":
            return RunResponse(final_text="I can't find anything.")
        return T.oracle_memory(c, dataset)

    assert set(verdicts(no_read_back).values()) == {0.0}

    def wrong_content(c: MemoryCase, d: object) -> RunResponse:
        if c.question_type == "write_instruction":
            call = ToolCall("save_memory", {"content": c.expected_answer})  # the label, no code
            return RunResponse(final_text="Saved.", tool_calls=(call,))
        return T.oracle_memory(c, dataset)

    assert set(verdicts(wrong_content).values()) == {0.0}

    def wipe_everything(c: MemoryCase, d: object) -> RunResponse:
        if c.write_op == "delete":
            pairs = [p.pair_id for w in dataset.memory_waves for p in w.pairs]
            calls = tuple(ToolCall("delete_memory", {"pair_id": p}) for p in pairs)
            return RunResponse(final_text="Deleted.", tool_calls=calls)
        return T.oracle_memory(c, dataset)

    deletes = {c.id for c in writes if c.write_op == "delete"}
    wiped = verdicts(wipe_everything)
    assert {wiped[i] for i in deletes} == {0.0}  # removing everything is not the delete asked
    assert {v for i, v in wiped.items() if i not in deletes} == {1.0}
