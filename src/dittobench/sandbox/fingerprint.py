"""The structural fingerprint of a submission's Python sources: an anti-copy signal, advisory,
never scored (seed 002; docs/service.md, "Fingerprints").

Each ``.py`` file is tokenized (the ``tokenize`` module) and made identifier- and
literal-neutral: a name becomes ``ID`` unless it is a keyword, a string or number ``LIT``
(f-strings too); operators, keywords and the block structure (``NEWLINE``, ``INDENT``,
``DEDENT``) stay; comments and blank lines go. Renaming every variable or changing every constant
leaves the fingerprint as it was. Every run of ``SHINGLE`` consecutive tokens in a file is a
shingle, hashed with keyed BLAKE2b (a fixed key, so fingerprints compare across runs and
machines; no process randomness). The fingerprint keeps the ``K`` smallest distinct hashes over
the union of all files (a bottom-k MinHash sketch) and the number of distinct shingles.

``similarity(a, b)`` estimates the Jaccard similarity of the two shingle sets: of the ``K``
smallest hashes of the union of both sketches, the share found in both.

It runs when an archive is submitted, so its cost is bounded whatever the archive holds: at most
``MAX_SOURCE_BYTES`` of Python and ``MAX_TOKENS`` tokens are read in all (files in path order),
and a line over ``MAX_LINE_BYTES`` is read as an empty line (``tokenize`` matches regular
expressions over a whole line, holding the GIL: a 2 MB line of digits stalled every thread of the
process for 4.7 s). Smaller, ordinary submissions are read whole.
"""

from __future__ import annotations

import hashlib
import heapq
import io
import keyword
import tokenize
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

VERSION = 1
K = 256
SHINGLE = 10
KEY = b"dittobench structural fingerprint v1"
MAX_FILES = 5000
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_SHINGLES = 500_000
MAX_SOURCE_BYTES = 512 * 1024
MAX_TOKENS = 100_000
MAX_LINE_BYTES = 4096
_DROPPED = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}
_LITERAL = {tokenize.STRING, tokenize.NUMBER}
_FSTRING_START = getattr(tokenize, "FSTRING_START", -1)
_FSTRING_PARTS = {getattr(tokenize, n, -1) for n in ("FSTRING_MIDDLE", "FSTRING_END")}


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """``m``: the K smallest shingle hashes (16 hex digits each, ascending); ``card``: distinct
    shingles in all; ``files``: Python files read."""

    m: tuple[str, ...]
    card: int
    files: int

    def to_json(self) -> dict[str, Any]:
        return {"v": VERSION, "k": K, "card": self.card, "files": self.files, "m": list(self.m)}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Fingerprint:
        return cls(tuple(str(h) for h in raw["m"]), int(raw["card"]), int(raw.get("files", 0)))


@dataclass(slots=True)
class Budget:
    """What is left to read: bytes of source and tokens."""

    source_bytes: int = MAX_SOURCE_BYTES
    tokens: int = MAX_TOKENS


def fingerprint(files: Iterable[tuple[str, bytes]]) -> Fingerprint:
    """The fingerprint of the ``.py`` files among ``(path, contents)`` pairs."""
    hashes: set[int] = set()
    budget = Budget()
    read = 0
    for path, content in files:
        if not path.endswith(".py") or len(content) > MAX_FILE_BYTES:
            continue
        if budget.source_bytes <= 0 or budget.tokens <= 0:
            break
        read += 1
        if read > MAX_FILES:
            break
        for shingle in shingles(structural_tokens(content, budget)):
            hashes.add(shingle_hash(shingle))
            if len(hashes) >= MAX_SHINGLES:
                break
    smallest = heapq.nsmallest(K, hashes)
    return Fingerprint(tuple(f"{h:016x}" for h in smallest), len(hashes), min(read, MAX_FILES))


def structural_tokens(source: bytes, budget: Budget | None = None) -> list[str]:
    """The identifier- and literal-neutral token stream of one file (what tokenizes of it: a
    file that stops parsing contributes the tokens before the error), read within ``budget``
    (a fresh one when None), a line over ``MAX_LINE_BYTES`` read as an empty line."""
    if budget is None:
        budget = Budget()
    out: list[str] = []
    try:
        for token in tokenize.tokenize(_bounded_lines(source, budget)):
            budget.tokens -= 1
            if budget.tokens < 0:
                break
            kind = token.type
            if kind == _FSTRING_START:
                out.append("LIT")  # the names inside its braces still count as ID
            elif kind in _FSTRING_PARTS or kind in _DROPPED:
                continue
            elif kind == tokenize.NAME:
                out.append(token.string if keyword.iskeyword(token.string) else "ID")
            elif kind in _LITERAL:
                out.append("LIT")
            elif kind == tokenize.OP:
                out.append(token.string)
            else:
                out.append(tokenize.tok_name[kind])
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError):
        pass  # the tokens read so far still describe the file
    return out


def _bounded_lines(source: bytes, budget: Budget) -> Callable[[], bytes]:
    """A ``readline`` over ``source`` that gives a line over ``MAX_LINE_BYTES`` as an empty
    line and ends every file once the budget's bytes are spent."""
    stream = io.BytesIO(source)

    def readline() -> bytes:
        line = stream.readline(MAX_LINE_BYTES + 1)
        if len(line) > MAX_LINE_BYTES:
            stream.readline()  # the rest of it, unread by tokenize
            return b"\n"
        if len(line) > budget.source_bytes:
            budget.source_bytes = 0
            return b""
        budget.source_bytes -= len(line)
        return line

    return readline


def shingles(tokens: list[str]) -> Iterator[str]:
    if len(tokens) < SHINGLE:
        if tokens:
            yield " ".join(tokens)
        return
    for start in range(len(tokens) - SHINGLE + 1):
        yield " ".join(tokens[start : start + SHINGLE])


def shingle_hash(shingle: str) -> int:
    digest = hashlib.blake2b(shingle.encode("utf-8"), digest_size=8, key=KEY).digest()
    return int.from_bytes(digest, "big")


def similarity(a: Fingerprint, b: Fingerprint) -> float:
    """Estimated Jaccard similarity of the two submissions' shingle sets (0 when either has
    none)."""
    if not a.m or not b.m:
        return 0.0
    union = sorted(set(a.m) | set(b.m))[:K]
    both = set(a.m) & set(b.m)
    return sum(1 for h in union if h in both) / len(union)


__all__ = [
    "SHINGLE",
    "Budget",
    "Fingerprint",
    "K",
    "fingerprint",
    "shingle_hash",
    "shingles",
    "similarity",
    "structural_tokens",
]
