"""Builders that turn compact value lists into an attribute's ``Choice`` tuple.

Attribute modules declare dozens of values each; these let a pool be written as one string or
a run of names, so the declarations stay readable data rather than rows of ``Choice(...)``.
"""

from __future__ import annotations

from collections.abc import Mapping

from dittobench.generate.grammar import GrammarError
from dittobench.generate.persona.attribute import Choice


def choices(*texts: str) -> tuple[Choice, ...]:
    """One alias-free choice per text."""
    return tuple(Choice(text) for text in texts)


def plain(text: str) -> tuple[Choice, ...]:
    """Alias-free choices from comma-separated text ("cello, oboe, French horn")."""
    return tuple(Choice(value.strip()) for value in text.split(","))


def surnamed(text: str) -> tuple[Choice, ...]:
    """Comma-separated "Mrs Abernathy" style values, each also accepted by surname alone."""
    return tuple(Choice(v.strip(), (v.split()[-1],)) for v in text.split(","))


def pool(names: str, aliases: Mapping[str, tuple[str, ...]] | None = None) -> tuple[Choice, ...]:
    """Values from a ``|``-separated list, with other accepted forms keyed by value text."""
    texts = tuple(name.strip() for name in names.split("|"))
    extra = dict(aliases or {})
    unknown = sorted(set(extra) - set(texts))
    if unknown:
        raise GrammarError(f"aliases for values not in the pool: {', '.join(unknown)}")
    return tuple(Choice(text, extra.get(text, ())) for text in texts)
