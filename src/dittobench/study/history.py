"""The history as the parser reads it off the wire: each stored pair matched against the pack's
statement wordings, one mention per pair.

Only what a harness receives is read: the ``/seed`` waves (pair text, pair ids, timestamps, the
wave each pair came in). A pair whose text is one statement wording becomes a ``Mention`` of
that attribute and role with the wording's slot values; when several wordings fit, one whose
values are in the attribute's pool wins, then the pack's order. Mentions are in time order, so
"the last mention wins" is the last one of a list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dittobench.spec.dataset import Dataset
from dittobench.spec.wire import Pair
from dittobench.study.index import PackIndex, Statement

DAY_SAID = "_day"
"""A mention's slot holding the day a note said it took place (no pattern slot has a ``_``)."""


@dataclass(frozen=True, slots=True)
class Mention:
    """One statement found in the history."""

    attribute: str
    role: str
    slots: Mapping[str, str]
    pair_id: str
    timestamp: str
    wave: int

    @property
    def value(self) -> str:
        return self.slots.get("value", "")

    @property
    def day(self) -> str:
        """The calendar day it took place (``YYYY-MM-DD``): the day it was said on, or the one
        a day note put it on (slot ``DAY_SAID``)."""
        return self.slots.get(DAY_SAID) or self.timestamp[:10]


@dataclass(frozen=True, slots=True)
class StoredPair:
    """A pair as seeded: its text, when it was said, and the wave that delivered it."""

    pair: Pair
    wave: int


def stored_pairs(dataset: Dataset) -> dict[str, list[StoredPair]]:
    """Every user's seeded pairs in time order (timestamp, then seeding order)."""
    out: dict[str, list[StoredPair]] = {}
    for request in dataset.memory_waves:
        out.setdefault(request.user_id, []).extend(
            StoredPair(p, request.wave) for p in request.pairs
        )
    for pairs in out.values():
        pairs.sort(key=lambda s: s.pair.timestamp)
    return out


def read_history(index: PackIndex, pairs: list[StoredPair]) -> tuple[Mention, ...]:
    """The mentions of one user's pairs, in time order."""
    prompts = [s for s in index.statements if not s.reply]
    replies = [s for s in index.statements if s.reply]
    mentions = []
    for stored in pairs:
        pair = stored.pair
        found = _best(index, _hits(prompts, pair.prompt) or _hits(replies, pair.response))
        if found is not None:
            statement, slots = found
            mentions.append(
                Mention(
                    statement.attribute,
                    statement.role,
                    slots,
                    pair.pair_id,
                    pair.timestamp,
                    stored.wave,
                )
            )
    return tuple(mentions)


def _hits(statements: list[Statement], text: str) -> list[tuple[Statement, dict[str, str]]]:
    lowered = text.lower()
    hits = []
    for statement in statements:
        slots = statement.wording.match(text, lowered)
        if slots is not None:
            hits.append((statement, slots))
    return hits


def _best(
    index: PackIndex, hits: list[tuple[Statement, dict[str, str]]]
) -> tuple[Statement, dict[str, str]] | None:
    """The hit whose values the pools know best (value, then the old value); the pack's first
    on a tie. Chatter and coined codes have no pool and always count as known."""

    def known(hit: tuple[Statement, dict[str, str]]) -> tuple[bool, bool]:
        statement, slots = hit
        coined = statement.attribute == "" or index.attribute(statement.attribute).kind == "write"
        if coined:
            return True, True
        value_ok = index.in_pool(statement.attribute, slots.get("value", ""))
        old_ok = "old" not in slots or index.in_pool(statement.attribute, slots["old"])
        return value_ok, old_ok

    if not hits:
        return None
    ranked = max(enumerate(hits), key=lambda item: (*known(item[1]), -item[0]))
    return ranked[1]
