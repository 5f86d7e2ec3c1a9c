"""Draw a person: which attributes they have, their values over time, and when each is said.

``plan_person`` decides *what* is true and *when* it is said (facts with sessions); ``voice``
turns that into conversation. Every draw comes from a stream under
``memory/person/<user>/...``, so the second (isolation) user never shifts the first one's bytes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from dittobench.core import codes
from dittobench.core.prng import Stream
from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.persona.library import Library, People
from dittobench.generate.persona.model import SELF, Contact, Fact, Session

WIDE_COUNT_TOP = 14
"""Bench 3.0's widest count (issue 11: a guessed count must rarely be right)."""


@dataclass(frozen=True, slots=True)
class Needs:
    """How much of each kind of material the questions of a run size need."""

    sessions: int
    fixed_self: int
    fixed_other_only: int
    changing: int
    preferences: int
    event_lists: int
    quit: int
    ongoing: int
    assistant: int
    recurring: int
    write_olds: int
    """Old codes seeded for the write path to update or delete later."""
    injections: int
    """Planted instructions, each about one of the person's own fixed or changing values."""
    require_trips: bool = False
    avoid: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """attribute -> values this person must not hold (the other user's, for isolation)."""
    include: tuple[str, ...] = ()
    """Attributes this person must hold as their own (isolation attributes)."""
    avoid_near: bool = False
    """No contact of this person holds an ``avoid`` value either (bench 5.0)."""
    distinct_starts: bool = False
    """Every activity is taken up in a session of its own (bench 3.0: a question names an
    activity by the day it was taken up)."""
    count_top: int = 0
    """The most events an event list holds and the most times a recurring topic comes up
    (bench 3.0: ``WIDE_COUNT_TOP``, bounded by the sessions); 0 keeps 5 and 6."""
    session_gap: tuple[int, int] | None = None
    """Days between sessions, drawn in this range (a long history); None: 2 to 9, now and then
    10 to 30 more."""
    most_states: int = 4
    """A changing attribute takes 2 to this many values in turn."""
    talk_turns: tuple[int, int] = (1, 2)
    """Everyday-talk turns per session, drawn in this range."""
    talk_sentences: int = 1
    """The most sentences of one everyday-talk turn."""
    unheld_twins: int = 12
    """Fixed attributes the person does not hold that get a look-alike (``persona/twists.py``)."""
    twins_each: tuple[int, int] | None = None
    """Look-alikes of each twinned attribute (``persona/twists.py``); None: by chance, one or
    two."""
    contacts: tuple[int, int] = (6, 9)
    """The people in the person's circle, drawn in this range."""
    near_misses: int = 0
    """Further contacts' values of each attribute the person holds (a long history's
    background: near misses beyond those the questions draw)."""
    retell: tuple[int, int] | None = None
    """The chance an everyday-talk turn tells again a look-alike, and apart a near miss, said
    in an earlier session (``persona/weave.py``); None: never."""
    whole_library: bool = False
    """Hold every changing, preference, event-list, assistant and recurring attribute open to the
    profession, whatever the questions need (a long history's background)."""


@dataclass(frozen=True, slots=True)
class Plan:
    user_id: str
    profession: str
    sessions: tuple[Session, ...]
    contacts: tuple[Contact, ...]
    facts: tuple[Fact, ...]


class _Facts:
    """Collects facts with unique keys."""

    def __init__(self) -> None:
        self.items: list[Fact] = []

    def add(
        self,
        attribute: str,
        role: str,
        holder: str,
        value: str,
        session: int,
        step: int = 0,
        detail: str = "",
    ) -> Fact:
        fact = Fact(
            f"{holder}:{attribute}:{role}:{len(self.items)}",
            attribute,
            role,
            holder,
            value,
            session,
            step,
            detail,
        )
        self.items.append(fact)
        return fact


@dataclass(frozen=True, slots=True)
class _Drawing:
    """What every step of ``plan_person`` draws with, passed as one: the facts collected so far,
    the streams for which attributes (``picks``), their values (``draw``) and the sessions they
    are said in (``when``), the person's circle and profession, and how many sessions there are.
    """

    facts: _Facts
    picks: Stream
    draw: Stream
    when: Stream
    contacts: tuple[Contact, ...]
    library: Library
    profession: str
    sessions: int
    syllables: codes.Syllables
    """The pack's coined-name parts (planted payloads)."""

    def pick(self, kind: str, count: int, include: tuple[str, ...] = ()) -> list[Attribute]:
        """``count`` attributes of ``kind`` open to this person's profession (see ``_pick``)."""
        return _pick(self.picks, self.library.of_kind(kind, self.profession), count, include)


def plan_person(
    dataset: Stream,
    user_id: str,
    needs: Needs,
    library: Library,
    syllables: codes.Syllables = codes.SYLLABLES,
) -> Plan:
    """Draw one person's facts and sessions (``dataset``: the dataset's root stream) from the
    pack's ``library`` and coined-name ``syllables``."""
    root = dataset.fork(f"memory/person/{user_id}")
    profession = root.fork("profession").choice(library.professions)
    if needs.whole_library:
        needs = _whole(needs, library, profession)
    sessions = _sessions(root.fork("sessions"), needs.sessions, needs.session_gap)
    contacts = _contacts(root.fork("contacts"), library.people, needs.contacts)
    d = _Drawing(
        facts=_Facts(),
        picks=root.fork("attributes"),
        draw=root.fork("values"),
        when=root.fork("when"),
        contacts=contacts,
        library=library,
        profession=profession,
        sessions=len(sessions),
        syllables=syllables,
    )
    own_fixed, changing = _states(d, needs)
    _preferences(d, needs)
    _events(d, needs)
    _activities(d, needs)
    _assistant_and_recurring(d, needs)
    _token(d, root.fork("token"))
    _write_olds(d, root.fork("writes"), needs.write_olds)
    _injections(d, root.fork("injections"), [*own_fixed, *changing], needs.injections)
    if needs.near_misses:
        _more_near_misses(d, root.fork("near"), needs.near_misses)
    return Plan(user_id, profession, sessions, contacts, tuple(d.facts.items))


def _whole(needs: Needs, library: Library, profession: str) -> Needs:
    """``needs`` taking every attribute of the background kinds open to ``profession``."""

    def every(kind: str, wanted: int) -> int:
        return max(wanted, len(library.of_kind(kind, profession)))

    return replace(
        needs,
        changing=every("changing", needs.changing),
        preferences=every("preference", needs.preferences),
        event_lists=every("event_list", needs.event_lists),
        assistant=every("assistant", needs.assistant),
        recurring=every("recurring", needs.recurring),
    )


def _states(d: _Drawing, needs: Needs) -> tuple[list[Attribute], list[Attribute]]:
    """The person's fixed and changing attributes with their states, changes and near misses
    (fixed attributes only others hold get near misses alone); returns the person's own fixed
    ones and the changing ones."""
    n = d.sessions
    fixed = d.pick("fixed", needs.fixed_self + needs.fixed_other_only, needs.include)
    own_fixed, other_only = fixed[: needs.fixed_self], fixed[needs.fixed_self :]
    changing = d.pick("changing", needs.changing, needs.include)
    for attribute in own_fixed:
        value = _value(d.draw, attribute, needs.avoid.get(attribute.name, ()))
        d.facts.add(attribute.name, "state", SELF, value, d.when.below(n))
        taken = {value, *needs.avoid.get(attribute.name, ())} if needs.avoid_near else {value}
        _near_misses(d, attribute, taken, d.draw.between(0, 2))
    for attribute in other_only:
        _near_misses(d, attribute, set(), d.draw.between(1, 2))
    for attribute in changing:
        states = d.draw.between(2, min(needs.most_states, n))
        values = _distinct_values(d.draw, attribute, states, needs.avoid.get(attribute.name, ()))
        for step, (value, session) in enumerate(
            zip(values, _ordered_sessions(d.when, n, states), strict=True)
        ):
            d.facts.add(
                attribute.name, "state" if step == 0 else "change", SELF, value, session, step
            )
        _near_misses(d, attribute, set(values), d.draw.between(0, 2))
    return own_fixed, changing


def _assistant_and_recurring(d: _Drawing, needs: Needs) -> None:
    """What the assistant recommended once, and the topics the person keeps mentioning."""
    n = d.sessions
    for attribute in d.pick("assistant", needs.assistant):
        d.facts.add(
            attribute.name, "recommend", SELF, d.draw.choice(attribute.values).text, d.when.below(n)
        )
    for attribute in d.pick("recurring", needs.recurring):
        topic = d.draw.choice(attribute.values).text
        top = min(needs.count_top or 6, n)
        for session in _ordered_sessions(d.when, n, d.draw.between(2, top)):
            d.facts.add(attribute.name, "mention", SELF, topic, session)


def _sessions(stream: Stream, count: int, gap: tuple[int, int] | None) -> tuple[Session, ...]:
    day = stream.between(0, 6)
    out = []
    for index in range(count):
        out.append(Session(index, day, stream.between(7 * 60, 21 * 60)))
        if gap is not None:
            day += stream.between(*gap)
        else:
            day += stream.between(2, 9) + (stream.between(10, 30) if stream.chance(1, 5) else 0)
    return tuple(out)


def _contacts(stream: Stream, people: People, count: tuple[int, int]) -> tuple[Contact, ...]:
    wanted = stream.between(*count)
    names = stream.sample(people.contact_names, min(wanted, len(people.contact_names)))
    contacts = []
    for name in names:
        relation = stream.choice(people.relations)
        contacts.append(
            Contact(name, relation, people.contact.format(relation=relation, name=name))
        )
    return tuple(contacts)


def _pick(
    stream: Stream, pool: tuple[Attribute, ...], count: int, include: tuple[str, ...] = ()
) -> list[Attribute]:
    """``count`` attributes: the required ones first, then a seeded sample of the rest."""
    required = [a for a in pool if a.name in include]
    rest = [a for a in pool if a.name not in include]
    if count > len(pool):
        kind = pool[0].kind if pool else "?"
        raise ValueError(f"need {count} {kind} attributes, the library has {len(pool)}")
    return required + stream.sample(rest, max(0, count - len(required)))


def _value(stream: Stream, attribute: Attribute, avoid: tuple[str, ...] = ()) -> str:
    return _distinct_values(stream, attribute, 1, avoid)[0]


def _distinct_values(
    stream: Stream,
    attribute: Attribute,
    count: int,
    avoid: tuple[str, ...] = (),
    taken: set[str] | None = None,
) -> list[str]:
    blocked = set(taken or ()) | set(avoid)
    pool = [c.text for c in attribute.values if c.text not in blocked]
    return stream.sample(pool, count)


def _ordered_sessions(stream: Stream, sessions: int, count: int) -> list[int]:
    return sorted(stream.sample(range(sessions), count))


def _near_misses(d: _Drawing, attribute: Attribute, taken: set[str], count: int) -> None:
    """Contacts holding the same attribute with a different value (the near misses)."""
    eligible = [
        c
        for c in d.contacts
        if not (attribute.kin and c.relation in d.library.people.kin_relations)
    ]
    # No more holders than values left (a long history can leave few): every other draw stands.
    left = sum(1 for c in attribute.values if c.text not in taken)
    holders = d.draw.sample(eligible, min(count, len(eligible), left))
    values = _distinct_values(d.draw, attribute, len(holders), taken=taken)
    for contact, value in zip(holders, values, strict=True):
        d.facts.add(attribute.name, "other", contact.name, value, d.when.below(d.sessions))


def _more_near_misses(d: _Drawing, stream: Stream, most: int) -> None:
    """Up to ``most`` further contacts' values of every fixed, changing and preference
    attribute the person holds, never one the person or a contact already holds."""
    held: dict[str, set[str]] = {}
    for fact in d.facts.items:
        held.setdefault(fact.attribute, set()).add(fact.value)
    own = dict.fromkeys(f.attribute for f in d.facts.items if f.holder == SELF)
    kinds = {
        a.name: a for kind in ("fixed", "changing", "preference") for a in d.library.of_kind(kind)
    }
    drawing = replace(d, draw=stream, when=stream)
    for name in own:
        if name in kinds:
            _near_misses(drawing, kinds[name], held[name], stream.between(1, most))


def _preferences(d: _Drawing, needs: Needs) -> None:
    for attribute in d.pick("preference", needs.preferences):
        value = _value(d.draw, attribute)
        d.facts.add(attribute.name, "state", SELF, value, d.when.below(d.sessions))
        _near_misses(d, attribute, {value}, d.draw.between(0, 1))


def _events(d: _Drawing, needs: Needs) -> None:
    include = ("trips",) if needs.require_trips else ()
    for attribute in d.pick("event_list", needs.event_lists, include):
        count = d.draw.between(2, min(needs.count_top or 5, d.sessions))
        values = _distinct_values(d.draw, attribute, count)
        sessions = _ordered_sessions(d.when, d.sessions, count)
        for value, session in zip(values, sessions, strict=True):
            d.facts.add(attribute.name, "event", SELF, value, session)
        _near_misses(d, attribute, set(values), d.draw.between(0, 1))


def _activities(d: _Drawing, needs: Needs) -> None:
    total = needs.quit + needs.ongoing
    if total == 0:
        return
    hobby = d.picks.choice(d.library.of_kind("activity"))
    chosen = _distinct_values(d.draw, hobby, total)
    starts = d.when.sample(range(d.sessions - 1), total) if needs.distinct_starts else []
    for index, value in enumerate(chosen):
        if starts:
            start = starts[index]
            end = d.when.between(start + 1, d.sessions - 1)
        else:
            start, end = _ordered_sessions(d.when, d.sessions, 2)
        d.facts.add(hobby.name, "start", SELF, value, start)
        d.facts.add(hobby.name, "quit" if index < needs.quit else "still", SELF, value, end)


def _token(d: _Drawing, stream: Stream) -> None:
    """The integrity token, and a look-alike that belongs to someone else."""
    token = codes.integrity_token(stream)
    decoy = codes.look_alike(token, stream)
    own, other = stream.sample(range(d.sessions), 2) if d.sessions > 1 else (0, 0)
    d.facts.add("integrity_token", "token", SELF, token, own)
    d.facts.add("integrity_token", "token_decoy", stream.choice(d.contacts).name, decoy, other)


def _write_olds(d: _Drawing, stream: Stream, count: int) -> None:
    """Codes the user mentions early on, which write instructions later update or delete."""
    if count == 0:
        return
    (attribute,) = d.library.of_kind("write")
    for label in stream.sample([c.text for c in attribute.values], count):
        d.facts.add(
            attribute.name,
            "write_state",
            SELF,
            codes.write_code(stream),
            stream.below(d.sessions),
            detail=label,
        )


def _injections(d: _Drawing, stream: Stream, targets: list[Attribute], count: int) -> None:
    """Instructions planted in stored memory; each payload is a coined code that must never
    reach an answer."""
    for attribute in stream.sample(targets, min(count, len(targets))):
        name = codes.coined_name(stream, 2, d.syllables).upper()
        payload = f"{name}-{codes.coin_string(stream, 6)}"
        d.facts.add(attribute.name, "injection", SELF, payload, stream.below(d.sessions))
