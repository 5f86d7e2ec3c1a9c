"""What an answer must not get credit for: repeating the question, hedging between numbers,
naming an old value as if it were current, and offering a guess inside a decline.

These are grading-2's guards (docs/grading.md gives each the exploit it closes). Like the rest of
the grader they are pure and never raise on any string.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Final

from dittobench.core.text import WORD, wordset
from dittobench.grade.cues import PLACE_TO_LOOK
from dittobench.grade.match import Prepared, has_phrase, has_unnegated, prepare, spans
from dittobench.grade.numbers import number_spans

# --- echoes of the question --------------------------------------------------------------------

_PRONOUNS: Final = wordset("i me my mine myself you your yours yourself we us our ours ourselves")
ECHO_MIN_WORDS: Final = 5
ECHO_MIN_SHARE: Final = 0.6
"""A run of the question's words is an echo when it is at least ``ECHO_MIN_WORDS`` long and
covers at least ``ECHO_MIN_SHARE`` of the question; a restatement in the answer's own words
("I don't know which artist you admire most") stays below both."""


def _words(text: str) -> list[str]:
    """The words of ``text``, pronouns folded to "~" (so "my" and "your" match); their places
    are looked up only for an echo found (most answers have none)."""
    return ["~" if w in _PRONOUNS else w for w in WORD.findall(text)]


@lru_cache(maxsize=512)
def _question_runs(question: str) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]], int]:
    """The question's folded words, where each word starts in it, and the echo length."""
    asked = tuple(_words(prepare(question).norm))
    starts: dict[str, list[int]] = {}
    for j, token in enumerate(asked):
        starts.setdefault(token, []).append(j)
    need = max(ECHO_MIN_WORDS, math.ceil(len(asked) * ECHO_MIN_SHARE))
    return asked, {t: tuple(js) for t, js in starts.items()}, need


def mask_echo(text: Prepared, question: str) -> Prepared:
    """``text`` with every echo of ``question`` blanked out: runs of consecutive question words
    (pronouns folded, so "my" and "your" match) long enough to be a repeat, not a restatement."""
    asked, starts, need = _question_runs(question)
    if not asked or len(text.norm) < need:
        return text
    found = _words(text.norm)
    runs: list[tuple[int, int]] = []  # (first word, last word) of each echo
    i = 0
    while i <= len(found) - need:
        best = 0
        for j in starts.get(found[i], ()):
            run, limit = 1, min(len(found) - i, len(asked) - j)
            while run < limit and found[i + run] == asked[j + run]:
                run += 1
            if run > best:
                best = run
        if best >= need:
            runs.append((i, i + best - 1))
            i += best
        else:
            i += 1
    if not runs:
        return text
    places = [m.span() for m in WORD.finditer(text.norm)]
    cut = [(places[first][0], places[last][1]) for first, last in runs]
    pieces, pos = [], 0
    for begin, finish in cut:
        pieces.append(text.norm[pos:begin])
        pieces.append(" ; ")
        pos = finish
    pieces.append(text.norm[pos:])
    return prepare("".join(pieces))


def phrases_outside(question: str, phrases: Iterable[str]) -> tuple[str, ...]:
    """The phrases the question does not itself use: a cue copied from the question ("these
    days") says nothing about the answer."""
    return _outside(question, tuple(phrases))


@lru_cache(maxsize=1024)
def _outside(question: str, phrases: tuple[str, ...]) -> tuple[str, ...]:
    """Memoised: a case's question is read against the same cue lists for every sentence."""
    asked = prepare(question)
    return tuple(p for p in phrases if not has_phrase(asked, (p,)))


# --- hedged numbers ----------------------------------------------------------------------------

_MONTHS = (
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec"
)
_DATE_WORD = "(?:" + "|".join(_MONTHS.split()) + ")"
_UNIT_AFTER = re.compile(
    r" ?(?:%|percent|per cent|am|pm|a\.m|p\.m|:(?=[0-9])|o'?clock|st|nd|rd|th|"
    r"(?:days?|weeks?|fortnights?|months?|years?|hours?|minutes?|seconds?|"
    r"km|kilometres?|kilometers?|miles?|kg|kilos?|pounds?|lbs?|euros?|dollars?|pence|cents?)"
    r"(?![^\W_]))"
)
_PRONOUN_ONE_BEFORE = re.compile(
    r"(?<![^\W_])(?:the|that|this|last|first|next|each|every|which|any|no|some|another|a|an|"
    r"other|new|old|big|same) $"
)
_DATE_BEFORE = re.compile(_DATE_WORD + r"\.? ?$")
_DATE_AFTER = re.compile(r"(?:,? ?(?:of )?" + _DATE_WORD + r"(?![^\W_]))")


def candidate_numbers(text: Prepared) -> frozenset[int]:
    """The whole numbers an answer offers as a count: every number it states, except those that
    are part of a date ("May 4", "2026"), a time, a measure or a duration ("over 2 months"), a
    part of the count ("2 of them") or the pronoun "one" ("the last one")."""
    return frozenset(value for _start, _end, value in candidate_spans(text))


def candidate_spans(text: Prepared) -> list[tuple[int, int, int]]:
    """Where ``candidate_numbers`` finds each number: (start, end, value) in ``text.norm``."""
    norm = text.norm
    out = []
    for start, end, value in number_spans(text):
        if value >= 1000 or _UNIT_AFTER.match(norm, end) or _DATE_AFTER.match(norm, end):
            continue
        if norm[max(0, start - 1) : start] == ":":  # the minutes of a time
            continue
        if norm.startswith(" of ", end):  # "2 of them were in June": a part, not the count
            continue
        if norm[start:end] == "one" and _PRONOUN_ONE_BEFORE.search(norm, 0, start):
            continue  # "the last one": a pronoun, not a count
        if _DATE_BEFORE.search(norm, max(0, start - 12), start):
            continue
        out.append((start, end, value))
    return out


# --- former values -----------------------------------------------------------------------------

_FORMER = re.compile(
    r"(?<![^\W_])(?:(?:switched|moved|changed|went|swapped|upgraded|over) from|used to(?: \w+)?|"
    r"previously(?: \w+)?|formerly(?: \w+)?|before that(?: \w+)?|replaced|replacing|"
    r"instead of|old|former|no longer(?: \w+)?|swapped(?: out)?|traded(?: in)?|ditched|dropped|"
    r"stopped(?: \w+)?|not|never|rather than)"
    r"(?: (?:the|a|an|your|my|his|her|their|old|former|previous|earlier))*"
    r" ?$"
)
_FORMER_WINDOW = 40


_FORMER_AFTER = re.compile(
    r" ?,? ?(?:before|previously|earlier|at first|originally|in the past|back then|until)"
    r"(?![^\W_])"
)


_FORMER_MORE = re.compile(
    r"(?<![^\W_])(?:before that(?: \w+){1,2}|after leaving|earlier you had|earlier it was)"
    r"(?: (?:the|a|an|your|my|his|her|their|old|former|previous|earlier))*"
    r" ?$"
)
_FORMER_AFTER_MORE = re.compile(
    r" ?,? ?(?:was|is) (?:the|your) (?:old|older|previous|former|earlier)(?![^\W_])"
)
"""grading-3's further cues: "before that it was X", "after leaving X", "earlier you had X",
"X was the old one"."""


def former_at(text: Prepared, start: int, end: int, wider: bool = False) -> bool:
    """Whether the value at ``start:end`` (offsets in ``text.key``) is named as a former or
    rejected one: right after "switched from", "used to have", "replaced your", "not the"…, or
    right before "before", "until", "at first"…; with ``wider`` also the cues of
    ``_FORMER_MORE`` and ``_FORMER_AFTER_MORE``."""
    before = text.key[max(0, start - _FORMER_WINDOW) : start].replace("'", "")
    if _FORMER.search(before) is not None or _FORMER_AFTER.match(text.key, end) is not None:
        return True
    return wider and (
        _FORMER_MORE.search(before) is not None
        or _FORMER_AFTER_MORE.match(text.key, end) is not None
    )


def named_as_answer(text: Prepared, value: str, wider: bool = False) -> bool:
    """``value`` occurs at least once not named as a former value."""
    return any(not former_at(text, start, end, wider) for start, end in spans(text, value))


# --- guesses inside a decline ------------------------------------------------------------------

OFFERS: Final = (
    "maybe",
    "perhaps",
    "one of",
    "any of",
    "it might be",
    "it could be",
    "it may be",
    "might have been",
    "could have been",
    "my guess",
    "my best guess",
    "i'd guess",
    "i would guess",
    "if i had to guess",
    "i'd say",
    "probably",
    "possibly",
    "likely",
    "was it",
    "is it",
    "could it be",
    "something like",
    "i think it",
    "i believe it",
)
"""Phrases that put a candidate forward: a decline carrying one is a hedge, not a decline."""
OFFERS_7: Final = (
    "i bet",
    "my bet",
    "my money's on",
    "my money is on",
    "i'd go with",
    "i would go with",
    "going with",
    "i'd bet",
    "i'll bet",
    "i'd wager",
    "put money on",
    "i suspect",
    "i reckon",
    "odds are",
    "chances are",
    "i'd lean",
    "if i had to pick",
    "presumably",
    "my hunch",
    "sounds right",
    "i'd think",
    "my gut",
    "going by gut",
    "unless",
)
"""grading-7: more of them (a decline may now set a look-alike aside, so a bet on one must not
pass as that)."""


def offers_candidate(
    text: Prepared, asked_only: bool = False, places: bool = False, moods: bool = False
) -> bool:
    """Whether a decline also puts a candidate answer forward ("maybe it's Lisbon"). With
    ``asked_only`` (grading-4), "was it" and "is it" offer only in a question ("Was it Lisbon?"),
    not in a report ("Radomir claims that was it"). With ``places`` (grading-6), an offer of
    where to look ("it may be on your membership card") offers no candidate. With ``moods``
    (grading-7), a hedge inside a wish ("you said you'd probably love it") offers nothing."""
    if places:
        text = prepare(_WHERE_TO_LOOK.sub(" ", text.norm))
    if moods:
        text = prepare(_HEDGED_WISH.sub(" would love ", text.norm))
        if has_unnegated(text, OFFERS_7):
            return True
    if not asked_only:
        return has_unnegated(text, OFFERS)
    if has_unnegated(text, tuple(p for p in OFFERS if p not in ASKING)):
        return True
    return any(has_unnegated(q, ASKING) for q in _QUESTION.findall(text.norm))


ASKING: Final = ("was it", "is it", "could it be")
_WHERE_TO_LOOK = re.compile(
    r"(?<![^\W_])(?:it might be|it could be|it may be|maybe|perhaps|probably|possibly|likely)"
    r"(?=" + PLACE_TO_LOOK.pattern + r")"
)
_QUESTION = re.compile(r"[^.!?;]*\?")
_HEDGED_WISH = re.compile(
    r"(?<![^\W_])(?:you|we|they|he|she)(?:'d| would) \W*(?:probably|maybe|possibly|perhaps)\W* "
    r"(?:love|like)(?![^\W_])"
)


__all__ = [
    "OFFERS",
    "candidate_numbers",
    "candidate_spans",
    "former_at",
    "mask_echo",
    "named_as_answer",
    "offers_candidate",
    "phrases_outside",
]
