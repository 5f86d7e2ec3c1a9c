"""Coined values (``persona/coin.py``, ``persona/coined.py``): the exact values a seed coins are
pinned, so a faster or lazier coiner cannot shift a draw, and the shortcuts the coiner takes give
what the slow path gives."""

from __future__ import annotations

import hashlib
import json

import pytest

from dittobench.core.prng import Stream
from dittobench.core.text import words
from dittobench.generate.persona.coin import (
    CoinError,
    CoinPart,
    CoinSpec,
    Registry,
    coin_values,
    form_words,
)
from dittobench.generate.persona.coined import _listed_forms, coin_library
from dittobench.generate.persona.library import Library
from dittobench.generate.texts import Texts, texts_of
from dittobench.packs import own_pack
from dittobench.spec.versions import get_policy

PINNED = {
    "3.0.0": "2b506a3de817ef026cea8effcba57e91c5063f2f0eb53bc75e7b174c25cf7606",
    "6.1.0": "5dab890f474479e0afa0c68c1844fe2b08d10a577d301fa445bfe75642e43de4",
    "8.0.0": "f774f624a7ddc3bf9a1cfcb5d7f7d7ff4641bace035731c327793820806f332b",
}
"""SHA-256 of the coined values (attribute, text, aliases) of seeds 0, 1 and 123456789 under each
version's own pack, as the coiner of bench 3.0 first drew them."""


def _coined(version: str, seed: int) -> Library:
    texts = texts_of(own_pack(version))
    stream = Stream.root(seed, get_policy(version).content_version).fork("memory/coin")
    return coin_library(texts.library, stream, texts.words.syllables, _avoid(texts))


def _avoid(texts: Texts) -> list[str]:
    avoid = texts.pack.file("attributes").get("coin_avoid", [])
    assert isinstance(avoid, list)
    return avoid


def _values(library: Library) -> list[list[object]]:
    return [
        [a.name, [[c.text, list(c.aliases)] for c in a.values]]
        for a in library.attributes
        if a.coin
    ]


@pytest.mark.parametrize("version", sorted(PINNED))
def test_coined_values_are_pinned(version: str) -> None:
    runs = [_values(_coined(version, seed)) for seed in (0, 1, 123456789)]
    assert hashlib.sha256(json.dumps(runs).encode()).hexdigest() == PINNED[version]


def test_a_run_leaves_the_packs_cached_forms_as_they_were() -> None:
    texts = texts_of(own_pack("8.0.0"))
    listed = _listed_forms(texts.library, ())
    before = (set(listed._forms), set(listed._runs))
    first = _values(_coined("8.0.0", 1))
    assert _values(_coined("8.0.0", 2)) != first
    assert _values(_coined("8.0.0", 1)) == first
    assert _listed_forms(texts.library, ()) is listed
    assert (listed._forms, listed._runs) == before


FORMS = [
    "Brinworth Logistics",
    "The  Kelso\tArms",
    "Dr. Vandro-Pike",
    "10K Trail Race",
    "Mira and Ines",
    "don't\nstop\x1cnow",
    "A" * 2100 + "\nB c",
    "",
    "   ",
    "--",
    "Café Zürich",
    "Œuvre ½ Straße",
    "ＦＵＬＬ width",
]


@pytest.mark.parametrize("form", FORMS)
def test_form_words_are_the_words_of_the_text_matcher(form: str) -> None:
    assert form_words(form) == tuple(words(form))


def test_form_words_agree_on_drawn_ascii() -> None:
    stream = Stream(7, "test", "form-words")
    alphabet = [chr(c) for c in range(128)]
    for _ in range(500):
        form = "".join(stream.choice(alphabet) for _ in range(stream.between(0, 24)))
        assert form_words(form) == tuple(words(form)), repr(form)


def test_registry_refuses_a_value_inside_or_around_a_form_in_use() -> None:
    registry = Registry(["Brinworth Logistics", "Arms"])
    assert not registry.admit([("brinworth",)])  # a run inside a form in use
    assert not registry.admit([("kelso", "arms")])  # holds a form in use
    assert not registry.admit([()])
    assert not registry.clashes(("kelso",))  # nothing refused was added
    assert registry.admit([("kelso", "inn"), ("kelso",)])  # one value's forms: not each other
    assert registry.clashes(("kelso",))
    assert registry.clashes(("the", "kelso", "inn"))


def test_parts_are_drawn_in_order_of_first_appearance() -> None:
    spec = CoinSpec(
        forms=("{b} {a} {b}",),
        parts={"a": CoinPart(words=("x",)), "b": CoinPart(words=("y",))},
        count=8,
    )
    assert [name for name, _ in spec.parts_of["{b} {a} {b}"]] == ["b", "a"]


SYLLABLES = (("b",), ("a",), ("",))


def test_too_few_parts_to_coin_distinct_values_fail() -> None:
    spec = CoinSpec(forms=("{n}",), parts={"n": CoinPart(words=("Alpha", "Beta"))}, count=8)
    with pytest.raises(CoinError, match="clash"):
        coin_values(spec, Stream(1, "test", "coin"), SYLLABLES, Registry(), frozenset())
