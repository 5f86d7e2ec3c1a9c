"""Open questions (bench 8.0): questions that need synthesis across sessions, each with a rubric
made from the same facts the typed questions are keyed on (``spec.open``).

Four kinds, worded by the pack's ``asking`` families ``open_summary``, ``open_change``,
``open_task`` and ``open_multi_hop`` (questions.json, with the usual anchored leads):

- summary: the events of one kind since a day ("what do you know about my trips since …"); every
  event in the period is a fact to state, look-alikes and other people's events are not to be
  asserted;
- change: how a changing value went since a day; the value then, each later value with its day
  and the current one are facts to state, and a superseded value asserted as current is wrong;
- task: what to keep in mind about three of the person's tastes for a task;
- multi_hop: one event, when it was, who came along and a changing value on its day, three facts
  said in different sessions.

A rubric item's ``about`` is the attribute's title (or the pack's ``rubric`` labels for the day
of an event and who came along); values carry their accepted forms.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from types import MappingProxyType
from typing import Final

from dittobench.core.dates import spoken_date
from dittobench.core.errors import DittobenchError
from dittobench.generate.memory.asking import asking_of, family_wordings
from dittobench.generate.memory.combined import sole_companion
from dittobench.generate.memory.draft import Context, Draft, event_label
from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.persona.model import NOBODY, SELF, TWIN, Fact
from dittobench.spec.open import NOT_PREFIX, STATE_PREFIX, RubricItem
from dittobench.spec.vocab import OpenKind

OPEN_FAMILIES = (
    "open_summary",
    "open_summary_all",
    "open_change",
    "open_task",
    "open_multi_hop",
    "open_multi_hop_two",
)
"""The ``asking`` families open questions are worded from."""
MUST_NOT_MOST = 4
"""Values not to assert, at most, per rubric (the nearest ones: the attribute's own)."""
TASTES = 3
"""Preferences a task question asks about."""


class OpenQuestionError(DittobenchError, ValueError):
    """The person cannot supply an open question kind's quota (a content or quota bug)."""


@dataclass(frozen=True, slots=True)
class OpenDraft:
    """An open question before it has an id and a wave: ``draft`` carries its wordings, evidence
    and clusters (for placement), the rest is its rubric."""

    kind: str
    draft: Draft
    must_state: tuple[RubricItem, ...]
    must_not: tuple[RubricItem, ...]
    period_from: str
    period_to: str


def open_drafts(ctx: Context, quota: Mapping[OpenKind, int]) -> list[OpenDraft]:
    """The open questions of one run, kind by kind in ``OPEN_KINDS`` order, each kind drawing
    from its own fork of ``ctx.stream``."""
    out: list[OpenDraft] = []
    for kind, make in MAKERS.items():
        wanted = quota.get(kind, 0)
        if not wanted:
            continue
        made = make(ctx.drawing_from(ctx.stream.fork(f"open/{kind}")))
        if len(made) < wanted:
            raise OpenQuestionError(f"open {kind}: the person allows {len(made)} of {wanted}")
        out.extend(ctx.stream.fork(f"open/{kind}/pick").sample(made, wanted))
    return out


# -- the kinds ----------------------------------------------------------------------------
# (``MAKERS``, after them, names every ``spec.vocab.OpenKind`` once, in ``OPEN_KINDS`` order.)


def _summaries(ctx: Context) -> list[OpenDraft]:
    """One per event kind with two events or more: those since a day drawn between two of
    them, or all of them ("so far") when no two are days apart."""
    out = []
    for attribute in ctx.own_attributes("event_list"):
        events = sorted(ctx.facts(attribute.name, role="event"), key=lambda f: _day(ctx, f))
        if len(events) < 2:
            continue
        start = _period_start(ctx, [_day(ctx, f) for f in events], least=2)
        inside = [f for f in events if start is None or _day(ctx, f) > start]
        things = asking_of(ctx.texts).subjects_of(attribute.name)
        state = tuple(_item(ctx, attribute, f.value, _day(ctx, f)) for f in inside)
        family, values = (
            ("open_summary_all", {})
            if start is None
            else ("open_summary", {"date": spoken_date(start)})
        )
        out.append(
            _open(
                ctx,
                "summary",
                family_wordings(ctx, family, values, drawn={"things": things}, avoid=_named(state)),
                state,
                _not_asserted(ctx, [attribute], held=[f.value for f in events]),
                start,
                max(_day(ctx, f) for f in inside),
                inside,
                (attribute.name,),
            )
        )
    return out


def _changes(ctx: Context) -> list[OpenDraft]:
    out = []
    for attribute in ctx.own_attributes("changing"):
        chain = ctx.chain(attribute.name)
        if len(chain) < 2:
            continue
        days = [ctx.date_of(f) for f in chain]
        start = _period_start(ctx, days, least=1)
        if start is None:
            continue
        then = max(i for i, d in enumerate(days) if d < start)
        kept = chain[then:]
        state = tuple(
            _item(ctx, attribute, f.value, days[then + i], current=(f is chain[-1]))
            for i, f in enumerate(kept)
        )
        superseded = [
            RubricItem("", attribute.title, v, ctx.aliases(attribute, v), note="superseded")
            for v in dict.fromkeys(f.value for f in chain[:-1])
            if v != chain[-1].value
        ]
        subjects = asking_of(ctx.texts).subjects_of(attribute.name)
        out.append(
            _open(
                ctx,
                "change",
                family_wordings(
                    ctx,
                    "open_change",
                    {"date": spoken_date(start)},
                    drawn={"subject": subjects},
                    avoid=_named(state),
                ),
                state,
                (
                    *superseded,
                    *_not_asserted(ctx, [attribute], held=[f.value for f in chain]),
                )[:MUST_NOT_MOST],
                start,
                days[-1],
                kept,
                (attribute.name,),
            )
        )
    return out


def _tasks(ctx: Context) -> list[OpenDraft]:
    tastes = [a for a in ctx.own_attributes("preference") if ctx.chain(a.name)]
    if len(tastes) < TASTES:
        return []
    out = []
    for first in range(len(tastes)):
        chosen = [tastes[(first + k) % len(tastes)] for k in range(TASTES)]
        facts = [ctx.chain(a.name)[-1] for a in chosen]
        asking = asking_of(ctx.texts)
        drawn = {f"subject_{'abc'[k]}": asking.subjects_of(a.name) for k, a in enumerate(chosen)}
        state = tuple(
            _item(ctx, a, f.value, ctx.date_of(f)) for a, f in zip(chosen, facts, strict=True)
        )
        out.append(
            _open(
                ctx,
                "task",
                family_wordings(ctx, "open_task", {}, drawn=drawn, avoid=_named(state)),
                state,
                _not_asserted(ctx, chosen, held=[f.value for f in facts]),
                None,
                max(ctx.date_of(f) for f in facts),
                facts,
                tuple(a.name for a in chosen),
            )
        )
    return out


def _multi_hops(ctx: Context) -> list[OpenDraft]:
    """One per event of the person's on whose day a changing value was in force: its day, the
    value then and, when one contact came along, who (family ``open_multi_hop``; without a
    companion ``open_multi_hop_two``)."""
    rubric = _rubric_words(ctx)
    # Each changing attribute's chain with its days, looked up once for all the events.
    changing = []
    for attribute in ctx.own_attributes("changing"):
        chain = ctx.chain(attribute.name)
        if len(chain) >= 2:
            changing.append((attribute, [(ctx.date_of(f), f) for f in chain]))
    out = []
    for event in (f for f in ctx.facts_with_role("event") if f.holder == SELF):
        day = _day(ctx, event)
        usable = [(a, f) for a, dated in changing if (f := _in_force(dated, day)) is not None]
        if not usable:
            continue
        attribute, state = usable[ctx.stream.below(len(usable))]
        label = event_label(ctx, event)
        when = RubricItem(
            "",
            rubric["when"].replace("{event}", label),
            spoken_date(day),
            (day.isoformat(),),
            day.isoformat(),
        )
        items: tuple[RubricItem, ...] = (when,)
        evidence = [event, state]
        company = sole_companion(ctx, event)
        if company is not None:
            contact = next(c for c in ctx.person.contacts if c.name == company.value)
            items += (
                RubricItem(
                    "",
                    rubric["with"].replace("{event}", label),
                    contact.name,
                    (*_nicknames(ctx, contact.name), contact.phrase),
                ),
            )
            evidence.append(company)
        items += (_item(ctx, attribute, state.value, ctx.date_of(state)),)
        subjects = asking_of(ctx.texts).subjects_of(attribute.name)
        family = "open_multi_hop" if company is not None else "open_multi_hop_two"
        kind = ctx.library.get(event.attribute)
        out.append(
            _open(
                ctx,
                "multi_hop",
                family_wordings(
                    ctx, family, {"event": label}, drawn={"subject": subjects}, avoid=_named(items)
                ),
                items,
                _not_asserted(ctx, [attribute, kind], held=[state.value, event.value]),
                None,
                day,
                evidence,
                (event.attribute, attribute.name),
            )
        )
    return out


def _nicknames(ctx: Context, name: str) -> tuple[str, ...]:
    nicknames = ctx.texts.pack.file("people").get("nicknames", {})
    found = nicknames.get(name, []) if isinstance(nicknames, dict) else []
    return tuple(n for n in found if isinstance(n, str))


# -- shared ---------------------------------------------------------------------------------


def _open(
    ctx: Context,
    kind: str,
    wordings: tuple[str, ...],
    state: tuple[RubricItem, ...],
    not_state: Iterable[RubricItem],
    start: date | None,
    end: date,
    evidence: Iterable[Fact],
    clusters: tuple[str, ...],
) -> OpenDraft:
    draft = Draft(
        question_type=f"open_{kind}",
        candidates=wordings,
        answer_kind="open",
        expected="",
        user_id=ctx.person.user_id,
        evidence=tuple(dict.fromkeys(f.key for f in evidence)),
        clusters=clusters,
    )
    return OpenDraft(
        kind,
        draft,
        _numbered(state, STATE_PREFIX),
        _numbered(tuple(not_state), NOT_PREFIX),
        start.isoformat() if start else "",
        end.isoformat(),
    )


def _named(items: tuple[RubricItem, ...]) -> list[str]:
    """Every form of every fact to state: a question names none of them (the day of an event
    is its date, which a lead's date could be)."""
    return [form for item in items for form in (item.value, *item.accepted)]


def _numbered(items: tuple[RubricItem, ...], prefix: str) -> tuple[RubricItem, ...]:
    return tuple(
        RubricItem(f"{prefix}{k}", i.about, i.value, i.accepted, i.day, i.note)
        for k, i in enumerate(items, start=1)
    )


def _item(
    ctx: Context, attribute: Attribute, value: str, day: date, current: bool = False
) -> RubricItem:
    return RubricItem(
        "",
        attribute.title,
        value,
        ctx.aliases(attribute, value),
        day.isoformat(),
        "current" if current else "",
    )


def _not_asserted(
    ctx: Context, attributes: list[Attribute], held: list[str]
) -> tuple[RubricItem, ...]:
    """Values of ``attributes`` the history names that are not the person's: look-alikes
    (nobody's) first, then other people's, at most ``MUST_NOT_MOST``, none the person holds."""
    seen = set(held)
    out = []
    for attribute in attributes:
        for fact in ctx.facts(attribute.name, holder=None):
            if fact.holder == SELF or fact.value in seen:
                continue
            reason = "look_alike" if fact.holder == NOBODY or fact.role == TWIN else "someone_else"
            seen.add(fact.value)
            out.append(
                RubricItem(
                    "", attribute.title, fact.value, ctx.aliases(attribute, fact.value), note=reason
                )
            )
    out.sort(key=lambda i: i.note != "look_alike")
    return tuple(out[:MUST_NOT_MOST])


def _period_start(ctx: Context, days: list[date], least: int) -> date | None:
    """A day strictly between two of ``days`` (sorted) with at least ``least`` of them after
    it and one before, drawn; None when no two are far enough apart."""
    gaps = [i for i in range(1, len(days) - least + 1) if (days[i] - days[i - 1]).days >= 2]
    if not gaps:
        return None
    i = gaps[ctx.stream.below(len(gaps))]
    return days[i - 1] + timedelta(days=ctx.stream.between(1, (days[i] - days[i - 1]).days - 1))


def _in_force(dated: list[tuple[date, Fact]], day: date) -> Fact | None:
    """The value in force on ``day`` of a chain of the person's (each state with its day, as
    ``Context.chain`` orders them), when it was said before that day and changed neither on it
    nor the day before (so the day is not ambiguous)."""
    eve = day - timedelta(days=1)
    before = [f for said, f in dated if said < eve]
    near = any(eve <= said <= day for said, _f in dated)
    return before[-1] if before and not near else None


def _day(ctx: Context, fact: Fact) -> date:
    return ctx.date_of(fact)


def _rubric_words(ctx: Context) -> dict[str, str]:
    raw = ctx.texts.pack.file("questions").get("rubric", {})
    words = {k: v for k, v in raw.items() if isinstance(v, str)} if isinstance(raw, dict) else {}
    missing = [k for k in ("when", "with") if "{event}" not in words.get(k, "")]
    if missing:
        raise OpenQuestionError(
            f"questions.json rubric: needs {', '.join(missing)} (each with an {{event}} slot)"
        )
    return words


MAKERS: Final[Mapping[OpenKind, Callable[[Context], list[OpenDraft]]]] = MappingProxyType(
    {
        "summary": _summaries,
        "change": _changes,
        "task": _tasks,
        "multi_hop": _multi_hops,
    }
)
"""The maker of every open kind (``spec.vocab.OpenKind``, one each), in ``OPEN_KINDS`` order."""
