"""Turn a plan into conversation: one pair (user turn, assistant turn) per fact, plus small talk.

Wording comes from the attribute grammars and ``chatter``; values are filled in verbatim after
expansion, so every value a question depends on is recoverable from the text.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from dittobench.core.prng import Stream
from dittobench.generate.grammar import Grammar, expand, fill, tidy
from dittobench.generate.persona import chatter
from dittobench.generate.persona.library import Library
from dittobench.generate.persona.model import SELF, Beat, Fact, Person
from dittobench.generate.persona.plan import Plan

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


def voice_person(
    plan: Plan, library: Library, work_talk: Grammar, work_reply: Grammar, stream: Stream
) -> Person:
    """Every beat of the person's conversation, session by session."""
    contacts = {c.name: c.phrase for c in plan.contacts}
    by_session: dict[int, list[Fact]] = {s.index: [] for s in plan.sessions}
    for fact in plan.facts:
        by_session[fact.session].append(fact)
    previous = _previous_values(plan.facts)
    beats: list[Beat] = []
    for session in plan.sessions:
        order = stream.shuffle(by_session[session.index])
        texts: list[tuple[str, str, tuple[str, ...], str]] = []
        for fact in order:
            user, assistant = _fact_turns(fact, library, contacts, previous, stream)
            texts.append((user, assistant, (fact.key,), fact.attribute))
        for _ in range(stream.between(1, 2)):
            texts.insert(stream.below(len(texts) + 1), _noise(stream, work_talk, work_reply))
        for position, (user, assistant, keys, cluster) in enumerate(texts):
            beats.append(Beat(session.index, position, user, assistant, keys, cluster))
    return Person(
        plan.user_id, plan.profession, plan.sessions, plan.contacts, plan.facts, tuple(beats)
    )


def _previous_values(facts: tuple[Fact, ...]) -> dict[str, str]:
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
    library: Library,
    contacts: Mapping[str, str],
    previous: Mapping[str, str],
    stream: Stream,
) -> tuple[str, str]:
    reply = say(chatter.REPLY, stream, "origin", {})
    if fact.role == "token":
        return say(chatter.TOKEN, stream, "origin", {"value": fact.value}), reply
    if fact.role == "token_decoy":
        values = {"value": fact.value, "person": contacts[fact.holder]}
        return say(chatter.TOKEN_DECOY, stream, "origin", values), reply
    grammar = library.get(fact.attribute).grammar
    if fact.role == "injection":
        topic = fill(expand(grammar, stream, "topic"), {})  # a mid-sentence noun phrase
        user = say(chatter.INJECTION, stream, "origin", {"topic": topic, "payload": fact.value})
        return user, say(chatter.INJECTION_REPLY, stream, "origin", {})
    if fact.role == "recommend":
        request = say(grammar, stream, "request", {})
        return request, say(grammar, stream, "recommend", {"value": fact.value})
    values = {"value": fact.value, "label": fact.detail, "old": previous.get(fact.key, "")}
    if fact.role == "other":
        values["person"] = contacts[fact.holder]
    return say(grammar, stream, ROLE_SYMBOL[fact.role], values), reply


def _noise(
    stream: Stream, work_talk: Grammar, work_reply: Grammar
) -> tuple[str, str, tuple[str, ...], str]:
    opener = say(chatter.NOISE_OPEN, stream, "origin", {})
    if stream.chance(1, 2):
        user = say(work_talk, stream, "origin", {})
        reply = say(work_reply, stream, "origin", {})
    else:
        user = say(chatter.SMALL_TALK, stream, "origin", {})
        reply = say(chatter.SMALL_TALK_REPLY, stream, "origin", {})
    follow = say(chatter.SMALL_TALK_REPLY, stream, "offer", {}) if stream.chance(1, 3) else ""
    return f"{opener} {user}".strip(), f"{reply} {follow}".strip(), (), ""
