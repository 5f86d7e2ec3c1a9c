"""Small, general text helpers shared by the store, the router and the agent.

Nothing here knows anything about a particular dataset: plain English tokenising, a stopword list,
a light suffix-stripping stemmer, sentence splitting and date parsing.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime

from dittobench.core.dates import MONTH_OF, spoken_date

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.UNICODE)
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")
_ABBREVIATION = re.compile(
    r"(?:\b(?:dr|mr|mrs|ms|st|mt|prof|jr|sr|vs|etc|e\.g|i\.e|no|approx|ave|inc|ltd)|\b[A-Z])\.$",
    re.IGNORECASE,
)


def wordset(text: str) -> frozenset[str]:
    """The whitespace-separated words of ``text``, as a set (for readable word lists)."""
    return frozenset(text.split())


STOPWORDS: frozenset[str] = wordset(
    """
    a about above after again against all also am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't down during each few for from further had hadn't has hasn't have haven't
    having he he'd he'll he's her here here's hers herself him himself his how how's i i'd i'll
    i'm i've if in into is isn't it it's its itself just let's me more most mustn't my myself no
    nor not now of off on once only or other ought our ours ourselves out over own please same
    shan't she she'd she'll she's should shouldn't so some such than that that's the their theirs
    them themselves then there there's these they they'd they'll they're they've this those
    through to too under until up very was wasn't we we'd we'll we're we've were weren't what
    what's when when's where where's which while who who's whom why why's will with won't would
    wouldn't you you'd you'll you're you've your yours yourself yourselves hey hi hello thanks
    thank ok okay yeah yes sure maybe really actually still ever anything something everything
    nothing thing things tell know get got go going went want wanted like kind sort lot bit much
    many one ones us lets let can't would've could've should've again right well
    """
)
"""Function words and chat filler that carry no topic."""

FIRST_PERSON: frozenset[str] = frozenset(
    {"i", "me", "my", "mine", "myself", "i'm", "i've", "i'd", "i'll"}
)


def normalize_quotes(text: str) -> str:
    """Straighten curly quotes and apostrophes so patterns need to know only the ASCII forms."""
    return (
        text.replace("\u2019", "'")
        .replace("\u2018", "'")
        .replace("\u201c", '"')
        .replace("\u201d", '"')
    )


def tokens(text: str) -> list[str]:
    """Lower-case word tokens (letters and digits, with an inner apostrophe kept)."""
    return [t.lower() for t in _WORD.findall(normalize_quotes(text))]


def stem(word: str) -> str:
    """A light suffix stripper: ``living``, ``lives``, ``lived`` and ``live`` all become ``liv``."""
    w = word.lower()
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) <= 3:
        return w
    for suffix in ("ingly", "edly", "ings", "ing", "ied", "ies", "ed", "es", "ly", "s", "e"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            if suffix in ("ied", "ies"):
                w += "y"
            break
    if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]
    return w


def content_words(text: str) -> list[str]:
    """Tokens minus stopwords, in order, duplicates kept."""
    return [t for t in tokens(text) if t not in STOPWORDS]


def content_stems(text: str) -> set[str]:
    """The stems of the content words of ``text``."""
    return {stem(t) for t in content_words(text)}


def sentences(text: str) -> list[str]:
    """Split on sentence-ending punctuation followed by space, and on line breaks."""
    out: list[str] = []
    glue = False
    for piece in _SENTENCE_BREAK.split(text):
        piece = piece.strip()
        if not piece:
            continue
        if glue and out:
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
        glue = bool(_ABBREVIATION.search(piece))
    return out


def is_first_person(text: str) -> bool:
    return any(t in FIRST_PERSON for t in tokens(text))


# Dates ------------------------------------------------------------------------------------------

_MONTH_RE = "|".join(sorted(MONTH_OF, key=len, reverse=True))
_DATE_PATTERNS = (
    re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"),
    re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.IGNORECASE),
    re.compile(
        rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\.?,?\s+(\d{{4}})\b",
        re.IGNORECASE,
    ),
)


def find_dates(text: str) -> list[date]:
    """Every explicit calendar date written in ``text`` (ISO, ``March 3, 2024``, ``3 March
    2024``), in order of appearance. Impossible dates are skipped."""
    found: list[tuple[int, date]] = []
    for index, pattern in enumerate(_DATE_PATTERNS):
        for m in pattern.finditer(text):
            try:
                if index == 0:
                    day = date(int(m[1]), int(m[2]), int(m[3]))
                elif index == 1:
                    day = date(int(m[3]), MONTH_OF[m[1].lower()], int(m[2]))
                else:
                    day = date(int(m[3]), MONTH_OF[m[2].lower()], int(m[1]))
            except ValueError:
                continue
            found.append((m.start(), day))
    return [d for _, d in sorted(found)]


def parse_timestamp(value: str) -> datetime | None:
    """An RFC 3339 timestamp as an aware datetime (naive input read as UTC); None if unreadable."""
    text = value.strip()
    if not text:
        return None
    try:
        parsed = datetime.fromisoformat(text.replace("z", "Z"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed


def format_timestamp(moment: datetime) -> str:
    """RFC 3339 in UTC with a ``Z`` suffix, to the second."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def spoken(day: date) -> str:
    """``March 3, 2024``."""
    return spoken_date(day)
