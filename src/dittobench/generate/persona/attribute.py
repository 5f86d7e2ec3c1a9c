"""How a persona attribute is declared: its kind, its value pool and the grammar that voices it.

An attribute is data. Its grammar holds the symbols its kind requires (``REQUIRED_SYMBOLS``); each
symbol's alternatives are full sentences (or, for ``topic`` and ``label``, noun phrases) that may
use these slots, filled verbatim after expansion:

- ``{value}``: the attribute's value (a ``Choice.text``);
- ``{old}``: the previous value, in ``change``;
- ``{person}``: someone in the user's circle, e.g. "my colleague Greta";
- ``{date}``: a printed date, e.g. "March 3, 2026", in ``ask_then``;
- ``{label}``: for ``write`` attributes, the thing a code is for (e.g. "locker combination").

Questions (``ask``, ``ask_then``, ``ask_count``, ``ask_list``, ``ask_lure``) never contain
``{value}`` except where noted, and should share few content words with the statements, so a
question cannot be answered by word overlap alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from dittobench.generate.grammar import Grammar, GrammarError, slots_in
from dittobench.generate.persona.coin import CoinSpec

ATTRIBUTE_KINDS: Final = (
    "fixed",
    "changing",
    "preference",
    "event_list",
    "activity",
    "assistant",
    "recurring",
    "write",
)

REQUIRED_SYMBOLS: Final = MappingProxyType(
    {
        # A fact stated once that does not change (hometown, sibling's name, blood type...).
        #   state: the user says it ({value}); other: someone else's value ({person}, {value});
        #   ask: a question about the user's value (>= 4 alternatives); topic: a noun phrase
        #   naming the subject without the value ("where I grew up").
        "fixed": ("state", "other", "ask", "topic"),
        # A value that changes over time (home city, employer, car...).
        #   change: the user reports the new {value}, may mention {old};
        #   ask: the *current* value; ask_then: the value in force on {date}.
        "changing": ("state", "change", "other", "ask", "ask_then", "topic"),
        # A standing preference (diet, seat...). apply: a request that should honour it,
        # with no value in it (>= 4 alternatives).
        "preference": ("state", "other", "apply", "topic"),
        # Dated events of one kind (trips, projects finished, concerts...). event: the user
        # reports one ({value}) as happening today/recently; label: a noun phrase for one event
        # that includes {value} ("my trip to {value}"); ask_count / ask_list: how many / which.
        # An attribute that also defines ask_lure (with {value}) supports the never-visited
        # decline ("What did I make of {value} when I went?").
        "event_list": ("event", "label", "ask_count", "ask_list"),
        # Hobbies: start (took it up), quit (gave it up), still (still at it), ask (about the
        # activity {value}, worded the same whether it was quit or not). Values are activities.
        "activity": ("start", "quit", "still", "ask"),
        # Something only the assistant said: request (the user asks, no value), recommend (the
        # assistant's reply naming {value}), ask (what did you suggest?).
        "assistant": ("request", "recommend", "ask"),
        # A topic that keeps coming up. value = the topic noun phrase; mention: a user remark
        # naming it with {value} (>= 8 alternatives); ask_count: how many times it came up,
        # naming the topic's category without the value.
        "recurring": ("mention", "ask_count"),
        # Codes the user asks the assistant to save/update/delete. Values are labels; the code
        # itself is coined per seed. state ({label}, {value}) seeds an old code; save / update
        # ({label}, {value}) and delete ({label}) are instructions; ask ({label}) reads it back.
        "write": ("state", "save", "update", "delete", "ask"),
    }
)

ALLOWED_SLOTS: Final = MappingProxyType(
    {
        "state": {"value", "label"},
        "change": {"value", "old"},
        "other": {"person", "value"},
        "ask": {"label", "value"},
        "ask_then": {"date"},
        "topic": set(),
        "apply": set(),
        "event": {"value"},
        "label": {"value"},
        "ask_count": set(),
        "ask_list": set(),
        "ask_lure": {"value"},
        "start": {"value"},
        "quit": {"value"},
        "still": {"value"},
        "request": set(),
        "recommend": {"value"},
        "mention": {"value"},
        "save": {"label", "value"},
        "update": {"label", "value"},
        "delete": {"label"},
        # Bench 3.0 (optional): ``twin`` names the look-alike families an attribute is said in
        # (shared ``twin_denial``, ``twin_negation``, ``twin_plan``, ``twin_hypothetical``,
        # ``twin_reported``, or its own), ``twin_claim`` the clause they wrap ("I live in
        # {value}"); ``implied`` says a change, or an activity given up, only by implication;
        # ``with_note`` says who was at an event; ``suggest_aside`` (an assistant attribute's)
        # is said in the reply after a recommendation: a look-alike suggestion not made. Bench
        # 6.1's pack transforms the claim instead of wrapping it (``twin_not``, ``twin_would``,
        # ``other_claim``, in frames facts share, docs/packs.md); ``with_named`` and ``day_named``
        # say who came along and the weekday later, naming the event; ``event_earlier`` (bench
        # 7.1) says an event that took place days before it is told, in words of the week.
        "twin": {"value", "person"},
        "suggest_aside": {"value"},
        "twin_claim": {"value"},
        "implied": {"value"},
        "with_note": {"person"},
        "with_named": {"person", "value"},
        "day_named": {"value", "day"},
        "event_earlier": {"value"},
    }
)


@dataclass(frozen=True, slots=True)
class Choice:
    """One value an attribute can take, with other forms a grader should also accept."""

    text: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Attribute:
    """A persona attribute. ``name`` is internal and never shown; ``title`` is the readable
    topic title used for prepared subjects ("Where I live"). ``profession`` limits the attribute
    to people of that profession ("" for everyone). ``kin`` marks a relative's detail (a
    sister's name): relatives in the circle never hold it, since "my sister's sister" would be
    the user's sister too."""

    name: str
    title: str
    kind: str
    values: tuple[Choice, ...]
    grammar: Grammar
    profession: str = ""
    kin: bool = False
    coin: CoinSpec | None = None
    """How its values are coined per seed (``persona/coin.py``); such an attribute may list no
    values (bench 3.0 coins them)."""


def check_attribute(attribute: Attribute) -> None:
    """Raise ``GrammarError`` if the attribute breaks its kind's contract."""
    name = attribute.name
    if attribute.kind not in ATTRIBUTE_KINDS:
        raise GrammarError(f"{name}: unknown kind {attribute.kind!r}")
    if len(attribute.values) < 8 and not (attribute.coin and not attribute.values):
        raise GrammarError(f"{name}: needs at least 8 values, has {len(attribute.values)}")
    texts = [c.text for c in attribute.values]
    if len(set(texts)) != len(texts):
        raise GrammarError(f"{name}: duplicate values")
    for symbol in REQUIRED_SYMBOLS[attribute.kind]:
        if not attribute.grammar.get(symbol):
            raise GrammarError(f"{name}: kind {attribute.kind} needs symbol {symbol!r}")
    for symbol in ("ask", "apply"):
        if symbol in attribute.grammar and len(attribute.grammar[symbol]) < 4:
            raise GrammarError(f"{name}: {symbol!r} needs at least 4 alternatives")
    for symbol, alternatives in attribute.grammar.items():
        allowed = ALLOWED_SLOTS.get(symbol)
        if allowed is None:
            continue
        for text in alternatives:
            extra = set(slots_in(text)) - allowed
            if extra:
                raise GrammarError(f"{name}: {symbol!r} uses slots {sorted(extra)}: {text!r}")
    if attribute.kind in ("fixed", "changing") and any(
        "{value}" in text for text in attribute.grammar["ask"]
    ):
        raise GrammarError(f"{name}: 'ask' must not contain the value")
