"""Bench 6.1's content gives nothing away that 6.0's grammar did (``ContentPolicy`` flags
``event_days_drawn``, ``notes_named``, ``decoys_either_side``), swept over seeds and held
against 6.0.0, whose datasets keep every give-away (so each sweep fails on the old rules).

- an event's weekday, when said, is drawn among the days since the session before, and the
  dates questions are computed from follow it;
- who came along, or the day, is often said later, naming the event;
- a decoy finding is dated before or after the needle, about half and half.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from functools import cache

import pytest

from dittobench.core.prng import Stream
from dittobench.generate.assemble import build_dataset
from dittobench.generate.memory.build import MemorySide
from dittobench.generate.memory.draft import Context
from dittobench.generate.persona.model import ON, SELF, WITH
from dittobench.generate.texts import Texts
from dittobench.packs import public_pack
from dittobench.spec.versions import get_policy
from dittobench.study.grammar import date_pattern, dated_figures
from tests.helpers.history import memory_side

NEW, OLD = "6.1.0", "6.0.0"
SEEDS = range(1, 7)


@cache
def _side(seed: int, version: str) -> tuple[MemorySide, Texts]:
    _dataset, side, texts = memory_side(seed, version, "full")
    return side, texts


def _event_days(version: str) -> list[tuple[int, int]]:
    """Per said weekday of an event: (days back from its session, days since the session
    before, at most 7)."""
    out = []
    for seed in SEEDS:
        side, texts = _side(seed, version)
        weekdays = list(texts.pack.file("chatter")["weekdays"])
        for user, person in side.persons.items():
            dates = side.haystacks[user].session_dates
            facts = {f.key: f for f in person.facts}
            for on in person.facts:
                event = facts.get(on.detail)
                if on.role != ON or on.holder != SELF or event is None or event.role != "event":
                    continue
                day = dates[event.session]
                earlier = [d for d in dates.values() if d < day]
                since = min(7, (day - max(earlier)).days) if earlier else 7
                out.append(((day.weekday() - weekdays.index(on.value)) % 7, since))
    return out


def test_an_events_weekday_is_drawn_since_the_session_before() -> None:
    days = _event_days(NEW)
    assert len(days) >= 30
    assert all(back < since for back, since in days)
    assert sum(1 for back, _ in days if back) / len(days) >= 0.5
    assert all(back == 0 for back, _ in _event_days(OLD))


@pytest.mark.parametrize("version", [NEW, OLD])
def test_every_date_of_an_event_is_the_day_said(version: str) -> None:
    """``Context.date_of``, which every dated question reads, puts an event on its said
    weekday (6.1) or its session's day (6.0)."""
    side, texts = _side(1, version)
    content = get_policy(version).content
    moved = 0
    for user, person in side.persons.items():
        haystack = side.haystacks[user]
        ctx = Context(person, haystack, texts, Stream.root(1, "t"), content=content)
        said = {f.detail: f.value for f in person.facts if f.role == ON and f.holder == SELF}
        weekdays = list(texts.pack.file("chatter")["weekdays"])
        for event in (f for f in person.facts if f.role == "event" and f.holder == SELF):
            day = haystack.session_dates[event.session]
            got = ctx.date_of(event)
            if event.key not in said or version == OLD:
                assert got == day
                continue
            assert got <= day and got > day - timedelta(days=7)
            assert weekdays[got.weekday()] == said[event.key]
            moved += got != day
    assert moved > 0 or version == OLD


def _named_notes(version: str) -> int:
    """Notes of who came along said in a turn of their own that names the event's value."""
    named = 0
    for seed in SEEDS:
        side, _texts = _side(seed, version)
        for person in side.persons.values():
            facts = {f.key: f for f in person.facts}
            for note in (f for f in person.facts if f.role == WITH):
                event = facts[note.detail]
                beat = next(b for b in person.beats if note.key in b.fact_keys)
                if event.key not in beat.fact_keys and event.value in beat.user_text:
                    named += 1
    return named


def test_notes_are_often_said_later_naming_the_event() -> None:
    assert _named_notes(NEW) >= 5
    assert _named_notes(OLD) == 0


def _decoys_later(version: str) -> tuple[int, int]:
    later = total = 0
    for seed in SEEDS:
        dataset = build_dataset(seed, version, "full")
        pack = public_pack(get_policy(version).pack_id)
        dates = date_pattern(pack)
        months = [str(m).lower() for m in pack.file("values")["pools"]["months"]]
        for fixture in dataset.tool_fixtures:
            if not (fixture.needle and fixture.decoy):
                continue
            (needle_day, _), (decoy_day, _) = (
                dated_figures(text, dates, months)[0] for text in (fixture.needle, fixture.decoy)
            )
            assert isinstance(needle_day, date) and needle_day != decoy_day
            total += 1
            later += decoy_day > needle_day
    return later, total


def test_a_decoy_is_dated_before_or_after_the_needle() -> None:
    later, total = _decoys_later(NEW)
    assert total >= 40
    assert 0.3 <= later / total <= 0.7
    assert _decoys_later(OLD)[0] == 0


def _moved_said_today(version: str) -> tuple[int, int]:
    """(events told on a later day than they took place, those told in words of the day)."""
    today = re.compile(r"\b(?:today|tonight|this (?:morning|afternoon|evening)|an hour ago|just)\b")
    moved = dated = 0
    for seed in SEEDS:
        side, texts = _side(seed, version)
        weekdays = list(texts.pack.file("chatter")["weekdays"])
        for user, person in side.persons.items():
            dates = side.haystacks[user].session_dates
            facts = {f.key: f for f in person.facts}
            for on in (f for f in person.facts if f.role == ON and f.holder == SELF):
                event = facts.get(on.detail)
                if event is None or event.role != "event":
                    continue
                if weekdays[dates[event.session].weekday()] == on.value:
                    continue
                beat = next(b for b in person.beats if event.key in b.fact_keys)
                said = re.split(r"(?<=[.!?]) ", beat.user_text)
                sentence = next((s for s in said if event.value in s), None)
                if sentence is None:  # said first with a slip of the tongue
                    continue
                moved += 1
                dated += today.search(sentence.lower()) is not None
    return moved, dated


def test_an_event_told_days_later_is_said_in_words_of_the_week() -> None:
    """7.1: an event said on a later day than it took place reads "this week", never "this
    evening" (7.0 said "this evening" and then "That was on Friday")."""
    moved, dated = _moved_said_today("7.1.0")
    assert moved >= 30 and dated == 0
    old_moved, old_dated = _moved_said_today("7.0.0")
    assert old_moved >= 30 and old_dated >= old_moved // 3
