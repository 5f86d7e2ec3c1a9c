"""The synthetic person: sessions, the people around them, and every fact they hold.

A ``Person`` is a pure function of (seed, content version, user, size). Facts are what the
conversation states and what questions are asked about; ``Beat``s are the pairs that voice them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Contact:
    """Someone in the user's circle: ``phrase`` is how the user refers to them
    ("my colleague Greta", in the pack's ``contact`` wording)."""

    name: str
    relation: str
    phrase: str


@dataclass(frozen=True, slots=True)
class Session:
    """One conversation. ``day`` counts days from the first session; ``start_minute`` is the
    minute of the day it starts."""

    index: int
    day: int
    start_minute: int


SELF = "self"
"""``Fact.holder`` of the user's own facts; other holders are contact names."""
NOBODY = ""
"""``Fact.holder`` of what nobody holds: a look-alike or a slip of the tongue (bench 3.0)."""

# Fact roles bench 3.0 adds (``Fact``), and the old code a write instruction later changes.
TWIN = "twin"
SLIP = "slip"
SLIP_DAY = "slip_day"
WITH = "with"
ON = "on"
WRITE_STATE = "write_state"


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing stated in one beat.

    ``role`` says what the beat does with the attribute: ``state``/``change`` (a value, ``step``
    counting changes from 0), ``other`` (a contact's value), ``event``, ``start``/``quit``/
    ``still`` (activities), ``recommend`` (said only by the assistant), ``mention`` (recurring
    topic), ``token``/``token_decoy``, ``injection`` (a planted instruction whose payload is
    ``value``), ``write_state`` (an old code the write path later updates or deletes).

    Bench 3.0 adds ``twin`` (a look-alike non-fact: nobody's value, said as a negation, a plan
    that fell through, a hypothetical or someone's claim; ``detail`` names the contact it may
    mention), ``slip`` (a wrong value said first, then corrected; ``detail`` is the corrected
    fact's key), ``with`` (who was at an event: a contact's name; ``detail`` is the event's
    key), ``on`` (the weekday of an event or change; ``detail`` its key) and ``slip_day`` (a
    wrong weekday, corrected; ``detail`` is the ``on`` fact's key).
    """

    key: str
    attribute: str
    role: str
    holder: str
    value: str
    session: int
    step: int = 0
    detail: str = ""
    """Extra context: the label a saved code is for (``write_state``), or as above."""
    form: str = ""
    """How the fact is voiced when not the usual way: ``implied`` (a change said only by
    implication, "now that I'm settled in Porto...")."""


@dataclass(frozen=True, slots=True)
class Beat:
    """One pair of the conversation: the facts it carries (possibly none, for small talk).

    ``clusters`` are the attributes it voices, in order (one, or none for small talk, before
    bench 3.0); ``stated`` the keys of the facts whose value it states as true (a fact voiced
    first with a slip of the tongue is stated by its correction; look-alikes are carried, never
    stated; before bench 3.0 every carried fact is stated).
    """

    session: int
    position: int
    user_text: str
    assistant_text: str
    fact_keys: tuple[str, ...] = ()
    clusters: tuple[str, ...] = ()
    stated: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Person:
    """Everything the haystack of one user says, before it is cut into waves."""

    user_id: str
    profession: str
    sessions: tuple[Session, ...]
    contacts: tuple[Contact, ...]
    facts: tuple[Fact, ...]
    beats: tuple[Beat, ...]

    def fact(self, key: str) -> Fact:
        for fact in self.facts:
            if fact.key == key:
                return fact
        raise KeyError(f"no fact {key!r} for user {self.user_id!r}")
