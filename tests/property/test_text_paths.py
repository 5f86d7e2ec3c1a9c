"""The text helpers' fast paths give exactly what their plain forms give: ``normalize`` taking a
long text line by line, ``words`` reading ASCII text with an ASCII pattern, and
``content_words`` picking words out by pattern; on texts built from what every step of the
normaliser touches."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.core.text import (
    LINEWISE_FROM,
    WORD,
    _normalize_line,
    _normalize_lines,
    content_words,
    normalize,
    stem,
    words,
)

PIECES = [
    "ab", "Zürich", "ß", "3", "½", " ", "  ", "\t", "\r", "\u200b", "\u0301", "e\u0301", "’",
    "—", "ﬁ", "Ⅻ", "\u00a0", "Σ", "İ", "\u2028", "x\u0338", "AbC", "_", "Œ", "²", "٣",
    "the", "you", "12", "7", "2026", "x9", "a1b", "ok", "one", ".", "-", "'s",
]  # fmt: skip
line = st.lists(st.sampled_from(PIECES), max_size=8).map("".join)
lines = st.lists(line, min_size=2, max_size=10).map("\n".join)
ascii_lines = st.lists(
    st.lists(st.sampled_from([p for p in PIECES if p.isascii()]), max_size=8).map("".join),
    min_size=1,
    max_size=10,
).map("\n".join)


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
@given(st.one_of(lines, ascii_lines))
def test_words_equal_the_word_pattern_on_the_normalised_text(text: str) -> None:
    assert words(text) == WORD.findall(normalize(text))


@settings(max_examples=600, deadline=None)
@given(st.one_of(lines, ascii_lines), st.booleans(), st.booleans())
def test_content_words_equal_their_definition(text: str, numbers: bool, stems: bool) -> None:
    stop = frozenset({"the", "you", "one", "abc"})
    plain = {w for w in words(text) if (len(w) >= 3 or (numbers and w.isdigit())) and w not in stop}
    expected = {stem(w) for w in plain} if stems else plain
    assert content_words(text, stop, numbers=numbers, stems=stems) == expected
