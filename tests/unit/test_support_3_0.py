"""Every answer key of bench 3.0 is supported by its history (issue 13, the history side).

The 3.0 history weaves facts into talk: several to a turn, slips of the tongue corrected later,
details said afterwards, changes said only by implication, and look-alike non-facts
(negations, plans that fell through, hypotheticals, someone's claim) in the same surface forms.
Over many seeds, each memory case's expected value must be stated *as a fact* by one of its
evidence pairs (never only by a look-alike or a slip), no later fact may contradict it, every
look-alike and slip of the asked attribute must be a distractor of the questions that resemble
it, and every pair of the evidence must be seeded by the time the question is asked.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from datetime import date, timedelta
from functools import cache

import pytest

from dittobench.core.dates import MONTH_NAMES
from dittobench.core.text import contains_phrase
from dittobench.generate.memory.build import MemorySide
from dittobench.generate.persona.model import SELF, Beat, Fact, Person
from dittobench.grade.match import COMMON_WORDS
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.vocab import RunSizeName
from tests.helpers.history import memory_side

VERSION = "3.0.0"
SEEDS: dict[RunSizeName, range] = {"medium": range(40), "full": range(12)}
FACT_ROLES = frozenset({"state", "change", "event", "recommend", "token"})
NOT_FACTS = frozenset({"twin", "slip", "slip_day"})
CURRENT = frozenset(
    {"single_session_recall", "knowledge_update", "stored_injection", "preference_application"}
)
RESEMBLING = CURRENT | {"point_in_time", "multi_session_list"}
_DATE = re.compile(
    r"(January|February|March|April|May|June|July|August|September|October|November|"
    r"December) (\d{1,2}), (\d{4})"
)


@cache
def run(seed: int, size: RunSizeName) -> tuple[Dataset, MemorySide]:
    dataset, side, _texts = memory_side(seed, VERSION, size)
    return dataset, side


def runs() -> Iterator[tuple[Dataset, MemorySide]]:
    for size, seeds in SEEDS.items():
        for seed in seeds:
            yield run(seed, size)


class History:
    """One user's person, with lookups from pair ids to beats and from keys to facts."""

    def __init__(self, side: MemorySide, user: str) -> None:
        self.person: Person = side.persons[user]
        hay = side.haystacks[user]
        self.beat = {p.pair_id: b for p, b in zip(hay.pairs, self.person.beats, strict=True)}
        self.pair = {p.pair_id: p for p in hay.pairs}
        self.fact = {f.key: f for f in self.person.facts}
        self.date = hay.session_dates
        self.said_on = {
            f.detail: list(calendar.day_name).index(f.value)
            for f in self.person.facts
            if f.role == "on" and f.holder == SELF and f.value in calendar.day_name
        }

    def day(self, fact: Fact) -> date:
        """The day an event took place: its session's, or (bench 6.1) the last weekday said for
        it on or before that (a note said the same day has nothing to move)."""
        day = self.date[fact.session]
        said = self.said_on.get(fact.key) if fact.role == "event" else None
        return day if said is None else day - timedelta(days=(day.weekday() - said) % 7)

    def stated(self, pair_ids: tuple[str, ...]) -> list[tuple[Fact, str]]:
        """Facts the pairs state as true, each with the text of the pair that states it."""
        out = []
        for pair_id in pair_ids:
            beat: Beat = self.beat[pair_id]
            pair = self.pair[pair_id]
            for key in beat.stated:
                out.append((self.fact[key], f"{pair.prompt}\n{pair.response}"))
        return out

    def own(self, attribute: str, roles: frozenset[str]) -> list[Fact]:
        return [
            f
            for f in self.person.facts
            if f.attribute == attribute and f.holder == SELF and f.role in roles
        ]

    def look_alikes(self, attribute: str) -> set[str]:
        """Values of the attribute said as look-alikes or slips (a wrong weekday is a slip of
        a detail, not a value of the attribute)."""
        return {
            f.value
            for f in self.person.facts
            if f.attribute == attribute and f.role in ("twin", "slip")
        }


def stated_value(history: History, case: MemoryCase, value: str) -> Fact:
    """The user's own fact an evidence pair states with ``value`` (its text naming it)."""
    for fact, text in history.stated(case.evidence_pair_ids):
        if fact.holder == SELF and fact.role in FACT_ROLES and fact.value == value:
            assert contains_phrase(text, value), (case.question, value, text)
            return fact
    raise AssertionError(f"{case.question_type}: {value!r} is stated by no evidence pair")


def asked_date(question: str) -> date:
    match = _DATE.search(question)
    assert match, question
    return date(int(match.group(3)), MONTH_NAMES.index(match.group(1)) + 1, int(match.group(2)))


def check_combined(history: History, case: MemoryCase) -> bool:
    """The questions that combine two facts (bench 3.0's question side): who came along to an
    event, its weekday, which event a contact came along to. The detail (``with``, ``on``) is
    stated by an evidence pair about an event the evidence also states, and the answer is the
    detail's value (who, the weekday) or the event's (which one); False for other questions."""
    stated = {f.key: f for f, _text in history.stated(case.evidence_pair_ids)}
    answer = case.expected_answer
    details = [
        f
        for f in stated.values()
        if f.holder == SELF
        and f.role in ("with", "on")
        and answer in (f.value, history.fact[f.detail].value)
        and history.fact[f.detail].key in stated
    ]
    if case.question_type != "single_session_recall" or not details:
        return False
    detail = details[0]
    event = history.fact[detail.detail]
    assert event.key in stated and event.role == "event", case.question
    if detail.value == case.expected_answer:
        if detail.role == "on":  # the weekday is the session's, and every other is wrong
            assert case.expected_answer not in case.distractors
        return True
    assert event.value == case.expected_answer, case.question
    assert contains_phrase(case.question, detail.value), case.question  # the companion
    company = history.own(event.attribute, frozenset({"with"}))
    assert [f.detail for f in company if f.value == detail.value] == [event.key]
    return True


def named_events(history: History, case: MemoryCase) -> list[Fact]:
    """The user's events the question names (stated by the evidence): by their value, or by
    the one contact who came along to them (``companion_labels``), a ``with`` fact the
    evidence states too, its contact along to no other event of that kind."""
    stated = [f for f, _text in history.stated(case.evidence_pair_ids) if f.holder == SELF]
    events = {f.key: f for f in stated if f.role == "event"}
    named = [f for f in events.values() if contains_phrase(case.question, f.value)]
    for company in stated:
        event = events.get(company.detail) if company.role == "with" else None
        if event is None or event in named or not contains_phrase(case.question, company.value):
            continue
        along = history.own(event.attribute, frozenset({"with"}))
        assert [f.detail for f in along if f.value == company.value] == [event.key]
        named.append(event)
    return list(dict.fromkeys(named))


def asked_day(history: History, case: MemoryCase, fact: Fact) -> date:
    """The day a point-in-time question asks about: its printed date, or (bench 3.0) the day
    of the user's event it names, which the evidence states too."""
    if _DATE.search(case.question):
        return asked_date(case.question)
    (event,) = [f for f in named_events(history, case) if f.attribute != fact.attribute]
    return history.day(event)


def check_value(history: History, case: MemoryCase) -> None:
    if check_combined(history, case):
        return
    fact = stated_value(history, case, case.expected_answer)
    assert case.expected_answer not in history.look_alikes(fact.attribute)
    states = history.own(fact.attribute, frozenset({"state", "change"}))
    chain = sorted(states, key=lambda f: f.step)
    if case.question_type in CURRENT or case.question_type == "isolation":
        assert chain and chain[-1] == fact, case.question  # nothing later contradicts it
    if case.question_type == "point_in_time":
        asked = asked_day(history, case, fact)
        later = [f for f in chain if f.step > fact.step]
        assert history.date[fact.session] <= asked < history.date[later[0].session]
    if case.question_type in RESEMBLING:
        assert history.look_alikes(fact.attribute) <= set(case.distractors), case.question


def check_events(history: History, case: MemoryCase) -> None:
    items = case.answer_items
    events = [stated_value(history, case, item) for item in items]
    attributes = {f.attribute for f in events}
    if case.question_type == "multi_session_list":
        (attribute,) = attributes
        assert {f.value for f in history.own(attribute, frozenset({"event"}))} == set(items)
        assert history.look_alikes(attribute) <= set(case.distractors)
    if case.question_type == "temporal_order":
        days = [history.day(f) for f in events]
        assert days == sorted(days) and len(set(days)) == len(days)


def check_count(history: History, case: MemoryCase) -> None:
    role = "event" if case.question_type == "multi_session_count" else "mention"
    stated = {f for f, _text in history.stated(case.evidence_pair_ids) if f.role == role}
    # The asked attribute: one whose every own fact of the role is stated by the evidence
    # (a pair may also state a fact of another attribute), as many as the answer says.
    counted = {
        (len(own), min(history.day(f) for f in own).isoformat())
        for attribute in {f.attribute for f in stated}
        if (own := set(history.own(attribute, frozenset({role})))) <= stated
    }
    assert int(case.expected_answer) in {n for n, _first in counted}, case.question
    if case.answer_kind == "tally":  # bench 3.0: the day of the first one too
        assert (int(case.expected_answer), case.answer_items[0]) in counted, case.question


def check_duration(history: History, case: MemoryCase) -> None:
    events = named_events(history, case)
    first, second = sorted(events, key=lambda f: history.day(f))
    days = (history.day(second) - history.day(first)).days
    assert days == int(case.expected_answer)


def check_activity(history: History, case: MemoryCase) -> None:
    (value,) = case.answer_items
    stated = [f for f, _t in history.stated(case.evidence_pair_ids) if f.value == value]
    roles = {f.role for f in stated if f.holder == SELF}
    assert "start" in roles
    steps = [f for f in history.person.facts if f.holder == SELF and f.value == value]
    last = max(steps, key=lambda f: (f.session, f.role != "start"))
    wanted = "quit" if case.answer_kind == "reversal" else "still"
    assert wanted in roles and last.role == wanted


def check_case(history: History, case: MemoryCase) -> None:
    kind, question_type = case.answer_kind, case.question_type
    if question_type.startswith("write_") or kind == "decline":
        return
    if kind == "value":
        check_value(history, case)
    elif kind in ("list", "ordered_list"):
        check_events(history, case)
    elif kind in ("number", "tally"):
        check_count(history, case)
    elif kind == "duration":
        check_duration(history, case)
    elif kind in ("reversal", "persistence"):
        check_activity(history, case)
    else:
        raise AssertionError(f"no check for answer kind {kind!r}")


@pytest.mark.slow
def test_every_answer_is_stated_as_a_fact_and_never_contradicted_later() -> None:
    checked = 0
    for dataset, side in runs():
        histories = {user: History(side, user) for user in side.persons}
        for case in dataset.memory_cases:
            check_case(histories[case.user_id], case)
            checked += 1
    assert checked > 3000


def test_declines_have_no_fact_of_their_subject() -> None:
    for seed in range(20):
        dataset, side = run(seed, "medium")
        history = History(side, "miner")
        for case in dataset.memory_cases:
            if case.question_type == "abstention_near_miss":
                # The asked attribute is one every evidence pair voices as a contact's value.
                voiced = [
                    {history.fact[k].attribute for k in history.beat[p].stated}
                    for p in case.evidence_pair_ids
                ]
                candidates = set.intersection(*voiced)
                assert any(not history.own(a, FACT_ROLES) for a in candidates), case.question
            if case.question_type == "abstention_never_visited":
                (lure,) = case.answer_items
                trips = history.own("trips", frozenset({"event"}))
                assert lure not in {f.value for f in trips}


def test_evidence_is_seeded_before_the_question_is_asked() -> None:
    for seed in range(20):
        dataset, _side = run(seed, "medium")
        for case in dataset.memory_cases:
            seeded = {
                p.pair_id
                for wave in dataset.memory_waves
                if wave.user_id == case.user_id and wave.wave <= case.run_after_wave
                for p in wave.pairs
            }
            assert set(case.evidence_pair_ids) <= seeded, case.question


def test_slips_are_corrected_and_look_alikes_never_stated() -> None:
    for seed in range(20):
        _dataset, side = run(seed, "medium")
        for user in side.persons:
            history = History(side, user)
            stated = {k for beat in history.person.beats for k in beat.stated}
            carried = {k for beat in history.person.beats for k in beat.fact_keys}
            for fact in history.person.facts:
                assert fact.key in carried, fact
                assert (fact.key in stated) == (fact.role not in NOT_FACTS), fact
                if fact.role == "slip":
                    corrected = history.fact[fact.detail]
                    assert corrected.value != fact.value
                    saying = [b for b in history.person.beats if corrected.key in b.stated]
                    first = min(
                        (i for i, b in enumerate(history.person.beats) if fact.key in b.fact_keys)
                    )
                    assert all(history.person.beats.index(b) > first for b in saying)


def test_turns_carry_several_facts_of_different_attributes() -> None:
    for seed in range(10):
        _dataset, side = run(seed, "medium")
        person = side.persons["miner"]
        facts = {f.key: f for f in person.facts}
        for beat in person.beats:
            assert len(beat.clusters) == len(set(beat.clusters))
            assert set(beat.clusters) == {facts[k].attribute for k in beat.fact_keys}
            assert len([k for k in beat.fact_keys if facts[k].role not in NOT_FACTS]) <= 3


def test_coined_values_are_unambiguous() -> None:
    for seed in range(20):
        _dataset, side = run(seed, "medium")
        assert side.library is not None
        coined = [a for a in side.library.attributes if a.coin]
        assert len(coined) >= 15
        forms = [f.lower() for a in coined for c in a.values for f in (c.text, *c.aliases)]
        assert len(forms) == len(set(forms))
        assert not set(forms) & COMMON_WORDS
        for attribute in coined:
            assert len(attribute.values) == attribute.coin.count  # type: ignore[union-attr]
