"""Fixed persona attributes: contract, grammar hygiene, value pools and question overlap."""

from __future__ import annotations

import re
from functools import cache

import pytest

from dittobench.core.prng import Stream
from dittobench.core.text import contains_phrase, words
from dittobench.generate.grammar import expand, fill, slots_in, strip_slots, tidy
from dittobench.generate.persona.attribute import (
    ALLOWED_SLOTS,
    REQUIRED_SYMBOLS,
    Attribute,
    check_attribute,
)
from dittobench.generate.texts import public_texts

SEEDS = 300
STATEMENTS = ("state", "other")
LIBRARY = public_texts().library
CONTACT_NAMES = LIBRARY.people.contact_names
FIXED = (
    # people (the former attrs_fixed_people)
    *("partner_name", "sister_name", "brother_name", "best_friend_name", "grandmother_name"),
    *("grandfather_name", "middle_name", "childhood_pet_name", "favourite_teacher"),
    "wedding_venue",
    # traits (attrs_fixed_traits)
    *("hometown", "childhood_street", "first_language", "blood_type", "shoe_size", "birthday"),
    "allergy",
    # tastes (attrs_fixed_tastes)
    *("instrument", "favourite_film", "favourite_band", "sports_team", "board_game"),
    *("favourite_book", "favourite_painter"),
    # history (attrs_fixed_history)
    *("university", "degree_subject", "first_job", "first_car", "first_concert"),
    "childhood_dream_job",
)
"""The general fixed attributes, in the order the pack declares them."""
ATTRIBUTES: tuple[Attribute, ...] = tuple(LIBRARY.get(name) for name in FIXED)
IDS = [a.name for a in ATTRIBUTES]
FULL_SETS = {"blood_type": 8}
"""Attributes whose pool is every value that exists (fewer than the usual twelve)."""
DIGITS_ALLOWED = {"shoe_size", "birthday"}
NAME_POOLS = (
    "partner_name",
    "sister_name",
    "brother_name",
    "best_friend_name",
    "grandmother_name",
    "grandfather_name",
    "middle_name",
    "childhood_pet_name",
)
STOP_WORDS = frozenset(
    words(
        """a an the i me my mine myself you your yours we us our it its he him his she her they them
    their this that these those who whom whose what which where when why how am is are was were be
    been being do does did have has had having will would can could should shall may might must
    in on at to from of for with by about as into up out over after before during than and or but
    if so not no s m re ve d ll t"""
    )
)
_SYMBOL = re.compile(r"#([a-z_][a-z0-9_]*)#")
_SLOT_AFTER_STOP = re.compile(r"[.!?]\s+\{")
_A_BEFORE_VOWEL = re.compile(r"\b[Aa] (?!uni\b|one\b|European\b)[aeiouAEIOU]")


@cache
def _expansions(name: str, symbol: str) -> tuple[str, ...]:
    attribute = next(a for a in ATTRIBUTES if a.name == name)
    return tuple(
        expand(attribute.grammar, Stream(seed, "1.0", f"t/{name}/{symbol}"), symbol)
        for seed in range(SEEDS)
    )


def _reachable(attribute: Attribute) -> set[str]:
    seen: set[str] = set()
    pending = list(REQUIRED_SYMBOLS[attribute.kind])
    while pending:
        symbol = pending.pop()
        if symbol not in seen:
            seen.add(symbol)
            for text in attribute.grammar[symbol]:
                pending.extend(_SYMBOL.findall(text))
    return seen


def _content(text: str) -> list[str]:
    return [w for w in words(text) if w not in STOP_WORDS]


def test_thirty_fixed_attributes_with_unique_names() -> None:
    assert LIBRARY.of_kind("fixed") == ATTRIBUTES
    assert len(ATTRIBUTES) == 30
    assert len(set(IDS)) == len(IDS)
    assert all(a.kind == "fixed" and a.title and a.profession == "" for a in ATTRIBUTES)


@pytest.mark.parametrize("attribute", ATTRIBUTES, ids=IDS)
def test_contract_and_no_unused_symbols(attribute: Attribute) -> None:
    check_attribute(attribute)
    assert set(attribute.grammar) == _reachable(attribute)
    for symbol in STATEMENTS:
        assert len(attribute.grammar[symbol]) >= 6, symbol
    assert 2 <= len(attribute.grammar["topic"]) <= 4
    assert all(text.endswith("?") and text[:1].isupper() for text in attribute.grammar["ask"])


@pytest.mark.parametrize("attribute", ATTRIBUTES, ids=IDS)
def test_expansions_are_complete_and_varied(attribute: Attribute) -> None:
    for symbol in REQUIRED_SYMBOLS["fixed"]:
        texts = _expansions(attribute.name, symbol)
        for text in texts:
            assert "#" not in text, text
            slots = slots_in(text)
            assert set(slots) <= ALLOWED_SLOTS[symbol], text
            wanted = {"state": ["value"], "other": ["person", "value"]}.get(symbol, [])
            assert sorted(slots) == wanted, text
            assert all(text.count("{" + slot + "}") == 1 for slot in slots), text
        if symbol in STATEMENTS:
            assert len(set(texts)) >= 20, symbol


@pytest.mark.parametrize("attribute", ATTRIBUTES, ids=IDS)
def test_filled_statements_read_as_sentences(attribute: Attribute) -> None:
    for symbol in STATEMENTS:
        for text in _expansions(attribute.name, symbol):
            tidied = tidy(text)
            assert not _SLOT_AFTER_STOP.search(tidied), text
            for choice in attribute.values:
                filled = fill(tidied, {"value": choice.text, "person": "my colleague Greta"})
                assert not filled[:1].islower() and "  " not in filled, filled
                assert not _A_BEFORE_VOWEL.search(filled.replace(choice.text, "")), filled
                vowel = choice.text[:1].lower() in "aeiou"
                for article in re.findall(r"\b(an?) " + re.escape(choice.text), filled):
                    assert (article == "an") == vowel, filled


@pytest.mark.parametrize("attribute", ATTRIBUTES, ids=IDS)
def test_value_pools_are_distinct_and_unambiguous(attribute: Attribute) -> None:
    texts = [c.text for c in attribute.values]
    assert len(texts) >= FULL_SETS.get(attribute.name, 12)
    assert len(set(texts)) == len(texts)
    for choice in attribute.values:
        others = [t for t in texts if t != choice.text]
        assert not any(contains_phrase(t, choice.text) for t in others), choice.text
        assert not set(choice.aliases) & set(texts), choice
        assert len(set(choice.aliases)) == len(choice.aliases), choice
        if attribute.name not in DIGITS_ALLOWED:
            assert not re.search(r"\d", choice.text), choice.text


def test_name_pools_are_disjoint_and_avoid_contact_names() -> None:
    seen: dict[str, str] = {}
    for name in NAME_POOLS:
        attribute = next(a for a in ATTRIBUTES if a.name == name)
        for choice in attribute.values:
            assert choice.text not in CONTACT_NAMES, choice.text
            assert seen.setdefault(choice.text, name) == name, (choice.text, seen[choice.text])


@pytest.mark.parametrize("attribute", ATTRIBUTES, ids=IDS)
def test_questions_share_few_words_with_statements(attribute: Attribute) -> None:
    stated = {
        w
        for s in STATEMENTS
        for text in _expansions(attribute.name, s)
        for w in words(strip_slots(text))
    }
    shares = []
    for text in _expansions(attribute.name, "ask"):
        content = _content(text)
        assert content, text
        shares.append(sum(w in stated for w in content) / len(content))
    assert sum(shares) / len(shares) <= 0.3
