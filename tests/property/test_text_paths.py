"""The text helpers' fast paths give exactly what their plain forms give: ``normalize`` taking a
long text line by line, and ``words`` reading ASCII text with an ASCII pattern; on texts built
from what every step of the normaliser touches."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.core.text import (
    LINEWISE_FROM,
    WORD,
    _normalize_line,
    _normalize_lines,
    normalize,
    words,
)

PIECES = [
    "ab", "Zürich", "ß", "3", "½", " ", "  ", "\t", "\r", "\u200b", "\u0301", "e\u0301", "’",
    "—", "ﬁ", "Ⅻ", "\u00a0", "Σ", "İ", "\u2028", "x\u0338", "AbC", "_", "Œ", "²", "٣",
]  # fmt: skip
line = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)
lines = st.lists(line, min_size=2, max_size=10).map("\n".join)


@settings(max_examples=400, deadline=None)
@given(lines)
def test_linewise_normalize_equals_whole(text: str) -> None:
    assert _normalize_lines(text) == _normalize_line(text)


def test_long_texts_take_the_linewise_path() -> None:
    text = "\n".join(["Plain ASCII line"] * 200 + ["Zürich ½"])
    assert len(text) >= LINEWISE_FROM
    assert normalize(text) == _normalize_line(text)
    assert normalize(text).endswith("plain ascii line zurich 0.5")


@settings(max_examples=400, deadline=None)
@given(lines)
def test_words_equal_the_word_pattern_on_the_normalised_text(text: str) -> None:
    assert words(text) == WORD.findall(normalize(text))
