"""Changing persona attributes: contract, grammar hygiene, value pools and question overlap."""

from __future__ import annotations

import re
from functools import cache

import pytest

from dittobench.core.prng import Stream
from dittobench.core.text import contains_phrase, normalize, words
from dittobench.generate.grammar import expand, fill, slots_in, strip_slots, tidy
from dittobench.generate.persona.attribute import (
    ALLOWED_SLOTS,
    REQUIRED_SYMBOLS,
    Attribute,
    check_attribute,
)
from dittobench.generate.texts import public_texts

LIBRARY = public_texts().library
CHANGING = (
    "home_city",
    "employer",
    "job_title",
    "manager",
    "commute",
    "car",
    "phone",
    "laptop",
    "wearable",
    "mobile_carrier",
    "gym",
    "coffee_shop",
    "hair_salon",
    "grocery_store",
    "streaming_service",
    "podcast",
)
"""The general changing attributes, in the order the pack declares them (seeded picks sample
from that order); the former ``attrs_changing.ATTRIBUTES``."""
ATTRIBUTES = tuple(LIBRARY.get(name) for name in CHANGING)

SEEDS = 300
VERSION = "1.0"
REQUIRED = REQUIRED_SYMBOLS["changing"]
STATEMENTS = ("state", "change", "other")
QUESTIONS = ("ask", "ask_then")
MAX_OVERLAP = 0.3
_SYMBOL = re.compile(r"#([a-z_][a-z0-9_]*)#")

# Function words ignored when measuring overlap: articles, pronouns (personal, possessive,
# interrogative, demonstrative), auxiliaries, prepositions, conjunctions and the pieces
# contractions split into.
STOP_WORDS = frozenset(
    " ".join(
        (
            "a an the",
            "i me my mine myself you your yours we us our he him his she her it its they them",
            "their what which who whom whose where when how this that these those",
            "am is are was were be been being do does did have has had will would can could",
            "shall should may might must",
            "in on at to for from of by with as about into onto over up out off around after",
            "before and or but so if than then",
            "s m re ve ll d t",
        )
    ).split()
)
NOW_WORDS = ("now", "these days", "at the moment", "currently", "right now", "at present")
SAMPLE_FILL = {"person": "my colleague Greta", "date": "March 3, 2026"}

BY_NAME = {a.name: a for a in ATTRIBUTES}
NAMES = sorted(BY_NAME)


@cache
def expansions(name: str, symbol: str) -> tuple[str, ...]:
    grammar = BY_NAME[name].grammar
    return tuple(
        expand(grammar, Stream(seed, VERSION, f"t/{name}/{symbol}"), symbol)
        for seed in range(SEEDS)
    )


def reachable(attribute: Attribute, roots: tuple[str, ...]) -> set[str]:
    seen: set[str] = set()
    pending = list(roots)
    while pending:
        symbol = pending.pop()
        if symbol in seen:
            continue
        seen.add(symbol)
        for text in attribute.grammar[symbol]:
            pending.extend(_SYMBOL.findall(text))
    return seen


def content_words(text: str) -> set[str]:
    return {w for w in words(strip_slots(text)) if w not in STOP_WORDS}


def statement_vocabulary(attribute: Attribute) -> set[str]:
    """Every word any statement of the attribute can produce (all reachable alternatives)."""
    vocabulary: set[str] = set()
    for symbol in reachable(attribute, STATEMENTS):
        for text in attribute.grammar[symbol]:
            vocabulary |= set(words(strip_slots(_SYMBOL.sub(" ", text))))
    return vocabulary


def test_sixteen_distinct_changing_attributes() -> None:
    assert LIBRARY.of_kind("changing") == ATTRIBUTES
    assert len(ATTRIBUTES) == 16
    assert len(BY_NAME) == 16
    for attribute in ATTRIBUTES:
        assert attribute.kind == "changing"
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", attribute.name)
        assert attribute.title[:1].isupper()
        assert attribute.profession == ""
    assert len({a.title for a in ATTRIBUTES}) == 16


@pytest.mark.parametrize("name", NAMES)
def test_contract(name: str) -> None:
    check_attribute(BY_NAME[name])


@pytest.mark.parametrize("name", NAMES)
def test_every_symbol_defined_and_used(name: str) -> None:
    attribute = BY_NAME[name]
    for symbol, alternatives in attribute.grammar.items():
        assert alternatives, symbol
        for text in alternatives:
            for ref in _SYMBOL.findall(text):
                assert ref in attribute.grammar, f"{symbol} -> #{ref}#"
    assert reachable(attribute, REQUIRED) == set(attribute.grammar)


@pytest.mark.parametrize("name", NAMES)
def test_alternative_counts(name: str) -> None:
    grammar = BY_NAME[name].grammar
    for symbol in STATEMENTS:
        assert len(grammar[symbol]) >= 6, symbol
    for symbol in QUESTIONS:
        assert len(grammar[symbol]) >= 4, symbol
    assert 2 <= len(grammar["topic"]) <= 4
    assert len(set(grammar["topic"])) == len(grammar["topic"])


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("symbol", REQUIRED)
def test_expansions_are_clean(name: str, symbol: str) -> None:
    attribute = BY_NAME[name]
    values = attribute.values
    sample = {**SAMPLE_FILL, "value": values[0].text, "old": values[1].text}
    for text in expansions(name, symbol):
        assert "#" not in text, text
        assert set(slots_in(text)) <= ALLOWED_SLOTS[symbol], text
        assert "  " not in text and not re.search(r"\s[,.;:?!]", text), text
        if symbol in STATEMENTS:
            assert text.count("{value}") == 1, text
            assert text[-1] in ".!", text
        if symbol == "change":
            assert text.count("{old}") <= 1, text
        if symbol == "other":
            assert text.count("{person}") == 1 and not text.startswith("{"), text
        if symbol in QUESTIONS:
            assert text.endswith("?"), text
        if symbol == "ask":
            assert not slots_in(text), text
            assert any(contains_phrase(text, marker) for marker in NOW_WORDS), text
        if symbol == "ask_then":
            assert text.count("{date}") == 1, text
        if symbol == "topic":
            assert not slots_in(text) and text[:1].islower(), text
            continue
        filled = fill(tidy(text), sample)
        assert filled[:1].isupper(), filled


@pytest.mark.parametrize("name", NAMES)
def test_statement_variety(name: str) -> None:
    grammar = BY_NAME[name].grammar
    for symbol in STATEMENTS:
        if len(grammar[symbol]) >= 6:
            assert len(set(expansions(name, symbol))) >= 20, symbol


@pytest.mark.parametrize("name", NAMES)
def test_change_sometimes_names_the_old_value(name: str) -> None:
    changes = BY_NAME[name].grammar["change"]
    with_old = sum("{old}" in text for text in changes)
    assert 2 <= with_old <= len(changes) - 2


@pytest.mark.parametrize("name", NAMES)
def test_value_pool(name: str) -> None:
    attribute = BY_NAME[name]
    texts = [c.text for c in attribute.values]
    assert len(texts) >= (30 if name == "home_city" else 16)
    assert len({normalize(t) for t in texts}) == len(texts)
    for choice in attribute.values:
        assert choice.text == choice.text.strip() and choice.text
        assert not re.search(r"\d", choice.text), choice.text
        assert len(set(choice.aliases)) == len(choice.aliases)
        others = [t for t in texts if t != choice.text]
        for other in others:
            assert not contains_phrase(other, choice.text), (choice.text, other)
            for alias in choice.aliases:
                assert normalize(alias) != normalize(other), (alias, other)
                assert not contains_phrase(other, alias), (alias, other)
                assert not contains_phrase(alias, other), (alias, other)


@pytest.mark.parametrize("name", NAMES)
def test_grammar_never_names_a_value(name: str) -> None:
    attribute = BY_NAME[name]
    for alternatives in attribute.grammar.values():
        for text in alternatives:
            for choice in attribute.values:
                for form in (choice.text, *choice.aliases):
                    assert not contains_phrase(strip_slots(text), form), (form, text)


@pytest.mark.parametrize("name", NAMES)
def test_questions_share_no_words_with_values(name: str) -> None:
    attribute = BY_NAME[name]
    value_words = {w for c in attribute.values for w in words(c.text)} - STOP_WORDS
    for symbol in QUESTIONS:
        for text in attribute.grammar[symbol]:
            assert not content_words(text) & value_words, text


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("symbol", QUESTIONS)
def test_questions_have_low_word_overlap(name: str, symbol: str) -> None:
    vocabulary = statement_vocabulary(BY_NAME[name])
    shares = []
    for text in expansions(name, symbol):
        content = content_words(text)
        assert content, text
        shares.append(len(content & vocabulary) / len(content))
    assert sum(shares) / len(shares) <= MAX_OVERLAP
