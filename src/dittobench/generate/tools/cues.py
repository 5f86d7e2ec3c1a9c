"""Cue words: the words of a tool's catalog description that point at that tool.

A harness that matches a request's words against the catalog's descriptions routes it without
understanding it whenever the request says what the description says. A content word of a
description (``core.text.content_words`` with stems: three letters or more, not a stop word,
suffixes stripped, so "pictures" and "picture" are one word) is *distinctive* for a tool when
that tool's description holds it and the descriptions of at most ``max_shared`` tools in all do
(a word most descriptions share, "user", routes nowhere). A pack that declares ``cues`` in
tools.json (``{"max_shared": N}``) promises that no category's wording says a distinctive word
of one of its expected tools and that each category bans those words (``pack lint``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from dittobench.core.text import STOP_WORDS, content_words, stem, words

CUES = "cues"
"""The tools.json key that declares the check."""
MAX_SHARED = "max_shared"


def description_stems(descriptions: Mapping[str, str]) -> dict[str, frozenset[str]]:
    """Each tool's description as its content-word stems."""
    return {
        tool: content_words(text, STOP_WORDS, stems=True) for tool, text in descriptions.items()
    }


def distinctive_words(
    descriptions: Mapping[str, str], max_shared: int
) -> dict[str, frozenset[str]]:
    """Each tool's distinctive description words, as stems."""
    held = description_stems(descriptions)
    spread = Counter(s for stems in held.values() for s in stems)
    return {
        tool: frozenset(s for s in stems if spread[s] <= max_shared) for tool, stems in held.items()
    }


def surface_forms(description: str, distinctive: frozenset[str]) -> frozenset[str]:
    """The words of ``description`` as written (lower case) whose stem is distinctive: what a
    category of the tool must ban."""
    return frozenset(w for w in words(description) if _is_cue(w, distinctive))


def cue_words_in(text: str, distinctive: frozenset[str]) -> list[str]:
    """The words of ``text`` whose stems are distinctive, in order of first appearance."""
    found: list[str] = []
    for word in words(text):
        if _is_cue(word, distinctive) and word not in found:
            found.append(word)
    return found


def _is_cue(word: str, distinctive: frozenset[str]) -> bool:
    return len(word) >= 3 and word not in STOP_WORDS and stem(word) in distinctive
