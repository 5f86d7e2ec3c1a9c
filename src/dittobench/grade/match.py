"""Normalisation and matching primitives of the memory grader.

Every function here is pure: no clock, no I/O, no randomness, and none raises on any string. Texts
are normalised once (``prepare``) and every matcher accepts either a raw string or a ``Prepared``
text, so a grader can normalise an answer once and ask many questions of it.

Matching is *bounded*: a value counts only where no letter or digit touches it on either side, so
"York" is in "New York" but not in "Yorkshire". Purely numeric values compare as numbers ("5" is
never in "500", "3.5", "-5" or "1,500"). Phrase lists carry negation: a phrase preceded by a
negator ("haven't given up") is negated, and callers decide what a negated phrase means.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from itertools import product
from typing import Final

from dittobench.core.text import WORD, normalize
from dittobench.grade.lexicon import NEGATORS, NOT_KNOWING, SKIPPED, wordset

# --- normalisation (the generator's, from core.text) --------------------------------------------


@dataclass(frozen=True, slots=True)
class Prepared:
    """A text normalised once: ``norm`` for numbers, ``key`` (``norm`` with hyphens read as
    spaces, offsets unchanged) for values, ``flat`` (``norm`` without apostrophes, so "don't" and
    "dont" read alike) for phrases."""

    norm: str
    key: str
    flat: str


def _from_norm(norm: str) -> Prepared:
    return Prepared(norm, norm.replace("-", " "), norm.replace("'", ""))


def prepare(text: str | Prepared) -> Prepared:
    """``text`` normalised (a ``Prepared`` text is returned as it is)."""
    if isinstance(text, Prepared):
        return text
    return _prepared(text)


@lru_cache(maxsize=16384)
def _prepared(text: str) -> Prepared:
    """One normalisation per text: a grade looks for many values in the same answer and in the
    same accepted forms (``Prepared`` is immutable, so sharing one is safe)."""
    return _from_norm(normalize(text))


@lru_cache(maxsize=16384)
def normalized(value: str) -> str:
    """``normalize(value)``, memoised: an answer key's values are normalised for every answer."""
    return normalize(value)


def joined(first: Prepared, second: Prepared) -> Prepared:
    """The two texts as one, as if normalised together with a line break between them."""
    if not first.norm:
        return second
    if not second.norm:
        return first
    return Prepared(
        first.norm + " " + second.norm, first.key + " " + second.key, first.flat + " " + second.flat
    )


@lru_cache(maxsize=32)
def words_of(flat: str) -> frozenset[str]:
    """The words of a flat text: a cheap test of whether a phrase or number word can occur."""
    return frozenset(WORD.findall(flat))


def _open_left(text: str, start: int) -> bool:
    """No letter or digit right before ``start``."""
    return start == 0 or not text[start - 1].isalnum()


# --- values and numbers ------------------------------------------------------------------------


COMMON_WORDS: Final = wordset(
    "a an the and or but if so as of to in on at by for from with about into over up out off "
    "yes no not nope yeah yep ok okay sure maybe may might can could will would shall should "
    "must is are was were be been being am do does did done has have had it its i me my you "
    "your he him his she her we us our they them their this that these those there here what "
    "who whom which when where why how all any some none nothing something one two three then "
    "now just also very too true false",
)
"""Single-word values that never credit: words any answer may contain by chance."""

_MAX_DIGITS = 30
_EDGE = " \"'.,!?;:"
BOUND_LEFT = r"(?<![^\W_])"
BOUND_RIGHT = r"(?![^\W_])"
_NUMERIC_VALUE = re.compile(
    r"-?(?:[0-9]{1,3}(?:([,' ])[0-9]{3})(?:\1[0-9]{3})*|[0-9]+)(?:\.[0-9]+)?"
)
_NUMBER = re.compile(
    r"(-?)([0-9]{1,3}(?:([,' ])[0-9]{3})(?:\3[0-9]{3})*|[0-9]+)(\.[0-9]+)?" + BOUND_RIGHT
)


@dataclass(frozen=True, slots=True)
class _Needle:
    """How one value is looked for: a key to find in a text's key, a number, an exact digit
    string (values with leading zeros), or nothing (empty and common-word values never match)."""

    key: str = ""
    number: Decimal | None = None
    digits: str | None = None


_NEVER: Final = _Needle()


def _digits_of(raw: str) -> str:
    return raw.replace(",", "").replace("'", "").replace(" ", "").lstrip("-")


@lru_cache(maxsize=8192)
def _needle(value: str) -> _Needle:
    wanted = normalize(value).strip(_EDGE)
    if not wanted or wanted in COMMON_WORDS:
        return _NEVER
    if _NUMERIC_VALUE.fullmatch(wanted) and len(wanted) <= _MAX_DIGITS:
        digits = _digits_of(wanted)
        if len(digits) > 1 and digits[0] == "0" and digits[1] != ".":
            return _Needle(digits=digits)
        return _Needle(number=Decimal(wanted.replace(",", "").replace("'", "").replace(" ", "")))
    key = wanted.replace("-", " ").strip()
    return _Needle(key=key) if key else _NEVER


@lru_cache(maxsize=32)
def digit_numbers(norm: str) -> tuple[tuple[int, int, Decimal, str], ...]:
    """Number tokens of a normalised text: (start, end, value, digit string), in order. A number
    glued to a word by a hyphen ("order-42") is part of a code, not a number."""
    found = []
    for m in _NUMBER.finditer(norm):
        sign, whole, fraction, start = m.group(1), m.group(2), m.group(4) or "", m.start()
        if sign and not _open_left(norm, start):
            sign, start = "", start + 1  # "3-5" is a range, not a minus five
        if not _open_left(norm, start):
            continue
        if not sign and start >= 2 and norm[start - 1] == "-" and norm[start - 2].isalpha():
            continue
        digits = _digits_of(whole)
        if len(digits) + len(fraction) > _MAX_DIGITS:
            continue
        found.append((start, m.end(), Decimal(sign + digits + fraction), digits + fraction))
    return tuple(found)


def _spans(text: Prepared, value: str, start: int = 0) -> Iterator[tuple[int, int]]:
    needle = _needle(value)
    if needle.key:
        key, size, pos = text.key, len(needle.key), start
        while (found := key.find(needle.key, pos)) >= 0:
            end = found + size
            if _open_left(key, found) and (end == len(key) or not key[end].isalnum()):
                yield found, end
                pos = end
            else:
                pos = found + 1
    elif needle.number is not None or needle.digits is not None:
        for s, e, number, digits in digit_numbers(text.norm):
            if s >= start and (
                number == needle.number if needle.digits is None else digits == needle.digits
            ):
                yield s, e


def spans(text: str | Prepared, value: str) -> list[tuple[int, int]]:
    """Where ``value`` occurs in ``text`` (offsets in its ``key``), as ``hit`` finds it."""
    prepared, needle = prepare(text), _needle(value)
    if needle.key and needle.key not in prepared.key:
        return []  # as in ``hit``: most values looked for are absent
    return list(_spans(prepared, value))


def hit(text: str | Prepared, value: str) -> bool:
    """Whether ``value`` occurs in ``text`` after normalising both, bounded on both sides by no
    letter or digit. Numeric values match number tokens ("48,213,907" == "48 213 907"); a hyphen
    reads as a space on both sides ("AB12-CD34" == "AB12 CD34", "New-York" == "New York"); empty
    and common-word values never hit."""
    prepared, needle = prepare(text), _needle(value)
    if needle.key and needle.key not in prepared.key:
        return False  # most values looked for are absent: no scan to learn it
    return next(_spans(prepared, value), None) is not None


@dataclass(frozen=True, slots=True)
class _ValueIndex:
    """Values by the first word of their key (``by_word``, offsets into the values), and the
    numeric values (``always``), which are found by number, not by word."""

    by_word: dict[str, tuple[int, ...]]
    always: tuple[int, ...]
    words: frozenset[str]
    """The keys of ``by_word`` as a set: intersecting two sets walks the smaller one (an
    answer's few words), where intersecting with the dict walks all its keys."""
    keys: tuple[str, ...]
    """Each value's key (what ``hit`` looks for): a text without it does not name the value."""


@lru_cache(maxsize=4096)
def _value_index(values: tuple[str, ...]) -> _ValueIndex:
    by_word: dict[str, list[int]] = {}
    always = []
    for index, value in enumerate(values):
        needle = _needle(value)
        first = WORD.search(needle.key) if needle.key else None
        if first is not None:
            by_word.setdefault(first.group(), []).append(index)
        elif needle is not _NEVER:
            always.append(index)  # a number, or a key with no letter or digit
    return _ValueIndex(
        {w: tuple(i) for w, i in by_word.items()},
        tuple(always),
        frozenset(by_word),
        tuple(_needle(v).key for v in values),
    )


@lru_cache(maxsize=64)
def _words_of_key(key: str) -> frozenset[str]:
    return frozenset(WORD.findall(key))


def maybe_in(text: Prepared, values: tuple[str, ...]) -> list[int]:
    """The offsets, in order, of the values that may occur in ``text``: no other is found by
    ``hit`` or ``spans``. A value is only found bounded, so the first word of its key is a
    whole word of the text's key, and its whole key is in the text's key (a case lists
    hundreds of values, an answer names a few)."""
    index = _value_index(values)
    found = list(index.always)
    for word in _words_of_key(text.key) & index.words:
        found.extend(index.by_word[word])
    key, keys = text.key, index.keys
    return [i for i in sorted(found) if not keys[i] or keys[i] in key]


def hits(text: str | Prepared, values: tuple[str, ...]) -> list[str]:
    """The values that occur in ``text`` (as ``hit`` finds them), in their order."""
    if not values:
        return []
    prepared = prepare(text)
    return [values[i] for i in maybe_in(prepared, values) if hit(prepared, values[i])]


def in_order(text: str | Prepared, items: Iterable[str]) -> bool:
    """Every item found, each after the end of the one before (no items: False)."""
    prepared, pos, seen = prepare(text), 0, False
    for item in items:
        span = next(_spans(prepared, item, pos), None)
        if span is None:
            return False
        pos, seen = span[1], True
    return seen


def masked(text: str | Prepared, values: Iterable[str], by: str = " ; ") -> Prepared:
    """``text`` with every bounded occurrence of ``values`` blanked out (by " ; ", or ``by``),
    so a shorter value inside one of them (a "York" inside "New York") can be looked for on its
    own; where occurrences overlap, the one that starts first is replaced."""
    prepared = prepare(text)
    spans = sorted(span for value in values for span in _spans(prepared, value))
    if not spans:
        return prepared
    pieces, pos = [], 0
    for s, e in spans:
        if e <= pos:
            continue
        pieces.append(prepared.norm[pos : max(s, pos)])
        pieces.append(by)
        pos = e
    pieces.append(prepared.norm[pos:])
    return _from_norm("".join(pieces))


# --- phrases and negation ----------------------------------------------------------------------

_CONTRACTIONS: dict[str, tuple[str, ...]] = {
    "don't": ("do not",),
    "doesn't": ("does not",),
    "didn't": ("did not",),
    "haven't": ("have not",),
    "hasn't": ("has not",),
    "hadn't": ("had not",),
    "isn't": ("is not",),
    "aren't": ("are not",),
    "wasn't": ("was not",),
    "weren't": ("were not",),
    "can't": ("cannot", "can not"),
    "couldn't": ("could not",),
    "won't": ("will not",),
    "wouldn't": ("would not",),
    "i'll": ("i will",),
    "it's": ("it is", "it has"),
    "that's": ("that is", "that has"),
}

_AUX_BE_GET = wordset(
    "get gets got getting gotten be been being am is are was were im youre theyre its"
)
_NOT_FOLLOWED_BY: dict[str, frozenset[str]] = {
    "stopped": frozenset(("by", "off")),
    "dropped": frozenset(("by", "off", "in")),
    "ended": frozenset(("up",)),
    "still": NEGATORS,
}
_NOT_PRECEDED_BY: dict[str, frozenset[str]] = {"used to": _AUX_BE_GET}

_BACK_TOKEN = re.compile(r"[^\W_]+|[.,;:!?()\[\]{}]| - ")
_NEXT_WORD = re.compile(r" ?([^\W_]+)")
_LOOK_BACK = 160


def _variants(phrase: str) -> set[str]:
    options = [(w, *_CONTRACTIONS.get(w, ())) for w in normalize(phrase).split(" ") if w]
    return {" ".join(combo).replace("'", "") for combo in product(*options)} - {""}


@dataclass(frozen=True, slots=True)
class _PhraseIndex:
    """A phrase list's patterns by first word (``_phrase_index``)."""

    by_first: dict[str, re.Pattern[str]]
    firsts: frozenset[str]
    """The keys of ``by_first`` as a set: intersecting two sets walks the smaller one (a
    text's few words), where intersecting with the dict walks all its keys."""


@lru_cache(maxsize=256)
def _phrase_index(phrases: tuple[str, ...]) -> _PhraseIndex:
    """One pattern per first word (a literal prefix, which the regex engine finds fast), its
    alternatives longest first, each bounded on the right."""
    groups: dict[str, set[str]] = {}
    for variant in {v for p in phrases for v in _variants(p)}:
        first, _, rest = variant.partition(" ")
        groups.setdefault(first, set()).add(" " + rest if rest else "")
    index = {}
    for first, rests in sorted(groups.items()):
        ordered = sorted(rests, key=lambda r: (-len(r), r))
        body = "(?:" + "|".join(re.escape(r) for r in ordered) + ")"
        index[first] = re.compile(re.escape(first) + body + BOUND_RIGHT)
    return _PhraseIndex(index, frozenset(index))


def _previous_word(flat: str, start: int, skip: frozenset[str]) -> str:
    """The nearest token before ``start`` that is not in ``skip`` ("" at the start); clause
    punctuation comes back as itself, so a negator never reaches across it."""
    for token in reversed(_BACK_TOKEN.findall(flat, max(0, start - _LOOK_BACK), start)):
        if token not in skip:
            return str(token)
    return ""


def _occurrences(text: Prepared, phrases: tuple[str, ...]) -> Iterator[int]:
    """Start offsets (in ``text.flat``) of the phrases, minus excluded senses ("stopped by",
    "ended up", "still haven't", "got used to")."""
    index = _phrase_index(phrases)
    flat = text.flat
    for first in sorted(words_of(flat) & index.firsts):
        pattern, pos = index.by_first[first], 0
        while (m := pattern.search(flat, pos)) is not None:
            start = m.start()
            if not _open_left(flat, start):
                pos = start + 1
                continue
            pos = m.end()
            after = _NOT_FOLLOWED_BY.get(m.group())
            if after is not None:
                nxt = _NEXT_WORD.match(flat, pos)
                if nxt is not None and nxt.group(1) in after:
                    continue
            before = _NOT_PRECEDED_BY.get(m.group())
            if before is not None and _previous_word(flat, start, frozenset()) in before:
                continue
            yield start


def _negated(flat: str, start: int) -> bool:
    return _previous_word(flat, start, SKIPPED) in NEGATORS


def has_phrase(text: str | Prepared, phrases: Iterable[str]) -> bool:
    """Any of ``phrases`` occurs, negated or not."""
    return next(_occurrences(prepare(text), tuple(phrases)), None) is not None


def has_unnegated(text: str | Prepared, phrases: Iterable[str]) -> bool:
    """Some occurrence of one of ``phrases`` is not negated: its nearest preceding word, skipping
    ``SKIPPED``, is not in ``NEGATORS`` (clause punctuation in between stops the look-back)."""
    prepared = prepare(text)
    return any(not _negated(prepared.flat, s) for s in _occurrences(prepared, tuple(phrases)))


_OTHER_SUBJECTS: Final = wordset("you your youd youve he she they them his her their")


def says_not_knowing(text: str | Prepared) -> bool:
    """The assistant says it does not know (an unnegated ``lexicon.NOT_KNOWING`` phrase), not
    that someone else did not ("you said you had no idea where that came from", "customer
    support had no idea"): the phrase says so of itself ("no record", "nothing in my memory")
    or is said by "I" ("I'm not sure", "I don't know")."""
    prepared = prepare(text)
    for start in _occurrences(prepared, NOT_KNOWING):
        if _negated(prepared.flat, start):
            continue
        before = _BACK_TOKEN.findall(prepared.flat, max(0, start - 40), start)[-4:]
        if not _OTHER_SUBJECTS.isdisjoint(before):
            continue
        if not _FIRST_PERSON.isdisjoint(before[-3:]) or _SELF_EVIDENT.match(prepared.flat, start):
            return True
    return False


_FIRST_PERSON: Final = wordset("i im ive id ill me my")
_SELF_EVIDENT = re.compile(
    r"no record|nothing (?:in my memory|on record)|not (?:in my memory|on record|recorded)|"
    r"no (?:information|memory of|details|data)|unknown to me|no way to know"
)
"""Not-knowing phrases that say it of the assistant without an "I"."""


def has_negated(text: str | Prepared, phrases: Iterable[str]) -> bool:
    """Some occurrence of one of ``phrases`` is negated ("haven't given up", "not still")."""
    prepared = prepare(text)
    return any(_negated(prepared.flat, s) for s in _occurrences(prepared, tuple(phrases)))


def negations(text: str | Prepared, phrases: Iterable[str]) -> tuple[bool, bool]:
    """(``has_unnegated``, ``has_negated``) of ``phrases`` in ``text``, from one scan."""
    prepared = prepare(text)
    unnegated = negated = False
    for start in _occurrences(prepared, tuple(phrases)):
        if _negated(prepared.flat, start):
            negated = True
        else:
            unnegated = True
        if negated and unnegated:
            break
    return unnegated, negated


__all__ = [
    "BOUND_LEFT",
    "BOUND_RIGHT",
    "COMMON_WORDS",
    "Prepared",
    "digit_numbers",
    "has_negated",
    "has_phrase",
    "has_unnegated",
    "hit",
    "hits",
    "in_order",
    "joined",
    "masked",
    "maybe_in",
    "negations",
    "normalize",
    "normalized",
    "prepare",
    "says_not_knowing",
    "spans",
    "words_of",
]
