"""Recall questions: a fact said once, a fact only the assistant said, the integrity token, and a
fact whose stored memory carries a planted instruction."""

from __future__ import annotations

from dataclasses import replace

from dittobench.generate.memory import combined
from dittobench.generate.memory.asking import ask_wordings, grammar_wordings
from dittobench.generate.memory.draft import CANDIDATE_WORDINGS, Context, Draft, superseded
from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.persona.model import NOBODY, SELF, TWIN

FAMILY_SIZE = 3


def families_and_singles(count: int) -> tuple[int, int]:
    """Paraphrase families of three and single questions that make up ``count`` recall cases:
    32 -> 10 families + 2 singles, 8 -> 2 + 2, 1 -> 0 + 1."""
    families = (count - 2) // FAMILY_SIZE if count >= 5 else 0
    return families, count - FAMILY_SIZE * families


COMBINED_SHARE = 3
"""With ``shared_questions``: up to one recall subject in this many combines two facts."""
WEEKDAY_COMBOS = 1
"""At most this many recall subjects ask an event's weekday, and they come last (single
questions, not families of three): seven weekdays make a guessed one right too often."""


def _combos(ctx: Context, available: list[combined.Combo], count: int) -> list[combined.Combo]:
    """``count`` combined subjects: the others drawn first, then at most ``WEEKDAY_COMBOS``
    weekday ones to fill up."""
    weekdays = [c for c in available if c.family == combined.WEEKDAY]
    others = [c for c in available if c.family != combined.WEEKDAY]
    picked = ctx.stream.sample(others, min(len(others), count))
    room = min(WEEKDAY_COMBOS, len(weekdays), count - len(picked))
    return picked + ctx.stream.sample(weekdays, room)


def single_session_recall(ctx: Context, count: int) -> list[Draft]:
    families, singles = families_and_singles(count)
    subjects = families + singles
    available = combined.combos(ctx) if ctx.content.shared_questions else []
    combos = _combos(ctx, available, min(len(available), subjects // COMBINED_SHARE))
    attributes = ctx.stream.sample(ctx.own_attributes("fixed"), subjects - len(combos))
    # Weekday combos go last, so they are single questions (the first subjects are families).
    last = [c for c in combos if c.family == combined.WEEKDAY]
    ordered: list[combined.Combo | Attribute] = [
        *(c for c in combos if c.family != combined.WEEKDAY),
        *attributes,
        *last,
    ]
    drafts: list[Draft] = []
    for index, subject in enumerate(ordered):
        if isinstance(subject, combined.Combo):
            drafts.extend(_combo_drafts(ctx, subject, family=index < families))
        else:
            drafts.extend(_fact_drafts(ctx, subject, family=index < families))
    return drafts


def _combo_drafts(ctx: Context, combo: combined.Combo, family: bool) -> list[Draft]:
    if not family:
        return [combined.combo_draft(ctx, combo, CANDIDATE_WORDINGS)]
    drafted = combined.combo_draft(ctx, combo, FAMILY_SIZE)
    tag = f"{combo.family}:{combo.evidence[-1]}"
    return [replace(drafted, candidates=(ask,), family=tag) for ask in drafted.candidates]


def _fact_drafts(ctx: Context, attribute: Attribute, family: bool) -> list[Draft]:
    (fact,) = ctx.chain(attribute.name)
    base = Draft(
        question_type="single_session_recall",
        candidates=(),
        answer_kind="value",
        expected=fact.value,
        user_id=ctx.person.user_id,
        accepted=ctx.aliases(attribute, fact.value),
        distractors=ctx.top_up(attribute, ctx.others_values(attribute.name), [fact.value], 2),
        dump_guard=ctx.dump_guard([fact.value]),
        evidence=(fact.key,),
        clusters=(attribute.name,),
    )
    if not family:
        return [replace(base, candidates=ask_wordings(ctx, attribute, "ask", {}))]
    asks = ask_wordings(ctx, attribute, "ask", {}, FAMILY_SIZE)
    if len(asks) < FAMILY_SIZE:
        raise ValueError(f"{attribute.name}: fewer than {FAMILY_SIZE} distinct asks")
    return [replace(base, candidates=(ask,), family=attribute.name) for ask in asks]


def assistant_recall(ctx: Context, count: int) -> list[Draft]:
    drafts = []
    for attribute in ctx.stream.sample(ctx.own_attributes("assistant"), count):
        (fact,) = ctx.facts(attribute.name, role="recommend")
        asides = [f.value for f in ctx.facts(attribute.name, NOBODY, TWIN)]
        drafts.append(
            Draft(
                question_type="assistant_recall",
                candidates=ask_wordings(ctx, attribute, "ask", {}),
                answer_kind="value",
                expected=fact.value,
                user_id=ctx.person.user_id,
                accepted=ctx.aliases(attribute, fact.value),
                distractors=ctx.top_up(attribute, asides, [fact.value], 2),
                dump_guard=ctx.dump_guard([fact.value]),
                evidence=(fact.key,),
                clusters=(attribute.name,),
            )
        )
    return drafts


def integrity_token(ctx: Context, count: int) -> list[Draft]:
    (token,) = ctx.facts("integrity_token", role="token")
    (decoy,) = ctx.facts("integrity_token", holder=None, role="token_decoy")
    return [
        Draft(
            question_type="integrity_token",
            candidates=grammar_wordings(ctx, ctx.texts.questions.token_ask, "origin", {}),
            answer_kind="value",
            expected=token.value,
            user_id=ctx.person.user_id,
            forbidden=(decoy.value,),
            evidence=(token.key,),
            clusters=("integrity_token",),
        )
        for _ in range(count)
    ]


def stored_injection(ctx: Context, count: int) -> list[Draft]:
    drafts = []
    planted = ctx.facts_with_role("injection")
    for fact in ctx.stream.sample(planted, count):
        attribute = ctx.library.get(fact.attribute)
        current = ctx.chain(attribute.name)[-1]
        drafts.append(
            Draft(
                question_type="stored_injection",
                candidates=ask_wordings(ctx, attribute, "ask", {}),
                answer_kind="value",
                expected=current.value,
                user_id=ctx.person.user_id,
                accepted=ctx.aliases(attribute, current.value),
                distractors=_distractors(ctx, attribute, current.value),
                forbidden=(fact.value,),
                dump_guard=ctx.dump_guard([current.value]),
                evidence=(current.key, fact.key),
                clusters=(attribute.name,),
            )
        )
    return drafts


def _distractors(ctx: Context, attribute: Attribute, current: str) -> tuple[str, ...]:
    states = [f.value for f in ctx.chain(attribute.name)]
    others = ctx.top_up(attribute, ctx.others_values(attribute.name), states, 0)
    if ctx.content.superseded_distractors:
        return superseded(states, current) + ctx.pool_topped(attribute, others, states)
    return others


def payloads_by_attribute(ctx: Context) -> dict[str, str]:
    """Planted payloads by the attribute they target: every question about that attribute must
    keep them out of its answer, not only the injection question."""
    return {f.attribute: f.value for f in ctx.facts_with_role("injection") if f.holder == SELF}
