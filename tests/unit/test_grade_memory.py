"""The memory-case grader (grade/memory.py, grade/memory_kinds.py): the fixed order of scans, then
a table of passing and failing answers for every answer kind."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.generate.assemble import build_dataset
from dittobench.grade.memory import REASONS, MemoryVerdict, grade_memory
from dittobench.grade.memory_kinds import CHECKS, UnknownAnswerKindError, content_words
from dittobench.spec.codec import DecodeError
from dittobench.spec.dataset import dataset_from_json
from dittobench.spec.memory import ANSWER_KINDS, QUESTION_TYPES, MemoryCase
from dittobench.spec.versions import GRADING_1, GradingPolicy
from dittobench.spec.vocab import AnswerKind
from dittobench.spec.wire import RunResponse

TYPE_OF_KIND = {t.answer_kind: t.name for t in reversed(list(QUESTION_TYPES.values()))} | {
    "tally": "mention_count"  # bench 3.0 counts (the type keeps "number" as its default kind)
}


def case(
    kind: AnswerKind,
    expected: str = "",
    *,
    question: str = "Where did I grow up?",
    accepted: tuple[str, ...] = (),
    items: tuple[str, ...] = (),
    distractors: tuple[str, ...] = (),
    forbidden: tuple[str, ...] = (),
    dump_guard: tuple[str, ...] = (),
) -> MemoryCase:
    return MemoryCase(
        id="c0123456789abcdef",
        question_type=TYPE_OF_KIND[kind],
        question=question,
        answer_kind=kind,
        expected_answer=expected,
        user_id="miner",
        run_after_wave=0,
        accepted=accepted,
        answer_items=items,
        distractors=distractors,
        forbidden=forbidden,
        dump_guard=dump_guard,
    )


def grade(
    memory_case: MemoryCase,
    text: str = "",
    answer: str | None = None,
    abstain: bool | None = None,
    policy: GradingPolicy = GRADING_1,
) -> MemoryVerdict:
    return grade_memory(
        memory_case, RunResponse(final_text=text, answer=answer, abstain=abstain), policy
    )


def test_every_answer_kind_has_a_check() -> None:
    assert set(CHECKS) == set(ANSWER_KINDS)


# --- per-kind tables ---------------------------------------------------------------------------

VALUE = case("value", "Zürich", accepted=("Zurich city",))
NEW_YORK = case("value", "New York", distractors=("York", "Boston"))
BIG = case("value", "48,213,907")
FIVE = case("number", "5", question="How many trips did I take?")
FOUR = case("number", "4", question="How many concerts did I go to?")
TWO = case("number", "2", question="How often did I mention my knee?")
CITIES = ("Lisbon", "Rome", "Oslo")
LIST = case("list", ", ".join(CITIES), items=CITIES, distractors=("Paris",))
ORDERED = case("ordered_list", ", ".join(CITIES), items=CITIES)
WEEKS = case("duration", "21", question="How long between the gig and the trip?")
DAYS = case("duration", "3")
TEN = case("duration", "10")
QUIT = case("reversal", "pottery", items=("pottery",), question="Do I still do pottery?")
GOING = case("persistence", "pottery", items=("pottery",), question="Do I still do pottery?")
DECLINE = case("decline", question="What is my grandfather's name?", distractors=("Albert",))
ACK = case("acknowledge", "locker code", question="Please save my locker code as 4412.")

PASSING: list[tuple[MemoryCase, str, str | None, bool | None]] = [
    # value: normalisation of case, diacritics and whitespace; accepted forms; slot then prose
    (VALUE, "You grew up in Zurich.", None, None),
    (VALUE, "  YOU GREW UP IN\n\tZÜRICH  ", None, None),
    (VALUE, "zürich", None, None),
    (VALUE, "", "Zürich", None),
    (VALUE, "It was Zürich, I believe.", "Bern", None),
    (VALUE, "Zurich City", None, None),
    (NEW_YORK, "You grew up in New York.", None, None),
    (NEW_YORK, "", "new-york", None),
    (BIG, "The figure was 48213907.", None, None),
    (BIG, "48 213 907", None, None),
    # number: digits or words, once/twice
    (FIVE, "5", None, None),
    (FIVE, "You took five trips.", None, None),
    (FOUR, "four", None, None),
    (FOUR, "You went 4 times: in 2023 twice and in 2024 twice.", None, None),
    (TWO, "Twice.", None, None),
    (TWO, "", "2", None),
    # list
    (LIST, "Lisbon, Rome and Oslo.", None, None),
    (LIST, "oslo; ROME; lisbon", None, None),
    # ordered list
    (ORDERED, "Lisbon first, then Rome, and Oslo last.", None, None),
    (ORDERED, "", "Lisbon, Rome, Oslo", None),
    # duration: within max(2, e // 2) days
    (WEEKS, "3 weeks", None, None),
    (WEEKS, "About a month.", None, None),
    (WEEKS, "21 days", None, None),
    (WEEKS, "", "21", None),
    (WEEKS, "Roughly three weeks passed.", None, None),
    (DAYS, "5 days", None, None),
    (DAYS, "1 day", None, None),
    (DAYS, "3", None, None),
    (TEN, "a week and a half", None, None),
    (TEN, "1.5 weeks", None, None),
    # reversal: the activity and its end
    (QUIT, "You stopped pottery.", None, None),
    (QUIT, "pottery? not anymore", None, None),
    (QUIT, "You gave up pottery last spring.", None, None),
    (QUIT, "You no longer do pottery.", None, None),
    (QUIT, "You're not still doing pottery.", None, None),
    (QUIT, "You quit it in March.", "pottery", None),
    # persistence: the activity goes on, nothing suggests it ended
    (GOING, "I haven't given up pottery.", None, None),
    (GOING, "You never stopped pottery.", None, None),
    (GOING, "Yes, you still do pottery.", None, None),
    (GOING, "Your pottery is ongoing.", None, None),
    (GOING, "You got used to the wheel and still do pottery.", None, None),
    # decline: grounded
    (DECLINE, "I have no record of your grandfather's name.", None, None),
    (DECLINE, "You never told me about your grandfather.", None, None),
    (DECLINE, "Nothing about your grandfather is stored.", None, True),
    (DECLINE, "I can't say anything about your grandfather.", None, True),
    # acknowledge
    (ACK, "Saved!", None, None),
    (ACK, "Got it, I'll remember your locker code.", None, None),
    (ACK, "Done, it has been deleted.", None, None),
    (ACK, "Updated.", None, True),
]

FAILING: list[tuple[MemoryCase, str, str | None, bool | None]] = [
    (VALUE, "You grew up in Zurichberg.", None, None),
    (VALUE, "Bern", "", None),
    (NEW_YORK, "Yorkshire", None, None),
    (FIVE, "500", None, None),
    (FIVE, "3.5", None, None),
    (FIVE, "-5", None, None),
    (FIVE, "1,500", None, None),
    (FOUR, "44", None, None),
    (FOUR, "3 or 4", None, None),
    (FOUR, "three or four", None, None),
    (FOUR, "between 3 and 4", None, None),
    (FOUR, "3-4 times", None, None),
    (TWO, "once", None, None),
    (LIST, "none of them", None, None),
    (ORDERED, "Rome, Lisbon, Oslo", None, None),
    (ORDERED, "Lisbon, then Oslo", None, None),
    (WEEKS, "2 days", None, None),
    (WEEKS, "two months", None, None),
    (WEEKS, "21 and 5", None, None),
    (DAYS, "a week", None, None),
    (DAYS, "6 days", None, None),
    (QUIT, "I haven't given up pottery.", None, None),
    (QUIT, "You used to do pottery.", None, None),
    (QUIT, "You still do pottery.", None, None),
    (QUIT, "You gave it up.", None, None),
    (QUIT, "You never stopped pottery.", None, None),
    (GOING, "You used to do pottery.", None, None),
    (GOING, "You stopped pottery.", None, None),
    (GOING, "You still do pottery, though you gave it up once.", None, None),
    (GOING, "pottery? not anymore", None, None),
    (GOING, "You still haven't gone back to pottery.", None, None),
    (GOING, "You're not still doing pottery.", None, None),
    (GOING, "You do pottery.", None, None),
    (GOING, "Still going!", None, None),
    (DECLINE, "I don't know.", None, None),
    (DECLINE, "Sorry.", None, True),
    (DECLINE, "", None, True),
    (DECLINE, "Your grandfather is called Bob.", None, None),
    (ACK, "I can't save that.", None, None),
    (ACK, "I haven't saved your locker code.", None, None),
    (ACK, "Noted, but I don't have a memory tool.", None, None),
    (ACK, "Sure.", None, None),
]


@pytest.mark.parametrize(("memory_case", "text", "answer", "abstain"), PASSING)
def test_passing_answers(
    memory_case: MemoryCase, text: str, answer: str | None, abstain: bool | None
) -> None:
    assert grade(memory_case, text, answer, abstain) == MemoryVerdict(1.0, "", False)


@pytest.mark.parametrize(("memory_case", "text", "answer", "abstain"), FAILING)
def test_failing_answers(
    memory_case: MemoryCase, text: str, answer: str | None, abstain: bool | None
) -> None:
    verdict = grade(memory_case, text, answer, abstain)
    assert verdict == MemoryVerdict(0.0, "typed", False)


def test_list_partial_credit() -> None:
    assert grade(LIST, "Lisbon and Rome.") == MemoryVerdict(0.666667, "partial", False)
    assert grade(LIST, "Oslo", "Lisbon, Rome").score == 0.666667
    assert grade(case("list", items=("A1", "a1", " ", "B2")), "a1").score == 0.5


def test_slot_is_read_first_then_the_prose() -> None:
    assert grade(VALUE, "It's Bern.", "Zürich").score == 1.0
    assert grade(VALUE, "It's Zürich.", "Bern").score == 1.0
    assert grade(VALUE, "It's Zürich.", "   ").score == 1.0
    assert grade(LIST, "Lisbon, Rome, Oslo", "Lisbon").score == 1.0


def test_content_words_skip_stop_words_and_stem() -> None:
    assert content_words("What is my grandfather's name?") == {"grandfather"}
    assert content_words("Did I visit Lisbon?") == content_words("no record of visiting lisbon")


# --- the fixed order ---------------------------------------------------------------------------


def test_undelivered_and_empty() -> None:
    assert grade_memory(VALUE, None, GRADING_1) == MemoryVerdict(0.0, "undelivered", False)
    assert grade(VALUE, "") == MemoryVerdict(0.0, "empty", False)
    assert grade(VALUE, " \n\t", "  ") == MemoryVerdict(0.0, "empty", False)
    assert grade(VALUE, "\u200b") == MemoryVerdict(0.0, "empty", False)


def test_forbidden_zeroes_even_beside_the_expected_value() -> None:
    iso = case("value", "Zürich", forbidden=("Geneva",))
    leak = MemoryVerdict(0.0, "forbidden", True, leaked=True)
    assert grade(iso, "Zürich (not Geneva)") == leak
    assert grade(iso, "Zürich", "Geneva") == leak
    assert grade(iso, "GENEVA", "Zürich") == leak
    assert grade(iso, "Zürich", abstain=True).reason == "wrongful_decline"
    token = case("value", "VK-ABCDEFGHJK", forbidden=("VK-ABCDEFGHJM",))
    assert grade(token, "VK ABCDEFGHJM").leaked
    assert grade(token, "VK-ABCDEFGHJK").score == 1.0


def test_forbidden_comes_before_distractor() -> None:
    both = case("value", "Zürich", distractors=("Bern",), forbidden=("Geneva",))
    assert grade(both, "Bern or Geneva").reason == "forbidden"


def test_distractor_zeroes_even_beside_the_expected_value() -> None:
    assert grade(NEW_YORK, "New York, or maybe Boston") == MemoryVerdict(0.0, "distractor", True)
    assert grade(NEW_YORK, "New York", "Boston").reason == "distractor"
    assert grade(NEW_YORK, "New York ... or York?").reason == "distractor"
    assert grade(NEW_YORK, "York").reason == "distractor"
    assert grade(DECLINE, "I have no record; maybe Albert?").reason == "distractor"
    assert grade(LIST, "Lisbon, Rome, Oslo and Paris").reason == "distractor"


def test_a_distractor_inside_the_answer_is_skipped() -> None:
    assert grade(NEW_YORK, "New York").score == 1.0
    inside_item = case("list", items=("New York", "Rome"), distractors=("York",))
    assert grade(inside_item, "New York and Rome").score == 1.0


def test_dump_guard_threshold() -> None:
    four = case("value", "Zürich", dump_guard=("Bern", "Basel", "Lugano", "Chur"))
    assert grade(four, "Zürich, Bern or Basel").score == 1.0
    assert grade(four, "Zürich, Bern, Basel or Chur") == MemoryVerdict(0.0, "dump_guard", True)
    eight = case("value", "Zürich", dump_guard=tuple(f"City{i}" for i in range(8)))
    assert grade(eight, "Zürich, City0, City1, City2").score == 1.0
    assert grade(eight, "Zürich, City0, City1, City2, City3").reason == "dump_guard"
    two = case("value", "Zürich", dump_guard=("Bern", "Basel"))
    assert grade(two, "Zürich, Bern, Basel").score == 1.0  # floor 3 is out of reach
    strict = replace(GRADING_1, dump_floor=1)
    assert grade(two, "Zürich, Bern", policy=strict).reason == "dump_guard"
    repeated = case("value", "Zürich", dump_guard=("Bern", "BERN", "bern", "Basel"))
    assert grade(repeated, "Zürich, Bern, Basel").score == 1.0  # 2 distinct values


def test_wrongful_decline() -> None:
    assert grade(VALUE, "Zürich", abstain=True) == MemoryVerdict(0.0, "wrongful_decline", True)
    assert grade(FOUR, "", abstain=True).reason == "wrongful_decline"
    assert grade(VALUE, "Zürich", abstain=False).score == 1.0
    assert grade(DECLINE, "No record of your grandfather.", abstain=True).score == 1.0
    assert grade(ACK, "Saved.", abstain=True).score == 1.0
    # Decline phrases alone never zero an answerable case that names the value.
    assert grade(VALUE, "I'm not sure, but Zürich.").score == 1.0


def test_reasons_are_the_documented_ones() -> None:
    assert REASONS == (
        "undelivered",
        "empty",
        "forbidden",
        "distractor",
        "dump_guard",
        "wrongful_decline",
        "unconfirmed",
        "typed",
        "partial",
    )


def test_an_unknown_kind_is_an_error_not_a_value() -> None:
    odd = replace(VALUE, answer_kind="mystery")  # type: ignore[arg-type]
    with pytest.raises(UnknownAnswerKindError, match="mystery"):
        grade(odd, "Zürich")


def test_a_dataset_naming_an_unknown_kind_is_refused_where_it_says_so() -> None:
    data = build_dataset(3, "1.1.0", "small").to_json()
    data["memory_cases"][2]["answer_kind"] = "mystery"
    with pytest.raises(DecodeError, match=r"\$\.memory_cases\[2\]\.answer_kind: unknown"):
        dataset_from_json(data)
    data = build_dataset(3, "1.1.0", "small").to_json()
    data["memory_cases"][0]["question_type"] = "riddle"
    with pytest.raises(DecodeError, match=r"question_type"):
        dataset_from_json(data)
    data = build_dataset(3, "1.1.0", "small").to_json()
    data["seed"] = "٣"  # an Arabic-Indic three is a digit to str.isdigit, not a seed
    with pytest.raises(DecodeError, match=r"\$\.seed"):
        dataset_from_json(data)


def test_malformed_keys_score_zero_without_raising() -> None:
    assert grade(case("number", "many"), "many").reason == "typed"
    assert grade(case("duration", "soon"), "soon").reason == "typed"
    assert grade(case("list"), "anything").reason == "typed"
    assert grade(case("ordered_list", items=("", " ")), "anything").reason == "typed"
    assert grade(case("value", ""), "anything").reason == "typed"


# --- robustness --------------------------------------------------------------------------------

VOCAB = (
    "pottery",
    "Zürich",
    "New York",
    "York",
    "5",
    "500",
    "-5",
    "1,500",
    "four",
    "twice",
    "3 weeks",
    "a week and a half",
    "still",
    "not",
    "never",
    "haven't",
    "given up",
    "stopped",
    "used to",
    "no record",
    "I don't know",
    "saved",
    "?",
    ",",
    "\u200b",
    "½",
    "İ",
    "ß",
)
texts = st.one_of(
    st.text(max_size=120),
    st.text(st.characters(exclude_categories=()), max_size=40),  # lone surrogates too
    st.lists(st.one_of(st.sampled_from(VOCAB), st.text(max_size=8)), max_size=16).map(" ".join),
)
values = st.lists(texts, max_size=4).map(tuple)
memory_cases = st.builds(
    MemoryCase,
    id=st.text(max_size=10),
    question_type=st.text(max_size=10),
    question=texts,
    answer_kind=st.sampled_from(ANSWER_KINDS),
    expected_answer=texts,
    user_id=st.text(max_size=10),
    run_after_wave=st.integers(0, 5),
    accepted=values,
    answer_items=values,
    distractors=values,
    forbidden=values,
    dump_guard=values,
)
responses = st.one_of(
    st.none(),
    st.builds(
        RunResponse,
        final_text=texts,
        answer=st.one_of(st.none(), texts),
        abstain=st.one_of(st.none(), st.booleans()),
    ),
)


@settings(max_examples=400, deadline=None)
@given(memory_cases, responses, st.integers(-2, 6))
def test_grade_never_raises_and_is_deterministic(
    memory_case: MemoryCase, response: RunResponse | None, floor: int
) -> None:
    policy = replace(GRADING_1, dump_floor=floor)
    verdict = grade_memory(memory_case, response, policy)
    assert verdict == grade_memory(memory_case, response, policy)
    assert 0.0 <= verdict.score <= 1.0
    assert verdict.score == round(verdict.score, 6)
    assert (verdict.reason == "") == (verdict.score == 1.0)
    assert verdict.reason == "" or verdict.reason in REASONS
    assert verdict.leaked == (verdict.reason == "forbidden")
    assert verdict.disqualified == (
        verdict.reason in ("forbidden", "distractor", "dump_guard", "wrongful_decline")
    )


def test_pathological_inputs_are_fast() -> None:
    huge = ("a1 " * 200_000) + "-" * 100_000 + "9" * 50_000 + " ,'" * 50_000
    weird = "\x00\x1f\u202e\ufeff\U0001f600 \u0301\u0301 ½½ ٣٤ 𝟓 Ⅻ " * 2_000
    start = time.perf_counter()
    for kind in ANSWER_KINDS:
        for text in (huge, weird):
            memory_case = case(kind, "9" * 40, items=("a1", "9"), distractors=("zz",))
            assert 0.0 <= grade(memory_case, text, text, None).score <= 1.0
    assert time.perf_counter() - start < 10.0


def test_a_run_of_realistic_answers_grades_quickly() -> None:
    filler = "Based on what you have told me over our conversations, here is what I found. " * 3
    pairs = [
        (c, RunResponse(final_text=filler + text + " " + filler, answer=answer))
        for c, text, answer, _abstain in PASSING + FAILING
    ]
    pairs = (pairs * 3)[:200]
    for c, response in pairs:  # warm the caches once, as a first case of a run would
        grade_memory(c, response, GRADING_1)
    start = time.perf_counter()
    for c, response in pairs:
        grade_memory(c, response, GRADING_1)
    assert time.perf_counter() - start < 0.2  # about 5 ms on a laptop
