"""Word overlap between a question and its evidence, and the choice of a low-overlap wording.

When a question shares its content words with the stored fact, a system can find the answer by
word matching alone. Overlap = |question words that also occur in the evidence| / |question
words|, over content words (lowercase ``[a-z0-9]+`` tokens of at least 3 characters or numeric,
minus ``STOP_WORDS``). The first candidate wording is kept when its overlap is at most
``TARGET_PERMILLE``; otherwise the candidate with the lowest overlap (the earliest on ties).
"""

from __future__ import annotations

from collections.abc import Sequence

from dittobench.core.text import words

TARGET_PERMILLE = 250

STOP_WORDS = frozenset(
    [
        "about",
        "above",
        "after",
        "again",
        "all",
        "also",
        "and",
        "any",
        "are",
        "around",
        "back",
        "been",
        "before",
        "being",
        "both",
        "but",
        "can",
        "could",
        "did",
        "does",
        "doing",
        "don",
        "done",
        "down",
        "during",
        "each",
        "even",
        "ever",
        "every",
        "few",
        "for",
        "from",
        "get",
        "got",
        "had",
        "has",
        "have",
        "having",
        "her",
        "here",
        "hers",
        "him",
        "his",
        "how",
        "into",
        "its",
        "just",
        "know",
        "last",
        "like",
        "made",
        "make",
        "many",
        "more",
        "most",
        "much",
        "must",
        "never",
        "new",
        "not",
        "now",
        "off",
        "once",
        "one",
        "only",
        "other",
        "our",
        "out",
        "over",
        "own",
        "really",
        "said",
        "same",
        "say",
        "she",
        "should",
        "since",
        "some",
        "still",
        "such",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "thing",
        "things",
        "this",
        "those",
        "through",
        "too",
        "under",
        "until",
        "very",
        "was",
        "way",
        "well",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "yet",
        "you",
        "your",
        "yours",
        "again",
        "ago",
        "i'm",
        "i've",
        "it's",
        "that's",
        "what's",
    ]
)


def content_words(text: str) -> set[str]:
    return {w for w in words(text) if (len(w) >= 3 or w.isdigit()) and w not in STOP_WORDS}


def overlap_permille(question: str, evidence: str | set[str]) -> int:
    """Thousandths of the question's content words that occur in the evidence (0 if none).
    ``evidence`` may be given as its content words already."""
    asked = content_words(question)
    if not asked:
        return 0
    held = evidence if isinstance(evidence, set) else content_words(evidence)
    return len(asked & held) * 1000 // len(asked)


def choose_wording(candidates: Sequence[str], evidence: str) -> tuple[str, int, int]:
    """(chosen wording, overlap of the first candidate, overlap of the chosen one)."""
    held = content_words(evidence)
    scores = [overlap_permille(c, held) for c in candidates]
    if scores[0] <= TARGET_PERMILLE:
        return candidates[0], scores[0], scores[0]
    best = min(range(len(candidates)), key=lambda i: (scores[i], i))
    return candidates[best], scores[0], scores[best]
