"""Slot makers shared by several categories: coined names, addresses, links, ids, codes and dates.

Every value is drawn from the case's stream, so it is new for each seed. Coined values keep graded
arguments unguessable; small real-word pools keep prompts readable.
"""

from __future__ import annotations

from dittobench.core import codes
from dittobench.core.dates import MONTH_NAMES
from dittobench.core.prng import Stream
from dittobench.core.text import words
from dittobench.generate.tools.category import SlotMaker

FIRST_NAMES = (
    "Amara",
    "Bastien",
    "Carmen",
    "Dmitri",
    "Elif",
    "Farid",
    "Greta",
    "Hiroshi",
    "Ines",
    "Jonas",
    "Keira",
    "Luca",
    "Mireille",
    "Nikhil",
    "Odile",
    "Pavel",
    "Quinn",
    "Rosalind",
    "Soren",
    "Tamsin",
    "Ulrich",
    "Valeria",
    "Wendell",
    "Ximena",
    "Yusuf",
    "Zofia",
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
TLDS = ("com", "org", "net", "io", "dev")
ROUTINE_NOUNS = (
    "Sweep",
    "Check",
    "Rundown",
    "Digest",
    "Roundup",
    "Reset",
    "Prep",
    "Tidy",
    "Huddle",
)
MEETING_KINDS = (
    "review",
    "sync",
    "kickoff",
    "catch-up",
    "planning session",
    "offsite",
    "dinner",
    "workshop",
    "check-in",
    "retro",
    "board meeting",
)
NEWS_THINGS = (
    "rail extension",
    "harbour project",
    "film festival",
    "vaccine trial",
    "wind farm",
    "stadium plan",
    "trade summit",
    "bridge repair",
    "space probe",
    "library expansion",
)

_LOWER = "abcdefghjkmnpqrstuvwxyz23456789"


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
    return f"{stream.choice(MONTH_NAMES)} {stream.between(1, 28)}"


def quarter_minutes(stream: Stream) -> str:
    """The minutes of a time on the quarter hour: ``""`` (on the hour), ``:15``, ``:30`` or
    ``:45``."""
    return stream.choice(("", ":15", ":30", ":45"))


def clock_time(stream: Stream) -> str:
    """A spoken time such as ``3:30 pm`` or ``9 am``."""
    hour = stream.between(1, 12)
    minute = quarter_minutes(stream)
    return f"{hour}{minute} {stream.choice(('am', 'pm'))}"


def weekday(stream: Stream) -> str:
    return stream.choice(WEEKDAYS)


def clear_of(banned: frozenset[str], maker: SlotMaker) -> SlotMaker:
    """``maker``, drawn again until its value carries none of ``banned`` (a coined word can, in
    rare draws, spell an ordinary word such as "File")."""

    def draw(stream: Stream) -> str:
        while True:
            value = maker(stream)
            if not banned.intersection(words(value)):
                return value

    return draw


def person_name(stream: Stream) -> str:
    """A first name and a coined surname, e.g. ``Greta Vantrel``."""
    return f"{first_name(stream)} {coined_word(stream)}"


def image_url(stream: Stream) -> str:
    """A coined address of an existing picture, e.g. ``https://drelo.net/uploads/k7p2xq.png``."""
    host = codes.coined_name(stream, stream.between(2, 3)).lower()
    folder = stream.choice(("uploads", "photos", "img", "media", "pics", "shared"))
    slug = codes.coin_string(stream, stream.between(6, 8), alphabet=_LOWER)
    extension = stream.choice(("png", "jpg"))
    return f"https://{host}.{stream.choice(TLDS)}/{folder}/{slug}.{extension}"


def digit_code(stream: Stream) -> str:
    """A lock or door code of 4 to 6 digits."""
    length = stream.between(4, 6)
    return str(stream.between(10 ** (length - 1), 10**length - 1))


def reference_code(stream: Stream) -> str:
    """A booking or membership reference such as ``QX7K2MP``."""
    return codes.coin_string(stream, 7)


def error_code(stream: Stream) -> str:
    """An app error code such as ``ERR-4821``."""
    return "ERR-" + codes.coin_string(stream, 4, alphabet="0123456789")


def routine_name(stream: Stream) -> str:
    """A coined routine name such as ``Velmo Sweep``."""
    return f"{coined_word(stream)} {stream.choice(ROUTINE_NOUNS)}"


def meeting_title(stream: Stream) -> str:
    """A coined meeting title such as ``Brelo review``."""
    return f"{coined_word(stream)} {stream.choice(MEETING_KINDS)}"


def news_topic(stream: Stream) -> str:
    """A coined public topic such as ``Drelo wind farm`` (the grammar supplies "the")."""
    return f"{coined_word(stream)} {stream.choice(NEWS_THINGS)}"


def org_name(stream: Stream) -> str:
    """A coined company or project name such as ``Brelo``, pinned where the prompt names it."""
    return coined_word(stream)
