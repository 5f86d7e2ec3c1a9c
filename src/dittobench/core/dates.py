"""English month names, day ordinals and the spoken form of a date, shared by every part that
prints dates.

Prompts and questions spell dates out in words; one table keeps the tool cases and the memory
questions spelling them the same way.
"""

from __future__ import annotations

from datetime import date

MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


MONTH_OF: dict[str, int] = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
"""Month names and their short forms, lower case, to the month's number (for reading dates)."""


def spoken_date(day: date) -> str:
    """``March 3, 2026``: how questions print a date."""
    return f"{MONTH_NAMES[day.month - 1]} {day.day}, {day.year}"


def ordinal(day: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``11th``, ``22nd``: a day of the month as an English ordinal."""
    suffix = "th" if 11 <= day % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"
