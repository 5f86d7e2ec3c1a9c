"""Synthetic waves for the tests of seeding in parts (``spec.wire.seed_parts``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from dittobench.core.prng import Stream
from dittobench.spec.wire import Link, Pair, SeedRequest, Subject


def synthetic(seed: int, pairs: int, *, shuffled: bool = False) -> SeedRequest:
    """A wave of ``pairs`` pairs of varied length (texts that need escaping included), subjects
    linked to a few pairs each (some named by no link), a link to a pair the wave does not
    carry, and, when ``shuffled``, its pairs out of chronological order; drawn from ``seed``."""
    draw = Stream(seed, "test", "seed-waves")
    start = datetime(2026, 1, 1, tzinfo=UTC)
    made = [
        Pair(
            f"p-{i:05d}",
            f"s-{i // 7:04d}",
            (start + timedelta(minutes=13 * i)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "word " * draw.between(1, 400) + 'é\n"quoted" \u2028',
            "ok " * draw.between(0, 60),
        )
        for i in range(pairs)
    ]
    subjects = [
        Subject(f"subj-{k:04d}", f"topic {k}", "about " * draw.between(1, 80))
        for k in range(max(1, pairs // 4))
    ]
    links = [
        Link(draw.choice(subjects).id, draw.choice(made).pair_id) for _ in range(pairs + pairs // 2)
    ]
    links.append(Link(subjects[0].id, "p-not-in-this-wave"))
    if shuffled:
        made = draw.shuffle(made)
    return SeedRequest("u-0123456789ab", 3, tuple(made), tuple(subjects), tuple(links))
