"""Coined codes: values invented per seed that a grader can check and nobody can guess.

Every maker takes a ``Stream`` (so the value is a pure function of seed, version and purpose) and
draws from at least 10**15 values. ``space_*`` functions state the size of each space so tests
and docs can pin it.
"""

from __future__ import annotations

from collections.abc import Sequence

from dittobench.core.prng import Stream

UNAMBIGUOUS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""32 characters: A-Z and 2-9 without I, O, 0 and 1, which readers confuse."""

TOKEN_PREFIX = "VK-"  # noqa: S105 (a format prefix, not a secret)
TOKEN_LENGTH = 10
WRITE_CODE_GROUPS = 3
WRITE_CODE_GROUP_LENGTH = 4

FIGURE_LOW = 10_000
FIGURE_HIGH = 99_999_999

_ONSETS = (
    "b",
    "d",
    "f",
    "g",
    "k",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "z",
    "br",
    "dr",
    "kl",
    "st",
    "tr",
    "th",
    "sh",
    "gr",
)
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ou", "ei")
_CODAS = ("", "n", "r", "l", "s", "x", "m")


def coin_string(stream: Stream, length: int, alphabet: str = UNAMBIGUOUS) -> str:
    """``length`` characters, each ``alphabet[below(len(alphabet))]``."""
    return "".join([stream.choice(alphabet) for _ in range(length)])


def integrity_token(stream: Stream) -> str:
    """``VK-`` plus 10 unambiguous characters: 32**10 (about 1.1e15) values."""
    return TOKEN_PREFIX + coin_string(stream, TOKEN_LENGTH)


def look_alike(token: str, stream: Stream) -> str:
    """A decoy that shares the token's shape and prefix but differs in two positions of the coined
    part (so a near match is never an exact match)."""
    body = list(token[len(TOKEN_PREFIX) :])
    for position in stream.sample(range(len(body)), 2):
        others = [c for c in UNAMBIGUOUS if c != body[position]]
        body[position] = stream.choice(others)
    return TOKEN_PREFIX + "".join(body)


def write_code(stream: Stream) -> str:
    """A write-then-read code ``XXXX-XXXX-XXXX``: 32**12 (about 1.2e18) values."""
    groups = [coin_string(stream, WRITE_CODE_GROUP_LENGTH) for _ in range(WRITE_CODE_GROUPS)]
    return "-".join(groups)


def figure(stream: Stream, low: int = FIGURE_LOW, high: int = FIGURE_HIGH) -> int:
    """An invented whole number in ``[low, high]`` (default about 1e8 values)."""
    return stream.between(low, high)


Syllables = tuple[Sequence[str], Sequence[str], Sequence[str]]
"""Onsets, vowels and codas a coined name is made of."""

SYLLABLES: Syllables = (_ONSETS, _VOWELS, _CODAS)


def coined_name(stream: Stream, syllables: int = 3, parts: Syllables = SYLLABLES) -> str:
    """A pronounceable invented proper name, e.g. ``Drouveilan``: onset+vowel+coda per syllable,
    (22*8*7)**3 (about 1.7e9) syllable choices at three syllables with the default parts (a
    content pack brings its own)."""
    onsets, vowels, codas = parts
    drawn = [
        stream.choice(onsets) + stream.choice(vowels) + stream.choice(codas)
        for _ in range(syllables)
    ]
    return "".join(drawn).capitalize()


def space_integrity_token() -> int:
    return int(len(UNAMBIGUOUS) ** TOKEN_LENGTH)


def space_write_code() -> int:
    return int(len(UNAMBIGUOUS) ** (WRITE_CODE_GROUPS * WRITE_CODE_GROUP_LENGTH))


def space_coined_name(syllables: int = 3) -> int:
    return int((len(_ONSETS) * len(_VOWELS) * len(_CODAS)) ** syllables)


def space_figure(low: int = FIGURE_LOW, high: int = FIGURE_HIGH) -> int:
    return high - low + 1
