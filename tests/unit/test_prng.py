"""The seeded PRNG: pinned vectors, substream independence, unbiased helpers, bad inputs."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from dittobench.core.prng import MAX_SEED, SeedError, Stream, check_seed, parse_seed, seed_text


def test_first_words_follow_the_documented_construction() -> None:
    key = hashlib.sha256(b"dittobench/prng/1|42|1.0|demo").digest()
    block = hashlib.sha256(key + (0).to_bytes(8, "big")).digest()
    expected = [int.from_bytes(block[i : i + 8], "big") for i in (0, 8, 16, 24)]
    block1 = hashlib.sha256(key + (1).to_bytes(8, "big")).digest()
    stream = Stream(42, "1.0", "demo")
    assert [stream.next_u64() for _ in range(4)] == expected
    assert stream.next_u64() == int.from_bytes(block1[:8], "big")


def test_pinned_vector() -> None:
    # Pinned so a change to the construction is a deliberate, visible event.
    stream = Stream(123456789, "1.0", "vector")
    assert [stream.below(1000) for _ in range(8)] == PINNED_BELOW_1000


PINNED_BELOW_1000 = [604, 809, 193, 881, 839, 582, 987, 610]


def test_purposes_are_independent() -> None:
    a = Stream(7, "1.0", "tool/plan")
    b = Stream(7, "1.0", "memory/plan")
    assert [a.next_u64() for _ in range(8)] != [b.next_u64() for _ in range(8)]
    # Drawing from one stream never shifts another.
    c1 = Stream(7, "1.0", "x")
    first = [c1.next_u64() for _ in range(3)]
    Stream(7, "1.0", "y").shuffle(list(range(100)))
    fresh = Stream(7, "1.0", "x")
    assert first == [fresh.next_u64() for _ in range(3)]


def test_every_input_reaches_the_stream() -> None:
    base = [Stream(5, "1.0", "p").next_u64() for _ in range(1)]
    assert base != [Stream(5 + 2**62, "1.0", "p").next_u64()]
    assert base != [Stream(5, "1.1", "p").next_u64()]
    assert base != [Stream(5, "1.0", "q").next_u64()]
    assert Stream(5, "1.0", "p").fork("a").purpose == "p/a"


@pytest.mark.parametrize("size", [1, 7, 2**62 + 5])  # 2**62 + 5 rejects about a quarter of words
def test_choice_draws_exactly_as_below_does(size: int) -> None:
    # choice inlines below: the same words consumed, rejections included, the same positions.
    items = range(size)
    drawing, reference = Stream(9, "1.0", "choice"), Stream(9, "1.0", "choice")
    for _ in range(300):
        assert drawing.choice(items) == items[reference.below(size)]
    assert drawing.next_u64() == reference.next_u64()


def test_below_is_roughly_uniform() -> None:
    stream = Stream(1, "1.0", "uniform")
    counts = Counter(stream.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_400 < n < 10_600 for n in counts.values())


def test_helpers_respect_their_contracts() -> None:
    stream = Stream(3, "1.0", "helpers")
    items = list(range(20))
    shuffled = stream.shuffle(items)
    assert sorted(shuffled) == items and shuffled != items
    sample = stream.sample(items, 7)
    assert len(set(sample)) == 7 and set(sample) <= set(items)
    assert all(10 <= stream.between(10, 12) <= 12 for _ in range(200))
    assert {stream.weighted("abc", [0, 1, 0]) for _ in range(50)} == {"b"}
    assert stream.choice(["only"]) == "only"


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.below(0),
        lambda s: s.between(5, 4),
        lambda s: s.choice([]),
        lambda s: s.sample([1, 2], 3),
        lambda s: s.weighted("ab", [1]),
        lambda s: s.weighted("ab", [0, 0]),
    ],
)
def test_helpers_reject_bad_arguments(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError):
        call(Stream(1, "1.0", "bad"))


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 1.5, "7", True])
def test_seed_must_be_63_bit(seed: object) -> None:
    with pytest.raises(SeedError):
        check_seed(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [0, 7, 123456789, 2**63 - 1])
def test_a_seed_round_trips_through_its_text(seed: int) -> None:
    assert parse_seed(seed_text(seed)) == seed


@pytest.mark.parametrize(
    "text", ["", "-1", "+7", "007", "1e3", " 7", "7 ", "\u0663", "9223372036854775808", 7, None]
)
def test_anything_but_a_seed_text_is_refused(text: object) -> None:
    with pytest.raises(SeedError):
        parse_seed(text)


def test_the_root_stream_forks_to_exactly_the_named_purpose() -> None:
    root = Stream.root(42, "2.0")
    direct, forked = Stream(42, "2.0", "tool/plan"), root.fork("tool/plan")
    assert forked.purpose == "tool/plan"
    assert [direct.next_u64() for _ in range(5)] == [forked.next_u64() for _ in range(5)]
    assert root.fork("a").fork("b").purpose == "a/b"
