"""Shared pieces of the ``changing`` attribute grammars: turn openers, time words and pools.

An attribute's grammar names only its own words; ``changing`` adds the shared helper symbols
below that the grammar references (directly or through another shared symbol), so no grammar
carries a helper it never uses.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from dittobench.generate.persona.attribute import Attribute, Choice

_SYMBOL = re.compile(r"#([a-z_][a-z0-9_]*)#")

SHARED: Mapping[str, tuple[str, ...]] = {
    # Opens a plain statement of the value.
    "lead": (
        "",
        "",
        "By the way, ",
        "For context, ",
        "Just so you have it, ",
        "Quick background: ",
        "Oh, and ",
        "FYI, ",
    ),
    # Opens a report that the value changed.
    "news": (
        "",
        "Update: ",
        "Big news: ",
        "Guess what? ",
        "Life update: ",
        "So, ",
        "Well, ",
        "News from my end: ",
    ),
    # Opens a remark about someone else; never empty, so a turn never starts with {person}.
    "other_lead": (
        "Oh, ",
        "Funny thing: ",
        "Random update: ",
        "Not about me, but ",
        "Unrelated, but ",
        "Side note: ",
    ),
    "other_tail": ("", ", apparently", ", from what I hear", ", as I found out yesterday"),
    # Marks a question as asking for the value in force today.
    "now": ("now", "these days", "at the moment", "currently", "right now", "at present"),
}


def changing(
    name: str, title: str, values: tuple[Choice, ...], grammar: Mapping[str, tuple[str, ...]]
) -> Attribute:
    """A ``changing`` attribute whose grammar gains the shared symbols it references."""
    merged = dict(grammar)
    pending = [s for alts in grammar.values() for text in alts for s in _SYMBOL.findall(text)]
    while pending:
        symbol = pending.pop()
        if symbol in merged or symbol not in SHARED:
            continue
        merged[symbol] = SHARED[symbol]
        pending.extend(s for text in SHARED[symbol] for s in _SYMBOL.findall(text))
    return Attribute(name=name, title=title, kind="changing", values=values, grammar=merged)
