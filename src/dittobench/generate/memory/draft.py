"""What question generators produce (``Draft``) and what they read (``Context``).

A draft is a memory case before it has an id and a wave: its candidate wordings (the overlap
step picks one), its answer key, the facts it rests on and the attribute clusters whose material
must be seeded before it is asked.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from functools import cached_property

from dittobench.core.prng import Stream
from dittobench.generate.grammar import Grammar, expand, fill, tidy
from dittobench.generate.memory.haystack import Haystack
from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.persona.library import Library
from dittobench.generate.persona.model import ON, SELF, SLIP, TWIN, Fact, Person
from dittobench.generate.texts import Texts
from dittobench.spec.versions import CONTENT_1, ContentPolicy

POOL_DISTRACTORS = 4
"""Pool values a question's key adds as distractors (bench 2.0), beside other people's."""

LOOK_ALIKE_ROLES = frozenset({"other", "event", "state", TWIN, SLIP})
"""Roles of facts held by someone else or by nobody whose values resemble the user's."""

CANDIDATE_WORDINGS = 4
"""Wordings drawn per question; the overlap step keeps the one sharing fewest words with the
evidence (the first if it is already low)."""


@dataclass(frozen=True, slots=True)
class Draft:
    question_type: str
    candidates: tuple[str, ...]
    answer_kind: str
    expected: str
    user_id: str
    accepted: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    distractors: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    dump_guard: tuple[str, ...] = ()
    family: str = ""
    evidence: tuple[str, ...] = ()
    """Fact keys holding the answer (pairs become ``evidence_pair_ids``)."""
    clusters: tuple[str, ...] = ()
    """Attributes whose material must be seeded before the question is asked."""
    min_wave: int = 0
    max_wave: int = -1
    """-1: no upper bound; write instructions are pinned to wave 0."""
    write_op: str = ""
    link: str = ""
    """A name other drafts of the run can point to (a read-back's, for its instruction)."""
    confirmed_by: str = ""
    """The ``link`` of the read-back that confirms a write instruction."""


class PersonIndex:
    """Lookups over one person's facts, built once and shared by the contexts that draw from
    other streams about the same person (``Context.drawing_from``)."""

    def __init__(self, person: Person) -> None:
        self.person = person
        self._guard_pools: dict[frozenset[str] | None, tuple[str, ...]] = {}

    @cached_property
    def by_attribute(self) -> dict[str, tuple[Fact, ...]]:
        """The person's facts per attribute, in their order: lookups scan one attribute's facts
        instead of the whole person's."""
        grouped: dict[str, list[Fact]] = {}
        for f in self.person.facts:
            grouped.setdefault(f.attribute, []).append(f)
        return {name: tuple(facts) for name, facts in grouped.items()}

    @cached_property
    def own_values(self) -> tuple[tuple[str, frozenset[str]], ...]:
        """The user's own stated values, sorted, each with the attributes that hold it."""
        held: dict[str, set[str]] = {}
        for f in self.person.facts:
            if f.holder == SELF and f.role in ("state", "change", "event", "recommend"):
                held.setdefault(f.value, set()).add(f.attribute)
        return tuple((value, frozenset(held[value])) for value in sorted(held))

    def guard_pool(self, attributes: frozenset[str] | None) -> tuple[str, ...]:
        """The own values held under any of ``attributes`` (all when None), in ``own_values``
        order; remembered per set, since a run asks with one set per wave."""
        pool = self._guard_pools.get(attributes)
        if pool is None:
            pool = self._guard_pools[attributes] = tuple(
                value
                for value, holders in self.own_values
                if attributes is None or not holders.isdisjoint(attributes)
            )
        return pool


@dataclass
class Context:
    """A person, their haystack and the pack's texts, with lookups generators share."""

    person: Person
    haystack: Haystack
    texts: Texts
    stream: Stream
    used: set[str] = field(default_factory=set)
    """Attributes already asked about, so different questions spread over the person."""
    content: ContentPolicy = CONTENT_1
    """The content version's generator flags."""
    index: PersonIndex = field(init=False, repr=False, compare=False)
    """Lookups over ``person``'s facts (shared by ``drawing_from``)."""

    def __post_init__(self) -> None:
        self.index = PersonIndex(self.person)

    def drawing_from(self, stream: Stream) -> Context:
        """This context drawing from ``stream``: the same person, their lookups shared."""
        twin = replace(self, stream=stream)
        twin.index = self.index
        return twin

    @property
    def library(self) -> Library:
        return self.texts.library

    @property
    def _by_attribute(self) -> dict[str, tuple[Fact, ...]]:
        return self.index.by_attribute

    def facts(
        self, attribute: str, holder: str | None = SELF, role: str | None = None
    ) -> list[Fact]:
        return [
            f
            for f in self._by_attribute.get(attribute, ())
            if (holder is None or f.holder == holder) and (role is None or f.role == role)
        ]

    def facts_with_role(self, role: str) -> list[Fact]:
        return [f for f in self.person.facts if f.role == role]

    def chain(self, attribute: str) -> list[Fact]:
        """The user's own states of a value, oldest first."""
        states = [f for f in self.facts(attribute) if f.role in ("state", "change")]
        return sorted(states, key=lambda f: f.step)

    def others_values(self, attribute: str) -> list[str]:
        """Values of the attribute that are not the user's: contacts' values, and (bench 3.0)
        look-alikes and slips of the tongue, which are nobody's."""
        return [
            f.value
            for f in self._by_attribute.get(attribute, ())
            if f.holder != SELF and f.role in LOOK_ALIKE_ROLES
        ]

    def own_attributes(self, kind: str) -> list[Attribute]:
        """Attributes of ``kind`` the user holds, in library order."""
        held = {f.attribute for f in self.person.facts if f.holder == SELF}
        return [a for a in self.library.of_kind(kind, self.person.profession) if a.name in held]

    def date_of(self, fact: Fact) -> date:
        """The day ``fact`` took place: its session's, or for an event whose weekday was said
        (``event_days_drawn``) the last such weekday on or before it."""
        day = self.haystack.session_dates[fact.session]
        said = self._days_said.get(fact.key) if fact.role == "event" else None
        return day if said is None else day - timedelta(days=(day.weekday() - said) % 7)

    @cached_property
    def _days_said(self) -> dict[str, int]:
        """Per event, the weekday said for it (Monday 0), with ``event_days_drawn``."""
        if not self.content.event_days_drawn:
            return {}
        weekdays = list(self.texts.pack.file("chatter").get("weekdays", []))
        return {
            f.detail: weekdays.index(f.value)
            for f in self.person.facts
            if f.role == ON and f.holder == SELF and f.value in weekdays
        }

    def aliases(self, attribute: Attribute, value: str) -> tuple[str, ...]:
        for choice in attribute.values:
            if choice.text == value:
                return choice.aliases
        return ()

    def top_up(
        self, attribute: Attribute, have: Iterable[str], exclude: Iterable[str], at_least: int
    ) -> tuple[str, ...]:
        """``have`` plus pool values (not in ``exclude``) until there are ``at_least``."""
        out = list(dict.fromkeys(have))
        blocked = set(exclude) | set(out)
        spare = [c.text for c in attribute.values if c.text not in blocked]
        need = max(0, at_least - len(out))
        return tuple(out + self.stream.sample(spare, min(need, len(spare))))

    def pool_topped(
        self, attribute: Attribute, have: Iterable[str], exclude: Iterable[str] = ()
    ) -> tuple[str, ...]:
        """``have``, topped up (with ``superseded_distractors``) with ``POOL_DISTRACTORS`` pool
        values nobody in the history holds, so that reciting the attribute's public pool names
        a distractor."""
        have = tuple(have)
        if not self.content.superseded_distractors:
            return have
        held = {f.value for f in self._by_attribute.get(attribute.name, ())}
        return self.top_up(attribute, have, (*held, *exclude), len(have) + POOL_DISTRACTORS)

    def dump_guard(
        self, exclude: Iterable[str], size: int = 8, attributes: frozenset[str] | None = None
    ) -> tuple[str, ...]:
        """A sample of the user's other own values (of ``attributes`` only, when given):
        naming many of them zeroes a case."""
        blocked = set(exclude)
        own = [value for value in self.index.guard_pool(attributes) if value not in blocked]
        return tuple(self.stream.sample(own, min(size, len(own))))

    def wordings(
        self, grammar: Grammar, symbol: str, values: dict[str, str], count: int = CANDIDATE_WORDINGS
    ) -> tuple[str, ...]:
        """Up to ``count`` distinct expansions of ``symbol`` (fewer if the grammar is small)."""
        out: list[str] = []
        for _ in range(count * 12):
            text = fill(tidy(expand(grammar, self.stream, symbol)), values)
            if text not in out:
                out.append(text)
            if len(out) == count:
                break
        return tuple(out)


def event_label(ctx: Context, fact: Fact) -> str:
    """A noun phrase for one event, used mid-sentence: lower-case unless it opens with the
    value (the attribute's ``label``)."""
    template = expand(ctx.library.get(fact.attribute).grammar, ctx.stream, "label")
    if not template.startswith("{"):
        template = template[:1].lower() + template[1:]
    return fill(template, {"value": fact.value})


def superseded(states: list[str], current: str) -> tuple[str, ...]:
    """The values a changing attribute held before ``current``, oldest first, once each."""
    return tuple(dict.fromkeys(v for v in states if v != current))
