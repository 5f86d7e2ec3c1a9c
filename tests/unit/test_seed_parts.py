"""A wave too large for one ``POST /seed`` body is cut into parts (``spec.wire.seed_parts``,
docs/protocol.md "Seeding in parts"): every pair exactly once, in chronological order; every link
in the part of its pair; every subject once, no later than its first link; each body within the
limit unless it holds a single pair; ``part``/``parts`` only when there are several; and a wave
of today's sizes crosses the wire byte for byte as before."""

from __future__ import annotations

import hashlib
from collections import Counter
from datetime import datetime

import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset
from dittobench.spec.wire import (
    SEED_BYTES_LIMIT,
    Pair,
    SeedPart,
    SeedRequest,
    seed_bytes_limit,
    seed_part_wire,
    seed_parts,
    to_wire,
)
from dittobench.spec.wireids import WireIds
from tests.helpers.seed_waves import synthetic

VERSION = "8.0.0"
"""Pinned, so a later bench version's datasets do not move the digests below."""
FULL_WAVES_SHA256 = "37fc7b323cb0a445120034db88093102c5b3887de86c96bee960d23a965ccc57"
"""The ``/seed`` bodies of a full run (seed 7, bench 8.0.0, wire nonce 00…00), concatenated in
sending order, as sent before waves could be cut into parts."""


def body(part: SeedPart) -> bytes:
    return canonical_bytes(seed_part_wire(part))


def _moment(pair: Pair) -> datetime:
    return datetime.fromisoformat(pair.timestamp)


def check_parts(request: SeedRequest, limit: int) -> tuple[SeedPart, ...]:
    """The parts of ``request`` under ``limit``, after checking every promise they keep."""
    parts = seed_parts(request, limit)
    assert parts == seed_parts(request, limit)  # deterministic
    assert [p.part for p in parts] == list(range(len(parts)))
    assert {p.parts for p in parts} == {len(parts)}
    if len(parts) == 1:
        assert parts[0].request is request
        assert "part" not in seed_part_wire(parts[0]) and "parts" not in seed_part_wire(parts[0])
        return parts
    sent = [pair for p in parts for pair in p.request.pairs]
    assert sent == sorted(request.pairs, key=_moment)  # every pair once, oldest first, stable
    where = {pair.pair_id: p.part for p in parts for pair in p.request.pairs}
    links_sent = Counter(link for p in parts for link in p.request.links)
    assert links_sent == Counter(request.links)
    subjects_sent = [s for p in parts for s in p.request.subjects]
    assert Counter(subjects_sent) == Counter(request.subjects)
    subject_part = {s.id: p.part for p in parts for s in p.request.subjects}
    for p in parts:
        wire = seed_part_wire(p)
        assert (wire["part"], wire["parts"]) == (p.part, len(parts))
        assert (wire["user_id"], wire["wave"]) == (request.user_id, request.wave)
        assert len(body(p)) <= limit or len(p.request.pairs) == 1, (p.part, len(body(p)))
        for link in p.request.links:
            assert where.get(link.pair_id, parts[-1].part) == p.part  # with its pair
            if link.subject_id in subject_part:
                assert subject_part[link.subject_id] <= p.part  # its subject came first
    first_link: dict[str, int] = {}
    for p in parts:
        for link in p.request.links:
            first_link.setdefault(link.subject_id, p.part)
    for subject_id, at in subject_part.items():
        assert first_link.get(subject_id, parts[-1].part) == at  # carried with its first link
    return parts


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("limit", [2_000, 9_000, 40_000])
def test_a_wave_is_cut_into_parts_that_keep_every_promise(seed: int, limit: int) -> None:
    request = synthetic(seed, 40 + 17 * seed, shuffled=seed % 2 == 1)
    parts = check_parts(request, limit)
    assert len(parts) > 1  # the sweep is not vacuous: every wave here is over every limit


def test_a_pair_larger_than_the_limit_goes_alone_and_nothing_is_lost() -> None:
    request = synthetic(5, 30)
    giant = Pair("p-giant", "s-giant", "2026-01-01T05:00:00Z", "x" * 50_000, "y")
    request = SeedRequest(request.user_id, request.wave, (*request.pairs, giant), (), ())
    parts = check_parts(request, 8_000)
    alone = [p for p in parts if giant in p.request.pairs]
    assert len(alone) == 1 and alone[0].request.pairs == (giant,)
    assert len(body(alone[0])) > 8_000


def test_a_wave_within_the_limit_is_one_part_whose_body_is_the_wave_itself() -> None:
    request = synthetic(2, 60)
    whole = canonical_bytes(to_wire(request))
    (only,) = check_parts(request, len(whole))  # exactly at the limit: still whole
    assert body(only) == whole
    assert len(check_parts(request, len(whole) - 1)) > 1  # a byte less: cut
    one_pair = SeedRequest("u", 0, request.pairs[:1], request.subjects, request.links)
    assert len(seed_parts(one_pair, 10)) == 1
    assert len(seed_parts(SeedRequest("u", 0), 10)) == 1


def test_the_bodies_of_a_full_run_are_unchanged() -> None:
    dataset = build_dataset(7, VERSION, "full")
    ids = WireIds.of(dataset, "00" * 32)
    digest = hashlib.sha256()
    for wave in dataset.memory_waves:
        shown = ids.seed_request(wave)
        (part,) = seed_parts(shown)
        assert body(part) == canonical_bytes(to_wire(shown))
        digest.update(body(part))
    assert digest.hexdigest() == FULL_WAVES_SHA256


def test_a_full_dataset_cut_small_keeps_every_promise() -> None:
    dataset = build_dataset(7, VERSION, "full")
    cut = [check_parts(wave, 4_096) for wave in dataset.memory_waves]
    assert sum(len(parts) for parts in cut) > 2 * len(cut)


def test_a_harness_may_ask_for_smaller_parts_never_larger() -> None:
    assert seed_bytes_limit(0) == SEED_BYTES_LIMIT
    assert seed_bytes_limit(100_000) == 100_000
    assert seed_bytes_limit(10 * SEED_BYTES_LIMIT) == SEED_BYTES_LIMIT
