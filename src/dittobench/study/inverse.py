"""A pack's statement grammars compiled into an inverse: the history reader of the grammar attack.

``inverse_of(pack)`` compiles every wording a pack can put in a user's turn into a pattern
(``study.patterns``) whose slots match only what the pack can fill them with: an attribute's
``{value}`` and ``{old}`` are its listed values and accepted forms, or, for an attribute that
coins its values, the shapes of its ``coin`` forms (listed words as they are, a coined name as one
capitalised word); ``{person}`` is a contact as ``people.json`` names them (``my {relation}
{name}``, ``my {relation}``, a name or a nickname); weekdays are the pack's seven names.

Wordings, per attribute: its statement roles (``state``, ``change``, ``other``, ``event``,
``with_note``, ``start``, ``quit``, ``still``, ``mention``, a ``write`` attribute's ``state``),
an event's notes said later naming it (``with_named``, ``day_named``, bench 6.1) and an event
told days later (``event_earlier``, read as an event, bench 7.1), ``implied``
(read as a change, or for an activity as giving it up), every look-alike family it is said in
(``twin``, role ``twin``: up to bench 6.0 a denial, wish, plan, hypothetical or someone else's
claim wrapped round the attribute's ``twin_claim``; from 6.1 the claim transformed, in frames
facts share); the assistant's ``recommend`` and ``suggest_aside`` are read in replies.
Chatter: ``correction``, ``day_note``, ``day_fix``, ``token``, ``token_decoy``, ``injection``.

``read_turn`` searches a text, unanchored, for every wording and resolves overlapping matches
longest first, so a look-alike frame, being longer, swallows the statement it wraps (and a
transformed look-alike is a wording of its own). Built once
per pack (cached by its SHA-256) from nothing but the pack.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.texts import Texts, texts_of
from dittobench.packs import Pack
from dittobench.study.patterns import Wording, compile_symbol

ROLES: Mapping[str, tuple[str, ...]] = {
    "fixed": ("state", "other", "twin"),
    "changing": ("state", "change", "other", "implied", "twin"),
    "preference": ("state", "other", "twin"),
    "event_list": (
        "event",
        "event_earlier",
        "other",
        "with_note",
        "with_named",
        "day_named",
        "twin",
    ),
    "activity": ("start", "quit", "still", "implied", "twin"),
    "assistant": ("recommend", "suggest_aside"),
    "recurring": ("mention", "twin"),
    "write": ("state",),
}
"""The symbols read per attribute kind; ``recommend`` and ``suggest_aside`` in replies."""
REPLY_ROLES = frozenset({"recommend", "suggest_aside"})
CHATTER = ("correction", "day_note", "day_fix", "token", "token_decoy", "injection")
_CODE = r"[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]"
_COINED_WORD = r"(?-i:[A-Z][a-z]+(?:-[A-Z]?[a-z]+)?)"


@dataclass(frozen=True, slots=True)
class Reading:
    """A wording of ``attribute`` ("" for chatter) in ``role``."""

    attribute: str
    role: str
    reply: bool
    wording: Wording


@dataclass(frozen=True, slots=True)
class Found:
    """One match in a turn: where, what it reads as, its slot values."""

    start: int
    end: int
    reading: Reading
    slots: dict[str, str]


@dataclass(frozen=True, slots=True)
class Inverse:
    texts: Texts
    readings: tuple[Reading, ...]
    weekdays: tuple[str, ...]
    names: re.Pattern[str]
    """Contact names and nicknames, whole words."""
    aliases: dict[str, frozenset[str]]
    """A contact name or nickname (lower case) -> every name the contact goes by."""

    def read_turn(self, text: str, reply: bool = False) -> list[Found]:
        """Every wording found in ``text`` (a user turn, or with ``reply`` an assistant's),
        overlaps resolved longest first, in text order."""
        lowered = text.lower()
        hits: list[Found] = []
        for reading in self.readings:
            if reading.reply != reply:
                continue
            wording = reading.wording
            if wording.anchor and wording.anchor not in lowered:
                continue
            for found in wording.pattern.finditer(text):
                if found.end() > found.start():
                    hits.append(Found(found.start(), found.end(), reading, _slots(wording, found)))
        hits.sort(key=lambda f: (f.start - f.end, f.start))
        kept: list[Found] = []
        for hit in hits:
            if all(hit.end <= k.start or hit.start >= k.end for k in kept):
                kept.append(hit)
        return sorted(kept, key=lambda f: f.start)


def _slots(wording: Wording, found: re.Match[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for group, slot in wording.groups:
        value = found.group(group)
        if value is not None and slot not in values:
            values[slot] = value.strip()
    return values


_CACHE: dict[str, Inverse] = {}


def inverse_of(pack: Pack) -> Inverse:
    """The compiled inverse of ``pack`` (cached by its SHA-256)."""
    cached = _CACHE.get(pack.sha256)
    if cached is None:
        cached = _CACHE[pack.sha256] = _build(texts_of(pack))
    return cached


def _build(texts: Texts) -> Inverse:
    people = texts.pack.file("people")
    chatter = texts.pack.file("chatter")
    weekdays = tuple(chatter.get("weekdays") or ())
    person = _person_pattern(people)
    readings: list[Reading] = []
    for attribute in texts.library.attributes:
        slots = {"person": person, "day": _either(weekdays) if weekdays else r"\w+"}
        slots.update(_value_slots(attribute, texts))
        for role in ROLES[attribute.kind]:
            for wording in compile_symbol(attribute.grammar, role, slots, word_start=True):
                readings.append(Reading(attribute.name, role, role in REPLY_ROLES, wording))
    day = _either(weekdays) if weekdays else r"\w+"
    chatter_slots = {
        "person": person,
        "value": r"[^.?!]+?",
        "wrong": r"[^.?!]+?",
        "topic": r".+?",
        "payload": r".+?",
    }
    for role in CHATTER:
        grammar = chatter.get(role)
        if not isinstance(grammar, dict):
            continue
        slots = dict(chatter_slots)
        if role in ("day_note", "day_fix"):
            slots.update(value=day, wrong=day)
        if role in ("token", "token_decoy"):
            slots["value"] = _CODE
        for wording in compile_symbol(grammar, "origin", slots, word_start=True):
            readings.append(Reading("", role, False, wording))
    names = [str(n) for n in people.get("contact_names") or ()]
    for nicks in (people.get("nicknames") or {}).values():
        names.extend(str(n) for n in nicks)
    aliases: dict[str, frozenset[str]] = {}
    for owner in people.get("contact_names") or ():
        forms = frozenset(
            str(f).lower() for f in (owner, *(people.get("nicknames") or {}).get(owner, ()))
        )
        for form in forms:
            aliases[form] = aliases.get(form, frozenset()) | forms
    pattern = re.compile(rf"\b{_either(names)}\b")
    return Inverse(texts, tuple(readings), weekdays, pattern, aliases)


def _either(options: Sequence[str]) -> str:
    unique = sorted({o for o in options if o}, key=lambda o: (-len(o), o))
    return "(?:" + "|".join(re.escape(o) for o in unique) + ")"


def _person_pattern(people: Mapping[str, Any]) -> str:
    names = [str(n) for n in people.get("contact_names") or ()]
    for nicks in (people.get("nicknames") or {}).values():
        names.extend(str(n) for n in nicks)
    pronouns = (people.get("pronouns") or {}).values()
    names.extend(str(p) for p in pronouns if isinstance(p, str))  # after an intro
    relations = [str(r) for r in people.get("relations") or ()]
    name, relation = _either(names), _either(relations)
    contact = str(people.get("contact") or "my {relation} {name}")
    alone = str(people.get("contact_relation") or "my {relation}")
    full = re.escape(contact).replace(r"\{relation\}", relation).replace(r"\{name\}", name)
    bare = re.escape(alone).replace(r"\{relation\}", relation)
    return rf"\b(?:{full}|{name}|{bare})\b"


def _value_slots(attribute: Attribute, texts: Texts) -> dict[str, str]:
    """``{value}``/``{old}`` (and a write attribute's ``{label}``) as the pack can fill them."""
    forms = [f for c in attribute.values for f in (c.text, *c.aliases)]
    if attribute.kind == "write":
        return {"label": _either([c.text for c in attribute.values]), "value": _CODE}
    shapes = [_either(forms)] if forms else []
    if attribute.coin is not None:
        shapes.extend(_coin_shapes(attribute, texts))
    value = "(?:" + "|".join(shapes) + ")" if shapes else r"[^.?!]+?"
    return {"value": value, "old": value}


def _coin_shapes(attribute: Attribute, texts: Texts) -> list[str]:
    """One pattern per coin form: a listed part is its words, a coined name one capitalised
    word (with its endings when it has them)."""
    record = next(
        a for a in texts.pack.file("attributes")["attributes"] if a["name"] == attribute.name
    )
    coin = record.get("coin") or {}
    lists = texts.pack.file("attributes").get("coin_parts") or {}
    parts: dict[str, str] = {}
    for name, part in (coin.get("parts") or {}).items():
        if isinstance(part, list):
            parts[name] = _either(part)
        elif isinstance(part, dict) and "list" in part:
            parts[name] = _either(lists.get(part["list"], ()))
        else:
            parts[name] = _COINED_WORD
    shapes = []
    for form in (*(coin.get("forms") or ()), *(coin.get("accept") or ())):
        pieces = re.split(r"(\{[a-z_]+\})", form)
        shapes.append(
            "".join(
                parts.get(p[1:-1], r"\w+") if p.startswith("{") else re.escape(p) for p in pieces
            )
        )
    return sorted(set(shapes), key=lambda s: (-len(s), s))
