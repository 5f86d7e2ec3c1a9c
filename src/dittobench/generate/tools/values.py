"""Slot makers shared by several categories: coined names, addresses, links, ids and dates.

Every value is drawn from the case's stream, so it is new for each seed. Coined values keep graded
arguments unguessable; small real-word pools keep prompts readable.
"""

from __future__ import annotations

from dittobench.core import codes
from dittobench.core.prng import Stream

FIRST_NAMES = (
    "Amara", "Bastien", "Carmen", "Dmitri", "Elif", "Farid", "Greta", "Hiroshi", "Ines", "Jonas",
    "Keira", "Luca", "Mireille", "Nikhil", "Odile", "Pavel", "Quinn", "Rosalind", "Soren", "Tamsin",
    "Ulrich", "Valeria", "Wendell", "Ximena", "Yusuf", "Zofia",
)
MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
TLDS = ("com", "org", "net", "io", "dev")


def first_name(stream: Stream) -> str:
    """A real first name (for people the user mentions)."""
    return stream.choice(FIRST_NAMES)


def coined_word(stream: Stream) -> str:
    """An invented capitalised word (2 syllables), e.g. for product or project names."""
    return codes.coined_name(stream, syllables=2)


def email_address(stream: Stream) -> str:
    """A coined address such as ``greta.vantrel@drousa.net``."""
    local = f"{first_name(stream).lower()}.{codes.coined_name(stream, 2).lower()}"
    domain = codes.coined_name(stream, 2).lower()
    return f"{local}@{domain}.{stream.choice(TLDS)}"


def url(stream: Stream) -> str:
    """A coined https link such as ``https://brelomar.org/notes/kx7p2``."""
    host = codes.coined_name(stream, 3).lower()
    section = stream.choice(("notes", "posts", "articles", "docs", "blog", "report", "guide"))
    slug = codes.coin_string(stream, 6, alphabet="abcdefghjkmnpqrstuvwxyz23456789")
    return f"https://{host}.{stream.choice(TLDS)}/{section}/{slug}"


def pair_id(stream: Stream) -> str:
    """A stored-memory id as a harness would show it, e.g. ``p-7f3a9c21``."""
    return "p-" + codes.coin_string(stream, 8, alphabet="0123456789abcdef")


def calendar_date(stream: Stream) -> str:
    """A spoken date such as ``March 14``."""
    return f"{stream.choice(MONTHS)} {stream.between(1, 28)}"


def clock_time(stream: Stream) -> str:
    """A spoken time such as ``3:30 pm`` or ``9 am``."""
    hour = stream.between(1, 12)
    minute = stream.choice(("", ":15", ":30", ":45"))
    return f"{hour}{minute} {stream.choice(('am', 'pm'))}"


def weekday(stream: Stream) -> str:
    return stream.choice(WEEKDAYS)
