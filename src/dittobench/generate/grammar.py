"""A small context-free grammar engine for prompt wording.

A grammar maps a symbol to its alternatives. ``#name#`` inside an alternative expands symbol
``name`` (one draw per occurrence, left to right, depth-first). ``{slot}`` marks where a pinned
value goes; slots are filled only *after* expansion, so a value that grading depends on is never
rewritten by the grammar. Expansion is loud: an unknown symbol, a symbol with no alternatives or
recursion deeper than ``MAX_DEPTH`` raises ``GrammarError`` instead of printing something odd.

Before filling, ``tidy`` fixes spacing around punctuation and capitalises sentence starts, so
optional (empty) pieces never leave double spaces.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from dittobench.core.errors import DittobenchError
from dittobench.core.prng import Stream

Grammar = Mapping[str, Sequence[str]]

MAX_DEPTH = 8
_SYMBOL = re.compile(r"#([a-z_][a-z0-9_]*)#")
_SLOT = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


class GrammarError(DittobenchError, ValueError):
    """A grammar that cannot expand (unknown symbol, empty symbol, runaway recursion)."""


def expand(grammar: Grammar, stream: Stream, symbol: str = "origin") -> str:
    """Expand ``#symbol#`` with draws from ``stream``; slots are left as ``{slot}``."""
    return _expand_in(grammar, stream, stream.choice(_alternatives(grammar, symbol, 0)), 0)


def _expand_in(grammar: Grammar, stream: Stream, text: str, depth: int) -> str:
    """``text`` (an alternative drawn at ``depth``) with its symbols expanded in turn."""
    if "#" not in text:  # most alternatives are plain words: no symbol to look for
        return text
    literals, symbols = _pieces(text)
    out = literals[0]
    for name, literal in zip(symbols, literals[1:], strict=True):
        # Looked up here, not in a call per symbol: most symbols draw a plain word, done at once.
        alternatives = grammar.get(name)
        if not alternatives or depth >= MAX_DEPTH:
            alternatives = _alternatives(grammar, name, depth + 1)  # raises saying why
        chosen = stream.choice(alternatives)
        if "#" in chosen:
            chosen = _expand_in(grammar, stream, chosen, depth + 1)
        out += chosen + literal
    return out


def _alternatives(grammar: Grammar, symbol: str, depth: int) -> Sequence[str]:
    """The alternatives of ``symbol`` expanded at ``depth``; ``GrammarError`` when there are
    none or the recursion runs too deep."""
    if depth > MAX_DEPTH:
        raise GrammarError(f"grammar recursion deeper than {MAX_DEPTH} at #{symbol}#")
    alternatives = grammar.get(symbol)
    if not alternatives:
        if alternatives is None:
            raise GrammarError(f"unknown grammar symbol #{symbol}#")
        raise GrammarError(f"grammar symbol #{symbol}# has no alternatives")
    return alternatives


def _cut(marker: re.Pattern[str], text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``text`` cut at each match of ``marker``: the literals around them (one more than the
    matches) and the names the matches carry, left to right."""
    # split with the marker's one group: literal, name, literal, ..., literal (in one C call).
    pieces = marker.split(text)
    return tuple(pieces[0::2]), tuple(pieces[1::2])


@lru_cache(maxsize=4096)
def _pieces(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``text`` cut at its ``#symbol#``s. Memoised: a pure function of an alternative's text."""
    return _cut(_SYMBOL, text)


@lru_cache(maxsize=8192)
def _slot_pieces(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``text`` cut at its ``{slot}``s. Memoised: templates recur, their values do not."""
    return _cut(_SLOT, text)


def slots_in(text: str) -> list[str]:
    """The slot names a text carries, in order of first appearance, without repeats."""
    return list(dict.fromkeys(_slot_pieces(text)[1]))


def fill(text: str, values: Mapping[str, str]) -> str:
    """Replace every ``{slot}`` with its value verbatim; a slot without a value raises."""
    if "{" not in text:  # nothing to fill (and no template to cut and cache)
        return text
    literals, names = _slot_pieces(text)
    out = [literals[0]]
    for name, literal in zip(names, literals[1:], strict=True):
        if name not in values:
            raise GrammarError(f"no value for slot {{{name}}}")
        out.append(values[name])
        out.append(literal)
    return "".join(out)


_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.;:?!])")
_MULTI_SPACE = re.compile(r"[ \t]{2,}")
_DOUBLE_COMMA = re.compile(r",\s*,")
_SENTENCE_START = re.compile(r"([.!?] )([a-z])")


@lru_cache(maxsize=8192)
def tidy(text: str) -> str:
    """Collapse spaces, drop spaces before punctuation and doubled commas, trim, and capitalise
    the first letter of each sentence. Apply it to an expanded template *before* ``fill``, so slot
    values are never touched. Memoised: a pure function of ``text``, and a run expands the same
    few thousand templates (slots still unfilled) again and again."""
    # Each pattern runs only where the text can hold a match (most expansions hold none).
    if "  " in text or "\t" in text:
        text = _MULTI_SPACE.sub(" ", text)
    if text.count(",") > 1:
        text = _DOUBLE_COMMA.sub(",", text)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text).strip()
    text = text.lstrip(", ")
    if ". " in text or "! " in text or "? " in text:
        text = _SENTENCE_START.sub(lambda m: m.group(1) + m.group(2).upper(), text)
    return text[:1].upper() + text[1:]


def count_expansions(grammar: Grammar, symbol: str = "origin", depth: int = 0) -> int:
    """How many distinct derivations ``symbol`` has (an upper bound on distinct texts)."""
    if depth > MAX_DEPTH:
        raise GrammarError(f"grammar recursion deeper than {MAX_DEPTH} at #{symbol}#")
    total = 0
    for alternative in grammar[symbol]:
        product = 1
        for name in _SYMBOL.findall(alternative):
            product *= count_expansions(grammar, name, depth + 1)
        total += product
    return total


def check_grammar(grammar: Grammar, root: str = "origin") -> None:
    """Raise ``GrammarError`` if any reachable symbol is unknown or empty, or any defined symbol
    is unreachable from ``root`` (a typo's usual symptom)."""
    reachable: set[str] = set()
    pending = [root]
    while pending:
        symbol = pending.pop()
        if symbol in reachable:
            continue
        if symbol not in grammar:
            raise GrammarError(f"unknown grammar symbol #{symbol}#")
        if not grammar[symbol]:
            raise GrammarError(f"grammar symbol #{symbol}# has no alternatives")
        reachable.add(symbol)
        for alternative in grammar[symbol]:
            pending.extend(_SYMBOL.findall(alternative))
    unused = sorted(set(grammar) - reachable)
    if unused:
        raise GrammarError(f"grammar symbols never used: {', '.join(unused)}")


def strip_slots(text: str) -> str:
    """The text with every ``{slot}`` replaced by a space (to inspect the grammar's own words)."""
    return _SLOT.sub(" ", text)
