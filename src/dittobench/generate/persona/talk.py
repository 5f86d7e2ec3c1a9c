"""The words bench 3.0's conversation adds to a pack (``docs/packs.md``, "The 3.0 history").

Read from the raw pack (``texts.pack``), checked as they are read (a ``PackError`` names the
file and key), cached per pack:

- chatter.json: grammars (symbol ``origin``) ``join`` (what comes between two facts of one
  turn), ``correction`` (``{value}``, ``{wrong}``: a slip of the tongue corrected),
  ``day_note`` (``{value}``: the weekday a thing happened), ``day_fix`` (``{value}``,
  ``{wrong}``: the weekday corrected), ``with_note`` (``{person}``: who was there),
  ``intro`` (``{person}``: a contact named before a pronoun refers to them), and
  ``weekdays``, the seven weekday names from Monday;
- people.json: ``nicknames`` (contact name -> nicknames), ``pronouns`` (contact name -> the
  pronoun that refers to them) and ``contact_relation`` (``"my {relation}"``: a contact named
  by relation alone).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from dittobench.generate.grammar import Grammar, slots_in
from dittobench.generate.texts import Texts
from dittobench.packs import Pack, PackError

WEEKDAYS = 7

GRAMMAR_SLOTS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "join": frozenset(),
        "correction": frozenset({"value", "wrong"}),
        "day_note": frozenset({"value"}),
        "day_fix": frozenset({"value", "wrong"}),
        "intro": frozenset({"person"}),
    }
)
"""The chatter.json grammars of the 3.0 history and the slots each may use."""


@dataclass(frozen=True, slots=True)
class Talk:
    """The pack's words for the 3.0 history (see the module docstring)."""

    grammars: Mapping[str, Grammar]
    weekdays: tuple[str, ...]
    nicknames: Mapping[str, tuple[str, ...]]
    pronouns: Mapping[str, str]
    contact_relation: str

    def grammar(self, name: str) -> Grammar:
        return self.grammars[name]


_CACHE: dict[str, Talk] = {}
JOIN = "join"


def has_talk(pack: Pack) -> bool:
    """Whether the pack holds the 3.0 history's words (chatter.json ``join`` and the rest)."""
    return JOIN in pack.file("chatter")


def talk_of(texts: Texts) -> Talk:
    """The 3.0 history's words of ``texts``'s pack (cached by the pack's SHA-256)."""
    cached = _CACHE.get(texts.pack_sha256)
    if cached is None:
        cached = _CACHE[texts.pack_sha256] = _read(texts.pack)
    return cached


def _read(pack: Pack) -> Talk:
    chatter, people = pack.file("chatter"), pack.file("people")
    where_chatter = f"{pack.path / 'chatter'}.json"
    where_people = f"{pack.path / 'people'}.json"
    grammars = {
        name: _grammar(chatter.get(name), slots, where_chatter, name)
        for name, slots in GRAMMAR_SLOTS.items()
    }
    weekdays = _strings(chatter.get("weekdays"), where_chatter, "weekdays")
    if len(weekdays) != WEEKDAYS:
        raise PackError(f"{where_chatter}: key 'weekdays': must name the {WEEKDAYS} weekdays")
    nicknames = _mapping(people.get("nicknames"), where_people, "nicknames")
    pronouns = _mapping(people.get("pronouns"), where_people, "pronouns")
    relation = people.get("contact_relation")
    if not isinstance(relation, str) or "{relation}" not in relation:
        raise PackError(f"{where_people}: key 'contact_relation': must hold {{relation}}")
    return Talk(
        grammars=MappingProxyType(grammars),
        weekdays=weekdays,
        nicknames=MappingProxyType(
            {k: _strings(v, where_people, f"nicknames.{k}") for k, v in nicknames.items()}
        ),
        pronouns=MappingProxyType(
            {k: _text(v, where_people, f"pronouns.{k}") for k, v in pronouns.items()}
        ),
        contact_relation=relation,
    )


def _grammar(raw: Any, slots: frozenset[str], where: str, key: str) -> Grammar:
    if not isinstance(raw, dict) or "origin" not in raw:
        raise PackError(f"{where}: key {key!r}: must be a grammar with an 'origin' symbol")
    grammar = {s: _strings(alts, where, f"{key}.{s}", empty=True) for s, alts in raw.items()}
    for symbol, alternatives in grammar.items():
        for text in alternatives:
            extra = set(slots_in(text)) - slots
            if extra:
                raise PackError(f"{where}: key '{key}.{symbol}': uses slots {sorted(extra)}")
    return MappingProxyType(grammar)


def _strings(raw: Any, where: str, key: str, *, empty: bool = False) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise PackError(f"{where}: key {key!r}: must be a list of strings")
    if not raw and not empty:
        raise PackError(f"{where}: key {key!r}: must not be empty")
    return tuple(raw)


def _mapping(raw: Any, where: str, key: str) -> Mapping[str, Any]:
    if not isinstance(raw, dict):
        raise PackError(f"{where}: key {key!r}: must be an object")
    return raw


def _text(raw: Any, where: str, key: str) -> str:
    if not isinstance(raw, str) or not raw:
        raise PackError(f"{where}: key {key!r}: must be a non-empty string")
    return raw
