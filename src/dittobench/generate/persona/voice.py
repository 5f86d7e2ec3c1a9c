"""Turn a plan into conversation: one pair (user turn, assistant turn) per fact, plus small talk.

Wording comes from the attribute grammars and ``chatter``; values are filled in verbatim after
expansion, so every value a question depends on is recoverable from the text.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from dittobench.core.prng import Stream
from dittobench.generate.grammar import Grammar, expand, fill, tidy
from dittobench.generate.persona.model import SELF, Beat, Fact, Person
from dittobench.generate.persona.plan import Plan
from dittobench.generate.texts import Texts

ROLE_SYMBOL = {
    "state": "state",
    "change": "change",
    "other": "other",
    "event": "event",
    "start": "start",
    "quit": "quit",
    "still": "still",
    "mention": "mention",
    "write_state": "state",
}


def say(grammar: Grammar, stream: Stream, symbol: str, values: Mapping[str, str]) -> str:
    """Expand ``symbol``, tidy it, then fill slots verbatim. A turn that opens with the contact
    phrase ("my sister Ines ...") gets a capital; graded values are never touched."""
    template = tidy(expand(grammar, stream, symbol))
    text = fill(template, values)
    if template.startswith("{person}"):
        text = text[:1].upper() + text[1:]
    return text


def voice_person(plan: Plan, texts: Texts, stream: Stream) -> Person:
    """Every beat of the person's conversation, session by session."""
    work_talk, work_reply = texts.work_talk[plan.profession], texts.work_reply
    contacts = {c.name: c.phrase for c in plan.contacts}
    by_session: dict[int, list[Fact]] = {s.index: [] for s in plan.sessions}
    for fact in plan.facts:
        by_session[fact.session].append(fact)
    previous = previous_values(plan.facts)
    beats: list[Beat] = []
    for session in plan.sessions:
        order = stream.shuffle(by_session[session.index])
        turns: list[tuple[str, str, tuple[str, ...], str]] = []
        for fact in order:
            user, assistant = _fact_turns(fact, texts, contacts, previous, stream)
            turns.append((user, assistant, (fact.key,), fact.attribute))
        for _ in range(stream.between(1, 2)):
            at = stream.below(len(turns) + 1)  # drawn before the noise turn itself
            turns.insert(at, noise_turn(stream, texts.chatter, work_talk, work_reply))
        for position, (user, assistant, keys, cluster) in enumerate(turns):
            clusters = (cluster,) if cluster else ()
            beats.append(Beat(session.index, position, user, assistant, keys, clusters, keys))
    return Person(
        plan.user_id, plan.profession, plan.sessions, plan.contacts, plan.facts, tuple(beats)
    )


def previous_values(facts: tuple[Fact, ...]) -> dict[str, str]:
    """For each ``change`` fact, the value it replaces."""
    chains: dict[str, list[Fact]] = {}
    for fact in facts:
        if fact.holder == SELF and fact.role in ("state", "change"):
            chains.setdefault(fact.attribute, []).append(fact)
    previous: dict[str, str] = {}
    for chain in chains.values():
        chain.sort(key=lambda f: f.step)
        for before, after in itertools.pairwise(chain):
            previous[after.key] = before.value
    return previous


def _fact_turns(
    fact: Fact,
    texts: Texts,
    contacts: Mapping[str, str],
    previous: Mapping[str, str],
    stream: Stream,
) -> tuple[str, str]:
    chatter = texts.chatter
    reply = say(chatter["reply"], stream, "origin", {})
    if fact.role == "token":
        return say(chatter["token"], stream, "origin", {"value": fact.value}), reply
    if fact.role == "token_decoy":
        values = {"value": fact.value, "person": contacts[fact.holder]}
        return say(chatter["token_decoy"], stream, "origin", values), reply
    grammar = texts.library.get(fact.attribute).grammar
    if fact.role == "injection":
        topic = fill(expand(grammar, stream, "topic"), {})  # a mid-sentence noun phrase
        user = say(chatter["injection"], stream, "origin", {"topic": topic, "payload": fact.value})
        return user, say(chatter["injection_reply"], stream, "origin", {})
    if fact.role == "recommend":
        request = say(grammar, stream, "request", {})
        return request, say(grammar, stream, "recommend", {"value": fact.value})
    values = {"value": fact.value, "label": fact.detail, "old": previous.get(fact.key, "")}
    if fact.role == "other":
        values["person"] = contacts[fact.holder]
    return say(grammar, stream, ROLE_SYMBOL[fact.role], values), reply


def noise_turn(
    stream: Stream, chatter: Mapping[str, Grammar], work_talk: Grammar, work_reply: Grammar
) -> tuple[str, str, tuple[str, ...], str]:
    opener = say(chatter["noise_open"], stream, "origin", {})
    if stream.chance(1, 2):
        user = say(work_talk, stream, "origin", {})
        reply = say(work_reply, stream, "origin", {})
    else:
        user = say(chatter["small_talk"], stream, "origin", {})
        reply = say(chatter["small_talk_reply"], stream, "origin", {})
    follow = say(chatter["small_talk_reply"], stream, "offer", {}) if stream.chance(1, 3) else ""
    return f"{opener} {user}".strip(), f"{reply} {follow}".strip(), (), ""


def talk_turn(
    stream: Stream,
    chatter: Mapping[str, Grammar],
    work_talk: Grammar,
    work_reply: Grammar,
    most: int,
) -> tuple[str, str, tuple[str, ...], str]:
    """A long history's everyday talk: a noise turn, then up to ``most - 1`` further sentences
    of small talk or work talk in the same turn (a year of talk repeats itself less than one
    sentence a turn would)."""
    user, reply, keys, cluster = noise_turn(stream, chatter, work_talk, work_reply)
    more = [
        say(work_talk if stream.chance(1, 2) else chatter["small_talk"], stream, "origin", {})
        for _ in range(stream.below(most))
    ]
    return " ".join((user, *more)), reply, keys, cluster
