"""Open questions: questions no typed key can grade, each with a rubric made from the keys.

An open question ("What do you know about my travel since March?") needs synthesis across
sessions. Its ``question`` is all a harness sees (as ``RunRequest.user_input``, like a memory
question); the rubric is the answer key a judge reads (docs/judge.md): the facts an answer must
state (``must_state``, each with its accepted forms and its day) and the values it must not assert
as current or true (``must_not``: superseded values, look-alikes, other people's), over the period
the question covers. The judge says per item whether the answer states it (or asserts it); the
rubric score follows from those verdicts by a fixed rule (``rubric_score``), never from the judge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from dittobench.spec import vocab

OPEN_KINDS: Final = vocab.OPEN_KINDS
"""What an open question asks for: a summary of one area of the person's life over a period, how
something changed and when, what to keep in mind for a task (several preferences at once), and
a question whose answer joins facts said in different sessions."""

MUST_NOT_REASONS: Final = vocab.MUST_NOT_REASONS
"""Why a rubric value must not be asserted: it was the person's once and was replaced, nobody
holds it (a plan that fell through, a negation, a wish), it is another person's, or (a typed
key read as a rubric by the audit, which does not say which) it is not the answer."""

STATE_PREFIX: Final = "S"
NOT_PREFIX: Final = "N"
"""Rubric item ids: ``S1``, ``S2`` … for facts to state, ``N1`` … for values not to assert."""


@dataclass(frozen=True, slots=True)
class RubricItem:
    """One fact of a rubric. ``about`` is what the fact is about, in the pack's words (the
    attribute's title: "Where I live"); ``value`` its canonical value and ``accepted`` other forms
    that name it; ``day`` the ISO day it took effect or took place ("" when the history gives
    none); ``note`` says more: for a fact to state, ``current`` when it is the value in force now;
    for a value not to assert, one of ``MUST_NOT_REASONS``."""

    id: str
    about: str
    value: str
    accepted: tuple[str, ...] = ()
    day: str = ""
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "about": self.about,
            "value": self.value,
            "accepted": list(self.accepted),
            "day": self.day,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class OpenCase:
    """An open question and its rubric. ``period_from`` and ``period_to`` are the ISO days the
    question covers ("" for an open start); ``run_after_wave`` is the wave after which it is
    asked, as for memory cases."""

    id: str
    open_kind: str
    """One of ``OPEN_KINDS`` in a dataset (checked when one is read); a rubric built elsewhere
    for a judge (an external suite's question, a memory case the audit judges) names its own
    kind, so the field takes any string."""
    question: str
    user_id: str
    run_after_wave: int
    period_from: str
    period_to: str
    must_state: tuple[RubricItem, ...]
    must_not: tuple[RubricItem, ...] = ()
    evidence_pair_ids: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "open_kind": self.open_kind,
            "question": self.question,
            "user_id": self.user_id,
            "run_after_wave": self.run_after_wave,
            "period_from": self.period_from,
            "period_to": self.period_to,
            "must_state": [item.to_json() for item in self.must_state],
            "must_not": [item.to_json() for item in self.must_not],
            "evidence_pair_ids": list(self.evidence_pair_ids),
        }

    @property
    def item_ids(self) -> tuple[str, ...]:
        """Every rubric item id, facts to state first."""
        return tuple(i.id for i in (*self.must_state, *self.must_not))


def rubric_score(case: OpenCase, verdicts: dict[str, bool]) -> float:
    """The rubric score of one answer from the judge's per-item verdicts (``True``: the answer
    states the fact / asserts the value): each fact stated earns one share, each value wrongly
    asserted takes one back, never below 0. A dump of every value the history holds states the
    facts and asserts the look-alikes with them, so it gains nothing."""
    if not case.must_state:
        return 0.0
    stated = sum(1 for item in case.must_state if verdicts.get(item.id, False))
    asserted = sum(1 for item in case.must_not if verdicts.get(item.id, False))
    return round(max(0, stated - asserted) / len(case.must_state), 6)
