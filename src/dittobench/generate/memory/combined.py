"""Bench 3.0 questions that never quote their answer and that combine facts.

With ``shared_questions``:

- **Orders** ask for a kind's events without listing them ("put the trips I've told you about
  in order"): all of one kind's events, its first or last three, or all of two kinds'
  together; the answer is every asked event, earliest first.
- **Activities** are named by the day they were taken up ("the hobby I took up on March 3"),
  never by name; the answer names the activity and whether it goes on.
- **Two facts combined**: who came along to an event (``with``), the weekday an event fell on
  (``on``), which event of a kind a contact came along to, and a changing value on the day of
  an event (the point in time given by an event instead of a date).
- **Events named by who came along** (``event_with``, with ``companion_labels``): in a
  duration or point-in-time question, an event a contact came along to is named by its kind
  and that contact ("the one of my trips that Zeno came along to"), not by its own label.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from dittobench.core.dates import spoken_date
from dittobench.generate.grammar import expand, fill, tidy
from dittobench.generate.memory.asking import EVENT_WITH, asking_of, family_wordings
from dittobench.generate.memory.draft import Context, Draft, event_label
from dittobench.generate.persona.model import ON, SELF, WITH, Fact

WEEKDAY = "weekday"
"""The family of the combined question that asks the weekday an event fell on."""
ORDER_MIN = 3
ORDER_SUBSET = 3
ORDER_MIXED_MAX = 6
"""Events a question over two kinds together may ask to order, at most."""


@dataclass(frozen=True, slots=True)
class Combo:
    """One combined question: its family, slot values, answer, evidence and distractors."""

    family: str
    values: dict[str, str]
    expected: str
    evidence: tuple[str, ...]
    clusters: tuple[str, ...]
    distractors: tuple[str, ...] = ()
    accepted: tuple[str, ...] = ()
    drawn: dict[str, tuple[str, ...]] | None = None


# -- orders ---------------------------------------------------------------------------------


def order_options(ctx: Context, events: list[Fact]) -> list[tuple[str, list[Fact]]]:
    """Every order question the user's events allow: (family, the asked events in order)."""
    kinds: dict[str, list[Fact]] = {}
    for fact in events:
        kinds.setdefault(fact.attribute, []).append(fact)
    options: list[tuple[str, list[Fact]]] = []
    for own in kinds.values():
        if not _distinct_days(ctx, own) or len(own) < ORDER_MIN:
            continue
        options.append(("order_all", own))
        if len(own) > ORDER_SUBSET:
            options.append(("order_first", own[:ORDER_SUBSET]))
            options.append(("order_last", own[-ORDER_SUBSET:]))
    names = list(kinds)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            both = sorted(kinds[first] + kinds[second], key=lambda f: (ctx.date_of(f), f.key))
            if len(both) <= ORDER_MIXED_MAX and _distinct_days(ctx, both):
                options.append(("order_mixed", both))
    return options


def _distinct_days(ctx: Context, facts: list[Fact]) -> bool:
    return len({ctx.date_of(f) for f in facts}) == len(facts)


def order_wordings(ctx: Context, family: str, asked: list[Fact]) -> tuple[str, ...]:
    """An order question naming the kinds of its events ("trips", "gigs"), never the events."""
    subjects = asking_of(ctx.texts)
    kinds = list(dict.fromkeys(f.attribute for f in asked))
    drawn = {"things": subjects.subjects_of(kinds[0])}
    if len(kinds) > 1:
        drawn["things_b"] = subjects.subjects_of(kinds[1])
    return family_wordings(ctx, family, {}, drawn=drawn)


# -- activities -----------------------------------------------------------------------------


def activity_wordings(ctx: Context, start: Fact) -> tuple[str, ...]:
    """An activity question naming the day it was taken up (``distinct_starts`` makes that day
    name one activity)."""
    return family_wordings(ctx, "activity", {"date": spoken_date(ctx.date_of(start))})


# -- two facts combined ---------------------------------------------------------------------


def combos(ctx: Context) -> list[Combo]:
    """Every combined recall question the person's history allows, in fact order."""
    makers: tuple[Callable[[Context, Fact, Fact], Combo | None], ...] = (
        _who_came,
        _which_with,
    )
    out: list[Combo] = []
    for detail in ctx.person.facts:
        if detail.holder != SELF or detail.role not in (WITH, ON):
            continue
        event = ctx.person.fact(detail.detail)
        if event.role != "event":
            continue
        if detail.role == ON:
            out.append(_weekday(ctx, event, detail))
            continue
        for make in makers:
            made = make(ctx, event, detail)
            if made is not None:
                out.append(made)
    return out


def _who_came(ctx: Context, event: Fact, company: Fact) -> Combo | None:
    contact = next((c for c in ctx.person.contacts if c.name == company.value), None)
    if contact is None:
        return None
    others = tuple(c.name for c in ctx.person.contacts if c.name != contact.name)
    nicknames = ctx.texts.pack.file("people").get("nicknames", {})
    accepted = tuple(nicknames.get(contact.name, [])) if isinstance(nicknames, dict) else ()
    return Combo(
        "with",
        {"event": event_label(ctx, event)},
        contact.name,
        (event.key, company.key),
        (event.attribute,),
        distractors=others,
        accepted=accepted,
    )


def _which_with(ctx: Context, event: Fact, company: Fact) -> Combo | None:
    """Which event of a kind a contact came along to: only when they came to one of them."""
    same = [
        f
        for f in ctx.facts(event.attribute, role=WITH)
        if f.value == company.value and f.detail != event.key
    ]
    if same:
        return None
    events = [f.value for f in ctx.facts(event.attribute, role="event") if f.key != event.key]
    attribute = ctx.library.get(event.attribute)
    others = ctx.pool_topped(attribute, [*events, *ctx.others_values(attribute.name)])
    return Combo(
        "with_which",
        {"companion": company.value},
        event.value,
        (event.key, company.key),
        (event.attribute,),
        distractors=tuple(v for v in others if v != event.value),
        accepted=ctx.aliases(attribute, event.value),
        drawn={"things": asking_of(ctx.texts).subjects_of(event.attribute)},
    )


def _weekday(ctx: Context, event: Fact, on: Fact) -> Combo:
    weekdays = ctx.texts.pack.file("chatter").get("weekdays", [])
    wrong = tuple(d for d in weekdays if isinstance(d, str) and d != on.value)
    return Combo(
        WEEKDAY,
        {"event": event_label(ctx, event)},
        on.value,
        (event.key, on.key),
        (event.attribute,),
        distractors=wrong,
    )


def sole_companion(ctx: Context, event: Fact) -> Fact | None:
    """The fact saying who came along to ``event``, when one contact did and came along to no
    other event of its kind; else None (no draws)."""
    company = [f for f in ctx.facts(event.attribute, role=WITH)]
    own = [f for f in company if f.detail == event.key]
    if len(own) != 1:
        return None
    (fact,) = own
    if any(f.value == fact.value and f.detail != event.key for f in company):
        return None
    return fact


def companion_label(ctx: Context, event: Fact, company: Fact) -> str:
    """``event`` named by its kind and who came along ("the one of my trips that Zeno came
    along to"): ``choice(subjects)``, then one expansion of ``event_with``."""
    asking = asking_of(ctx.texts)
    things = ctx.stream.choice(asking.subjects_of(event.attribute))
    template = tidy(expand(asking.grammar, ctx.stream, EVENT_WITH))
    phrase = fill(template, {"things": things, "companion": company.value})
    return phrase[:1].lower() + phrase[1:]  # said mid-sentence


def combo_draft(ctx: Context, combo: Combo, count: int) -> Draft:
    """A recall draft asking ``combo`` (``count`` wordings: 3 for a paraphrase family)."""
    return Draft(
        question_type="single_session_recall",
        candidates=family_wordings(
            ctx, combo.family, combo.values, count, combo.drawn, (combo.expected, *combo.accepted)
        ),
        answer_kind="value",
        expected=combo.expected,
        user_id=ctx.person.user_id,
        accepted=combo.accepted,
        distractors=combo.distractors,
        evidence=combo.evidence,
        clusters=combo.clusters,
    )


# -- the value on the day of an event -------------------------------------------------------


def event_between(ctx: Context, start: date, end: date) -> Fact | None:
    """One of the user's events strictly between two dates (a change said on neither day),
    drawn; None when there is none."""
    inside = [
        f for f in ctx.facts_with_role("event") if f.holder == SELF and start < ctx.date_of(f) < end
    ]
    return ctx.stream.choice(inside) if inside else None
