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
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from functools import lru_cache
from itertools import product
from typing import Final

# --- normalisation -----------------------------------------------------------------------------

_FRACTION = re.compile(r"(?:([0-9]) ?)?([½¼¾])")
_FRACTION_VALUE = {"½": ".5", "¼": ".25", "¾": ".75"}
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u206f\ufe00-\ufe0f\ufeff]"
)
_MARKS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_FOLD = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u2035": "'",
        "\u02bc": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2043": "-",
        "\u2212": "-",
        "\ufe58": "-",
        "ø": "o",
        "đ": "d",
        "ð": "d",
        "ł": "l",
        "ħ": "h",
        "ŧ": "t",
        "ı": "i",
        "æ": "ae",
        "œ": "oe",
        "þ": "th",
    }
)


def _fraction(match: re.Match[str]) -> str:
    return (match.group(1) or "0") + _FRACTION_VALUE[match.group(2)]


def normalize(text: str) -> str:
    """NFKC, case-folded, diacritics folded (Zürich -> zurich), curly quotes and apostrophes made
    straight, dashes made hyphens, invisible format characters dropped, vulgar fractions written
    as decimals (3½ -> 3.5), whitespace collapsed to single spaces and the ends trimmed."""
    if text.isascii():
        return " ".join(text.lower().split())
    text = _INVISIBLE.sub("", _FRACTION.sub(_fraction, text))
    text = unicodedata.normalize("NFKC", text).casefold()
    if not text.isascii():
        text = unicodedata.normalize("NFD", text)
        text = unicodedata.normalize("NFC", _MARKS.sub("", text)).translate(_FOLD)
    return " ".join(text.split())


_WORD = re.compile(r"[^\W_]+")


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
    return _from_norm(normalize(text))


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
def _words(flat: str) -> frozenset[str]:
    """The words of a flat text: a cheap test of whether a phrase or number word can occur."""
    return frozenset(_WORD.findall(flat))


def _open_left(text: str, start: int) -> bool:
    """No letter or digit right before ``start``."""
    return start == 0 or not text[start - 1].isalnum()


# --- values and numbers ------------------------------------------------------------------------


def wordset(*lines: str) -> frozenset[str]:
    """The whitespace-separated words of ``lines``, as a set (for word lists written as text)."""
    return frozenset(" ".join(lines).split())


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
_BOUND_L = r"(?<![^\W_])"
_BOUND_R = r"(?![^\W_])"
_NUMERIC_VALUE = re.compile(
    r"-?(?:[0-9]{1,3}(?:([,' ])[0-9]{3})(?:\1[0-9]{3})*|[0-9]+)(?:\.[0-9]+)?"
)
_NUMBER = re.compile(
    r"(-?)([0-9]{1,3}(?:([,' ])[0-9]{3})(?:\3[0-9]{3})*|[0-9]+)(\.[0-9]+)?" + _BOUND_R
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
def _numbers(norm: str) -> tuple[tuple[int, int, Decimal, str], ...]:
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
        for s, e, number, digits in _numbers(text.norm):
            if s >= start and (
                number == needle.number if needle.digits is None else digits == needle.digits
            ):
                yield s, e


def spans(text: str | Prepared, value: str) -> list[tuple[int, int]]:
    """Where ``value`` occurs in ``text`` (offsets in its ``key``), as ``hit`` finds it."""
    return list(_spans(prepare(text), value))


def hit(text: str | Prepared, value: str) -> bool:
    """Whether ``value`` occurs in ``text`` after normalising both, bounded on both sides by no
    letter or digit. Numeric values match number tokens ("48,213,907" == "48 213 907"); a hyphen
    reads as a space on both sides ("AB12-CD34" == "AB12 CD34", "New-York" == "New York"); empty
    and common-word values never hit."""
    return next(_spans(prepare(text), value), None) is not None


def in_order(text: str | Prepared, items: Iterable[str]) -> bool:
    """Every item found, each after the end of the one before (no items: False)."""
    prepared, pos, seen = prepare(text), 0, False
    for item in items:
        span = next(_spans(prepared, item, pos), None)
        if span is None:
            return False
        pos, seen = span[1], True
    return seen


def masked(text: str | Prepared, values: Iterable[str]) -> Prepared:
    """``text`` with every bounded occurrence of ``values`` blanked out (by " ; "), so a shorter
    value inside one of them (a "York" inside "New York") can be looked for on its own."""
    prepared = prepare(text)
    spans = sorted(span for value in values for span in _spans(prepared, value))
    if not spans:
        return prepared
    pieces, pos = [], 0
    for s, e in spans:
        if e <= pos:
            continue
        pieces.append(prepared.norm[pos : max(s, pos)])
        pieces.append(" ; ")
        pos = e
    pieces.append(prepared.norm[pos:])
    return _from_norm("".join(pieces))


_UNIT_WORDS = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen"),
)
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70}
_TENS |= {"eighty": 80, "ninety": 90}
_SPECIAL = {"half a dozen": 6, "a dozen": 12, "dozen": 12, "a couple": 2}
_SPECIAL |= {"once": 1, "twice": 2, "thrice": 3}
_CARDINAL = (
    "(?:"
    + "|".join(_TENS)
    + ")(?:[ -](?:"
    + "|".join(_UNIT_WORDS[9:0:-1])
    + "))?|"
    + "|".join(sorted(_UNIT_WORDS, key=len, reverse=True))
)
_WORD_NUMBER = re.compile(_BOUND_L + "(" + "|".join(_SPECIAL) + "|" + _CARDINAL + ")" + _BOUND_R)


_NUMBER_WORD_KEYS = frozenset((*_UNIT_WORDS, *_TENS, "dozen", "couple", "once", "twice", "thrice"))


def _word_value(word: str) -> int:
    if word in _SPECIAL:
        return _SPECIAL[word]
    head, _, tail = word.replace("-", " ").partition(" ")
    if head in _TENS:
        return _TENS[head] + (_UNIT_WORDS.index(tail) if tail else 0)
    return _UNIT_WORDS.index(head)


def number_spans(text: str | Prepared) -> list[tuple[int, int, int]]:
    """Whole numbers in ``text`` as (start, end, value), in order: digit tokens (with thousands
    separators; decimals only when whole, so "3.0" is 3 and "3.5" is none), number words zero to
    ninety-nine, "a couple", "a dozen", "half a dozen", "once", "twice" and "thrice"."""
    prepared = prepare(text)
    found = [
        (s, e, int(number))
        for s, e, number, _digits in _numbers(prepared.norm)
        if number == number.to_integral_value()
    ]
    if not _NUMBER_WORD_KEYS.isdisjoint(_words(prepared.flat)):
        for m in _WORD_NUMBER.finditer(prepared.norm):
            found.append((m.start(), m.end(), _word_value(m.group(1))))
    return sorted(found)


def number_tokens(text: str | Prepared) -> list[int]:
    """The values of ``number_spans``, in order ("twice" is 2, "4 times" holds 4)."""
    return [value for _s, _e, value in number_spans(text)]


# --- durations ---------------------------------------------------------------------------------

_UNIT_DAYS = {"day": 1, "week": 7, "fortnight": 14, "month": 30, "year": 365}
_QUANTITY_WORDS = {"a": Decimal(1), "an": Decimal(1), "half a": Decimal("0.5")}
_QUANTITY_WORDS |= {"half an": Decimal("0.5"), "a couple of": Decimal(2), "couple of": Decimal(2)}
_QUANTITY = r"[0-9]{1,9}(?:[.,][0-9]{1,9})?"
_DURATION = re.compile(
    _BOUND_L
    + r"(?P<q>"
    + _QUANTITY
    + r"|half an?|a couple of|couple of|an?|"
    + _CARDINAL
    + r")(?P<h1> and an? half)?(?:[ -]|(?<=[0-9]))(?P<u>day|week|fortnight|month|year)s?"
    + _BOUND_R
    + r"(?P<h2> and an? half)?"
)
_JOIN = re.compile(r",? (?:and|plus) | ?")
_BARE = re.compile(
    r"(?:(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|~) ?)?"
    r"(" + _QUANTITY + "|" + _CARDINAL + r")(?: ?days?)? ?[.!]?"
)


def _quantity(raw: str) -> Decimal:
    """A quantity: digits (a separator before exactly three digits after one to three leading
    digits groups thousands, "1,500"; otherwise it is a decimal point, "1.5" or "1,5"), or
    words."""
    if raw in _QUANTITY_WORDS:
        return _QUANTITY_WORDS[raw]
    if not raw[0].isdigit():
        return Decimal(_word_value(raw))
    head, sep, tail = raw.replace(",", ".").partition(".")
    if sep and len(tail) == 3 and len(head) <= 3 and head.strip("0"):
        return Decimal(head + tail)
    return Decimal(head + sep + tail)


def _whole_days(days: Decimal) -> int:
    return int(days.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def durations_in_days(text: str | Prepared) -> list[int]:
    """Durations in ``text`` as whole days, in order: "<number|a|an|number word> <unit>" with
    day 1, week 7, fortnight 14, month 30 and year 365, halves ("a week and a half", "1.5 weeks",
    "3 and a half weeks", "half a year"), and compounds of falling units joined by "and", "plus"
    or a space ("2 weeks and 3 days" is 17; "a month, a week" is two). Halves round up."""
    norm = prepare(text).norm
    parts: list[tuple[int, int, Decimal, int]] = []
    if not any(unit in norm for unit in _UNIT_DAYS):
        return []
    for m in _DURATION.finditer(norm):
        unit = _UNIT_DAYS[m.group("u")]
        quantity = _quantity(m.group("q"))
        quantity += Decimal("0.5") * ((m.group("h1") is not None) + (m.group("h2") is not None))
        days = quantity * unit
        if parts and unit < parts[-1][3] and _JOIN.fullmatch(norm[parts[-1][1] : m.start()]):
            start, _end, before, _unit = parts[-1]
            parts[-1] = (start, m.end(), before + days, unit)
        else:
            parts.append((m.start(), m.end(), days, unit))
    return [_whole_days(days) for _s, _e, days, _u in parts]


def bare_days(text: str | Prepared) -> int | None:
    """The number of days when the whole text is a bare number, optionally hedged ("about") and
    optionally followed by "days" ("21", "about 21 days."); otherwise None."""
    m = _BARE.fullmatch(prepare(text).norm)
    return None if m is None else _whole_days(_quantity(m.group(1)))


# --- phrases and negation ----------------------------------------------------------------------

DECLINE: Final = (
    # the floor
    "don't have",
    "no record",
    "don't know",
    "haven't mentioned",
    "never mentioned",
    "haven't told",
    "never told",
    "no information",
    "not in my memory",
    "can't find",
    "couldn't find",
    "don't recall",
    "unable to find",
    "not sure",
    "no mention",
    "nothing about",
    "not stated",
    "haven't shared",
    "never shared",
    "no longer have",
    "been deleted",
    "not aware",
    # beyond it
    "don't remember",
    "can't recall",
    "couldn't recall",
    "unable to recall",
    "no memory of",
    "nothing in my memory",
    "nothing on record",
    "not on record",
    "not recorded",
    "no details",
    "no data",
    "didn't mention",
    "didn't tell",
    "didn't say",
    "haven't said",
    "never said",
    "not certain",
    "can't say",
    "can't tell",
    "don't see",
    "no way to know",
    "no such",
    "unknown to me",
    "never been",
    "haven't been",
    "never visited",
    "haven't visited",
    "never went",
    "didn't go",
)
"""Declining to answer. Contractions also match their spelled-out forms ("do not have",
"cannot find"), with or without the apostrophe."""

DELETION_OUTCOMES: Final = ("no longer have", "been deleted")
"""The decline phrases that also report a completed delete: they never spoil an
acknowledgement ("Done, it has been deleted")."""

CESSATION: Final = (
    "no longer",
    "not anymore",
    "not any more",
    "anymore",
    "no more",
    "gave up",
    "given up",
    "give up",
    "gives up",
    "giving up",
    "gave it up",
    "given it up",
    "gave that up",
    "given that up",
    "stopped",
    "quit",
    "quits",
    "dropped",
    "ended",
    "finished with",
    "packed in",
    "packed it in",
    "done with",
    "left behind",
    "retired from",
    "abandoned",
    "lost interest",
    "not into it",
    "not into",
    "went off",
    "gone off",
    "moved on from",
    "walked away from",
    "stepped away from",
    "ditched",
    "discontinued",
    "ceased",
    "called it quits",
    "fell out of love",
    "lost the spark",
    "lost its appeal",
    "cooled on",
    "drifted away from",
    "don't do",
    "doesn't do",
    "not doing",
    "a thing of the past",
)
"""An activity said to have ended. "used to" is deliberately absent (it does not say the
activity ended); see ``USED_TO``."""

PERSISTENCE: Final = (
    "still",
    "continue",
    "continues",
    "continued",
    "continuing",
    "keep at",
    "keeps at",
    "keep at it",
    "keep going",
    "keeps going",
    "kept going",
    "keeping at",
    "keeping up",
    "kept at",
    "kept up",
    "carry on",
    "carries on",
    "carrying on",
    "ongoing",
    "regularly",
    "currently",
    "these days",
    "nowadays",
    "as ever",
    "as much as ever",
    "every week",
    "each week",
    "every weekend",
    "weekly",
    "to this day",
    "going strong",
    "at the moment",
    "right now",
    "yes",
)
"""An activity said to go on."""

ACKNOWLEDGE: Final = (
    "saved",
    "stored",
    "noted",
    "updated",
    "changed it",
    "replaced",
    "deleted",
    "removed",
    "erased",
    "forgotten",
    "forgot it",
    "wiped",
    "cleared",
    "done",
    "got it",
    "will remember",
    "i'll remember",
    "all set",
    "consider it done",
    "consider it gone",
    "recorded",
    "remembered",
    "discarded",
    "purged",
    "got rid of",
    "gotten rid of",
    "taken it out",
    "took it out",
    "made a note",
    "taken note",
    "added",
    "overwritten",
    "it's gone",
    "that's gone",
    "will do",
    "will save",
    "will store",
    "will update",
    "will delete",
    "will remove",
    "will forget",
    "will keep",
    "keep that in mind",
    "keep it in mind",
    "memorized",
    "memorised",
    "committed to memory",
)
"""An instruction to save, update or delete acknowledged."""

USED_TO: Final = ("used to", "formerly", "back in the day")
"""A suggestion that an activity ended without saying so ("used to", but not "got used to")."""

NEGATORS: Final = wordset(
    "never not no nor neither without hardly barely scarcely cannot havent hasnt hadnt didnt",
    "doesnt dont isnt arent wasnt werent wont cant couldnt wouldnt shouldnt mustnt aint",
)
"""Words that negate the phrase right after them (written without apostrophes)."""

SKIPPED: Final = wordset(
    "really that quite truly actually ever even very just completely totally entirely fully",
    "yet exactly necessarily be been have has had",
)
"""Intensifiers and auxiliaries skipped when looking back for a negator ("haven't really given
up", "can't be saved")."""

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


@lru_cache(maxsize=256)
def _phrase_index(phrases: tuple[str, ...]) -> dict[str, re.Pattern[str]]:
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
        index[first] = re.compile(re.escape(first) + body + _BOUND_R)
    return index


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
    for first in sorted(_words(flat).intersection(index)):
        pattern, pos = index[first], 0
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


def has_negated(text: str | Prepared, phrases: Iterable[str]) -> bool:
    """Some occurrence of one of ``phrases`` is negated ("haven't given up", "not still")."""
    prepared = prepare(text)
    return any(_negated(prepared.flat, s) for s in _occurrences(prepared, tuple(phrases)))


__all__ = [
    "ACKNOWLEDGE",
    "CESSATION",
    "COMMON_WORDS",
    "DECLINE",
    "DELETION_OUTCOMES",
    "NEGATORS",
    "PERSISTENCE",
    "SKIPPED",
    "USED_TO",
    "Prepared",
    "bare_days",
    "durations_in_days",
    "has_negated",
    "has_phrase",
    "has_unnegated",
    "hit",
    "in_order",
    "joined",
    "masked",
    "normalize",
    "number_spans",
    "number_tokens",
    "prepare",
    "spans",
    "wordset",
]
