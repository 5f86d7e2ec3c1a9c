"""Event lists, the hobby, saved codes and the profession attributes: contracts, variety, value
pools, question overlap and fact-free shop talk."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

import pytest

from dittobench.core.prng import Stream
from dittobench.core.text import contains_phrase, normalize, words
from dittobench.generate.grammar import (
    Grammar,
    check_grammar,
    expand,
    slots_in,
    strip_slots,
    tidy,
)
from dittobench.generate.persona.attribute import (
    ALLOWED_SLOTS,
    REQUIRED_SYMBOLS,
    Attribute,
    check_attribute,
)
from dittobench.generate.texts import public_texts
from dittobench.packs import public_pack

SEEDS = 300
MAX_OVERLAP = 0.3

TEXTS = public_texts()
LIBRARY = TEXTS.library
EVENTS = (
    *("trips", "concerts", "restaurants", "museums", "weddings", "projects_finished"),
    *("courses", "races", "books", "houseplants", "hobby", "saved_code"),
)
"""The event lists, the hobby and the saved codes (the former ``attrs_events.ATTRIBUTES``)."""
PROFESSIONAL = (
    *("programming_language", "code_editor", "medical_specialty", "hospital_ward"),
    *("practice_area", "bar_admission", "coverage_sector", "finance_certification"),
)
"""The attributes limited to one profession (the former ``professions.ATTRIBUTES``)."""
EVENT_ATTRIBUTES = tuple(LIBRARY.get(name) for name in EVENTS)
PROFESSION_ATTRIBUTES = tuple(LIBRARY.get(name) for name in PROFESSIONAL)
ALL: tuple[Attribute, ...] = (*EVENT_ATTRIBUTES, *PROFESSION_ATTRIBUTES)
BY_NAME = {a.name: a for a in ALL}
IDS = [a.name for a in ALL]

STATEMENTS = frozenset(
    {"state", "change", "other", "event", "start", "quit", "still", "save", "update", "delete"}
)
QUESTIONS = frozenset({"ask", "ask_then", "ask_count", "ask_list", "ask_lure"})

# Articles, pronouns, auxiliaries, prepositions, conjunctions and question words.
_STOP_TEXT = """
a an the i me my mine myself you your yours we us our they them their he she his her it its
this that these those what which who whom whose where when how why there here
s t d ll m re ve am is are was were be been being do does did have has had having
will would can could shall should may might must to of in on at for from with by about
into onto over under up down out off as than and or but so if then
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())

ENDED = re.compile(
    r"\b(used to|anymore|no longer|stopped|stop|quit|quits|gave up|given up|give up|done with|"
    r"dropped|over for me|no more|ended|finished)\b",
    re.IGNORECASE,
)
NEGATION = re.compile(r"\b(not|never|no|none|nothing)\b|n't", re.IGNORECASE)

# Symbols whose expansion carries {value} exactly once, by kind.
VALUE_ONCE: dict[str, frozenset[str]] = {
    "fixed": frozenset({"state", "other"}),
    "changing": frozenset({"state", "change", "other"}),
    "event_list": frozenset({"event", "label", "other", "ask_lure"}),
    "activity": frozenset({"start", "quit", "still", "ask"}),
    "write": frozenset({"state", "save", "update"}),
}
LABEL_ONCE = frozenset({"state", "save", "update", "delete", "ask"})


def roles(attribute: Attribute) -> list[str]:
    """The grammar's symbols with a contract meaning (everything else is a helper)."""
    return [s for s in attribute.grammar if s in ALLOWED_SLOTS]


@cache
def expansions(name: str, symbol: str) -> tuple[str, ...]:
    grammar = BY_NAME[name].grammar
    return tuple(
        expand(grammar, Stream(seed, "1.0", f"t/{name}/{symbol}"), symbol) for seed in range(SEEDS)
    )


def grammar_texts(grammar: Grammar, roots: Iterable[str]) -> list[str]:
    """Every alternative reachable from ``roots``."""
    seen: set[str] = set()
    pending = list(roots)
    texts: list[str] = []
    while pending:
        symbol = pending.pop()
        if symbol in seen:
            continue
        seen.add(symbol)
        for alternative in grammar[symbol]:
            texts.append(alternative)
            pending.extend(re.findall(r"#([a-z_][a-z0-9_]*)#", alternative))
    return texts


def content_words(text: str) -> list[str]:
    return [w for w in words(strip_slots(text)) if w not in STOP_WORDS]


def test_the_pack_holds_the_expected_attributes() -> None:
    assert LIBRARY.professions == ("software", "medicine", "law", "finance")
    assert len(set(IDS)) == len(IDS)
    kinds_of_events = ("event_list", "activity", "write")
    events = [a for a in LIBRARY.attributes if a.kind in kinds_of_events and not a.profession]
    assert tuple(events) == EVENT_ATTRIBUTES
    assert tuple(a for a in LIBRARY.attributes if a.profession) == PROFESSION_ATTRIBUTES
    kinds = [a.kind for a in EVENT_ATTRIBUTES]
    assert kinds.count("event_list") == 10
    assert kinds.count("activity") == 1
    assert kinds.count("write") == 1
    assert BY_NAME["hobby"].kind == "activity"
    assert BY_NAME["saved_code"].kind == "write"
    assert "ask_lure" in BY_NAME["trips"].grammar
    assert all(a.profession == "" for a in EVENT_ATTRIBUTES)
    for profession in LIBRARY.professions:
        own = [a for a in PROFESSION_ATTRIBUTES if a.profession == profession]
        assert len(own) == 2, profession
    assert {a.profession for a in PROFESSION_ATTRIBUTES} == set(LIBRARY.professions)


@pytest.mark.parametrize("attribute", ALL, ids=IDS)
def test_contract_and_reachability(attribute: Attribute) -> None:
    check_attribute(attribute)
    for symbol in REQUIRED_SYMBOLS[attribute.kind]:
        assert symbol in attribute.grammar
    rooted = {**attribute.grammar, "origin": tuple(f"#{r}#" for r in roles(attribute))}
    check_grammar(rooted)
    for symbol in roles(attribute):
        alternatives = attribute.grammar[symbol]
        if symbol in STATEMENTS:
            assert len(alternatives) >= 6, symbol
        if symbol in QUESTIONS:
            assert len(alternatives) >= 4, symbol


@pytest.mark.parametrize("attribute", ALL, ids=IDS)
def test_expansions(attribute: Attribute) -> None:
    value_once = VALUE_ONCE[attribute.kind]
    for symbol in roles(attribute):
        texts = expansions(attribute.name, symbol)
        for text in texts:
            assert "#" not in text, text
            slots = re.findall(r"\{([a-z_]+)\}", text)
            assert set(slots) <= ALLOWED_SLOTS[symbol], text
            expected = 1 if symbol in value_once else 0
            assert slots.count("value") == expected, (symbol, text)
            if attribute.kind == "write":
                assert slots.count("label") == (1 if symbol in LABEL_ONCE else 0), text
            if symbol == "other":
                assert slots.count("person") == 1, text
            if symbol == "change":
                assert slots.count("old") <= 1, text
            if symbol == "ask_then":
                assert slots.count("date") == 1, text
            assert "  " not in tidy(text), text
        if symbol in STATEMENTS:
            assert len(set(texts)) >= 20, (symbol, len(set(texts)))


@pytest.mark.parametrize("attribute", ALL, ids=IDS)
def test_value_pool(attribute: Attribute) -> None:
    texts = [c.text for c in attribute.values]
    assert len(texts) >= 12
    assert len({normalize(t) for t in texts}) == len(texts)
    for choice in attribute.values:
        forms = (choice.text, *choice.aliases)
        assert not any(ch.isdigit() for form in forms for ch in form), choice
        for other in texts:
            if other == choice.text:
                continue
            assert not contains_phrase(other, choice.text), (choice.text, other)
            for alias in choice.aliases:
                assert normalize(alias) != normalize(other), (alias, other)
                assert not contains_phrase(alias, other), (alias, other)
                assert not contains_phrase(other, alias), (alias, other)
        # Distinct as written; an accent-only alias ("Reykjavík") is redundant under the shared
        # normaliser but stays, being part of 1.x datasets' bytes.
        assert len(set(forms)) == len(forms), choice


@pytest.mark.parametrize("attribute", ALL, ids=IDS)
def test_questions_share_few_words_with_statements(attribute: Attribute) -> None:
    grammar = attribute.grammar
    stated = {
        w
        for text in grammar_texts(grammar, [s for s in roles(attribute) if s in STATEMENTS])
        for w in content_words(text)
    }
    for symbol in [s for s in roles(attribute) if s in QUESTIONS]:
        shares = []
        for text in expansions(attribute.name, symbol):
            own = content_words(text)
            shares.append(sum(w in stated for w in own) / len(own) if own else 0.0)
        mean = sum(shares) / len(shares)
        assert mean <= MAX_OVERLAP, (symbol, round(mean, 3))


def test_hobby_wording_says_exactly_what_happened() -> None:
    for text in expansions("hobby", "quit"):
        assert ENDED.search(strip_slots(text)), text
    for symbol in ("start", "still", "ask"):
        for text in expansions("hobby", symbol):
            assert not ENDED.search(strip_slots(text)), (symbol, text)
            assert not NEGATION.search(strip_slots(text)), (symbol, text)
    for text in expansions("hobby", "ask"):
        assert "still" not in words(text), text


def test_changing_questions_ask_for_now_or_a_date() -> None:
    now = ("now", "these days", "at the moment", "currently", "nowadays", "at present")
    for attribute in ALL:
        if attribute.kind != "changing":
            continue
        for text in expansions(attribute.name, "ask"):
            assert any(contains_phrase(text, cue) for cue in now), text


def _talk(grammar: Grammar, purpose: str) -> set[str]:
    return {tidy(expand(grammar, Stream(seed, "1.0", purpose), "origin")) for seed in range(SEEDS)}


def _value_forms() -> list[str]:
    return [form for a in ALL for c in a.values for form in (c.text, *c.aliases)]


@pytest.mark.parametrize("profession", LIBRARY.professions)
def test_work_talk_is_varied_and_fact_free(profession: str) -> None:
    grammar = TEXTS.work_talk[profession]
    check_grammar(grammar)
    texts = _talk(grammar, f"t/work_talk/{profession}")
    assert len(texts) >= 40
    forms = _value_forms()
    for text in texts:
        assert "#" not in text and not slots_in(text), text
        leaked = [form for form in forms if contains_phrase(text, form)]
        assert not leaked, (text, leaked)


def test_work_reply_is_varied_and_fact_free() -> None:
    assert set(TEXTS.work_talk) == set(LIBRARY.professions)
    assert set(public_pack().file("people")["work_talk"]) == set(LIBRARY.professions)
    check_grammar(TEXTS.work_reply)
    texts = _talk(TEXTS.work_reply, "t/work_reply")
    assert len(texts) >= 20
    forms = _value_forms()
    for text in texts:
        assert "#" not in text and not slots_in(text), text
        assert not [form for form in forms if contains_phrase(text, form)], text
