"""Time questions: the latest of a changing value, the value on a date, which event came first,
how long between two events, and whether an activity was given up or goes on."""

from __future__ import annotations

import itertools
from datetime import date, timedelta

from dittobench.core.dates import spoken_date
from dittobench.generate.memory import combined
from dittobench.generate.memory.asking import ask_wordings, grammar_wordings
from dittobench.generate.memory.draft import Context, Draft, event_label, superseded
from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.persona.model import Fact

SPREAD_MIN_DAYS = 2
"""The shortest gap a spread duration question asks about."""


def knowledge_update(ctx: Context, count: int) -> list[Draft]:
    drafts = []
    changing = [a for a in ctx.own_attributes("changing") if len(ctx.chain(a.name)) >= 2]
    for attribute in ctx.stream.sample(changing, count):
        chain = ctx.chain(attribute.name)
        latest = chain[-1]
        states = [f.value for f in chain]
        candidates = ask_wordings(ctx, attribute, "ask", {})  # drawn before the distractors
        distractors = ctx.top_up(attribute, ctx.others_values(attribute.name), states, 2)
        if ctx.content.superseded_distractors:
            distractors = superseded(states, latest.value) + distractors
        drafts.append(
            Draft(
                question_type="knowledge_update",
                candidates=candidates,
                answer_kind="value",
                expected=latest.value,
                user_id=ctx.person.user_id,
                accepted=ctx.aliases(attribute, latest.value),
                distractors=distractors,
                dump_guard=ctx.dump_guard(states),
                evidence=tuple(f.key for f in chain),
                clusters=(attribute.name,),
            )
        )
    return drafts


def _spaced_steps(ctx: Context, attribute: str) -> list[int]:
    """The steps of an attribute's chain followed by a change at least two days later, so a day
    lies strictly between them (every step, where sessions are two days apart or more; a long
    history has sessions on consecutive days)."""
    chain = ctx.chain(attribute)
    return [
        i
        for i in range(len(chain) - 1)
        if (ctx.date_of(chain[i + 1]) - ctx.date_of(chain[i])).days >= 2
    ]


def point_in_time(ctx: Context, count: int) -> list[Draft]:
    """Ask for the value in force on a date strictly between two changes (so the current value
    is wrong whenever the asked state is not the last)."""
    drafts = []
    changing = [a for a in ctx.own_attributes("changing") if _spaced_steps(ctx, a.name)]
    for attribute in ctx.stream.sample(changing, count):
        chain = ctx.chain(attribute.name)
        steps = _spaced_steps(ctx, attribute.name)
        step = steps[ctx.stream.below(len(steps))]
        before, after = chain[step], chain[step + 1]
        start, end = ctx.date_of(before), ctx.date_of(after)
        asked = start + timedelta(days=ctx.stream.between(1, (end - start).days - 1))
        values = {"date": spoken_date(asked)}
        candidates, anchor = _then_wordings(ctx, attribute, values, start, end)
        drafts.append(
            Draft(
                question_type="point_in_time",
                candidates=candidates,
                answer_kind="value",
                expected=before.value,
                user_id=ctx.person.user_id,
                accepted=ctx.aliases(attribute, before.value),
                distractors=tuple(
                    dict.fromkeys(
                        [f.value for f in chain if f.value != before.value]
                        + ctx.others_values(attribute.name)
                    )
                ),
                dump_guard=ctx.dump_guard([f.value for f in chain]),
                evidence=(before.key, after.key, *anchor),
                clusters=tuple(dict.fromkeys((attribute.name, *_attributes(ctx, anchor)))),
            )
        )
    return drafts


EVENT_ANCHOR_CHANCE = (1, 2)
"""With ``shared_questions``: the share of point-in-time questions that give the day as an
event of the user's instead of a date, when an event falls strictly between the two states."""


def _then_wordings(
    ctx: Context, attribute: Attribute, values: dict[str, str], start: date, end: date
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The wordings of a point-in-time question and the extra evidence they rest on: with
    ``shared_questions``, half the time the day of an event between the two states ("at the
    time of my trip to Lisbon", a second fact to combine), else the printed date."""
    if ctx.content.shared_questions and ctx.stream.chance(*EVENT_ANCHOR_CHANCE):
        event = combined.event_between(ctx, start, end)
        if event is not None:
            label = event_label(ctx, event)
            company = combined.sole_companion(ctx, event) if ctx.content.companion_labels else None
            if company is not None:
                label = combined.companion_label(ctx, event, company)
            keys = (event.key,) if company is None else (event.key, company.key)
            wordings = ask_wordings(ctx, attribute, "ask_then", {"event": label}, then="then_event")
            return wordings, keys
    return ask_wordings(ctx, attribute, "ask_then", values), ()


def _attributes(ctx: Context, keys: tuple[str, ...]) -> list[str]:
    return [ctx.person.fact(k).attribute for k in keys]


def _own_events(ctx: Context) -> list[Fact]:
    events = [f for f in ctx.facts_with_role("event") if f.holder == "self"]
    return sorted(events, key=lambda f: (ctx.date_of(f), f.key))


def _label(ctx: Context, fact: Fact) -> str:
    return event_label(ctx, fact)


def _distinct_days(
    ctx: Context, events: list[Fact], size: int, seen: set[tuple[str, ...]]
) -> list[Fact]:
    """``size`` events on different days, as a combination not asked before."""
    for _ in range(200):
        picked = sorted(ctx.stream.sample(events, size), key=lambda f: (ctx.date_of(f), f.key))
        days = {ctx.date_of(f) for f in picked}
        key = tuple(f.key for f in picked)
        if len(days) == size and key not in seen:
            seen.add(key)
            return picked
    raise ValueError(f"not enough events on distinct days for a {size}-event question")


def temporal_order(ctx: Context, count: int) -> list[Draft]:
    events, seen, drafts = _own_events(ctx), set[tuple[str, ...]](), []
    unlisted = _unlisted_orders(ctx, events, count)
    for index in range(count):
        if index < len(unlisted):
            family, ordered = unlisted[index]
            candidates = combined.order_wordings(ctx, family, ordered)
        else:
            ordered = _distinct_days(ctx, events, 3, seen)
            shown = _shown_order(ctx, ordered)
            values = dict(zip("abc", (_label(ctx, f) for f in shown), strict=True))
            candidates = grammar_wordings(ctx, ctx.texts.questions.order_ask, "origin", values)
        drafts.append(
            Draft(
                question_type="temporal_order",
                candidates=candidates,
                answer_kind="ordered_list",
                expected=", ".join(f.value for f in ordered),
                user_id=ctx.person.user_id,
                items=tuple(f.value for f in ordered),
                distractors=_other_events(ctx, events, ordered),
                evidence=tuple(f.key for f in ordered),
                clusters=tuple(dict.fromkeys(f.attribute for f in ordered)),
            )
        )
    return drafts


def _unlisted_orders(ctx: Context, events: list[Fact], count: int) -> list[tuple[str, list[Fact]]]:
    """With ``shared_questions``: up to ``count`` order questions that name only the kinds of
    their events, drawn among those the history allows (the rest list their events)."""
    if not ctx.content.shared_questions:
        return []
    options = combined.order_options(ctx, events)
    return ctx.stream.sample(options, min(count, len(options)))


def _other_events(ctx: Context, events: list[Fact], asked: list[Fact]) -> tuple[str, ...]:
    """With ``superseded_distractors``: the user's other events of the asked kinds and pool
    values of those kinds, so that reciting a pool (in whatever order) never pays."""
    if not ctx.content.superseded_distractors:
        return ()
    names = {f.value for f in asked}
    out: list[str] = []
    for kind in dict.fromkeys(f.attribute for f in asked):
        own = [f.value for f in events if f.attribute == kind and f.value not in names]
        out.extend(ctx.pool_topped(ctx.library.get(kind), own, tuple(names)))
    return tuple(dict.fromkeys(out))


def _shown_order(ctx: Context, ordered: list[Fact]) -> list[Fact]:
    """The order a question lists its events in: a shuffle, which with ``order_shown_unsorted``
    is never the right order (so repeating the question is never the answer)."""
    if not ctx.content.order_shown_unsorted:
        return ctx.stream.shuffle(ordered)
    wrong = [p for p in itertools.permutations(ordered) if list(p) != ordered]
    return list(ctx.stream.choice(wrong))


def _spread_pairs(ctx: Context, events: list[Fact], count: int) -> list[tuple[Fact, Fact]]:
    """``count`` event pairs on different days: each draws one of the distinct gaps the history
    has (every gap as likely as any other, so no guessed number of days is common), then one of
    the unused pairs that far apart."""
    by_gap: dict[int, list[tuple[Fact, Fact]]] = {}
    ordinals = [ctx.date_of(e).toordinal() for e in events]
    for i, a in enumerate(events):
        for j in range(i + 1, len(events)):
            days = ordinals[j] - ordinals[i]
            if days >= SPREAD_MIN_DAYS:
                by_gap.setdefault(days, []).append((a, events[j]))
    picked: list[tuple[Fact, Fact]] = []
    for _ in range(count):
        if not by_gap:
            raise ValueError(f"only {len(picked)} event pairs for {count} duration questions")
        days = ctx.stream.choice(sorted(by_gap))
        pool = by_gap[days]
        picked.append(pool.pop(ctx.stream.below(len(pool))))
        if not pool:
            del by_gap[days]
    return picked


def temporal_duration(ctx: Context, count: int) -> list[Draft]:
    events, seen, drafts = _own_events(ctx), set[tuple[str, ...]](), []
    spread = _spread_pairs(ctx, events, count) if ctx.content.durations_spread else None
    for index in range(count):
        first, second = spread[index] if spread else _distinct_days(ctx, events, 2, seen)
        days = (ctx.date_of(second) - ctx.date_of(first)).days
        values = {"a": _label(ctx, first), "b": _label(ctx, second)}
        evidence: tuple[str, ...] = (first.key, second.key)
        if ctx.content.companion_labels:
            values, evidence = _by_companion(ctx, (first, second), values, evidence)
        asks = ctx.texts.questions
        grammar = asks.days_ask if spread else asks.duration_ask
        drafts.append(
            Draft(
                question_type="temporal_duration",
                candidates=grammar_wordings(ctx, grammar, "origin", values),
                answer_kind="duration",
                expected=str(days),
                user_id=ctx.person.user_id,
                evidence=evidence,
                clusters=tuple(dict.fromkeys((first.attribute, second.attribute))),
            )
        )
    return drafts


def _by_companion(
    ctx: Context, pair: tuple[Fact, Fact], values: dict[str, str], evidence: tuple[str, ...]
) -> tuple[dict[str, str], tuple[str, ...]]:
    """One of the two events (drawn among those a single contact came along to) named by that
    contact instead of its label, with the fact saying who came as evidence too."""
    named = [
        (slot, event, company)
        for slot, event in zip(("a", "b"), pair, strict=True)
        if (company := combined.sole_companion(ctx, event)) is not None
    ]
    if not named:
        return values, evidence
    slot, event, company = ctx.stream.choice(named)
    label = combined.companion_label(ctx, event, company)
    return {**values, slot: label}, (*evidence, company.key)


def _activity(ctx: Context, count: int, role: str, kind: str, question_type: str) -> list[Draft]:
    drafts = []
    for end in ctx.stream.sample(ctx.facts_with_role(role), count):
        attribute = ctx.library.get(end.attribute)
        (start,) = [f for f in ctx.facts(end.attribute, role="start") if f.value == end.value]
        if ctx.content.shared_questions:
            candidates = combined.activity_wordings(ctx, start)
        else:
            candidates = ctx.wordings(attribute.grammar, "ask", {"value": end.value})
        drafts.append(
            Draft(
                question_type=question_type,
                candidates=candidates,
                answer_kind=kind,
                expected=end.value,
                user_id=ctx.person.user_id,
                items=(end.value,),
                distractors=_other_activities(ctx, attribute, end.value),
                evidence=(start.key, end.key),
                clusters=(attribute.name,),
            )
        )
    return drafts


def _other_activities(ctx: Context, attribute: Attribute, asked: str) -> tuple[str, ...]:
    """Every other activity of the pool (with ``superseded_distractors``): an answer about one
    activity that names others is a scattershot over the pool."""
    if not ctx.content.superseded_distractors:
        return ()
    return tuple(c.text for c in attribute.values if c.text != asked)


def activity_quit(ctx: Context, count: int) -> list[Draft]:
    return _activity(ctx, count, "quit", "reversal", "activity_quit")


def activity_ongoing(ctx: Context, count: int) -> list[Draft]:
    return _activity(ctx, count, "still", "persistence", "activity_ongoing")
