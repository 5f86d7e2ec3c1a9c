"""``PhraseSet.any_in`` (which searches only phrases filed under a word the haystack has) finds a
phrase exactly when ``phrases_in`` does, on texts of words, punctuation and folded letters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.core.text import PhraseSet, phrases_in

PIECES = [
    "ab", "abc", "b", "co", "op", "ß", "straße", "Zürich", "β", "_", "3", "3.5",
    "-", "'", " ", ", ",
]  # fmt: skip
text = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(text, st.lists(text, max_size=5))
def test_phrase_set_agrees_with_phrases_in(haystack: str, phrases: list[str]) -> None:
    assert PhraseSet(phrases).any_in(haystack) == bool(phrases_in(haystack, phrases))
