"""Bench 3.0's additions to a plan: look-alike non-facts, slips of the tongue, details said
afterwards, and changes said only by implication.

``twist_plan`` takes what ``plan_person`` decided is true and adds, from one stream
(``memory/person/<user>/twists``), in this order:

1. with ``look_alikes``, **twins**: for each attribute the user holds (in order of its first
   fact) whose grammar has ``twin``, with chance 3/5, one look-alike (one or two for an event
   list): a value nobody in the history holds for that attribute, said in some session as a
   negation, a plan that fell through, a hypothetical or a contact's claim (a draw of
   ``below(sessions)`` and one contact per twin; with ``after`` (bench 3.0 ``twins_after``)
   chance 7/10, and the session drawn among those after the user's last statement of the
   attribute when there is one); with ``mentions`` (bench 3.0
   ``twin_mentions``) recurring topics too (one or two each), in their mentions' words; with
   ``unheld`` (bench 3.0 ``twin_unheld``), then, 12 drawn fixed attributes with ``twin`` the
   user does not hold, one look-alike each of form ``rider`` (said inside a turn that
   already carries facts, ``persona/weave.py``); with ``suggestions`` (bench 3.0
   ``twin_suggestions``), then, each recommendation, with chance 2/3, one look-alike of form
   ``aside`` (said in the assistant's reply after its pick, as a suggestion it does not make);
2. with ``woven_history``, **slips**: each own state, change or event, with chance 1/6, is
   first said with a wrong value (another value nobody holds) and corrected later in its
   session;
3. **details**: each own event of an attribute whose grammar has ``with_note``, with chance
   1/3, gets who was there (a contact); each own event, with
   chance 1/4, its weekday (with chance 1/3 first said wrong); each change, with chance 1/5,
   its weekday (the same). The day is the session's own, but for an event with ``days``
   (bench 6.1 ``event_days_drawn``): then ``below(n)`` days before the session's, n the days
   since the session before (at most 7), so it stays later than anything said before; with
   ``worded`` (bench 7.1 ``event_days_worded``) an event so moved takes the form ``EARLIER``
   and is said in its grammar's words of the week;
4. **implied changes**: each change, and each activity given up, of an attribute whose grammar
   has ``implied``, with chance 1/3, is said only by implication ("now that I'm settled in
   Porto", "sold all my pottery gear").

Twins and slips hold nobody's value, so they are never stated as facts; their values become
distractors of the questions they resemble (``generate/memory/draft.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from itertools import pairwise
from types import MappingProxyType

from dittobench.core.prng import Stream
from dittobench.generate.persona.library import Library
from dittobench.generate.persona.model import NOBODY, SELF, Fact
from dittobench.generate.persona.plan import Plan
from dittobench.generate.persona.talk import Talk

TWIN_CHANCE = (3, 5)
AFTER_TWIN_CHANCE = (7, 10)
UNHELD_TWIN_CHANCE = (2, 3)
UNHELD_TWINS = 12
"""Look-alikes of fixed attributes the user does not hold, per person (``twin_unheld``)."""
RIDER = "rider"
ASIDE = "aside"
SLIP_CHANCE = (1, 6)
WITH_CHANCE = (1, 3)
EVENT_DAY_CHANCE = (1, 4)
CHANGE_DAY_CHANCE = (1, 5)
DAY_SLIP_CHANCE = (1, 3)
IMPLIED_CHANCE = (1, 3)
TWINNED_ROLES = frozenset({"state", "change", "event", "start"})
MENTION_ROLES = TWINNED_ROLES | {"mention"}
SLIPPED_ROLES = frozenset({"state", "change", "event"})
IMPLIED = "implied"
EARLIER = "event_earlier"
"""The form, and grammar symbol, of an event said on a later day than it took place (bench 7.1
``event_days_worded``): in words of the week ("went to Lisbon this week"), not of the day."""
IMPLIED_ROLES = frozenset({"change", "quit"})
TWIN_SYMBOL = "twin"
WITH_NOTE = "with_note"


@dataclass
class _Twisting:
    plan: Plan
    library: Library
    talk: Talk
    dates: Mapping[int, date]
    stream: Stream
    facts: list[Fact] = field(default_factory=list)
    held: dict[str, set[str]] = field(default_factory=dict, init=False)
    """Per attribute, the values some fact in ``facts`` holds (kept up to date by ``add``)."""

    def __post_init__(self) -> None:
        for f in self.facts:
            self.held.setdefault(f.attribute, set()).add(f.value)

    def add(
        self, attribute: str, role: str, holder: str, value: str, session: int, detail: str
    ) -> Fact:
        key = f"{holder}:{attribute}:{role}:{len(self.facts)}"
        fact = Fact(key, attribute, role, holder, value, session, detail=detail)
        self.facts.append(fact)
        self.held.setdefault(attribute, set()).add(value)
        return fact

    def unheld(self, attribute: str) -> list[str]:
        """The attribute's values no fact of the history holds so far."""
        held = self.held.get(attribute, set())
        return [c.text for c in self.library.get(attribute).values if c.text not in held]


def twist_plan(
    plan: Plan,
    library: Library,
    talk: Talk,
    dates: Mapping[int, date],
    stream: Stream,
    *,
    twins: bool,
    woven: bool,
    mentions: bool = False,
    unheld: bool = False,
    suggestions: bool = False,
    after: bool = False,
    days: bool = False,
    worded: bool = False,
    unheard: Mapping[str, tuple[str, ...]] = MappingProxyType({}),
    unheld_twins: int = UNHELD_TWINS,
    twins_each: tuple[int, int] | None = None,
) -> Plan:
    """``plan`` with the additions of the module docstring (``twins``: look-alikes;
    ``mentions``: of recurring topics too; ``woven``: slips, details and implied changes).
    ``unheard``: values per attribute no look-alike or slip may use (another user's);
    ``unheld_twins``: how many fixed attributes the user does not hold get look-alikes;
    ``twins_each`` (a long history): every twinned attribute, held or drawn unheld, gets this
    many look-alikes (a range), none left to chance, so look-alikes keep pace with its talk."""
    t = _Twisting(plan, library, talk, dates, stream, list(plan.facts))
    for name, values in unheard.items():
        t.held.setdefault(name, set()).update(values)
    if twins:
        _twins(t, MENTION_ROLES if mentions else TWINNED_ROLES, after, twins_each)
        if unheld:
            _unheld_twins(t, unheld_twins, twins_each)
        if suggestions:
            _suggestion_twins(t)
    if woven:
        _slips(t)
        _details(t, days, worded)
        _implied(t)
    return replace(plan, facts=tuple(t.facts))


def _twins(t: _Twisting, roles: frozenset[str], after: bool, each: tuple[int, int] | None) -> None:
    last: dict[str, int] = {}
    for fact in t.plan.facts:
        if fact.holder == SELF and fact.role in roles:
            last[fact.attribute] = max(last.get(fact.attribute, 0), fact.session)
    for name in last:
        attribute = t.library.get(name)
        chance = AFTER_TWIN_CHANCE if after else TWIN_CHANCE
        if TWIN_SYMBOL not in attribute.grammar:
            continue
        if each is not None:
            count = _spare(t.stream.between(*each), len(t.unheld(name)))
        elif not t.stream.chance(*chance):
            continue
        else:
            count = t.stream.between(1, 2) if attribute.kind in ("event_list", "recurring") else 1
        pool = t.unheld(name)
        for value in t.stream.sample(pool, min(count, len(pool))):
            later = len(t.plan.sessions) - last[name] - 1
            if after and later > 0:
                session = last[name] + 1 + t.stream.below(later)
            else:
                session = t.stream.below(len(t.plan.sessions))
            person = t.stream.choice(t.plan.contacts).name
            t.add(name, TWIN_SYMBOL, NOBODY, value, session, person)


def _unheld_twins(t: _Twisting, count: int, each: tuple[int, int] | None) -> None:
    own = {f.attribute for f in t.facts if f.holder == SELF}
    unheld = [
        a
        for a in t.library.attributes
        if a.kind == "fixed" and a.name not in own and TWIN_SYMBOL in a.grammar
    ]
    # A fixed number, not a chance each: a longer attribute list must not fill turns with them.
    drawn = set(t.stream.sample([a.name for a in unheld], min(count, len(unheld))))
    for attribute in (a for a in unheld if a.name in drawn):
        pool = t.unheld(attribute.name)
        if not pool:
            continue
        if each is None:
            values = [t.stream.choice(pool)]
        else:
            values = t.stream.sample(pool, _spare(t.stream.between(*each), len(pool)))
        for value in values:
            session = t.stream.below(len(t.plan.sessions))
            person = t.stream.choice(t.plan.contacts).name
            fact = t.add(attribute.name, TWIN_SYMBOL, NOBODY, value, session, person)
            t.facts[-1] = replace(fact, form=RIDER)


def _spare(count: int, pool: int) -> int:
    """At most half of an attribute's unheld values go to look-alikes, so another user (the
    isolation user) can still hold one nobody in this history names."""
    return max(1, min(count, pool // 2))


def _suggestion_twins(t: _Twisting) -> None:
    for fact in list(t.facts):
        if fact.role != "recommend" or not t.stream.chance(*UNHELD_TWIN_CHANCE):
            continue
        pool = t.unheld(fact.attribute)
        if pool:
            value = t.stream.choice(pool)
            twin = t.add(fact.attribute, TWIN_SYMBOL, NOBODY, value, fact.session, fact.key)
            t.facts[-1] = replace(twin, form=ASIDE)


def _slips(t: _Twisting) -> None:
    for fact in list(t.plan.facts):
        if fact.holder != SELF or fact.role not in SLIPPED_ROLES:
            continue
        if not t.stream.chance(*SLIP_CHANCE):
            continue
        pool = t.unheld(fact.attribute)
        if pool:
            wrong = t.stream.choice(pool)
            t.add(fact.attribute, "slip", NOBODY, wrong, fact.session, fact.key)


def _details(t: _Twisting, days: bool, worded: bool) -> None:
    sessions = sorted(t.dates.items())
    since = {index: 7 for index, _ in sessions[:1]}
    since.update(
        (index, min(7, (day - earlier).days)) for (_, earlier), (index, day) in pairwise(sessions)
    )
    for fact in list(t.plan.facts):
        if fact.holder != SELF or fact.role not in ("event", "change"):
            continue
        session = fact.session
        has_company = WITH_NOTE in t.library.get(fact.attribute).grammar
        if fact.role == "event" and has_company and t.stream.chance(*WITH_CHANCE):
            person = t.stream.choice(t.plan.contacts).name
            t.add(fact.attribute, "with", SELF, person, session, fact.key)
        chance = EVENT_DAY_CHANCE if fact.role == "event" else CHANGE_DAY_CHANCE
        if t.stream.chance(*chance):
            back = t.stream.below(since[session]) if days and fact.role == "event" else 0
            day = t.talk.weekdays[(t.dates[session] - timedelta(days=back)).weekday()]
            if back and worded and EARLIER in t.library.get(fact.attribute).grammar:
                t.facts[t.facts.index(fact)] = replace(fact, form=EARLIER)
            on = t.add(fact.attribute, "on", SELF, day, session, fact.key)
            if t.stream.chance(*DAY_SLIP_CHANCE):
                wrong = t.stream.choice([d for d in t.talk.weekdays if d != day])
                t.add(fact.attribute, "slip_day", NOBODY, wrong, session, on.key)


def _implied(t: _Twisting) -> None:
    for index, fact in enumerate(t.facts):
        if fact.role not in IMPLIED_ROLES or IMPLIED not in t.library.get(fact.attribute).grammar:
            continue
        if t.stream.chance(*IMPLIED_CHANCE):
            t.facts[index] = replace(fact, form=IMPLIED)
