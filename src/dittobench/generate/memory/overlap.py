"""Word overlap between a question and its evidence, and the choice of a low-overlap wording.

When a question shares its content words with the stored fact, a system can find the answer by
word matching alone. Overlap = |question words that also occur in the evidence| / |question
words|, over content words (lowercase ``[a-z0-9]+`` tokens of at least 3 characters or numeric,
minus the stop words). The first candidate wording is kept when its overlap is at most
``TARGET_PERMILLE``; otherwise the candidate with the lowest overlap (the earliest on ties).
"""

from __future__ import annotations

from collections.abc import Sequence

from dittobench.core import text
from dittobench.core.text import content_words as words_of_content

TARGET_PERMILLE = 250


def stop_words(extra: frozenset[str]) -> frozenset[str]:
    """The shared function words plus the pack's ``overlap_stop_words`` (time and filler words
    that say nothing about a fact)."""
    return text.STOP_WORDS | extra


def content_words(text: str, stop: frozenset[str]) -> frozenset[str]:
    return words_of_content(text, stop, numbers=True)


def overlap_permille(question: str, evidence: str | frozenset[str], stop: frozenset[str]) -> int:
    """Thousandths of the question's content words that occur in the evidence (0 if none).
    ``evidence`` may be given as its content words already."""
    asked = content_words(question, stop)
    if not asked:
        return 0
    held = evidence if isinstance(evidence, frozenset) else content_words(evidence, stop)
    return len(asked & held) * 1000 // len(asked)


def choose_wording(
    candidates: Sequence[str], evidence: str | frozenset[str], stop: frozenset[str]
) -> tuple[str, int, int]:
    """(chosen wording, overlap of the first candidate, overlap of the chosen one); ``evidence``
    may be given as its content words already."""
    held = evidence if isinstance(evidence, frozenset) else content_words(evidence, stop)
    first = overlap_permille(candidates[0], held, stop)
    if first <= TARGET_PERMILLE:
        return candidates[0], first, first
    scores = [first, *(overlap_permille(c, held, stop) for c in candidates[1:])]
    best = min(range(len(candidates)), key=lambda i: (scores[i], i))
    return candidates[best], first, scores[best]
