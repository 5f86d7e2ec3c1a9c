"""Look-alikes a reader must read (bench 6.1, ``ContentPolicy.read_lookalikes``): the rules
``pack lint`` adds for such packs.

A parser compiled from a pack's grammar matches every wording it knows and keeps the longest
match. When a look-alike is a fixed frame around the statement's own words ("It's not true
that I live in {value}"), the frame is the longer match and classifies the look-alike without
reading it; and when its frames are its own, a handful of cue words do the same on a pack the
parser never saw. So, per attribute:

1. a look-alike (``twin``, ``suggest_aside``) reaches no statement symbol (``FACT_SYMBOLS``);
2. no expansion of it holds a statement's wording around ``{value}`` (a literal run of a
   statement symbol that has ``CORE_WORDS`` words or more besides the value), case and spaces
   aside: a negation, a wish or someone else's claim transforms the clause instead;
3. every frame a look-alike is said in (an alternative of a ``shared`` symbol that holds one of
   the attribute's own symbols, that symbol blanked) is a frame a fact is said in too
   (``FACT_ROOTS``), and at least one look-alike is framed, so no frame tells them apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from dittobench.generate.grammar import Grammar

FACT_SYMBOLS = (
    "state",
    "change",
    "event",
    "event_earlier",
    "with_named",
    "day_named",
    "start",
    "still",
    "quit",
    "mention",
    "recommend",
    "twin_claim",
)
"""Symbols that say the user's (or the assistant's) own fact."""
FACT_ROOTS = ("state", "change", "event", "start", "mention", "other")
"""Where facts are said, the user's or a contact's: the frames look-alikes may share."""
LOOKALIKE_ROOTS = ("twin", "suggest_aside")
FRAMED_ROOT = "twin"
"""The look-alikes that must share frames (an assistant's aside is its own reply)."""
CORE_WORDS = 2
EXPANSION_CAP = 4000
"""Expansions of one look-alike root checked, in grammar order."""

_SYMBOL = re.compile(r"#([a-z_][a-z0-9_]*)#")
_VALUE = "{value}"
_EDGE = " .,!?:;\u2014-\"'\u201c\u201d"


@dataclass(frozen=True, slots=True)
class LookalikeProblem:
    """A rule broken: the grammar symbol where, and what."""

    symbol: str
    message: str


def lookalike_problems(
    grammar: Grammar, shared: Mapping[str, object]
) -> Iterator[LookalikeProblem]:
    """Each rule of the module docstring that ``grammar`` (an attribute's, shared symbols
    merged) breaks."""
    roots = tuple(r for r in LOOKALIKE_ROOTS if r in grammar)
    if not roots:
        return
    cores = _statement_cores(grammar)
    for root in roots:
        wrapped = sorted(_reached(grammar, (root,)) & set(FACT_SYMBOLS))
        for symbol in wrapped:
            yield LookalikeProblem(
                root, f"a look-alike must not wrap a statement: reaches #{symbol}#"
            )
        if wrapped:
            continue
        texts = [_norm(text) for text in _expansions(grammar, root)]
        for core in sorted({c for text in texts for c in cores if c in text}):
            yield LookalikeProblem(root, f"a look-alike holds the statement's wording {core!r}")
    if FRAMED_ROOT not in grammar:
        return
    own = {s for s in grammar if s not in shared}
    lookalike = _frames(grammar, (FRAMED_ROOT,), own)
    facts = _frames(grammar, tuple(r for r in FACT_ROOTS if r in grammar), own)
    if not lookalike:
        yield LookalikeProblem(
            FRAMED_ROOT, "no look-alike is said in a frame (a shared symbol) facts are said in"
        )
    for frame in sorted(lookalike - facts):
        yield LookalikeProblem(
            FRAMED_ROOT, f"frame {frame!r} is said only by look-alikes, never by a fact"
        )


def _statement_cores(grammar: Grammar) -> set[str]:
    cores: set[str] = set()
    for symbol in _reached(grammar, tuple(s for s in FACT_SYMBOLS if s in grammar)):
        for text in grammar[symbol]:
            for run in _SYMBOL.split(text)[::2]:
                if _VALUE not in run:
                    continue
                core = _norm(run).strip(_EDGE)
                if len(core.replace(_VALUE, " ").split()) >= CORE_WORDS:
                    cores.add(core)
    return cores


def _frames(grammar: Grammar, roots: tuple[str, ...], own: set[str]) -> set[str]:
    """Alternatives of shared symbols reached from ``roots`` that hold an own symbol."""
    frames: set[str] = set()
    for symbol in _reached(grammar, roots) - own:
        for text in grammar[symbol]:
            if any(used in own for used in _SYMBOL.findall(text)):
                frames.add(_SYMBOL.sub("#", text))
    return frames


def _reached(grammar: Grammar, roots: tuple[str, ...]) -> set[str]:
    reached: set[str] = set()
    pending = list(roots)
    while pending:
        symbol = pending.pop()
        if symbol in reached or symbol not in grammar:
            continue
        reached.add(symbol)
        pending.extend(used for text in grammar[symbol] for used in _SYMBOL.findall(text))
    return reached


def _expansions(grammar: Grammar, root: str) -> Iterator[str]:
    """Up to ``EXPANSION_CAP`` expansions of ``root``, every choice in order (slots kept)."""
    count = 0
    pending = [f"#{root}#"]
    while pending and count < EXPANSION_CAP:
        text = pending.pop()
        found = _SYMBOL.search(text)
        if found is None or found.group(1) not in grammar:
            count += 1
            yield text
            continue
        head, tail = text[: found.start()], text[found.end() :]
        pending.extend(head + alt + tail for alt in reversed(grammar[found.group(1)]))


def _norm(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text.lower())
