"""Text normalisation and bounded matching, shared by the generator and the grader.

The generator uses these to keep banned words out of prompts; the grader uses the same rules to
match answers, so a word the generator considers absent is absent for the grader too.
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[a-z0-9]+")
_SPACE = re.compile(r"\s+")


def normalize(text: str) -> str:
    """NFKC, case-folded, with runs of whitespace collapsed to one space and ends trimmed."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def words(text: str) -> list[str]:
    """Lowercase ASCII word tokens ``[a-z0-9]+`` of the normalised text, in order."""
    return _WORD.findall(normalize(text))


def contains_phrase(haystack: str, phrase: str) -> bool:
    """True when ``phrase`` occurs in ``haystack`` as whole words (alphanumeric boundaries on both
    sides), after normalising both. An empty phrase is never contained."""
    return _in_normalized(normalize(haystack), phrase)


def phrases_in(haystack: str, phrases: list[str]) -> list[str]:
    """The phrases ``contains_phrase`` would find in ``haystack``, normalising it only once."""
    normalized = normalize(haystack)
    return [phrase for phrase in phrases if _in_normalized(normalized, phrase)]


def _in_normalized(normalized: str, phrase: str) -> bool:
    wanted = normalize(phrase)
    if not wanted:
        return False
    pattern = r"(?<![0-9a-z])" + re.escape(wanted) + r"(?![0-9a-z])"
    return re.search(pattern, normalized) is not None
