"""Argument values rendered as short text, for results that repeat what the caller asked for."""

from __future__ import annotations

from collections.abc import Mapping

from dittobench.core.canonical import CanonicalJSONError, canonical_str

MAX_ECHO = 160
"""Longest echoed value, in characters; longer values are cut and end in "..."."""


def as_text(value: object) -> str:
    """A value as one line of text: ``None`` empty, strings trimmed, lists joined with ", ",
    anything else in its canonical JSON form. Runs of whitespace collapse to one space; the
    result is capped at ``MAX_ECHO`` characters."""
    if value is None:
        text = ""
    elif isinstance(value, str):
        text = value
    elif isinstance(value, list):
        text = ", ".join(as_text(item) for item in value)
    else:
        try:
            text = canonical_str(value)
        except CanonicalJSONError:
            text = ""
    text = " ".join(text.split())
    if len(text) > MAX_ECHO:
        text = text[: MAX_ECHO - 3].rstrip() + "..."
    return text


def arg_text(args: Mapping[str, object], name: str, default: str = "") -> str:
    """Argument ``name`` as text (see ``as_text``), or ``default`` when absent or blank."""
    text = as_text(args.get(name))
    return text or default


def arg_list(args: Mapping[str, object], name: str) -> list[str]:
    """Argument ``name`` as a list of non-blank texts: a string gives one item, a list one item
    per non-blank element, anything else its canonical text."""
    value = args.get(name)
    items = value if isinstance(value, list) else [value]
    out = [as_text(item) for item in items if item is not None]
    return [item for item in out if item]
