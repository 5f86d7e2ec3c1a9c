"""Normalisation and matching primitives of the memory grader (grade/match.py)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dittobench.grade.lexicon import ACKNOWLEDGE, CESSATION, DECLINE, PERSISTENCE, USED_TO
from dittobench.grade.match import (
    COMMON_WORDS,
    has_negated,
    has_phrase,
    has_unnegated,
    hit,
    in_order,
    joined,
    masked,
    normalize,
    prepare,
)
from dittobench.grade.numbers import bare_days, durations_in_days, number_spans, number_tokens

# --- normalize ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "want"),
    [
        ("  Zürich\t\n ", "zurich"),
        ("ZÜRICH", "zurich"),
        ("Ｈｅｌｌｏ  WORLD", "hello world"),
        ("São Paulo", "sao paulo"),
        ("Ørsted Straße", "orsted strasse"),
        ("İstanbul", "istanbul"),
        ("don’t “quote” me", 'don\'t "quote" me'),
        ("2019–2021 — done", "2019-2021 - done"),
        ("VK-AB\u200bCD", "vk-abcd"),
        ("3½ weeks, ½ a day", "3.5 weeks, 0.5 a day"),
        ("", ""),
        ("\u00a0\u2003", ""),
    ],
)
def test_normalize(raw: str, want: str) -> None:
    assert normalize(raw) == want


@given(st.text(max_size=200))
def test_normalize_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


# --- hit ---------------------------------------------------------------------------------------

HITS = [
    ("I grew up in Zurich.", "Zürich"),
    ("i grew up in ZÜRICH!", "zurich"),
    ("It is New York", "New York"),
    ("It is New York", "York"),
    ("the new-york office", "New York"),
    ("York's walls", "York"),
    ("code AB12 CD34 EF56", "AB12-CD34-EF56"),
    ("token: VK-ABCDEFGHJK.", "vk-abcdefghjk"),
    ("It is 48213907", "48,213,907"),
    ("It is 48 213 907", "48,213,907"),
    ("It is 48,213,907.", "48213907"),
    ("I have 5.", "5"),
    ("5 of them", "5"),
    ("pages 3-5", "5"),
    ("about 3.5 kg", "3.5"),
    ("at -5 degrees", "-5"),
    ("the combination is 0071", "0071"),
    ("Dr. Smith said so", "Dr. Smith."),
    ("**Lisbon**", "Lisbon"),
]
MISSES = [
    ("Yorkshire", "York"),
    ("I grew up in Zurichberg", "Zurich"),
    ("500", "5"),
    ("3.5", "5"),
    ("-5", "5"),
    ("1,500", "5"),
    ("order-5", "5"),
    ("a5b", "5"),
    ("the combination is 71", "0071"),
    ("yes, you may", "yes"),
    ("yes, you may", "May"),
    ("anything at all", ""),
    ("anything at all", "   "),
    ("tokens", "token"),
]


@pytest.mark.parametrize(("text", "value"), HITS)
def test_hit(text: str, value: str) -> None:
    assert hit(text, value)


@pytest.mark.parametrize(("text", "value"), MISSES)
def test_no_hit(text: str, value: str) -> None:
    assert not hit(text, value)


def test_common_words_never_credit() -> None:
    assert {"yes", "no", "may", "can", "will", "one", "two", "it"} <= COMMON_WORDS
    for word in COMMON_WORDS:
        assert not hit(f"it is {word} indeed", word)


@given(st.from_regex(r"[a-z][a-z0-9]{3,9}( [a-z0-9]{1,8}){0,2}", fullmatch=True))
def test_a_value_hits_itself_in_a_sentence(value: str) -> None:
    assert hit(f"Well: {value.upper()}, I think.", value)


@given(st.text(max_size=80), st.text(max_size=20))
def test_hit_never_raises(text: str, value: str) -> None:
    assert hit(text, value) in (True, False)


# --- numbers -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("four", [4]),
        ("I went there twice, then once, then thrice", [2, 1, 3]),
        ("4 times", [4]),
        ("twenty-one and twenty one and seventeen", [21, 21, 17]),
        ("a dozen, half a dozen", [12, 6]),
        ("1,500 and 48 213 907 and 3.0 and 3.5", [1500, 48213907, 3]),
        ("-5 and 3-5", [-5, 3, 5]),
        ("order-42 and a5 and 7b", []),
        ("nothing numeric here, someone", []),
    ],
)
def test_number_tokens(text: str, want: list[int]) -> None:
    assert number_tokens(text) == want


def test_number_spans_are_in_text_order() -> None:
    spans = number_spans("three then 4 then five")
    assert [v for _s, _e, v in spans] == [3, 4, 5]
    assert all(a[1] <= b[0] for a, b in pairwise(spans))


# --- in_order ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "items", "want"),
    [
        ("Lisbon, then Rome, then Oslo.", ("Lisbon", "Rome", "Oslo"), True),
        ("first LISBON; rome next; oslo last", ("Lisbon", "Rome", "Oslo"), True),
        ("Rome, then Lisbon, then Oslo.", ("Lisbon", "Rome", "Oslo"), False),
        ("Lisbon then Oslo", ("Lisbon", "Rome", "Oslo"), False),
        ("New York then York", ("York", "New York"), False),
        ("York then New York", ("York", "New York"), True),
        ("anything", (), False),
    ],
)
def test_in_order(text: str, items: tuple[str, ...], want: bool) -> None:
    assert in_order(text, items) is want


# --- durations ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("3 weeks", [21]),
        ("about a month", [30]),
        ("a week and a half", [11]),
        ("1.5 weeks", [11]),
        ("3 and a half weeks", [25]),
        ("3½ weeks", [25]),
        ("one and a half weeks", [11]),
        ("a fortnight", [14]),
        ("twenty-one days", [21]),
        ("an hour and 2 days", [2]),
        ("a 21-day gap", [21]),
        ("2 weeks and 3 days", [17]),
        ("1 year, and 2 months", [425]),
        ("a month, a week", [30, 7]),
        ("half a year", [183]),
        ("1,500 days", [1500]),
        ("1,5 weeks", [11]),
        ("a couple of weeks", [14]),
        ("one weekend, weekly", []),
        ("on March 3", []),
    ],
)
def test_durations_in_days(text: str, want: list[int]) -> None:
    assert durations_in_days(text) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [("21", 21), ("about 21 days.", 21), ("~21", 21), ("twenty-one", 21), ("21 and 5", None)],
)
def test_bare_days(text: str, want: int | None) -> None:
    assert bare_days(text) == want


# --- phrases and negation ----------------------------------------------------------------------

UNNEGATED = [
    ("You stopped pottery.", CESSATION),
    ("pottery? not anymore", CESSATION),
    ("You no longer do pottery.", CESSATION),
    ("You gave it up in March.", CESSATION),
    ("You dont do pottery now", CESSATION),
    ("No, you stopped.", CESSATION),
    ("You still do pottery.", PERSISTENCE),
    ("You do not still do it, no, but you continue with it", PERSISTENCE),
    ("I have no record of that.", DECLINE),
    ("I do not have that", DECLINE),
    ("I dont know", DECLINE),
    ("I cannot find it", DECLINE),
    ("I’m not sure.", DECLINE),
    ("Saved!", ACKNOWLEDGE),
    ("Got it, I’ll remember that.", ACKNOWLEDGE),
    ("Consider it gone.", ACKNOWLEDGE),
]
NOT_UNNEGATED = [
    ("I haven't given up pottery.", CESSATION),
    ("I never stopped.", CESSATION),
    ("I havent really given up", CESSATION),
    ("You have not actually quit", CESSATION),
    ("You used to do pottery.", CESSATION),
    ("You stopped by the studio.", CESSATION),
    ("It ended up being fun.", CESSATION),
    ("You're not still doing it.", PERSISTENCE),
    ("You still haven't gone back.", PERSISTENCE),
    ("I don't know.", ACKNOWLEDGE),
    ("I can't save that.", ACKNOWLEDGE),
    ("I haven't saved it.", ACKNOWLEDGE),
    ("It can't be saved.", ACKNOWLEDGE),
    ("", DECLINE),
]


@pytest.mark.parametrize(("text", "phrases"), UNNEGATED)
def test_has_unnegated(text: str, phrases: tuple[str, ...]) -> None:
    assert has_unnegated(text, phrases)


@pytest.mark.parametrize(("text", "phrases"), NOT_UNNEGATED)
def test_not_has_unnegated(text: str, phrases: tuple[str, ...]) -> None:
    assert not has_unnegated(text, phrases)


@pytest.mark.parametrize(
    ("text", "phrases", "want"),
    [
        ("I haven't given up pottery.", CESSATION, True),
        ("I never stopped.", CESSATION, True),
        ("I haven't ever really stopped.", CESSATION, True),
        ("You stopped.", CESSATION, False),
        ("Not still, no.", PERSISTENCE, True),
        ("Not. Still going.", PERSISTENCE, False),
        ("You still do it.", PERSISTENCE, False),
    ],
)
def test_has_negated(text: str, phrases: tuple[str, ...], want: bool) -> None:
    assert has_negated(text, phrases) is want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("You used to do pottery.", True),
        ("You formerly did pottery.", True),
        ("You got used to the wheel.", False),
        ("You're used to it.", False),
        ("You still do pottery.", False),
    ],
)
def test_used_to(text: str, want: bool) -> None:
    assert has_phrase(text, USED_TO) is want


def test_used_to_is_not_cessation() -> None:
    assert not has_phrase("You used to do pottery.", CESSATION)


def test_phrase_lists_are_distinct_and_normalised() -> None:
    for phrases in (DECLINE, CESSATION, PERSISTENCE, ACKNOWLEDGE, USED_TO):
        assert len(set(phrases)) == len(phrases)
        assert all(p == normalize(p) and p for p in phrases)


@given(st.text(max_size=120))
def test_phrase_matching_never_raises(text: str) -> None:
    for phrases in (DECLINE, CESSATION, PERSISTENCE, ACKNOWLEDGE, USED_TO):
        has_unnegated(text, phrases)
        has_negated(text, phrases)


# --- masking and joining -----------------------------------------------------------------------


def test_masked_hides_values_but_keeps_the_rest() -> None:
    text = masked("New York, or maybe York?", ["New York"])
    assert not hit(text, "New York")
    assert hit(text, "York")
    assert not hit(masked("I live in New York", ["New York"]), "York")


def test_joined_matches_normalising_together() -> None:
    a, b = prepare(" Zürich "), prepare("is  the ANSWER")
    assert joined(a, b) == prepare("Zürich\nis the answer")
    assert joined(prepare(""), b) == b
    assert joined(a, prepare("  ")) == a
