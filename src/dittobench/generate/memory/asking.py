"""How bench 3.0 words its questions: families shared across attributes, anchored leads.

Up to bench 2.0 each attribute asked in its own words (``ask``, ``ask_then``, ``ask_count``,
``ask_list``), so a question's wording named its attribute. With ``shared_questions`` a
question is drawn from a family of the pack's ``questions.json`` ``asking`` grammar that many
attributes share (``value``, ``current``, ``then``, ``count``, ``list``, ``mentions``, and the
order, activity and combined families); the attribute enters only as a slot, one of its
``subjects`` phrases ("my car", "the car I drive"), drawn per wording. Every question opens
with a lead anchored in the person's own history: a contact of theirs ("Before I call my
cousin Aurelio back, ..."), or a date of one of their sessions, so the same question reads
differently for every person. Questions whose wording an attribute still owns (a preference
applied, a recommendation recalled, a write instruction, the never-visited city, the token,
the days between two events) keep it, after an ``aside`` anchored the same way.

Slots of the families: ``{subject}``, ``{things}`` and ``{things_b}`` (a kind of event, in
the plural), ``{theme}`` (a recurring topic), ``{date}``, ``{event}`` (an event's label),
``{companion}``; the leads use ``{person}`` and ``{date}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from dittobench.core.dates import spoken_date
from dittobench.core.errors import DittobenchError
from dittobench.core.text import PhraseSet
from dittobench.generate.grammar import Grammar, expand, fill, tidy
from dittobench.generate.memory.draft import CANDIDATE_WORDINGS, Context
from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.texts import Texts

ASKING = "asking"
SUBJECTS = "subjects"
ASIDE = "aside"
EVENT_WITH = "event_with"
"""A noun phrase for an event by who came along (``{things}``, ``{companion}``): needed only by
a version with ``companion_labels``."""

FAMILY_OF: Mapping[tuple[str, str], tuple[str, str]] = MappingProxyType(
    {
        ("fixed", "ask"): ("value", "subject"),
        ("changing", "ask"): ("current", "subject"),
        ("changing", "ask_then"): ("then", "subject"),
        ("event_list", "ask_count"): ("count", "things"),
        ("event_list", "ask_list"): ("list", "things"),
        ("recurring", "ask_count"): ("mentions", "theme"),
    }
)
"""(attribute kind, the symbol it asked with) -> (the shared family, its subject slot)."""

FAMILIES = (
    "value",
    "current",
    "then",
    "then_event",
    "count",
    "list",
    "mentions",
    "order_all",
    "order_first",
    "order_last",
    "order_mixed",
    "activity",
    "with",
    "weekday",
    "with_which",
    ASIDE,
)
"""The roots of the ``asking`` grammar the generator expands."""


class AskingError(DittobenchError, ValueError):
    """A pack's ``asking`` or ``subjects`` (questions.json) that the generator cannot use."""


@dataclass(frozen=True, slots=True)
class Asking:
    """A pack's shared question families and each attribute's subject phrases."""

    grammar: Grammar
    subjects: Mapping[str, tuple[str, ...]]

    def subjects_of(self, attribute: str) -> tuple[str, ...]:
        phrases = self.subjects.get(attribute)
        if not phrases:
            raise AskingError(f"questions.json subjects: no phrases for attribute {attribute!r}")
        return phrases


_CACHE: dict[str, Asking] = {}


def asking_of(texts: Texts) -> Asking:
    """The pack's ``asking`` grammar and ``subjects`` (cached by the pack's SHA-256)."""
    cached = _CACHE.get(texts.pack_sha256)
    if cached is None:
        cached = _CACHE[texts.pack_sha256] = parse_asking(texts.pack.file("questions"))
    return cached


def parse_asking(data: Mapping[str, object]) -> Asking:
    """Read ``asking`` (symbol -> alternatives) and ``subjects`` (attribute -> phrases)."""
    grammar = _string_lists(data.get(ASKING), ASKING)
    missing = [f for f in FAMILIES if not grammar.get(f)]
    if missing:
        raise AskingError(f"questions.json {ASKING}: needs the symbols {', '.join(missing)}")
    subjects = _string_lists(data.get(SUBJECTS), SUBJECTS)
    return Asking(
        MappingProxyType(grammar),
        MappingProxyType({k: tuple(v) for k, v in subjects.items()}),
    )


def _string_lists(raw: object, key: str) -> dict[str, list[str]]:
    if not isinstance(raw, dict):
        raise AskingError(f"questions.json {key}: must map names to lists of strings")
    out: dict[str, list[str]] = {}
    for name, items in raw.items():
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise AskingError(f"questions.json {key}.{name}: must be a list of strings")
        out[str(name)] = list(items)
    return out


def ask_wordings(
    ctx: Context,
    attribute: Attribute,
    symbol: str,
    values: Mapping[str, str],
    count: int = CANDIDATE_WORDINGS,
    then: str = "",
) -> tuple[str, ...]:
    """Candidate wordings of a question about ``attribute`` asked with its ``symbol``: the
    attribute's own (before ``shared_questions``), a shared family with its subject as a slot
    (``then``: another family of the same subject slot), or its own wording after an anchored
    aside."""
    if not ctx.content.shared_questions:
        return ctx.wordings(attribute.grammar, symbol, dict(values), count)
    found = FAMILY_OF.get((attribute.kind, symbol))
    if found is None:
        return aside_wordings(ctx, attribute.grammar, symbol, values, count)
    family, slot = found
    family = then or family
    phrases = asking_of(ctx.texts).subjects_of(attribute.name)
    return family_wordings(ctx, family, values, count, {slot: phrases})


def grammar_wordings(
    ctx: Context,
    grammar: Grammar,
    symbol: str,
    values: Mapping[str, str],
    count: int = CANDIDATE_WORDINGS,
) -> tuple[str, ...]:
    """A question no attribute owns (the token, the days between events): as it was, or after
    an anchored aside with ``shared_questions``."""
    if not ctx.content.shared_questions:
        return ctx.wordings(grammar, symbol, dict(values), count)
    return aside_wordings(ctx, grammar, symbol, values, count)


def family_wordings(
    ctx: Context,
    family: str,
    values: Mapping[str, str],
    count: int = CANDIDATE_WORDINGS,
    drawn: Mapping[str, Sequence[str]] | None = None,
    avoid: Sequence[str] = (),
) -> tuple[str, ...]:
    """Up to ``count`` distinct wordings of a shared ``family``: each expansion gets its own
    lead anchor and its own draw of every slot in ``drawn`` (a subject among its phrases);
    none names a phrase of ``avoid`` (the answer, which a lead's contact could be)."""
    grammar = asking_of(ctx.texts).grammar
    named = PhraseSet(avoid)
    out: list[str] = []
    for _ in range(count * 12):
        template = tidy(expand(grammar, ctx.stream, family))
        slots = {**_anchors(ctx), **values}
        for name, phrases in (drawn or {}).items():
            slots[name] = ctx.stream.choice(phrases)
        text = _capitalised(fill(template, slots))
        if text not in out and not named.any_in(text):
            out.append(text)
        if len(out) == count:
            break
    return tuple(out)


def aside_wordings(
    ctx: Context,
    grammar: Grammar,
    symbol: str,
    values: Mapping[str, str],
    count: int = CANDIDATE_WORDINGS,
) -> tuple[str, ...]:
    """The grammar's own wordings, each after an anchored aside ("I'm about to call Greta.")."""
    shared = asking_of(ctx.texts).grammar
    out: list[str] = []
    for body in ctx.wordings(grammar, symbol, dict(values), count):
        aside = fill(tidy(expand(shared, ctx.stream, ASIDE)), _anchors(ctx))
        out.append(f"{_capitalised(aside)} {body}")
    return tuple(dict.fromkeys(out))


def _anchors(ctx: Context) -> dict[str, str]:
    """A contact of the person's (as the history names them: in full or by name) and one of
    their session dates, for a lead's ``{person}`` and ``{date}``."""
    contact = ctx.stream.choice(ctx.person.contacts)
    person = contact.phrase if ctx.stream.chance(1, 2) else contact.name
    days = ctx.haystack.session_dates
    day = days[ctx.stream.below(len(days))]
    return {"person": person, "date": spoken_date(day)}


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]
