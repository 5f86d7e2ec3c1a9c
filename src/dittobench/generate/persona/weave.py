"""Bench 3.0's conversation: facts woven into talk, several to a turn.

``weave_person`` turns a twisted plan (``persona/twists.py``) into beats. Per session, from the
voice stream (``memory/voice/<user>``), in this order:

1. ``shuffle`` the session's facts (slips and details are said with their fact, not apart);
2. per fact, its sentences, each a tidied template from the attribute's grammar or chatter
   (an implied change from ``implied``, an event told days after it took place from
   ``event_earlier``, bench 7.1):
   the fact itself (said with the slip's wrong value when it has one), then its followers: the
   correction, who was there (``with_note``), the weekday (a wrong weekday, then its fix); a
   look-alike is one sentence;
3. followers are placed: who was there and the weekday right after their fact (afterthoughts),
   a correction or a weekday's fix at a random later place (``below``); with ``named`` (bench
   6.1 ``notes_named``), half the time, who was there and an event's weekday are said at a
   random later place instead, naming the event (``with_named``, ``day_named``);
4. sentences are grouped into turns: the next sentence opens a turn, which draws its size (1,
   2 or 3, weights ``TURN_WEIGHTS``) and takes the first of the next ``LOOKAHEAD`` sentences
   that may join it: not a follower, of an attribute not yet in it, and at most one sentence
   that must be said last (one an afterthought follows, so that the afterthought opens the
   next turn; a recommendation asked for or a pasted note, which bring their own reply). A
   stored code (``WRITE_STATE``) is a turn of its own: deleting its pair deletes nothing else;
5. each turn is rendered: contacts named as ``_References`` decides, chatter (``join``)
   between its sentences, the assistant's reply;
6. one or two small-talk turns go in at random places (as in ``persona/voice.py``), never
   between a sentence and its afterthought (a long history: ``talk_turns`` of them, each of up
   to ``talk_sentences`` sentences);
7. with ``retell`` (a long history), each such talk turn, with that chance, also tells again a
   look-alike said in an earlier session, in words drawn anew, and, drawn apart, a contact's
   value said earlier (a near miss), after its talk and a chatter ``join``; so look-alikes and
   near misses come as often per pair as in full, not once in a history forty times as long.

A beat carries every fact key its sentences carry and states the facts said as true (a slip's
fact is stated by its correction; look-alikes and slips are never stated).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from dittobench.core.prng import Stream
from dittobench.generate.grammar import Grammar, expand, fill, tidy
from dittobench.generate.persona.model import (
    ON,
    SLIP,
    SLIP_DAY,
    WITH,
    WRITE_STATE,
    Beat,
    Contact,
    Fact,
    Person,
)
from dittobench.generate.persona.plan import Plan
from dittobench.generate.persona.talk import Talk
from dittobench.generate.persona.twists import ASIDE, EARLIER, IMPLIED, RIDER
from dittobench.generate.persona.voice import (
    ROLE_SYMBOL,
    noise_turn,
    previous_values,
    say,
    talk_turn,
)
from dittobench.generate.texts import Texts

TURN_SIZES = (1, 2, 3)
TURN_WEIGHTS = (1, 3, 6)
LOOKAHEAD = 6
SOLO_ROLES = frozenset({"token", "token_decoy", "injection", "recommend", WRITE_STATE})
"""Roles voiced their own way (``_Voicing._solo``)."""
ANCHORED_ROLES = frozenset({SLIP, SLIP_DAY, WITH, ON})
WITH_NOTE = "with_note"
WITH_NAMED = "with_named"
DAY_NAMED = "day_named"
"""An event's grammar symbols saying who came along ({person}) and the weekday it fell on
({day}), naming the event ({value}); bench 6.1 ``notes_named``."""
NAMED_CHANCE = (1, 2)
RETOLD_ROLES = ("twin", "other")
"""What a long history's everyday talk tells again (``retell``): look-alikes, then near misses."""
_POSSESSIVE = re.compile(r"\{person\}'")

FULL, NAME, NICK, RELATION, PRONOUN = range(5)


@dataclass
class _Item:
    """One sentence of the user's, before its turn is known."""

    template: str
    values: dict[str, str]
    keys: tuple[str, ...]
    stated: tuple[str, ...]
    cluster: str
    person: str = ""
    """The contact ``{person}`` refers to."""
    named: bool = False
    """``{person}`` must carry the contact's name (who was at an event)."""
    solo: bool = False
    """A turn of its own (a stored code: deleting its pair must delete nothing else)."""
    reply: str = ""
    """The assistant's turn when the sentence calls for its own (a recommendation asked
    for, a pasted note): one to a turn, said last."""
    after: int = -1
    """The sentence this one follows (it then opens a later turn)."""
    soon: bool = False
    """Said right after ``after`` (and its other prompt followers), which then ends its turn:
    an afterthought that names nothing of what it is about ("That was with Rel.")."""
    rider: bool = False
    """Said first in a turn that carries facts, taking no room of its own (a look-alike of
    an attribute the user does not hold, ``persona/twists.py``)."""


class _References:
    """How a contact is named: in full the first time in the history, then in full, by name,
    by nickname, by relation alone (when no other contact has it) or by pronoun after a
    sentence naming them (``intro``), drawn."""

    def __init__(self, contacts: tuple[Contact, ...], talk: Talk, stream: Stream) -> None:
        self._contacts = {c.name: c for c in contacts}
        relations = [c.relation for c in contacts]
        self._unique = {c.name for c in contacts if relations.count(c.relation) == 1}
        self._talk, self._stream = talk, stream
        self._named: set[str] = set()

    def refer(self, name: str, template: str, named: bool) -> tuple[str, str]:
        """(how ``{person}`` reads, an introducing sentence to put first or "")."""
        contact = self._contacts[name]
        if name not in self._named:
            self._named.add(name)
            return contact.phrase, ""
        forms = [FULL, NAME]
        if self._talk.nicknames.get(name):
            forms.append(NICK)
        if not named and name in self._unique:
            forms.append(RELATION)
        if not named and name in self._talk.pronouns and not _POSSESSIVE.search(template):
            forms.append(PRONOUN)
        form = self._stream.choice(forms)
        if form == NAME:
            return contact.name, ""
        if form == NICK:
            return self._stream.choice(self._talk.nicknames[name]), ""
        if form == RELATION:
            return self._talk.contact_relation.format(relation=contact.relation), ""
        if form == PRONOUN:
            intro = say(self._talk.grammar("intro"), self._stream, "origin", {"person": name})
            return self._talk.pronouns[name], intro
        return contact.phrase, ""


def weave_person(
    plan: Plan,
    texts: Texts,
    talk: Talk,
    stream: Stream,
    grouped: bool,
    named: bool = False,
    talk_turns: tuple[int, int] = (1, 2),
    talk_sentences: int = 1,
    retell: tuple[int, int] | None = None,
) -> Person:
    """Every beat of the person's conversation (``grouped``: several facts to a turn;
    ``named``: bench 6.1 ``notes_named``; ``talk_turns``: everyday-talk turns per session,
    drawn in this range, each of up to ``talk_sentences`` sentences; ``retell``: the chance a
    talk turn tells again a look-alike, and apart a near miss, said in an earlier session)."""
    anchored: dict[str, list[Fact]] = {}
    for fact in plan.facts:
        if fact.role in ANCHORED_ROLES or fact.form == ASIDE:
            anchored.setdefault(fact.detail, []).append(fact)
    by_session: dict[int, list[Fact]] = {s.index: [] for s in plan.sessions}
    for fact in plan.facts:
        if fact.role not in ANCHORED_ROLES and fact.form != ASIDE:
            by_session[fact.session].append(fact)
    voicing = _Voicing(texts, talk, stream, previous_values(plan.facts), anchored, named)
    references = _References(plan.contacts, talk, stream)
    retelling = None if retell is None else _Retelling(plan.facts, retell, voicing)
    work_talk, work_reply = texts.work_talk[plan.profession], texts.work_reply
    beats: list[Beat] = []
    for session in plan.sessions:
        items: list[_Item] = []
        for fact in stream.shuffle(by_session[session.index]):
            voicing.items_of(fact, items)
        order = [i for i in _placed(items, stream) if not items[i].rider]
        grouping = _grouped(items, order, stream, grouped)
        _ride(grouping, [item for item in items if item.rider], stream)
        turns = [_render(turn, voicing, references) for turn in grouping]
        afterthought = [turn[0].soon for turn in grouping]
        if retelling is not None:
            retelling.open_session(session.index)
        for _ in range(stream.between(*talk_turns)):
            # Never between a sentence and its afterthought.
            free = [i for i in range(len(turns) + 1) if i == len(turns) or not afterthought[i]]
            at = free[stream.below(len(free))]
            if talk_sentences > 1:
                said = talk_turn(stream, texts.chatter, work_talk, work_reply, talk_sentences)
            else:
                said = noise_turn(stream, texts.chatter, work_talk, work_reply)
            user, reply = said[0], said[1]
            beat = Beat(session.index, 0, user, reply)
            if retelling is not None:
                beat = retelling.carry(beat, references)
            turns.insert(at, beat)
            afterthought.insert(at, False)
        beats.extend(
            replace(beat, session=session.index, position=position)
            for position, beat in enumerate(turns)
        )
    return Person(
        plan.user_id, plan.profession, plan.sessions, plan.contacts, plan.facts, tuple(beats)
    )


class _Voicing:
    """Makes the sentences of each fact (step 2 of the module docstring)."""

    def __init__(
        self,
        texts: Texts,
        talk: Talk,
        stream: Stream,
        previous: Mapping[str, str],
        anchored: Mapping[str, list[Fact]],
        named: bool,
    ) -> None:
        self.texts, self.talk, self.stream = texts, talk, stream
        self._previous, self._anchored, self._named = previous, anchored, named

    def _later(self, named: bool) -> bool:
        """Whether a note about an event is said later, naming it (half the time, when the
        pack has the words)."""
        return self._named and named and self.stream.chance(*NAMED_CHANCE)

    def template(self, grammar: Grammar, symbol: str = "origin") -> str:
        return tidy(expand(grammar, self.stream, symbol))

    def items_of(self, fact: Fact, items: list[_Item]) -> None:
        if fact.role in SOLO_ROLES:
            items.append(self._solo(fact))
            return
        grammar = self.texts.library.get(fact.attribute).grammar
        if fact.role in ("other", "twin"):
            template = self.template(grammar, fact.role)
            keys = (fact.key,)
            stated = keys if fact.role == "other" else ()
            person = fact.holder if fact.role == "other" else fact.detail
            person = person if "{person}" in template else ""
            item = _Item(template, {"value": fact.value}, keys, stated, fact.attribute, person)
            item.rider = fact.form == RIDER
            items.append(item)
            return
        symbol = fact.form if fact.form in (IMPLIED, EARLIER) else ROLE_SYMBOL[fact.role]
        values = {
            "value": fact.value,
            "label": fact.detail,
            "old": self._previous.get(fact.key, ""),
        }
        anchored = self._anchored.get(fact.key, [])
        slip = next((f for f in anchored if f.role == "slip"), None)
        main = len(items)
        if slip is None:
            items.append(
                _Item(
                    self.template(grammar, symbol), values, (fact.key,), (fact.key,), fact.attribute
                )
            )
        else:
            said = {**values, "value": slip.value}
            both = (fact.key, slip.key)
            items.append(_Item(self.template(grammar, symbol), said, both, (), fact.attribute))
            fix = {"value": fact.value, "wrong": slip.value}
            items.append(self._follow("correction", fix, (fact.key,), fact, main))
        for detail in anchored:
            if detail.role == "with":
                later = self._later(slip is None and WITH_NAMED in grammar)
                template = self.template(grammar, WITH_NAMED if later else WITH_NOTE)
                said = {"value": fact.value} if later else {}
                item = _Item(template, said, (detail.key,), (detail.key,), fact.attribute)
                item.after, item.soon = main, not later
                item.person, item.named = detail.value, True
                items.append(item)
            elif detail.role == "on":
                self._day(detail, fact, main, items, slip is None)

    def _day(self, on: Fact, fact: Fact, main: int, items: list[_Item], unslipped: bool) -> None:
        slip = next((f for f in self._anchored.get(on.key, []) if f.role == "slip_day"), None)
        grammar = self.texts.library.get(fact.attribute).grammar
        named = unslipped and slip is None and fact.role == "event" and DAY_NAMED in grammar
        if self._later(named):
            template = self.template(grammar, DAY_NAMED)
            said = {"value": fact.value, "day": on.value}
            items.append(_Item(template, said, (on.key,), (on.key,), fact.attribute, after=main))
            return
        if slip is None:
            note = self._follow("day_note", {"value": on.value}, (on.key,), fact, main)
        else:
            keys = (on.key, slip.key)
            note = self._follow("day_note", {"value": slip.value}, keys, fact, main, stated=())
        note.soon = True
        items.append(note)
        if slip is None:
            return
        fix = {"value": on.value, "wrong": slip.value}
        items.append(self._follow("day_fix", fix, (on.key,), fact, len(items) - 1))

    def _follow(
        self,
        name: str,
        values: dict[str, str],
        keys: tuple[str, ...],
        fact: Fact,
        after: int,
        stated: tuple[str, ...] | None = None,
    ) -> _Item:
        """A sentence of the chatter grammar ``name`` said after sentence ``after``."""
        template = self.template(self.talk.grammar(name))
        said = keys if stated is None else stated
        return _Item(template, values, keys, said, fact.attribute, after=after)

    def _solo(self, fact: Fact) -> _Item:
        """A token, a planted note, a recommendation asked for or a stored code."""
        chatter = self.texts.chatter
        keys: tuple[str, ...] = (fact.key,)
        cluster = fact.attribute
        if fact.role in ("token", "token_decoy"):
            template = self.template(chatter[fact.role])
            person = fact.holder if fact.role == "token_decoy" else ""
            return _Item(template, {"value": fact.value}, keys, keys, cluster, person)
        grammar = self.texts.library.get(fact.attribute).grammar
        if fact.role == "injection":
            topic = fill(expand(grammar, self.stream, "topic"), {})
            template = self.template(chatter["injection"])
            reply = say(chatter["injection_reply"], self.stream, "origin", {})
            values = {"topic": topic, "payload": fact.value}
            return _Item(template, values, keys, keys, cluster, reply=reply)
        if fact.role == "recommend":
            template = self.template(grammar, "request")
            reply = say(grammar, self.stream, "recommend", {"value": fact.value})
            for aside in self._anchored.get(fact.key, []):
                other = say(grammar, self.stream, "suggest_aside", {"value": aside.value})
                reply, keys = f"{reply} {other}", (*keys, aside.key)
            return _Item(template, {}, keys, (fact.key,), cluster, reply=reply)
        template = self.template(grammar, "state")  # write_state: an old code
        reply = say(chatter["reply"], self.stream, "origin", {})
        values = {"value": fact.value, "label": fact.detail}
        return _Item(template, values, keys, keys, cluster, solo=True, reply=reply)


class _Retelling:
    """A long history's everyday talk telling again what an earlier session said (step 7): per
    talk turn, with chance ``chance``, a look-alike (never an aside, which the assistant says),
    then, drawn apart, a contact's value (a near miss), each drawn among those said before."""

    def __init__(self, facts: tuple[Fact, ...], chance: tuple[int, int], voicing: _Voicing) -> None:
        self._waiting = {
            role: sorted(
                (f for f in facts if f.role == role and f.form != ASIDE), key=lambda f: f.session
            )
            for role in RETOLD_ROLES
        }
        self._told: dict[str, list[Fact]] = {role: [] for role in RETOLD_ROLES}
        self._chance, self._voicing = chance, voicing

    def open_session(self, index: int) -> None:
        """Everything said before session ``index`` may now be told again."""
        for role, waiting in self._waiting.items():
            told = self._told[role]
            while len(told) < len(waiting) and waiting[len(told)].session < index:
                told.append(waiting[len(told)])

    def carry(self, beat: Beat, references: _References) -> Beat:
        """``beat`` (a talk turn) with what it tells again said after its talk."""
        stream, voicing = self._voicing.stream, self._voicing
        pieces: list[str] = [beat.user_text]
        items: list[_Item] = []
        for role in RETOLD_ROLES:
            if not stream.chance(*self._chance) or not self._told[role]:
                continue
            fact = stream.choice(self._told[role])
            if any(item.cluster == fact.attribute for item in items):
                continue
            voicing.items_of(fact, items)
            pieces.append(say(voicing.talk.grammar("join"), stream, "origin", {}))
            pieces.extend(_sentence(items[-1], references))
        if not items:
            return beat
        return Beat(
            beat.session,
            beat.position,
            " ".join(p for p in pieces if p),
            beat.assistant_text,
            tuple(k for item in items for k in item.keys),
            tuple(item.cluster for item in items),
            tuple(k for item in items for k in item.stated),
        )


def _placed(items: list[_Item], stream: Stream) -> list[int]:
    """The order sentences are said in: an afterthought right after what it follows (after
    its earlier afterthoughts), any other follower at a random later place (step 3)."""
    order = [i for i, item in enumerate(items) if item.after < 0]
    for index, item in enumerate(items):
        if item.after < 0:
            continue
        at = order.index(item.after) + 1
        if item.soon:
            while at < len(order) and items[order[at]].soon and items[order[at]].after >= 0:
                at += 1
            order.insert(at, index)
        else:
            order.insert(at + stream.below(len(order) - at + 1), index)
    return order


def _grouped(
    items: list[_Item], order: list[int], stream: Stream, grouped: bool
) -> list[list[_Item]]:
    """Sentences grouped into turns (step 4): a turn opens with the next sentence in order and
    takes later ones, up to ``LOOKAHEAD`` places on, that may join it (``_joins``) until it is
    full. A sentence an afterthought follows, or one calling for its own reply, is said last
    in its turn (one such to a turn)."""
    followed = {item.after for item in items if item.soon}
    remaining = list(order)
    turns: list[list[_Item]] = []
    while remaining:
        turn = [remaining.pop(0)]
        if items[turn[0]].solo:
            turns.append([items[turn[0]]])
            continue
        room = stream.weighted(TURN_SIZES, TURN_WEIGHTS) if grouped else 1
        place = 0
        while len(turn) < room and place < min(LOOKAHEAD, len(remaining)):
            index = remaining[place]
            # An afterthought's anchor joins only with nothing skipped before it, so that the
            # afterthought (next in order) still opens the next turn.
            if _joins(items, turn, index, followed) and (index not in followed or place == 0):
                turn.append(remaining.pop(place))
            else:
                place += 1
        last = [i for i in turn if items[i].reply or i in followed]
        turns.append([items[i] for i in turn if i not in last] + [items[i] for i in last])
    return turns


def _ride(turns: list[list[_Item]], riders: list[_Item], stream: Stream) -> None:
    """Each rider said first in a drawn turn that states a fact of another attribute and
    opens with no afterthought (a turn of its own when there is none)."""
    for rider in riders:
        hosts = [
            turn
            for turn in turns
            if not turn[0].solo
            and not turn[0].soon
            and any(item.stated for item in turn)
            and all(item.cluster != rider.cluster for item in turn)
        ]
        if hosts:
            hosts[stream.below(len(hosts))].insert(0, rider)
        else:
            turns.append([rider])


def _joins(items: list[_Item], turn: list[int], index: int, followed: set[int]) -> bool:
    """Whether sentence ``index`` may join ``turn``: it is not alone and follows no other, its
    attribute is not yet in the turn, and the turn keeps at most one sentence that must come
    last."""
    candidate = items[index]
    if candidate.solo or candidate.after >= 0:
        return False
    if any(items[i].cluster == candidate.cluster for i in turn):
        return False
    lasts = sum(1 for i in (*turn, index) if items[i].reply or i in followed)
    return lasts <= 1


def _render(turn: list[_Item], voicing: _Voicing, references: _References) -> Beat:
    """One pair: the user's sentences with chatter between them, and the assistant's reply
    (step 5)."""
    stream, pieces = voicing.stream, []
    for position, item in enumerate(turn):
        if position:
            pieces.append(say(voicing.talk.grammar("join"), stream, "origin", {}))
        pieces.extend(_sentence(item, references))
    reply = turn[-1].reply or say(voicing.texts.chatter["reply"], stream, "origin", {})
    keys = tuple(dict.fromkeys(k for item in turn for k in item.keys))
    stated = tuple(dict.fromkeys(k for item in turn for k in item.stated))
    clusters = tuple(dict.fromkeys(item.cluster for item in turn if item.cluster))
    user = " ".join(p for p in pieces if p)
    return Beat(0, 0, user, reply, keys, clusters, stated)


def _sentence(item: _Item, references: _References) -> tuple[str, str]:
    """An introducing sentence ("" when none) and the item's own, contacts named."""
    values, intro = dict(item.values), ""
    if item.person:
        values["person"], intro = references.refer(item.person, item.template, item.named)
    text = fill(item.template, values)
    if item.template.startswith("{person}"):
        text = text[:1].upper() + text[1:]
    return intro, text
