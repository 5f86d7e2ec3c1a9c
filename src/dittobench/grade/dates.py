"""Calendar days stated in an answer: "August 3", "3rd of August", "Aug. 3, 2026", "2026-08-03".

Read from a normalised text (lower case). A day is (month, day of month, year or None). Numeric
forms other than ISO ("08/03") are not read: they mean different days in different countries.
"""

from __future__ import annotations

import re
from datetime import date

from dittobench.core.dates import MONTH_OF
from dittobench.grade.match import Prepared, prepare

_MONTH = r"(?P<{0}>" + "|".join(sorted(MONTH_OF, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<{0}>[0-9]{{1,2}})(?:st|nd|rd|th)?"
_YEAR = r"(?:,? (?P<{0}>[0-9]{{4}}))?"
_SPOKEN = re.compile(
    r"(?<![^\W_])(?:"
    + _MONTH.format("m1")
    + " (?:the )?"
    + _DAY.format("d1")
    + _YEAR.format("y1")
    + "|(?:the )?"
    + _DAY.format("d2")
    + " (?:of )?"
    + _MONTH.format("m2")
    + _YEAR.format("y2")
    + r")(?![^\W_])"
)
_DIGIT = re.compile(r"[0-9]")
ISO_DAY = re.compile(r"(?<![0-9])([0-9]{4})-([0-9]{2})-([0-9]{2})(?![0-9])")

Day = tuple[int, int, int | None]
"""(month, day of month, year or None when the answer gave none)."""


def days_in(text: str | Prepared) -> list[Day]:
    """Every calendar day ``text`` states, in order, as far as it names a real day."""
    norm = prepare(text).norm
    if _DIGIT.search(norm) is None:
        return []  # every form has a digit (most questions have none): no scan of each position
    found: list[tuple[int, Day]] = []
    for match in _SPOKEN.finditer(norm):
        month = match.group("m1") or match.group("m2")
        day = match.group("d1") or match.group("d2")
        year = match.group("y1") or match.group("y2")
        found.append((match.start(), (MONTH_OF[month], int(day), int(year) if year else None)))
    for match in ISO_DAY.finditer(norm):
        year, month, day = (int(g) for g in match.groups())
        found.append((match.start(), (month, day, year)))
    return [day for _start, day in sorted(found) if _real(day)]


def _real(day: Day) -> bool:
    month, number, year = day
    try:
        date(year or 2000, month, number)  # 2000: a leap year, so February 29 stays possible
    except ValueError:
        return False
    return True


def states_day(days: list[Day], expected: date) -> bool:
    """``expected`` is among ``days`` (a day without a year matches any year)."""
    return any(
        (m, d) == (expected.month, expected.day) and y in (None, expected.year) for m, d, y in days
    )


def uncounted_days(text: str | Prepared) -> set[tuple[int, int]]:
    """grading-6: the days of the clauses that say what was not counted."""
    out: set[tuple[int, int]] = set()
    for clause in re.split(r"[.!?;]", prepare(text).norm):
        if _UNCOUNTED_CLAUSE.search(clause):
            out |= {(m, d) for m, d, _y in days_in(clause)}
    return out


_UNCOUNTED_CLAUSE = re.compile(
    r"(?<![^\W_])(?:(?:didn't|did not|don't|haven't|have not|won't|not) (?:count|counted|include|"
    r"included)|left out|leave out|leaving out|excluding|not counting)(?![^\W_])"
)
