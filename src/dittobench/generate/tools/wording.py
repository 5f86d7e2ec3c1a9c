"""Shared optional lead-ins and trailers that category grammars may merge in.

``with_wrap(grammar)`` adds the symbols ``lead`` and ``trail`` unless the category defines its
own; a category's ``origin`` then reads e.g. ``"#lead##ask##trail#"``. About a third of each pool
is empty so plain requests stay common. Pieces here never contain a tool name's words.
"""

from __future__ import annotations

from dittobench.generate.grammar import Grammar

LEAD_INS: tuple[str, ...] = (
    "",
    "",
    "",
    "",
    "Hey, ",
    "Quick one: ",
    "When you have a sec, ",
    "Okay, so ",
    "Hi there. ",
    "Um, ",
    "Right, ",
    "Sorry to bother you, but ",
    "One more thing: ",
    "So, ",
    "Morning! ",
    "Alright, ",
)

TRAILERS: tuple[str, ...] = (
    "",
    "",
    "",
    "",
    " Thanks!",
    " Thanks a lot.",
    " Cheers.",
    " No rush.",
    " Appreciate it.",
    " Thank you.",
    " That'd help a lot.",
    " Ta.",
    " Much obliged.",
)


PLAIN_LEADS: tuple[str, ...] = tuple(lead for lead in LEAD_INS if ":" not in lead)
"""Lead-ins without a colon, for wordings that already contain one."""


def with_wrap(grammar: Grammar) -> dict[str, tuple[str, ...]]:
    """``grammar`` plus the shared ``lead`` and ``trail`` symbols (the category's own win)."""
    merged: dict[str, tuple[str, ...]] = {"lead": LEAD_INS, "trail": TRAILERS}
    merged.update({symbol: tuple(alts) for symbol, alts in grammar.items()})
    return merged
