"""One table of text-normalisation rows, run against the generator's phrase check
(``core.text.contains_phrase``) and the grader's value match (``grade.match.hit``): a word the
generator considers present is present for the grader, and the other way round."""

from __future__ import annotations

import pytest

from dittobench.core.text import contains_phrase, normalize
from dittobench.grade import match

ROWS = [
    ("I moved to Zürich", "Zurich", True),
    ("I moved to Zurich", "Zürich", True),
    ("Café Nero on the corner", "Cafe Nero", True),
    ("São Paulo, then Kraków", "Krakow", True),
    ("the Øresund bridge", "Oresund", True),
    ("I went to New York", "York", True),
    ("I went to Yorkshire", "York", False),
    ("ZÜRICH", "zürich", True),
    ("it’s the “Blue Door”", "Blue Door", True),
    ("Fancy\u00a0Cakes", "Fancy Cakes", True),
    ("in\u200bvisible", "invisible", True),
    ("ｆｕｌｌ width", "full width", True),
    ("the Straße", "Strasse", True),
    ("pottery class", "potter", False),
    ("", "anything", False),
]


@pytest.mark.parametrize(("text", "phrase", "present"), ROWS)
def test_generator_and_grader_agree(text: str, phrase: str, present: bool) -> None:
    assert contains_phrase(text, phrase) is present
    assert match.hit(text, phrase) is present


def test_there_is_one_normaliser() -> None:
    assert match.normalize is normalize
    assert normalize("  Zürich –  “Café”  3½ ") == 'zurich - "cafe" 3.5'


def test_one_stop_list_and_one_content_word_rule_serve_both_sides() -> None:
    from dittobench.core import text
    from dittobench.generate.memory import overlap
    from dittobench.generate.texts import public_texts
    from dittobench.grade import memory_kinds

    stop = public_texts().questions.overlap_stop_words
    assert stop >= text.STOP_WORDS
    assert memory_kinds.STOP_WORDS >= text.STOP_WORDS
    assert overlap.stop_words(frozenset()) == text.STOP_WORDS
    question = "Which records did I say I'd stored about the Zürich trips, 2026?"
    assert overlap.content_words(question, stop) == {"records", "stored", "zurich", "trips", "2026"}
    assert memory_kinds.content_words(question) == {"zurich", "trip", "2026"}  # no memory verbs
    assert text.stem("records") == "record" and text.stem("stored") == "stor"
