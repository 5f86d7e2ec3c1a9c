"""Coined values: an attribute's values drawn per seed from the pack's parts, not from a list.

An attribute of an open class (pet names, cafés, employers, products, people outside the core
circle) may declare ``coin`` in attributes.json (``docs/packs.md``)::

    "coin": {"forms": ["{name} {kind}"],
             "parts": {"name": {"syllables": 2}, "kind": ["Roasters", "Espresso"]},
             "accept": ["{name}"], "count": 20}

``forms`` are ``str.format`` templates over the part names; a part is a list of words (one is
chosen), ``{"list": NAME}`` (a list of the file's ``coin_parts``), or ``{"syllables": k}``
(a coined name of ``k`` syllables from values.json ``syllables``), optionally with ``"ends"``
(a list, or a ``coin_parts`` name) appended to it. ``accept`` are forms a grader also
accepts (every part they use is in every form); ``count`` is how many values a run draws.

With ``coined_values`` (bench 3.0) a run replaces each such attribute's values by ``count``
coined ones (``coin_library``). Every coined value and accepted form is unambiguous in the
run: it neither equals nor contains, nor is contained in, any other attribute's value or
accepted form, a contact's name or another coined value (whole words, case folded), and no
coined name spells a function word (``core/text.py`` ``STOP_WORDS``) or a word of the pack's
``coin_avoid``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from dittobench.core import codes
from dittobench.core.errors import DittobenchError
from dittobench.core.prng import Stream
from dittobench.core.text import STOP_WORDS, words

COIN_ATTEMPTS = 64
"""Draws allowed per coined value before generation gives up (a pack whose parts are too few)."""
DEFAULT_COUNT = 20
MIN_COUNT = 8
_PART = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_BRACES = re.compile(r"[{}]")


class CoinError(DittobenchError, ValueError):
    """A ``coin`` declaration that cannot be used, or parts too few to coin distinct values."""


@dataclass(frozen=True, slots=True)
class CoinPart:
    """One part of a coined value: a word from ``words``, or a coined name of ``syllables``
    syllables followed by one of ``ends`` (if any)."""

    words: tuple[str, ...] = ()
    syllables: int = 0
    ends: tuple[str, ...] = ()

    def draw(self, stream: Stream, syllables: codes.Syllables) -> str:
        if not self.syllables:
            return stream.choice(self.words)
        name = codes.coined_name(stream, self.syllables, syllables)
        return name + stream.choice(self.ends) if self.ends else name


@dataclass(frozen=True, slots=True)
class CoinSpec:
    """How an attribute's values are coined (see the module docstring)."""

    forms: tuple[str, ...]
    parts: Mapping[str, CoinPart]
    accept: tuple[str, ...] = ()
    count: int = DEFAULT_COUNT
    parts_of: Mapping[str, tuple[tuple[str, CoinPart], ...]] = field(
        init=False, repr=False, compare=False
    )
    """Per form, the parts it names with their specs, in order of first appearance (looked up
    once, not on each of a run's hundreds of draws)."""

    def __post_init__(self) -> None:
        parts_of = {
            form: tuple((name, self.parts[name]) for name in _part_names(form))
            for form in self.forms
            if all(name in self.parts for name in _part_names(form))
        }
        object.__setattr__(self, "parts_of", parts_of)


def parse_coin(raw: Any, lists: Mapping[str, Any]) -> CoinSpec:
    """A ``coin`` declaration read from the pack (``lists``: the file's ``coin_parts``); raises
    ``CoinError`` saying what is wrong."""
    if not isinstance(raw, dict):
        raise CoinError("must be an object with forms and parts")
    forms = _strings(raw.get("forms"), "forms")
    accept = _strings(raw.get("accept", []), "accept", empty=True)
    parts_raw = raw.get("parts")
    if not isinstance(parts_raw, dict) or not parts_raw:
        raise CoinError("parts: must be a non-empty object")
    parts = {name: _part(name, spec, lists) for name, spec in parts_raw.items()}
    count = raw.get("count", DEFAULT_COUNT)
    if not isinstance(count, int) or isinstance(count, bool) or count < MIN_COUNT:
        raise CoinError(f"count: must be a whole number of at least {MIN_COUNT}")
    for form in forms:
        _check_template(form, parts, "forms")
    for form in accept:
        _check_template(form, parts, "accept")
        for name in _PART.findall(form):
            if any(f"{{{name}}}" not in f for f in forms):
                raise CoinError(f"accept: {form!r} uses {name!r}, which a form lacks")
    return CoinSpec(forms, parts, accept, count)


def _strings(value: Any, key: str, *, empty: bool = False) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) and v for v in value):
        raise CoinError(f"{key}: must be a list of non-empty strings")
    if not value and not empty:
        raise CoinError(f"{key}: must not be empty")
    return tuple(value)


def _part(name: str, spec: Any, lists: Mapping[str, Any]) -> CoinPart:
    if isinstance(spec, list):
        return CoinPart(words=_strings(spec, f"parts.{name}"))
    if not isinstance(spec, dict):
        raise CoinError(f"parts.{name}: must be a list of words or an object")
    if "list" in spec:
        return CoinPart(words=_named(spec["list"], lists, f"parts.{name}.list"))
    syllables = spec.get("syllables")
    if not isinstance(syllables, int) or isinstance(syllables, bool) or not 1 <= syllables <= 4:
        raise CoinError(f"parts.{name}.syllables: must be 1 to 4")
    ends = spec.get("ends", [])
    ends = _named(ends, lists, f"parts.{name}.ends") if isinstance(ends, str) else ends
    return CoinPart(syllables=syllables, ends=_strings(ends, f"parts.{name}.ends", empty=True))


def _named(name: Any, lists: Mapping[str, Any], key: str) -> tuple[str, ...]:
    if not isinstance(name, str) or name not in lists:
        raise CoinError(f"{key}: no list {name!r} in coin_parts")
    return _strings(lists[name], f"coin_parts.{name}")


def _check_template(form: str, parts: Mapping[str, CoinPart], key: str) -> None:
    used = _PART.findall(form)
    if not used or _BRACES.search(_PART.sub("", form)):
        raise CoinError(f"{key}: {form!r} must name parts as {{part}} and nothing else")
    unknown = sorted(set(used) - set(parts))
    if unknown:
        raise CoinError(f"{key}: {form!r} uses unknown parts {unknown}")


def coin_space(spec: CoinSpec, syllables: codes.Syllables) -> int:
    """How many distinct values the spec can draw at most (an upper bound, for the lint)."""
    onsets, vowels, codas = syllables
    per_syllable = len(onsets) * len(vowels) * len(codas)
    total = 0
    for form in spec.forms:
        size = 1
        for name in _part_names(form):
            part = spec.parts[name]
            size *= (
                per_syllable**part.syllables * max(1, len(part.ends))
                if part.syllables
                else len(part.words)
            )
        total += size
    return total


class Coined(NamedTuple):
    """One coined value and the other forms a grader accepts (a named tuple: a run makes
    hundreds)."""

    text: str
    aliases: tuple[str, ...]


class Registry:
    """The forms already in use in a run, as word sequences (``form_words``), and every run of
    words inside them: a new value is unambiguous when none of its word runs is a form in use
    and it is not a run inside one."""

    __slots__ = ("_forms", "_runs")

    def __init__(self, forms: Iterable[str] = ()) -> None:
        self._forms: set[tuple[str, ...]] = set()
        self._runs: set[tuple[str, ...]] = set()
        for form in forms:
            self.add(form_words(form))

    def copy(self) -> Registry:
        twin = Registry()
        twin._forms, twin._runs = set(self._forms), set(self._runs)
        return twin

    def add(self, seq: tuple[str, ...]) -> None:
        if seq:
            self._forms.add(seq)
            self._runs.update(_runs(seq))

    def clashes(self, seq: tuple[str, ...]) -> bool:
        return self._clashes(seq, _runs(seq))

    def admit(self, seqs: list[tuple[str, ...]]) -> bool:
        """Add all of ``seqs`` (one value's forms) if none clashes with a form already in use
        (they are not checked against each other), and say whether they were added."""
        runs = []
        for seq in seqs:
            its_runs = _runs(seq)
            if self._clashes(seq, its_runs):
                return False
            runs.append(its_runs)
        self._forms.update(seqs)
        for its_runs in runs:
            self._runs.update(its_runs)
        return True

    def _clashes(self, seq: tuple[str, ...], runs: list[tuple[str, ...]]) -> bool:
        return not seq or seq in self._runs or not self._forms.isdisjoint(runs)


_ASCII_WORD = re.compile(r"[a-z0-9]+")


def form_words(form: str) -> tuple[str, ...]:
    """A form as the registry keeps it: its words, normalised (``core.text.words``). An ASCII
    form, as most coined ones are, is only lower-cased and split on ``[a-z0-9]+``, which is
    what ``words`` does to ASCII text (``tests/unit/test_coined_values.py`` holds them equal)."""
    if form.isascii():
        return tuple(_ASCII_WORD.findall(form.lower()))
    return tuple(words(form))


def _runs(seq: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every run of consecutive words in ``seq`` (``seq`` included), in no promised order."""
    size = len(seq)
    if size < 3:  # most forms: one word or two, spelled out (no nested loop to run)
        return [seq] if size < 2 else [seq, seq[:1], seq[1:]]
    return [seq[i:j] for i in range(size) for j in range(i + 1, size + 1)]


def coin_values(
    spec: CoinSpec,
    stream: Stream,
    syllables: codes.Syllables,
    registry: Registry,
    avoid: frozenset[str],
) -> list[Coined]:
    """``spec.count`` values, each clear of ``registry`` (then added to it); raises
    ``CoinError`` when ``COIN_ATTEMPTS`` draws in a row clash."""
    out: list[Coined] = []
    for _ in range(spec.count):
        for _attempt in range(COIN_ATTEMPTS):
            coined = _draw(spec, stream, syllables, avoid)
            if coined is not None and registry.admit(list(map(form_words, coined))):
                out.append(Coined(coined[0], coined[1:]))
                break
        else:
            raise CoinError(f"{COIN_ATTEMPTS} coined values in a row clash: too few parts")
    return out


def _draw(
    spec: CoinSpec, stream: Stream, syllables: codes.Syllables, avoid: frozenset[str]
) -> tuple[str, ...] | None:
    """One value and its other accepted forms (the value first): the form, then its parts in
    order of first appearance (``None`` when a coined name spells an avoided word)."""
    form = stream.choice(spec.forms)
    drawn: dict[str, str] = {}
    spelled_badly = False
    for name, part in spec.parts_of[form]:
        drawn[name] = value = part.draw(stream, syllables)
        if part.syllables and value.lower() in avoid:
            spelled_badly = True
    if spelled_badly:
        return None
    text = form.format_map(drawn)
    if not spec.accept:
        return (text,)
    # dict.fromkeys: the forms once each, in order (two accepted forms may read the same).
    return tuple(dict.fromkeys([text, *(a.format_map(drawn) for a in spec.accept)]))


@functools.lru_cache(maxsize=4096)
def _part_names(form: str) -> tuple[str, ...]:
    """The parts ``form`` names, in order of first appearance."""
    return tuple(dict.fromkeys(_PART.findall(form)))


def avoided_words(pack_words: Iterable[str]) -> frozenset[str]:
    """Words no coined name may spell: the function words and the pack's ``coin_avoid``."""
    return STOP_WORDS | frozenset(w.lower() for w in pack_words)
