"""The grammar attack: a pack's grammars compiled into an inverse, answering from the wire.

Built from one pack (``attack_pack``), it answers a dataset's cases from what a harness sees:
the seeded history, the question, the catalog and the tool results. Any dataset can be given;
on datasets made from the pack it was built from it is an exact inverse (the ceiling of a
public-pack run), on datasets of another pack it measures how much of the attack carries over.

- **History** (``study.inverse``): every user turn is searched, unanchored, for every wording
  of every attribute, look-alike family and chatter; overlapping matches resolve longest first,
  so a look-alike's frame swallows the statement it wraps. A correction ("did I say X? I meant
  Y") rewrites the latest mention whose value was X; a day note names the weekday of the latest
  event (a named one, of the event it names) and dates it to that weekday, a day fix corrects
  it; ``implied`` reads as a change (an activity: given up).
- **Questions** (``study.parser``): the question wordings of the same pack find the asked
  attribute; answers are the latest value, the value in force on a date or an event's day,
  counts and lists of events with the first one's date, orders, days between, an activity's
  state, who came along (the ``with_note`` after an event, or the ``with_named`` naming it),
  the weekday (the day note, else the
  session date's), a decline naming the subject, and the memory-tool calls of write instructions.
- **Tools** (``study.parse_tools``): each category's ``origin`` compiled to one anchored
  pattern; its ``tools`` and ``pins`` give the calls; for result usage the dated finding of the
  last content tool called is stated (read with the pack's ``formats.finding_date``): bench 6.1
  dates a decoy before or after the needle, so the later date no longer names it.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta

from dittobench.core.dates import MONTH_NAMES
from dittobench.packs import Pack
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.memory import MemoryCase
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.study import families
from dittobench.study.history import DAY_SAID, Mention, StoredPair, stored_pairs
from dittobench.study.index import index_of
from dittobench.study.inverse import Found, Inverse, inverse_of
from dittobench.study.parse_tools import ToolParser
from dittobench.study.parser import Asked, MemoryParser

_ROLE_OF_IMPLIED = {"activity": "quit"}
FAMILY_KINDS = {
    "value": ("fixed", "preference"),
    "current": ("changing",),
    "then": ("changing",),
    "then_event": ("changing",),
    "count": ("event_list",),
    "list": ("event_list",),
    "mentions": ("recurring",),
    "order_all": ("event_list",),
    "order_first": ("event_list",),
    "order_last": ("event_list",),
    "order_mixed": ("event_list",),
    "with_which": ("event_list",),
}
"""The attribute kinds a shared family asks about: a subject phrase naming several attributes
("my commute": the commute, the trains one moans about) is read as the one of that kind."""
"""``implied`` is a change said by implication; an activity's is giving it up."""


def read_pairs(inverse: Inverse, pairs: list[StoredPair]) -> tuple[Mention, ...]:
    """One user's mentions, in time order and within a turn in text order, with corrections,
    day notes and day fixes applied."""
    mentions: list[Mention] = []
    for stored in pairs:
        pair = stored.pair
        found = inverse.read_turn(pair.prompt) + inverse.read_turn(pair.response, reply=True)
        for hit in found:
            _apply(inverse, mentions, hit, pair.pair_id, pair.timestamp, stored.wave)
    return tuple(mentions)


def _apply(
    inverse: Inverse, mentions: list[Mention], hit: Found, pair_id: str, stamp: str, wave: int
) -> None:
    reading, slots = hit.reading, hit.slots
    if reading.role == "correction":
        _correct(mentions, slots.get("wrong", ""), slots.get("value", ""), "value")
        return
    if reading.role in ("day_note", "day_fix", "day_named"):
        _date_event(inverse, mentions, reading.role, slots)
        return
    role = "event" if reading.role == "event_earlier" else reading.role
    if role == "implied":
        kind = inverse.texts.library.get(reading.attribute).kind
        role = _ROLE_OF_IMPLIED.get(kind, "change")
    mentions.append(Mention(reading.attribute, role, dict(slots), pair_id, stamp, wave))


_NOTES = frozenset({"with_note", "with_named"})
"""Mentions that follow what they are about without being it."""


def _date_event(
    inverse: Inverse, mentions: list[Mention], role: str, slots: dict[str, str]
) -> None:
    """A day note puts what was said last, when it is an event (a change's day is its own), a
    day fix the latest event said on the wrong day, and a named day note (bench 6.1) the latest
    event of its value on the weekday said: the last such weekday on or before the day it was
    said (``DAY_SAID``)."""
    events = [i for i, m in enumerate(mentions) if m.role == "event"]
    if role == "day_named":
        weekday = slots.get("day", "")
        events = [i for i in events if _same(mentions[i].value, slots.get("value", ""))]
    elif role == "day_fix":
        weekday, wrong = slots.get("value", ""), slots.get("wrong", "")
        events = [i for i in events if _same(mentions[i].slots.get("weekday", ""), wrong)]
    else:  # an afterthought: about what was said last (notes aside), an event or a change
        weekday = slots.get("value", "")
        told = [i for i, m in enumerate(mentions) if m.role not in _NOTES]
        events = events[-1:] if events and told and events[-1] == told[-1] else []
    if not events:
        return
    last = mentions[events[-1]]
    said = {**last.slots, "weekday": weekday}
    names = [d.lower() for d in inverse.weekdays]
    if weekday.lower() in names and len(names) == 7:
        spoken = date.fromisoformat(last.timestamp[:10])
        back = (spoken.weekday() - names.index(weekday.lower())) % 7
        said[DAY_SAID] = (spoken - timedelta(days=back)).isoformat()
    mentions[events[-1]] = replace(last, slots=said)


def _correct(mentions: list[Mention], wrong: str, right: str, slot: str) -> None:
    for index in range(len(mentions) - 1, -1, -1):
        mention = mentions[index]
        if _same(mention.slots.get(slot, ""), wrong):
            mentions[index] = replace(mention, slots={**mention.slots, slot: right})
            return


def _same(a: str, b: str) -> bool:
    return bool(a) and a.strip().lower() == b.strip().lower()


class GrammarReader(MemoryParser):
    """The memory side of the attack built on ``pack``."""

    def __init__(self, dataset: Dataset, pack: Pack) -> None:
        inverse = inverse_of(pack)
        mentions = {u: read_pairs(inverse, p) for u, p in stored_pairs(dataset).items()}
        super().__init__(dataset, index_of(pack), mentions)
        self.inverse = inverse
        self.handlers["weekday"] = self.weekday
        self.handlers["then_event"] = self.then_event
        self.handlers["with_which"] = self.with_which
        self.handlers["with"] = self.with_whom

    def fit(self, case: MemoryCase, text: str, seen: list[Mention]) -> Asked | None:
        asked = super().fit(case, text, seen)
        kinds = FAMILY_KINDS.get(asked.wording.symbol, ()) if asked is not None else ()
        if asked is None or not kinds:
            return asked
        slot = next((s for s in families.SUBJECT_SLOTS if s in asked.slots), "")
        names = self.index.subjects.get(asked.slots.get(slot, "").lower(), ())
        fitting = [n for n in names if self.index.attribute(n).kind in kinds]
        held = {m.attribute for m in seen}
        if fitting and asked.attribute not in fitting:
            asked.attribute = next((n for n in fitting if n in held), fitting[0])
        return asked

    def quoted(self, asked: Asked, count: int) -> list[Mention] | None:
        """The events a question quotes by value, and those it names by who came along ("the
        one of my gigs that Ana came to"): the event before that contact's ``with_note``."""
        found = super().quoted(asked, count)
        if found is not None:
            return found
        text = asked.case.question
        spans = _value_spans(asked, text)
        named = []
        kinds = self.kinds_named(text)
        for hit in self.inverse.names.finditer(text):
            event = _event_with(asked, self.aliases(hit.group(0)), kinds)
            if event is not None and all(hit.end() <= s or hit.start() >= e for s, e, _m in spans):
                named.append((hit.start(), hit.end(), event))
        need = count - len(spans)
        if need <= 0 or len(named) < need:
            return None
        spans.extend(named[len(named) - need :])
        return [m for _s, _e, m in sorted(spans, key=lambda span: span[0])]

    def aliases(self, name: str) -> frozenset[str]:
        return self.inverse.aliases.get(name.lower(), frozenset({name.lower()}))

    def kinds_named(self, text: str) -> set[str]:
        """The event attributes a text names by a subject phrase ("my gigs")."""
        lowered = text.lower()
        return {
            name
            for phrase, names in self.index.subjects.items()
            if re.search(rf"(?<!\w){re.escape(phrase)}(?!\w)", lowered)
            for name in names
            if self.index.attribute(name).kind == "event_list"
        }

    def event_named(self, asked: Asked, text: str) -> Mention | None:
        """The event a text names: by its value, else by who came along."""
        event = families.event_in(asked, text)
        if event is not None:
            return event
        kinds = self.kinds_named(text)
        for hit in self.inverse.names.finditer(text):
            event = _event_with(asked, self.aliases(hit.group(0)), kinds)
            if event is not None:
                return event
        return None

    def then_event(self, asked: Asked) -> RunResponse:
        event = self.event_named(asked, asked.slots.get("event", ""))
        chain = [m for m in asked.own(("state", "change")) if event and m.day <= event.day]
        if not chain:
            return self.decline(self.subject(asked.attribute))
        return RunResponse(final_text=f"It's {chain[-1].value}.")

    def with_whom(self, asked: Asked) -> RunResponse:
        """Who came along: a ``with_named`` naming the event's value, else the first
        ``with_note`` said after the event (in the order of the history; a note before it in
        the same turn belongs to the event before)."""
        event = self.event_named(asked, asked.slots.get("event", ""))
        at = next((i for i, m in enumerate(asked.seen) if m is event), -1)
        later = asked.seen[at + 1 :]
        note = next(
            (m for m in later if m.role == "with_named" and event and _same(m.value, event.value)),
            next((m for m in later if m.role == "with_note"), None),
        )
        if event is None or note is None:
            return RunResponse(final_text="I don't know.")
        return RunResponse(final_text=f"You went with {note.slots.get('person', '')}.")

    def with_which(self, asked: Asked) -> RunResponse:
        said = asked.slots.get("companion", "")
        found = self.inverse.names.findall(said)  # a lazy date before it may take a comma
        names = self.aliases(found[-1] if found else said)
        event = _event_with(asked, names, {asked.attribute})
        if event is None or event.attribute != asked.attribute:
            return RunResponse(final_text="I don't know.")
        return RunResponse(final_text=f"It was {event.value}.")

    def weekday(self, asked: Asked) -> RunResponse:
        event = self.event_named(asked, asked.slots.get("event", ""))
        if event is None:
            return RunResponse(final_text="I don't know.")
        said = event.slots.get("weekday", "")
        if not said and len(self.inverse.weekdays) == 7:
            said = self.inverse.weekdays[date.fromisoformat(event.day).weekday()]
        return RunResponse(final_text=f"It was a {said}." if said else "I don't know.")


def _value_spans(asked: Asked, text: str) -> list[tuple[int, int, Mention]]:
    lowered = text.lower()
    latest = {m.value.lower(): m for m in asked.seen if m.role == "event" and m.value}
    spans: list[tuple[int, int, Mention]] = []
    for value, mention in sorted(latest.items(), key=lambda item: -len(item[0])):
        for hit in re.finditer(r"(?<!\w)" + re.escape(value) + r"(?!\w)", lowered):
            if all(hit.end() <= s or hit.start() >= e for s, e, _m in spans):
                spans.append((hit.start(), hit.end(), mention))
    return spans


def _event_with(asked: Asked, names: frozenset[str], kinds: set[str]) -> Mention | None:
    """The event a contact came along to: an event said before their ``with_note`` (the
    latest before it) or named by their ``with_named``, among the attributes ``kinds`` when any
    of them has one."""
    found: list[Mention] = []
    events: list[Mention] = []
    for mention in asked.seen:
        if mention.role == "event":
            events.append(mention)
            continue
        if mention.role not in ("with_note", "with_named") or not any(
            re.search(rf"\b{re.escape(n)}\b", mention.slots.get("person", ""), re.I) for n in names
        ):
            continue
        if mention.role == "with_named":
            named = [e for e in events if _same(e.value, mention.value)]
            found.extend(named[-1:])
        elif events:
            found.append(events[-1])
    preferred = [m for m in found if m.attribute in kinds]
    chosen = preferred or found
    return chosen[-1] if chosen else None


class GrammarTools(ToolParser):
    """The tool side of the attack built on ``pack``: for result usage, the dated finding of
    the last content tool called (the one the request names last)."""

    def __init__(self, dataset: Dataset, pack: Pack) -> None:
        super().__init__(dataset, pack)
        self.findings: list[tuple[date, str]] = []
        self.dates = date_pattern(pack)
        pools = pack.file("values").get("pools") or {}
        self.months = [str(m).lower() for m in pools.get("months") or MONTH_NAMES]

    def __call__(
        self, case: ToolCase, fixture: ToolFixture
    ) -> tuple[RunResponse, tuple[ToolCall, ...]]:
        self.findings = []
        response, calls = super().__call__(case, fixture)
        found = self.route(case.prompt)
        if found is not None and found[0].category.uses_result and self.findings:
            _day, figure = self.findings[-1]
            return RunResponse(final_text=f"It reached {figure}."), calls
        return response, calls

    def figure(self, result: str) -> str:
        self.findings.extend(dated_figures(result, self.dates, self.months))
        return super().figure(result)


def date_pattern(pack: Pack) -> re.Pattern[str]:
    """A finding's date as the pack writes it (``values.json`` ``formats.finding_date`` over
    ``pools.months``; default ``{month} {day}, {year}``)."""
    words = pack.file("values")
    form = str((words.get("formats") or {}).get("finding_date") or "{month} {day}, {year}")
    months = [str(m) for m in (words.get("pools") or {}).get("months") or MONTH_NAMES]
    parts = {
        "month": "(?P<month>" + "|".join(re.escape(m) for m in months) + ")",
        "day": r"(?P<day>\d{1,2})",
        "year": r"(?P<year>\d{4})",
    }
    pieces = re.split(r"(\{[a-z]+\})", form)
    body = "".join(
        parts.get(p[1:-1], r"\S+") if p.startswith("{") else re.escape(p) for p in pieces
    )
    return re.compile(body.replace(r"\ ", r"\s+"))


_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?")


def dated_figures(result: str, dates: re.Pattern[str], months: list[str]) -> list[tuple[date, str]]:
    """Each sentence of a result that carries a date and a figure: (the date, the figure).
    A month is read by its place in ``months`` (the pack's, lower case)."""
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+", result):
        when = dates.search(sentence)
        if when is None:
            continue
        rest = sentence[: when.start()] + " " + sentence[when.end() :]
        figures = _FIGURE.findall(rest)
        if not figures:
            continue
        try:
            day = date(int(when["year"]), MONTH_NAMES.index(when["month"]) + 1, int(when["day"]))
        except ValueError:
            continue
        out.append((day, max(figures, key=len)))
    return out
