"""The project's one PRNG: SHA-256 in counter mode, keyed per purpose.

A ``Stream`` is fully determined by ``(seed, content_version, purpose)``:

    key      = SHA-256(UTF-8("dittobench/prng/1|" + str(seed) + "|" + version + "|" + purpose))
    block(i) = SHA-256(key || uint64_be(i))      for i = 0, 1, 2, ...
    words    = each block split into four uint64 big-endian words, in order

Every draw (``below``, ``choice``, ``shuffle``, ``sample``, ``weighted``) consumes whole words by
the rules documented on each method and in docs/determinism.md, so any language can rebuild the
same sequence. Each component takes its own purpose, so adding a draw in one never shifts
another's bytes. Python's ``random`` and ``hash()`` are never used.
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Sequence
from typing import TypeVar

from dittobench.core.errors import DittobenchError

T = TypeVar("T")

MAX_SEED = 2**63 - 1
_WORD_SPACE = 1 << 64
_PREFIX = "dittobench/prng/1"
_BLOCK_WORDS = struct.Struct(">4Q")  # a 32-byte block as four big-endian uint64 words
_COUNTER = struct.Struct(">Q")  # a block's index as a big-endian uint64
_SURE_BELOW = 1 << 32
_SURE = _WORD_SPACE - _SURE_BELOW
"""A word below ``_SURE`` is below the rejection limit of every ``n <= _SURE_BELOW``: that
limit, ``2**64 - 2**64 % n``, is more than ``2**64 - n``. Checking a word against these
constants spares nearly every draw the big-integer arithmetic of its own limit (same words,
same results)."""


class SeedError(DittobenchError, ValueError):
    """A seed outside 0..2**63-1."""

    http_status = 400


def check_seed(seed: int) -> int:
    """Return ``seed`` if it is a 63-bit non-negative integer, else raise ``SeedError``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise SeedError(f"seed must be an integer from 0 to {MAX_SEED}, got {seed!r}")
    return seed


_SEED_TEXT = re.compile(r"0|[1-9][0-9]{0,18}")


def seed_text(seed: int) -> str:
    """The seed as every file, database and signed manifest carries it: its decimal digits (a
    string, so no JSON reader rounds it)."""
    return str(check_seed(seed))


def parse_seed(text: object) -> int:
    """The seed ``seed_text`` wrote: ASCII decimal digits without sign or leading zeros, at most
    ``MAX_SEED``; ``SeedError`` for anything else (Arabic-Indic digits, "+7", "007", "1e3")."""
    if not isinstance(text, str) or not _SEED_TEXT.fullmatch(text):
        raise SeedError(f"expected a seed as decimal digits from 0 to {MAX_SEED}, got {text!r:.40}")
    return check_seed(int(text))


class Stream:
    """A deterministic stream of 64-bit words for one purpose of one seeded dataset."""

    __slots__ = ("_buffer", "_counter", "_keyed", "content_version", "purpose", "seed")

    def __init__(self, seed: int, content_version: str, purpose: str) -> None:
        self.seed = check_seed(seed)
        self.content_version = content_version
        self.purpose = purpose
        material = f"{_PREFIX}|{seed}|{content_version}|{purpose}".encode()
        # SHA-256 having absorbed the key: copying it and adding the counter hashes key || counter
        # without hashing the key's bytes into a new object for every block.
        self._keyed = hashlib.sha256(hashlib.sha256(material).digest())
        self._counter = 0
        self._buffer: list[int] = []

    @classmethod
    def root(cls, seed: int, content_version: str) -> Stream:
        """The root of one dataset's streams: it is never drawn from, and its forks have exactly
        the purposes they name (``root.fork("tool/plan")`` is purpose ``tool/plan``)."""
        return cls(seed, content_version, "")

    def fork(self, name: str) -> Stream:
        """An independent stream for ``purpose + "/" + name`` (same seed and version), or for
        ``name`` itself when forked from the root."""
        purpose = f"{self.purpose}/{name}" if self.purpose else name
        return Stream(self.seed, self.content_version, purpose)

    def next_u64(self) -> int:
        """The next 64-bit word."""
        return (self._buffer or self._refill()).pop()

    def _refill(self) -> list[int]:
        """Hash the next block into the buffer, its last word first (``pop`` takes the first)."""
        block = self._keyed.copy()
        block.update(_COUNTER.pack(self._counter))
        self._counter += 1
        first, second, third, fourth = _BLOCK_WORDS.unpack(block.digest())
        self._buffer = [fourth, third, second, first]
        return self._buffer

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``: draw words until one is below the largest multiple of n
        that fits in 2**64, then return it mod n (unbiased rejection sampling)."""
        if n <= 0:
            raise ValueError(f"below() needs n > 0, got {n}")
        # next_u64 inlined: below is the one draw every other draw goes through.
        word = (self._buffer or self._refill()).pop()
        if word < _SURE and n <= _SURE_BELOW:
            return word % n
        limit = _WORD_SPACE - (_WORD_SPACE % n)
        while word >= limit:
            word = (self._buffer or self._refill()).pop()
        return word % n

    def between(self, low: int, high: int) -> int:
        """Uniform integer in ``[low, high]`` inclusive: ``low + below(high - low + 1)``."""
        if high < low:
            raise ValueError(f"between() needs low <= high, got {low}..{high}")
        return low + self.below(high - low + 1)

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability numerator/denominator: ``below(denominator) < numerator``."""
        return self.below(denominator) < numerator

    def choice(self, items: Sequence[T]) -> T:
        """One item: ``items[below(len(items))]``."""
        size = len(items)
        if not size:
            raise ValueError("choice() from an empty sequence")
        # below inlined: choice is the generator's most frequent draw.
        word = (self._buffer or self._refill()).pop()
        if word < _SURE and size <= _SURE_BELOW:
            return items[word % size]
        limit = _WORD_SPACE - (_WORD_SPACE % size)
        while word >= limit:
            word = (self._buffer or self._refill()).pop()
        return items[word % size]

    def weighted(self, items: Sequence[T], weights: Sequence[int]) -> T:
        """One item with integer weights: r = below(sum); the first item whose running total
        exceeds r."""
        if len(items) != len(weights) or not items:
            raise ValueError("weighted() needs one positive weight per item")
        if any(w < 0 for w in weights) or sum(weights) <= 0:
            raise ValueError("weighted() needs non-negative weights with a positive sum")
        r = self.below(sum(weights))
        running = 0
        for item, weight in zip(items, weights, strict=True):
            running += weight
            if r < running:
                return item
        raise AssertionError("unreachable: r < sum(weights)")

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy (Fisher-Yates from the end: for i = len-1 down to 1, swap i with
        below(i+1))."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """k distinct positions in draw order (partial Fisher-Yates from the front: for i in
        0..k-1, swap i with i + below(len - i))."""
        if not 0 <= k <= len(items):
            raise ValueError(f"sample() of {k} from {len(items)} items")
        out = list(items)
        for i in range(k):
            j = i + self.below(len(out) - i)
            out[i], out[j] = out[j], out[i]
        return out[:k]
