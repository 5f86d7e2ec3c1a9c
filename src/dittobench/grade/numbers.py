"""Numbers and durations in answers: number words ("forty-two", "twice", "a dozen") beside digit
tokens, and durations read as whole days ("3 weeks and 2 days", "a month and a half"), with
what an answer states as its durations once the working it shows is set apart.

Pure like the rest of the grader: no clock, no I/O, never raises on any string.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from dittobench.grade.match import (
    BOUND_LEFT,
    BOUND_RIGHT,
    Prepared,
    digit_numbers,
    prepare,
    words_of,
)
from dittobench.spec.versions import GradingPolicy

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
_WORD_NUMBER = re.compile(
    BOUND_LEFT + "(" + "|".join(_SPECIAL) + "|" + _CARDINAL + ")" + BOUND_RIGHT
)


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
        for s, e, number, _digits in digit_numbers(prepared.norm)
        if number == number.to_integral_value()
    ]
    if not _NUMBER_WORD_KEYS.isdisjoint(words_of(prepared.flat)):
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
    BOUND_LEFT
    + r"(?P<q>"
    + _QUANTITY
    + r"|half an?|a couple of|couple of|an?|"
    + _CARDINAL
    + r")(?P<h1> and an? half)?(?:[ -]|(?<=[0-9]))(?P<u>day|week|fortnight|month|year)s?"
    + BOUND_RIGHT
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


__all__ = ["bare_days", "durations_in_days", "number_spans", "number_tokens"]


_SUM = re.compile(
    r"(?<![^\W_])(?:that's |which is |so )?[0-9]+ (?:more )?(?:days? )?(?:left |remaining )?"
    r"(?:in|of|to the end of|through) (?:[a-z]+ )?[a-z]+(?:,? (?:plus|\+|and|then) [0-9]+ "
    r"(?:more )?(?:days? )?(?:in|into|of) (?:[a-z]+ )?[a-z]+)+"
)
"""Working shown for a day count ("13 days left in September plus 18 in October")."""


def without_sums(text: Prepared) -> Prepared:
    """``text`` without the sums it shows for a count of days, nor what it only supposes ("if
    you meant Tina, it's 4 days")."""
    norm = _SUPPOSED.sub(" ", _SUM.sub(" ", text.norm))
    return text if norm == text.norm else prepare(norm)


_SUPPOSED = re.compile(r"(?:^|(?<=[.!?;] ))(?:if|had|were|should) [^.!?;]*[.!?;]?")


def stated_durations(text: Prepared) -> list[int]:
    """The durations ``text`` states in days, or the bare number it is."""
    found = durations_in_days(text)
    bare = bare_days(text) if not found else None
    return found or ([bare] if bare is not None else [])


def exact_duration(text: Prepared, expected: int, rules: GradingPolicy) -> bool:
    """Some stated duration is exactly the expected days, and no two stated durations lie
    further apart than ``duration_spread_permille`` of the larger, nor are there more than
    ``duration_max_distinct`` of them (a list of guesses)."""
    stated = stated_durations(text)
    if expected not in stated:
        return False
    if rules.duration_max_distinct and len(set(stated)) > rules.duration_max_distinct:
        return False
    low, high = min(stated), max(stated)
    return (high - low) * 1000 <= rules.duration_spread_permille * high
