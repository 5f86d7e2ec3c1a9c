"""Questions that gather across sessions (counts, lists, how often a topic came up), requests that
must honour a stated preference, and the declines: never said, only someone else's, and a place
the user never went."""

from __future__ import annotations

from dittobench.core.text import phrases_in
from dittobench.generate.memory.asking import ask_wordings
from dittobench.generate.memory.draft import Context, Draft
from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.persona.model import NOBODY, SELF, TWIN

DECLINE_DISTRACTORS = 3


def multi_session_count(ctx: Context, count: int) -> list[Draft]:
    """How many events of one kind the user reported across sessions."""
    return _tally(ctx, count, "multi_session_count", kind="event_list", role="event")


def multi_session_list(ctx: Context, count: int) -> list[Draft]:
    drafts = []
    for attribute in ctx.stream.sample(ctx.own_attributes("event_list"), count):
        events = ctx.facts(attribute.name, role="event")
        values = tuple(f.value for f in events)
        drafts.append(
            Draft(
                question_type="multi_session_list",
                candidates=ask_wordings(ctx, attribute, "ask_list", {}),
                answer_kind="list",
                expected=", ".join(values),
                user_id=ctx.person.user_id,
                items=values,
                distractors=ctx.pool_topped(attribute, ctx.others_values(attribute.name)),
                evidence=tuple(f.key for f in events),
                clusters=(attribute.name,),
            )
        )
    return drafts


def mention_count(ctx: Context, count: int) -> list[Draft]:
    """How many times a recurring topic came up."""
    return _tally(ctx, count, "mention_count", kind="recurring", role="mention")


def _tally(ctx: Context, count: int, question_type: str, kind: str, role: str) -> list[Draft]:
    """Number questions over the user's ``kind`` attributes: the answer is how many facts of
    ``role`` the user holds, and every one of them is evidence (with ``tally_days``, also the
    day of the first, which the question asks too)."""
    drafts = []
    for attribute in ctx.stream.sample(ctx.own_attributes(kind), count):
        facts = ctx.facts(attribute.name, role=role)
        first = min(ctx.date_of(f) for f in facts).isoformat() if ctx.content.tally_days else ""
        drafts.append(
            Draft(
                question_type=question_type,
                candidates=ask_wordings(ctx, attribute, "ask_count", {}),
                answer_kind="tally" if first else "number",
                expected=str(len(facts)),
                user_id=ctx.person.user_id,
                items=(first,) if first else (),
                evidence=tuple(f.key for f in facts),
                clusters=(attribute.name,),
            )
        )
    return drafts


def preference_application(ctx: Context, count: int) -> list[Draft]:
    drafts = []
    for attribute in ctx.stream.sample(ctx.own_attributes("preference"), count):
        (fact,) = ctx.chain(attribute.name)
        drafts.append(
            Draft(
                question_type="preference_application",
                candidates=ask_wordings(ctx, attribute, "apply", {}),
                answer_kind="value",
                expected=fact.value,
                user_id=ctx.person.user_id,
                accepted=ctx.aliases(attribute, fact.value),
                distractors=ctx.pool_topped(attribute, ctx.others_values(attribute.name)),
                evidence=(fact.key,),
                clusters=(attribute.name,),
            )
        )
    return drafts


def _other_subjects(ctx: Context, attribute: Attribute) -> tuple[str, ...]:
    """The topic phrases of every other fixed attribute, as the user and as the assistant would
    say them (with ``decline_subjects``): a decline that names another question's subject is a
    scattershot, not an answer to this one."""
    if not ctx.content.decline_subjects:
        return ()
    own = set(attribute.grammar["topic"])
    return tuple(
        dict.fromkeys(
            form
            for name, topic, forms in _fixed_topics(ctx)
            if name != attribute.name and topic not in own
            for form in forms
        )
    )


_TOPICS: dict[str, tuple[tuple[str, str, tuple[str, str]], ...]] = {}
"""Per pack (by SHA-256): each fixed attribute's topic phrases, as the user and as the assistant
says them; the same for every run of the pack, and asked for by every decline."""


def _fixed_topics(ctx: Context) -> tuple[tuple[str, str, tuple[str, str]], ...]:
    key = ctx.texts.pack_sha256
    if key not in _TOPICS:
        _TOPICS[key] = tuple(
            (other.name, topic, (topic, second_person(topic, ctx)))
            for other in ctx.library.of_kind("fixed")
            for topic in other.grammar["topic"]
        )
    return _TOPICS[key]


def second_person(phrase: str, ctx: Context) -> str:
    """A first-person phrase as the assistant says it: "what I'm allergic to" -> "what you're
    allergic to" (the pack's ``second_person`` table, word by word)."""
    table = ctx.texts.questions.second_person
    return " ".join(table.get(word, word) for word in phrase.split(" "))


def _subject(ctx: Context, attribute: Attribute) -> tuple[str, ...]:
    """What a decline is about, in the attribute's own topic phrases ("my sister's name"), when
    the content version names decline subjects."""
    if not ctx.content.decline_subjects:
        return ()
    topics = attribute.grammar["topic"]
    return tuple(dict.fromkeys((*topics, *(second_person(t, ctx) for t in topics))))


def abstention_unknown(ctx: Context, count: int) -> list[Draft]:
    """Attributes nobody in the haystack holds: the only right answer is a decline (bench 3.0:
    asked about attributes that have a look-alike, when there are enough; its value, nobody's,
    is a distractor)."""
    mentioned = {f.attribute for f in ctx.person.facts if f.role != TWIN}
    unknown = [
        a for a in ctx.library.of_kind("fixed", ctx.person.profession) if a.name not in mentioned
    ]
    if ctx.content.twin_unheld:  # asked about look-alikes when there are enough of them
        twinned = {f.attribute for f in ctx.person.facts if f.holder == NOBODY and f.role == TWIN}
        alike = [a for a in unknown if a.name in twinned]
        unknown = alike if len(alike) >= count else unknown
    drafts = []
    for attribute in ctx.stream.sample(unknown, count):
        twins = [f.value for f in ctx.facts(attribute.name, NOBODY, TWIN)]
        drafts.append(
            Draft(
                question_type="abstention_unknown",
                candidates=ask_wordings(ctx, attribute, "ask", {}),
                answer_kind="decline",
                expected="",
                user_id=ctx.person.user_id,
                items=_subject(ctx, attribute),
                distractors=ctx.top_up(attribute, twins, (), DECLINE_DISTRACTORS)
                + _other_subjects(ctx, attribute),
            )
        )
    return drafts


def abstention_near_miss(ctx: Context, count: int) -> list[Draft]:
    """Attributes only someone else holds: their value is the trap (and, bench 3.0, the values
    of the attribute's look-alikes, which are nobody's and no evidence)."""
    own = {f.attribute for f in ctx.person.facts if f.holder == SELF}
    contacts = {f.attribute for f in ctx.person.facts if f.holder not in (SELF, NOBODY)}
    theirs = [
        a
        for a in ctx.library.of_kind("fixed", ctx.person.profession)
        if a.name not in own and a.name in contacts
    ]
    drafts = []
    for attribute in ctx.stream.sample(theirs, count):
        others = [f for f in ctx.facts(attribute.name, holder=None) if f.holder != SELF]
        drafts.append(
            Draft(
                question_type="abstention_near_miss",
                candidates=ask_wordings(ctx, attribute, "ask", {}),
                answer_kind="decline",
                expected="",
                user_id=ctx.person.user_id,
                items=_subject(ctx, attribute),
                distractors=tuple(f.value for f in others) + _other_subjects(ctx, attribute),
                evidence=tuple(f.key for f in others if f.holder != NOBODY),
                clusters=(attribute.name,),
            )
        )
    return drafts


def abstention_never_visited(ctx: Context, count: int) -> list[Draft]:
    """A plausible city the user never went to (never a city anyone in the haystack names)."""
    trips = ctx.library.get("trips")
    text = "\n".join(f"{p.prompt}\n{p.response}" for p in ctx.haystack.pairs)
    seen = set(phrases_in(text, [c.text for c in trips.values]))
    unseen = [c.text for c in trips.values if c.text not in seen]
    lures = ctx.stream.sample(unseen, count)
    return [
        Draft(
            question_type="abstention_never_visited",
            candidates=ask_wordings(ctx, trips, "ask_lure", {"value": lure}),
            answer_kind="decline",
            expected="",
            user_id=ctx.person.user_id,
            items=(lure,) if ctx.content.decline_subjects else (),
            distractors=ctx.pool_topped(trips, (), exclude=(*seen, lure)),
            clusters=("trips",),
        )
        for lure in lures
    ]
