"""The red-team parser on bench 3.0's shared question families (``questions.json`` ``asking``).

A family question names its attribute only through a subject phrase (``{subject}``,
``{things}``, ``{theme}``), which the pack's ``subjects`` table maps back; the parser reads it
exactly so, preferring an attribute the user has mentioned when a phrase names several. It
answers the combined questions the way a reader of the wire can: the event a question quotes
is the user's event whose value its label contains; who came along is the person of the
``with_note`` wording said after that event the same day; the weekday is the event's date (a
pair's timestamp says it); an activity taken up on a date is the one whose start was said that
day.
"""

from __future__ import annotations

from datetime import date

from dittobench.spec.wire import RunResponse
from dittobench.study.asked import Answerer, Asked, parse_day
from dittobench.study.history import Mention

SUBJECT_SLOTS = ("subject", "things", "theme")
ORDER_SUBSET = 3


def attribute_of(parser: Answerer, slots: dict[str, str], held: set[str], slot: str) -> str:
    """The attribute a subject slot names (one the user mentioned first), "" when none."""
    names = parser.index.subjects.get(slots.get(slot, "").lower(), ())
    return next((n for n in names if n in held), names[0] if names else "")


def resolve(parser: Answerer, slots: dict[str, str], held: set[str]) -> str:
    for slot in SUBJECT_SLOTS:
        if slot in slots:
            return attribute_of(parser, slots, held, slot)
    return ""


def event_in(asked: Asked, text: str) -> Mention | None:
    """The user's latest event mention whose value the text names (the longest value)."""
    lowered = text.lower()
    events = [m for m in asked.seen if m.role == "event" and m.value]
    named = [m for m in events if _names(lowered, m.value.lower())]
    if not named:
        return None
    longest = max(len(m.value) for m in named)
    return [m for m in named if len(m.value) == longest][-1]


def _names(text: str, value: str) -> bool:
    at = text.find(value)
    while at >= 0:
        before, after = text[at - 1 : at], text[at + len(value) : at + len(value) + 1]
        if not before.isalnum() and not after.isalnum():
            return True
        at = text.find(value, at + 1)
    return False


def then_event(parser: Answerer, asked: Asked) -> RunResponse:
    event = event_in(asked, asked.slots.get("event", ""))
    if event is None:
        return parser.decline(parser.subject(asked.attribute))
    chain = [m for m in asked.own(("state", "change")) if m.day <= event.day]
    if not chain:
        return parser.decline(parser.subject(asked.attribute))
    return RunResponse(final_text=f"It's {chain[-1].value}.")


def order_kinds(parser: Answerer, asked: Asked) -> RunResponse:
    held = {m.attribute for m in asked.seen}
    kinds = {asked.attribute, attribute_of(parser, asked.slots, held, "things_b")} - {""}
    firsts: dict[str, Mention] = {}
    for m in asked.seen:
        if m.role == "event" and m.attribute in kinds:
            firsts.setdefault(m.value.lower(), m)
    events = sorted(firsts.values(), key=lambda m: (m.day, m.timestamp))
    if asked.wording.symbol == "order_first":
        events = events[:ORDER_SUBSET]
    elif asked.wording.symbol == "order_last":
        events = events[-ORDER_SUBSET:]
    if not events:
        return RunResponse(final_text="I don't know.")
    return RunResponse(final_text="First " + ", then ".join(m.value for m in events) + ".")


def activity_on(parser: Answerer, asked: Asked) -> RunResponse:
    day = parse_day(asked.slots.get("date", ""))
    starts = [
        m for m in asked.seen if m.role == "start" and day is not None and m.day == day.isoformat()
    ]
    if not starts:
        return RunResponse(final_text="I don't know.")
    named = Asked(asked.case, asked.wording, {**asked.slots, "value": starts[-1].value}, asked.seen)
    named.attribute = starts[-1].attribute
    return parser.activity(named)


def _company_after(asked: Asked, event: Mention) -> Mention | None:
    notes = [
        m
        for m in asked.seen
        if m.role == "with_note"
        and m.timestamp[:10] == event.timestamp[:10]
        and m.timestamp >= event.timestamp
    ]
    return notes[0] if notes else None


def with_whom(parser: Answerer, asked: Asked) -> RunResponse:
    event = event_in(asked, asked.slots.get("event", ""))
    note = _company_after(asked, event) if event else None
    if note is None:
        return RunResponse(final_text="I don't know.")
    return RunResponse(final_text=f"You went with {note.slots.get('person', '')}.")


def weekday(parser: Answerer, asked: Asked) -> RunResponse:
    event = event_in(asked, asked.slots.get("event", ""))
    names = parser.index.texts.pack.file("chatter").get("weekdays", [])
    if event is None or not isinstance(names, list) or len(names) != 7:
        return RunResponse(final_text="I don't know.")
    return RunResponse(final_text=f"It was a {names[date.fromisoformat(event.day).weekday()]}.")


def with_which(parser: Answerer, asked: Asked) -> RunResponse:
    companion = asked.slots.get("companion", "").lower()
    for note in asked.seen:
        if note.role != "with_note" or companion not in note.slots.get("person", "").lower():
            continue
        before = [
            m
            for m in asked.seen
            if m.role == "event"
            and m.attribute == asked.attribute
            and m.timestamp[:10] == note.timestamp[:10]
            and m.timestamp <= note.timestamp
        ]
        if before:
            return RunResponse(final_text=f"It was {before[-1].value}.")
    return RunResponse(final_text="I don't know.")
