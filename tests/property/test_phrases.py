"""``any_phrase_in`` (which skips phrases whose opening word the haystack lacks) finds a phrase
exactly when ``phrases_in`` does, on texts built from words, punctuation and folded letters."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.core.text import any_phrase_in, normalized_phrases, phrases_in

PIECES = ["ab", "abc", "b", "co", "op", "ß", "straße", "Zürich", "3", "3.5", "-", "'", " ", ", "]
text = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(text, st.lists(text, max_size=5))
def test_any_phrase_in_agrees_with_phrases_in(haystack: str, phrases: list[str]) -> None:
    assert any_phrase_in(haystack, normalized_phrases(phrases)) == bool(
        phrases_in(haystack, phrases)
    )
