"""Text normalisation and bounded matching, shared by the generator and the grader.

There is one normaliser (``normalize``): the generator uses it to keep banned words out of prompts
and to measure word overlap, the grader to match answers, so a word the generator considers
absent ("Zurich" in "I moved to Zürich" is present) is absent for the grader too.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

WORD = re.compile(r"[^\W_]+")
"""A word: a run of letters and digits (the one tokeniser of the generator and the grader)."""

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
_FOLDED = re.compile("[" + re.escape("".join(map(chr, _FOLD))) + "]")
"""Any character ``_FOLD`` maps: replacing only the matches is much faster than ``translate``
over a whole haystack (which looks every character up), with the same result."""


def _fraction(match: re.Match[str]) -> str:
    return (match.group(1) or "0") + _FRACTION_VALUE[match.group(2)]


LINEWISE_FROM = 2048
"""Texts of this many characters or more with several lines are normalised line by line."""


def normalize(text: str) -> str:
    """NFKC, case-folded, diacritics folded (Zürich -> zurich), curly quotes and apostrophes made
    straight, dashes made hyphens, invisible format characters dropped, vulgar fractions written
    as decimals (3½ -> 3.5), whitespace collapsed to single spaces and the ends trimmed."""
    if len(text) >= LINEWISE_FROM and "\n" in text:
        return _normalize_lines(text)
    return _normalize_line(text)


def _normalize_lines(text: str) -> str:
    """``_normalize_line(text)``, line by line: no step joins characters across a newline, and
    most lines of a long text are ASCII and take the fast path, where the whole would not."""
    return " ".join(filter(None, map(_normalize_line, text.split("\n"))))


def _normalize_line(text: str) -> str:
    if text.isascii():
        return " ".join(text.lower().split())
    if any(fraction in text for fraction in _FRACTION_VALUE):  # the regex is slow to scan
        text = _FRACTION.sub(_fraction, text)
    text = _INVISIBLE.sub("", text)
    text = unicodedata.normalize("NFKC", text).casefold()
    if not text.isascii():
        text = unicodedata.normalize("NFD", text)
        text = unicodedata.normalize("NFC", _MARKS.sub("", text))
        text = _FOLDED.sub(lambda match: _FOLD[ord(match.group())], text)
    return " ".join(text.split())


_ASCII_WORD = re.compile(r"[a-z0-9]+")
"""``WORD`` on normalised ASCII text (lower case), where it is faster."""


def words(text: str) -> list[str]:
    """The ``WORD`` tokens of the normalised text, in order."""
    normalized = normalize(text)
    return (_ASCII_WORD if normalized.isascii() else WORD).findall(normalized)


def contains_phrase(haystack: str, phrase: str) -> bool:
    """True when ``phrase`` occurs in ``haystack`` as whole words (alphanumeric boundaries on both
    sides), after normalising both. An empty phrase is never contained."""
    return _in_normalized(normalize(haystack), phrase)


def phrases_in(haystack: str, phrases: list[str]) -> list[str]:
    """The phrases ``contains_phrase`` would find in ``haystack``, normalising it only once."""
    normalized = normalize(haystack)
    return [phrase for phrase in phrases if _in_normalized(normalized, phrase)]


_ALNUM = frozenset("0123456789abcdefghijklmnopqrstuvwxyz")


def _in_normalized(normalized: str, phrase: str) -> bool:
    """Whether ``normalize(phrase)`` occurs in ``normalized`` with no ASCII letter or digit just
    before or after it. Every occurrence is tried (overlapping ones too), as a regex search with
    look-arounds would; ``str.find`` skips ahead where that regex tried every offset (slow on a
    whole haystack)."""
    wanted = normalize(phrase)
    return bool(wanted) and _found(normalized, wanted)


class PhraseSet:
    """Phrases normalised once, for asking of many haystacks whether ``phrases_in`` would find
    any. A phrase occurs as whole words only where the haystack has each of its runs of letters
    and digits as a whole token, so each phrase is filed under its longest run (the rarest, as a
    rule) and only the phrases filed under a run the haystack has are searched."""

    __slots__ = ("_by_run", "_runs", "_unfiled")

    def __init__(self, phrases: Iterable[str]) -> None:
        by_run: dict[str, list[str]] = {}
        unfiled: list[str] = []
        for wanted, run in map(_filed, phrases):
            if run:
                by_run.setdefault(run, []).append(wanted)
            elif wanted:
                unfiled.append(wanted)
        self._by_run = by_run
        self._runs = frozenset(by_run)
        self._unfiled = tuple(unfiled)

    def any_in(self, haystack: str) -> bool:
        """Whether any phrase occurs in ``haystack`` as whole words (after normalising it)."""
        if not (self._runs or self._unfiled):
            return False
        normalized = normalize(haystack)
        if any(_found(normalized, phrase) for phrase in self._unfiled):
            return True
        present = self._runs.intersection(_ALNUM_RUN.findall(normalized))
        return any(_found(normalized, phrase) for run in present for phrase in self._by_run[run])


_ALNUM_RUN = re.compile(r"[0-9a-z]+")


# Key values and distractors recur across a run's questions: each is filed once.
@functools.lru_cache(maxsize=65536)
def _filed(phrase: str) -> tuple[str, str]:
    """The phrase normalised, and its longest run of letters and digits (the first of equals;
    "" when it has none)."""
    wanted = normalize(phrase)
    return wanted, max(_ALNUM_RUN.findall(wanted), key=len, default="")


def _found(normalized: str, wanted: str) -> bool:
    """Whether the normalised, non-empty ``wanted`` occurs in ``normalized`` as whole words."""
    size = len(wanted)
    at = normalized.find(wanted)
    while at >= 0:
        # Slices, not indexes: "" (the text's start or end) is never in _ALNUM.
        before, after = normalized[at - 1 : at], normalized[at + size : at + size + 1]
        if before not in _ALNUM and after not in _ALNUM:
            return True
        at = normalized.find(wanted, at + 1)
    return False


def wordset(*lines: str) -> frozenset[str]:
    """The whitespace-separated words of ``lines``, as a set (for word lists written as text)."""
    return frozenset(" ".join(lines).split())


STOP_WORDS = wordset(
    "about above after again all also and any are been before being both but can could did "
    "does doing don done during each ever every for from get got had has have having her here "
    "hers him his how into its just know like many more much must not off one only other our "
    "out over own really said same say she should since some still such than that the their "
    "them then there these they thing things this those too under until very was well were "
    "what when where which who whom why will with would yet you your yours "
)
"""Function words (articles, pronouns, auxiliaries, common verbs) that never count as content: the
one list the generator's overlap measure and the grader's decline grounding share. Each adds the
words of its own purpose to it (``generate.memory.overlap``, ``grade.memory_kinds``)."""


def stem(word: str) -> str:
    """A light suffix stripper for matching word forms ("records", "recorded" -> "record")."""
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "xes", "ches", "shes", "zes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def content_words(
    text: str, stop_words: frozenset[str], *, numbers: bool = False, stems: bool = False
) -> frozenset[str]:
    """The ``words`` of ``text`` of three letters or more (and with ``numbers``, numbers of any
    length) that are not in ``stop_words``; with ``stems``, their ``stem``."""
    normalized = normalize(text)
    if normalized.isascii():  # the same words, picked out by the pattern alone
        pattern = _ASCII_CONTENT_OR_NUMBER if numbers else _ASCII_CONTENT
        found = frozenset(pattern.findall(normalized)).difference(stop_words)
    else:
        found = frozenset(
            w
            for w in frozenset(WORD.findall(normalized)).difference(stop_words)
            if len(w) >= 3 or (numbers and w.isdigit())
        )
    return frozenset(map(stem, found)) if stems else found


_ASCII_CONTENT = re.compile(r"(?<![a-z0-9])[a-z0-9]{3,}")
"""On normalised ASCII text: the words (whole runs of letters and digits) of three or more."""
_ASCII_CONTENT_OR_NUMBER = re.compile(r"(?<![a-z0-9])(?:[a-z0-9]{3,}|[0-9]+(?![a-z0-9]))")
"""``_ASCII_CONTENT``, and numbers of any length."""
