"""Grammars compiled back into patterns: how the parser reads text a content pack produced.

The generator expands a grammar alternative (``#symbol#`` draws one of the symbol's own
alternatives, depth first), tidies the result and then fills each ``{slot}`` verbatim
(``generate/grammar.py``). ``compile_wording`` inverts one alternative: it becomes a regular
expression matching every text the generator can make from it. Each nested symbol turns into
an alternation of its alternatives (longest first), each slot into a lazy capture group, and
the literal text is loosened exactly as far as ``tidy`` changes it: any letter case, a space
that may vanish where tidy drops it (before punctuation, at either end, next to another space),
a comma that may vanish where tidy merges it into the one before or strips it from the start.

One pattern per wording (per top-level alternative): a slot may appear in several nested
alternatives, so every occurrence gets its own group and ``Wording.match`` reports the first
one that took part in the match. ``anchor`` is a piece of literal text every match contains;
checking it first keeps a sweep over thousands of wordings fast.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dittobench.core.errors import DittobenchError

MAX_DEPTH = 8
"""As deep as the generator expands (``generate.grammar.MAX_DEPTH``)."""

_TOKEN = re.compile(r"#([a-z_][a-z0-9_]*)#|\{([a-z_][a-z0-9_]*)\}")
_GAP = "\x00"
"""Stands for a literal space while a pattern is assembled."""
_GAPS = re.compile(_GAP + "+")
_PUNCT = ",.;:?!"
_COMMA = r"(?:,|(?<=,)|(?<=, )|\A)"
"""A literal comma after ``tidy``: itself, or nothing where tidy merged it into the comma
before or stripped it from the start."""
_SPACE = r"(?:\s+|(?<=\s)|(?=[,.;:?!])|\A|\Z)"
"""A literal space after ``tidy``: whitespace, or nothing where tidy removes it (before
punctuation, at either end, or where a neighbouring space already stands)."""
_ANCHOR_PIECE = re.compile(r"[\w']+(?: [\w']+)*")


class PatternError(DittobenchError, ValueError):
    """A grammar that cannot be compiled (an unknown symbol, recursion too deep)."""


@dataclass(frozen=True, slots=True)
class Wording:
    """One compiled alternative: its source text, the pattern and its slot groups."""

    source: str
    pattern: re.Pattern[str]
    groups: tuple[tuple[str, str], ...]
    """(group name, slot name) for every slot occurrence, in order."""
    anchor: str
    """Lower-case literal text every match contains ("" when the wording has none)."""

    def match(self, text: str, lowered: str | None = None) -> dict[str, str] | None:
        """The slot values of ``text`` when the whole text is this wording, else None.
        ``lowered`` is ``text.lower()`` when the caller already has it."""
        if self.anchor and self.anchor not in (text.lower() if lowered is None else lowered):
            return None
        return self._values(self.pattern.fullmatch(text.strip()))

    def search(self, text: str) -> dict[str, str] | None:
        """The slot values of the first place in ``text`` this wording occurs, else None."""
        return self._values(self.pattern.search(text))

    def _values(self, found: re.Match[str] | None) -> dict[str, str] | None:
        if found is None:
            return None
        values: dict[str, str] = {}
        for group, slot in self.groups:
            value = found.group(group)
            if value is not None and slot not in values:
                values[slot] = value.strip()
        return values


def compile_wording(
    grammar: Mapping[str, Sequence[str]],
    text: str,
    slot_patterns: Mapping[str, str] | None = None,
    word_start: bool = False,
) -> Wording:
    """The pattern of one alternative ``text`` of ``grammar``. A slot captures ``.+?`` unless
    ``slot_patterns`` gives it a pattern of its own (without groups). With ``word_start`` a
    search finds it only where a word starts (a lead's "Ugh. " not inside "through. ")."""
    compiler = _Compiler(grammar, slot_patterns or {})
    body = _GAPS.sub(lambda _gap: _SPACE, compiler.alternative(text, 0))
    if word_start:
        body = r"(?<!\w)(?:" + body + ")"
    return Wording(
        source=text,
        pattern=re.compile(body, re.IGNORECASE | re.DOTALL),
        groups=tuple(compiler.groups),
        anchor=_anchor(text),
    )


def compile_symbol(
    grammar: Mapping[str, Sequence[str]],
    symbol: str,
    slot_patterns: Mapping[str, str] | None = None,
    word_start: bool = False,
) -> tuple[Wording, ...]:
    """One wording per alternative of ``symbol`` (none when the grammar lacks it)."""
    return tuple(
        compile_wording(grammar, text, slot_patterns, word_start)
        for text in grammar.get(symbol, ())
    )


def compile_format(text: str, slot_patterns: Mapping[str, str] | None = None) -> Wording:
    """A pack format such as ``job-{code}`` or ``the {subject} reached {figure} {unit}``
    (slots only, no symbols) as a wording; use ``Wording.pattern.search`` to find it in a
    longer text."""
    return compile_wording({}, text, slot_patterns)


class _Compiler:
    def __init__(self, grammar: Mapping[str, Sequence[str]], slots: Mapping[str, str]) -> None:
        self.grammar = grammar
        self.slots = slots
        self.groups: list[tuple[str, str]] = []
        self.plain: dict[str, str] = {}
        """Patterns of symbols that reach no slot (the same text wherever they occur)."""

    def alternative(self, text: str, depth: int) -> str:
        out: list[str] = []
        position = 0
        for token in _TOKEN.finditer(text):
            out.append(_literal(text[position : token.start()]))
            symbol, slot = token.group(1), token.group(2)
            out.append(self.symbol(symbol, depth + 1) if symbol else self.slot(slot))
            position = token.end()
        out.append(_literal(text[position:]))
        return "".join(out)

    def symbol(self, name: str, depth: int) -> str:
        if depth > MAX_DEPTH:
            raise PatternError(f"grammar recursion deeper than {MAX_DEPTH} at #{name}#")
        if name in self.plain:
            return self.plain[name]
        if name not in self.grammar:
            raise PatternError(f"unknown grammar symbol #{name}#")
        before = len(self.groups)
        # Longest first: an optional lead ("Oh, and ") is tried before the empty one, so a
        # lazy slot next to it never swallows it.
        alternatives = sorted(self.grammar[name], key=len, reverse=True)
        body = "(?:" + "|".join(self.alternative(a, depth) for a in alternatives) + ")"
        if len(self.groups) == before:
            self.plain[name] = body
        return body

    def slot(self, name: str) -> str:
        group = f"g{len(self.groups)}"
        self.groups.append((group, name))
        return f"(?P<{group}>{self.slots.get(name, '.+?')})"


def _literal(text: str) -> str:
    out = []
    for index, char in enumerate(text):
        if char.isspace():
            inner = 0 < index < len(text) - 1 and not text[index - 1].isspace()
            # Between two words of one literal a space always stays (as one or more).
            kept = inner and not text[index + 1].isspace() and text[index + 1] not in _PUNCT
            out.append(r"\s+" if kept else _GAP)
        elif char == ",":
            out.append(_COMMA)
        else:
            out.append(re.escape(char))
    return "".join(out)


def _anchor(text: str) -> str:
    """The longest run of words and single spaces in the wording's own literal text."""
    literal = _TOKEN.sub("\n", text).lower()
    pieces = _ANCHOR_PIECE.findall(literal)
    return max(pieces, key=len, default="")
