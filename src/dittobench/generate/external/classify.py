"""Which external questions fixed rules can grade: a gold answer that is one short value (a few
words, a number, a date, a duration) is graded by rules; anything longer, a list, a relative
date ("the week before 9 June 2023"), a yes or no, or a sentence goes to the locked judge with a
rubric made from the gold answer (its facts: the items of a list, else the whole answer).

A rule must commit an answer to the gold value, so it can only be asked of a gold that is one
value; everything else is honest work for a judge, not a guess at matching wording.
"""

from __future__ import annotations

import re
from typing import Final

from dittobench.core.text import STOP_WORDS, words
from dittobench.spec.vocab import GradedBy

VALUE_MOST_WORDS: Final = 6
"""The most words a gold value graded by rules has ("Business Administration", "7 May 2023")."""

_LIST_MARK = re.compile(r"[;()\[\]\n:]|,(?![0-9]{3}(?![0-9]))")
"""A semicolon, a bracket, a line break, a colon or a comma that is not a thousands separator:
the gold is a list or says more than one thing."""

_SENTENCE = re.compile(r"[.!?](?:\s|$)")

_NOT_ONE_VALUE = re.compile(
    r"(?<![^\W_])(?:and|or|nor|but|not|no|yes|before|after|ago|around|about|approximately|"
    r"between|since|until|till|during|week\s+of|weekend|weekends|likely|probably|maybe|perhaps|"
    r"possibly|either|neither|both|including|except|than|later|earlier|previous|next|last)"
    r"(?![^\W_])",
    re.I,
)
"""Words that make a gold more than one plain value: a conjunction, a negation, a relative time,
a hedge or a comparison."""

FACTS_MOST_WORDS: Final = 8
"""The most words each item of a gold list has for the list to be split into rubric facts."""


def graded_by_of(gold: str) -> GradedBy:
    """``value`` when ``gold`` is one short value, else ``open``."""
    text = " ".join(gold.split())
    if not text or len(text.split(" ")) > VALUE_MOST_WORDS:
        return "open"
    if _LIST_MARK.search(text) or _SENTENCE.search(text) or _NOT_ONE_VALUE.search(text):
        return "open"
    if not [w for w in words(text) if w not in STOP_WORDS or w.isdigit()]:
        return "open"  # only function words ('"That"'): no rule can tell it from any reply
    return "value"


_COMMA = re.compile(r"\s*,\s*(?![0-9]{3}(?![0-9]))")
_LAST_AND = re.compile(r"\s+and\s+|^and\s+")


def facts_of(gold: str) -> tuple[str, ...]:
    """The facts a good answer to an open question states: the items of a gold that is a short
    list ("Pottery, camping, painting, swimming"; "A, B and C"; "A; B"), else the gold as one
    fact."""
    text = " ".join(gold.split())
    if not text:
        return ()
    if _SENTENCE.search(text.rstrip(".")):
        return (text,)
    if ";" in text:
        items = text.split(";")
    elif _COMMA.search(text):
        items = _COMMA.split(text)
        items[-1:] = _LAST_AND.split(items[-1], maxsplit=1)
    else:
        return (text,)
    items = [item.strip(" .") for item in items]
    items = [item for item in items if item]
    if len(items) < 2 or any(len(item.split(" ")) > FACTS_MOST_WORDS for item in items):
        return (text,)
    return tuple(dict.fromkeys(items))


__all__ = ["FACTS_MOST_WORDS", "VALUE_MOST_WORDS", "facts_of", "graded_by_of"]
