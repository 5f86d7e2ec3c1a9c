"""Fixed rules for an external question whose gold answer is one short value (docs/external.md,
"Grading").

An answer passes when it commits to the gold value, and only to it. Containing the value is not
enough: a reply that lists many candidates, or hedges between two, contains the right one too.
So, in this order:

1. nothing delivered, nothing said, the abstain flag, or a reply that says it does not know
   (``match.says_not_knowing``, outside any echo of the question) -> 0;
2. a reply longer than ``LONG_REPLY`` characters is a dump -> 0;
3. the answer slot, when given, is the answer (else the prose), read for what it commits to
   (``commitment``: a value it sets aside, as someone else's, a former one, a negated one, is
   no answer; the question's own words count in their inflected forms too, so "she moved from
   Sweden" answers "where did she move from?"); committing to ``RIVAL_DUMP`` or more of the
   suite's other gold values, or ``FRAGMENTS_MOST`` or more bare fragments (a bulleted list),
   is a dump -> 0;
4. the *lead* is the first sentence naming the gold, for a text value, else the first naming a
   candidate of the gold's kind (a number, a duration, a day, a month, a year): none -> 0. The
   lead, and any sentence before it naming a candidate, must not hedge ("or", "either",
   "maybe", "one of"…) -> 0; the gold must not be one item of a list of ``LIST_MOST`` or more
   short items (of any kind) -> 0;
5. the lead states the gold value: a text value in any of its forms (case, punctuation and
   hyphens aside, bounded, so "York" is not in "Yorkshire"); a number in digits or words and
   no other candidate number; a duration as exactly those days and no other; a day in any form
   ``grade.dates`` reads (a year, when both give one, must agree), with at most ``DATES_MOST``
   days named; a month with its year; a year, with at most ``DATES_MOST`` years named.

Pure: no clock, no I/O, never raises on any string.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

from dittobench.core.dates import MONTH_OF
from dittobench.core.text import normalize
from dittobench.grade.commitment import (
    committed_text,
    lines_as_sentences,
    read_mentions,
    sentences_of,
)
from dittobench.grade.dates import Day, days_in
from dittobench.grade.guards import candidate_numbers, mask_echo
from dittobench.grade.match import COMMON_WORDS, Prepared, hit, prepare, says_not_knowing
from dittobench.grade.memory import LONG_REPLY
from dittobench.grade.memory_kinds import whole_number
from dittobench.grade.numbers import bare_days, durations_in_days
from dittobench.spec.vocab import ExternalReason
from dittobench.spec.wire import RunResponse

LIST_MOST: Final = 3
"""Short list items in the lead, each naming a candidate, that make it a list of guesses."""
RIVAL_DUMP: Final = 3
"""Other gold values of the suite a reply may commit to before it is a dump."""
FRAGMENTS_MOST: Final = 4
"""Bare fragments (sentences or lines of at most ``FRAGMENT_WORDS`` words, no label) that make
a dump (a bulleted list of guesses)."""
FRAGMENT_WORDS: Final = 3
DATES_MOST: Final = 2
"""Distinct days (months, years) the lead may name: the answer and, say, the day it was said."""
RIVALS_KEPT: Final = 64
"""The most other gold values a question is graded against."""

_HEDGE = re.compile(
    r"(?<![^\W_])(?:or|either|whether|one of|maybe|perhaps|possibly|might be|might have been|"
    r"could be|could have been|my guess|my best guess|not sure which)(?![^\W_])"
)
_DATE_COMMA = re.compile(
    r"(?<![^\W_])((?:" + "|".join(sorted(MONTH_OF, key=len, reverse=True)) + r")\.? "
    r"[0-9]{1,2}(?:st|nd|rd|th)?),\s*(?=(?:1[89]|20)[0-9]{2}(?![0-9]))"
)
"""A day's comma before its year ("May 7, 2023"), which separates no list items."""
_SEGMENT = re.compile(r"\s*(?:[,;/&]|(?<![^\W_])(?:and|or|then)(?![^\W_]))\s*")
_YEAR = re.compile(r"(?<![0-9])(1[89][0-9]{2}|20[0-9]{2})(?![0-9])")
_MONTH_WORD = re.compile(
    r"(?<![^\W_])(" + "|".join(sorted(MONTH_OF, key=len, reverse=True)) + r")(?![^\W_])"
)
_CURRENCY = re.compile(r"^[$£€¥]\s*|\s*(?:usd|eur|gbp|dollars?|euros?|pounds?)$", re.I)
_DURATION_GOLD = re.compile(
    r"(?:[0-9]+(?:[.,][0-9]+)?|an?|[a-z]+(?:[ -][a-z]+)?)(?: and an? half)? "
    r"(?:days?|weeks?|fortnights?|months?|years?)"
)
_DATE_WORDS = frozenset(("of", "the", "on", ","))


@dataclass(frozen=True, slots=True)
class Gold:
    """What a gold value is, read once: its ``kind`` (``text``, ``number``, ``duration``,
    ``date``, ``month``, ``year``), the written forms a text value may take, and the number,
    days, day or (month, year) it stands for."""

    kind: str
    forms: tuple[str, ...]
    number: int = 0
    day: Day | None = None
    month: tuple[int, int] | None = None


def read_gold(gold: str) -> Gold:
    """The kind and forms of a gold value (``text`` when it is none of the others)."""
    text = " ".join(gold.split()).strip().rstrip(".")
    norm = normalize(text)
    forms = tuple(dict.fromkeys(f for f in (text, _CURRENCY.sub("", text)) if f))
    if _YEAR.fullmatch(norm):
        return Gold("year", forms, int(norm))
    number = whole_number(text)
    if number is not None and 0 <= number < 1000:
        return Gold("number", forms, number)
    if _DURATION_GOLD.fullmatch(norm):
        found = durations_in_days(norm)
        if len(found) == 1:
            return Gold("duration", forms, found[0])
    days = days_in(norm)
    leftover = [w for w in re.findall(r"[a-z]+|,", norm) if w not in MONTH_OF]
    if len(days) == 1 and all(
        w in _DATE_WORDS or re.fullmatch(r"st|nd|rd|th", w) for w in leftover
    ):
        return Gold("date", forms, day=days[0])
    month = re.fullmatch(_MONTH_WORD.pattern + r"\.? ([0-9]{4})", norm)
    if month is not None:
        return Gold("month", forms, month=(MONTH_OF[month.group(1)], int(month.group(2))))
    return Gold("text", forms)


@dataclass(frozen=True, slots=True)
class ValueVerdict:
    """1.0 or 0.0, and why it lost credit ("" when it passed): ``undelivered``, ``empty``,
    ``declined``, ``dump``, ``missing`` (no candidate named), ``hedge``, ``wrong``."""

    score: float
    reason: Literal["", ExternalReason] = ""


def _zero(reason: ExternalReason) -> ValueVerdict:
    return ValueVerdict(0.0, reason)


def rivals_for(gold: str, others: list[str]) -> tuple[str, ...]:
    """The other gold values a reply to ``gold``'s question is checked against: distinct, none
    a form of the gold or holding one, none a common word, at most ``RIVALS_KEPT``."""
    forms = read_gold(gold).forms
    out: dict[str, str] = {}
    for value in others:
        key = normalize(value).strip(" .")
        if not key or key in out or key in COMMON_WORDS or len(key) < 2:
            continue
        if any(hit(value, f) or hit(f, value) for f in forms):
            continue
        out[key] = value
        if len(out) >= RIVALS_KEPT:
            break
    return tuple(out.values())


def grade_value(
    question: str, gold: str, response: RunResponse | None, rivals: tuple[str, ...] = ()
) -> ValueVerdict:
    """Grade one reply to a question whose gold answer is one short value (module docstring);
    ``rivals``: the suite's other gold values (``rivals_for``)."""
    if response is None:
        return _zero("undelivered")
    slot = (response.answer or "").strip()
    raw = slot or (response.final_text or "")
    if response.abstain is True:
        return _zero("declined")
    if not raw.strip():
        return _zero("empty")
    if len(raw) > LONG_REPLY:
        return _zero("dump")
    text = mask_echo(prepare(lines_as_sentences(raw)), question)
    if says_not_knowing(text):
        return _zero("declined")
    wanted = read_gold(gold)
    mentions = read_mentions(
        text, (*wanted.forms, *rivals), with_inflections(question), readings_5=True,
        readings_6=True,
    )  # fmt: skip
    said = committed_text(text, mentions)
    if sum(1 for r in rivals if hit(said, r)) >= RIVAL_DUMP or _fragments(said) >= FRAGMENTS_MOST:
        return _zero("dump")
    asked = prepare(question)
    names = _namer(wanted, rivals, asked)
    leading = _leading(wanted, said, names)
    if not leading:
        return _zero("missing")
    lead = leading[-1]
    if any(_HEDGE.search(s.norm) for s in leading if names(s)):
        return _zero("hedge")
    parts = [p for p in _SEGMENT.split(_DATE_COMMA.sub(r"\1", lead.norm)) if p.strip()]
    short = [p for p in parts if _short(p)]
    if len(short) >= LIST_MOST and any(_states(wanted, prepare(p), asked)[0] for p in short):
        return _zero("dump")  # the gold is one item of a list of guesses
    right, alone = _states(wanted, lead, asked)
    if not right:
        return _zero("wrong")
    return ValueVerdict(1.0) if alone else _zero("hedge")


def _leading(wanted: Gold, said: Prepared, names: Callable[[Prepared], bool]) -> list[Prepared]:
    """The sentences up to the lead: the first naming the gold, for a text value (a sentence
    naming another gold value before it is context); else the first naming a candidate of the
    gold's kind (another number, day or duration is an alternative answer). Empty when none
    does."""
    out: list[Prepared] = []
    for sentence in sentences_of(said):
        out.append(sentence)
        if wanted.kind == "text":
            if any(hit(sentence, form) for form in wanted.forms):
                return out
        elif names(sentence):
            return out
    return []


_WORD = re.compile(r"[a-z]{3,}")


def with_inflections(question: str) -> str:
    """``question`` followed by the regular inflections of its words ("move": "moves moved
    moving"), so a cue that only repeats what the question asks ("where did she move from?" -
    "she moved from Sweden") sets no value aside (``commitment`` skips cues the question uses)."""
    extra: dict[str, None] = {}
    for word in _WORD.findall(normalize(question)):
        stem = word[:-1] if word.endswith("e") else word
        for form in (word + "s", stem + "ed", stem + "ing", word + "d" if word != stem else ""):
            if form:
                extra[form] = None
    return f"{question} {' '.join(extra)}" if extra else question


def _fragments(said: Prepared) -> int:
    """Bare fragments: sentences or lines of a few words with no label ("- Max", not
    "Name: Max")."""
    return sum(1 for s in sentences_of(said) if _short(s.norm) and ":" not in s.norm)


def _short(part: str) -> bool:
    count = len(re.findall(r"[^\W_]+", part))
    return 0 < count <= FRAGMENT_WORDS


def _namer(wanted: Gold, rivals: tuple[str, ...], asked: Prepared) -> Callable[[Prepared], bool]:
    """Whether a sentence names a candidate of the gold's kind (a bare number names a duration
    in days)."""
    values = (*wanted.forms, *rivals)
    asked_numbers = candidate_numbers(asked)
    asked_years = set(_YEAR.findall(asked.norm))

    def names(text: Prepared) -> bool:
        if wanted.kind == "number":
            return bool(candidate_numbers(text) - asked_numbers)
        if wanted.kind == "duration":
            return bool(durations_in_days(text)) or bare_days(text) is not None
        if wanted.kind == "date":
            return bool(days_in(text))
        if wanted.kind == "month":
            return bool(_MONTH_WORD.search(text.norm))
        if wanted.kind == "year":
            return bool(set(_YEAR.findall(text.norm)) - asked_years)
        return any(hit(text, value) for value in values)

    return names


def _states(wanted: Gold, lead: Prepared, asked: Prepared) -> tuple[bool, bool]:
    """(the text states the gold value, it states no other candidate of its kind beyond the
    allowance)."""
    kind = wanted.kind
    if kind == "number":
        named = candidate_numbers(lead) - candidate_numbers(asked)
        return wanted.number in named, len(named) == 1
    if kind == "duration":
        stated = set(durations_in_days(lead))
        if not stated and (bare := bare_days(lead)) is not None:
            stated = {bare}
        return wanted.number in stated, len(stated) == 1
    if kind == "year":
        years = _years(lead) - _years(asked)
        return wanted.number in years, len(years) <= DATES_MOST
    if kind == "date" and wanted.day is not None:
        days = days_in(lead)
        month, day, year = wanted.day
        right = any(
            (m, d) == (month, day) and (year is None or y in (None, year)) for m, d, y in days
        )
        return right, len({(m, d) for m, d, _y in days}) <= DATES_MOST
    if kind == "month" and wanted.month is not None:
        month, year = wanted.month
        months = {MONTH_OF[m] for m in _MONTH_WORD.findall(lead.norm)}
        years = _years(lead)
        right = month in months and year in years
        return right, len(months) <= DATES_MOST and len(years) <= DATES_MOST
    return any(hit(lead, f) for f in wanted.forms), True


def _years(text: Prepared) -> set[int]:
    return {int(y) for y in _YEAR.findall(text.norm)}


__all__ = [
    "DATES_MOST",
    "FRAGMENTS_MOST",
    "LIST_MOST",
    "RIVAL_DUMP",
    "Gold",
    "ValueVerdict",
    "grade_value",
    "read_gold",
    "rivals_for",
]
