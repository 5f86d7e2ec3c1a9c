"""Every sender of ``/seed`` goes through ``engine.seeding.seed_wave``: a wave over the limit is
sent as its parts, in order; a failed part is sent again like a whole wave was (and only that
part); a refused one stops the wave there; progress notes say ``part i/n``. What a harness
declares as ``max_seed_bytes`` is read with a floor, and the replay harness learns a wave in
parts as it learns it whole."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from dittobench.engine.blind import Answers
from dittobench.engine.client import ClientLimits, HarnessClient, HarnessError
from dittobench.engine.orchestrate import declared_health
from dittobench.engine.replay import ReplayHarness
from dittobench.engine.seeding import SeedSending, seed_wave
from dittobench.generate.assemble import build_dataset
from dittobench.spec.wire import (
    SEED_BYTES_FLOOR,
    SeedRequest,
    seed_part_wire,
    seed_parts,
    to_wire,
)
from dittobench.spec.wireids import WireIds
from tests.helpers.seed_waves import synthetic
from tests.helpers.transport import streamed_transport

WAVE = synthetic(11, 80)
LIMIT = 6_000
PARTS = len(seed_parts(WAVE, LIMIT))


def send(
    wave: SeedRequest, status_of: dict[tuple[int, int], int], *, unreachable_at: int = -1
) -> tuple[list[dict[str, object]], list[str], int, BaseException | None]:
    """Send ``wave`` to a harness that answers the n-th attempt of part p with
    ``status_of[(p, n)]`` (200 otherwise; no connection at all for part ``unreachable_at``'s
    first attempt): the bodies it got, the notes, the parts ``seed_wave`` reported (-1 when it
    raised) and what it raised."""
    bodies: list[dict[str, object]] = []
    notes: list[str] = []
    lost: list[bool] = []
    tries: dict[int, int] = {}

    def handler(request: httpx.Request) -> httpx.Response:
        payload = json.loads(request.content)
        part = int(payload.get("part", 0))
        tries[part] = tries.get(part, 0) + 1
        if part == unreachable_at and tries[part] == 1:
            raise httpx.ConnectError("refused", request=request)
        bodies.append(payload)
        return httpx.Response(status_of.get((part, tries[part]), 200), json={"pairs": 1})

    async def go() -> int:
        limits = ClientLimits(health_wait_s=1)
        transport = streamed_transport(handler)
        async with HarnessClient("http://harness.test", limits, transport=transport) as client:
            how = SeedSending(LIMIT, (0.0, 0.0), "miner", "user miner, wave 3")
            return await seed_wave(client, wave, how, notes.append, lambda: lost.append(True))

    try:
        sent, error = asyncio.run(go()), None
    except HarnessError as exc:
        sent, error = -1, exc
    if unreachable_at >= 0:
        assert lost == [True]
    return bodies, notes, sent, error


def test_a_wave_over_the_limit_goes_in_order_and_a_failed_part_alone_is_sent_again() -> None:
    assert PARTS > 3
    bodies, notes, sent, error = send(WAVE, {(1, 1): 503})
    assert error is None and sent == PARTS
    assert [b["part"] for b in bodies] == [0, 1, 1, *range(2, PARTS)]
    assert {b["parts"] for b in bodies} == {PARTS}
    assert notes[:4] == [
        f"user miner, wave 3, part 1/{PARTS}",
        f"user miner, wave 3, part 2/{PARTS}",
        f"user miner, wave 3, part 2/{PARTS}: attempt 1 failed, again in 0 s",
        f"user miner, wave 3, part 2/{PARTS}",
    ]


def test_a_refused_part_stops_the_wave_there() -> None:
    bodies, _notes, sent, error = send(WAVE, {(1, 1): 400})
    assert sent == -1 and error is not None
    assert f"wave 3, part 2/{PARTS}) answered HTTP 400" in str(error)
    assert [b["part"] for b in bodies] == [0, 1]


def test_a_part_that_keeps_failing_fails_the_wave_after_every_attempt() -> None:
    busy = {(2, n): 503 for n in (1, 2, 3)}
    bodies, _notes, sent, error = send(WAVE, busy)
    assert sent == -1 and "(3 attempts)" in str(error)
    assert [b["part"] for b in bodies] == [0, 1, 2, 2, 2]


def test_a_part_that_got_no_connection_is_reported_and_sent_again() -> None:
    bodies, _notes, sent, error = send(WAVE, {}, unreachable_at=2)
    assert error is None and sent == PARTS
    assert [b["part"] for b in bodies] == list(range(PARTS))


def test_a_wave_within_the_limit_is_one_request_noted_as_before() -> None:
    small = SeedRequest(WAVE.user_id, WAVE.wave, WAVE.pairs[:3])
    bodies, notes, sent, error = send(small, {})
    assert (sent, error, notes) == (1, None, ["user miner, wave 3"])
    assert "part" not in bodies[0] and "parts" not in bodies[0]


@pytest.mark.parametrize(
    ("declared", "read"),
    [
        (200_000, 200_000),
        (SEED_BYTES_FLOOR, SEED_BYTES_FLOOR),
        (1_000, SEED_BYTES_FLOOR),
        (1, SEED_BYTES_FLOOR),
        (0, 0),
        (-5, 0),
        (True, 0),
        ("65536", 0),
        (65536.0, 0),
        (None, 0),
    ],
)
def test_max_seed_bytes_is_read_from_health_with_a_floor(declared: object, read: int) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"status": "ok", "max_seed_bytes": declared})

    async def go() -> int:
        async with httpx.AsyncClient(transport=streamed_transport(handler)) as http:
            return (await declared_health("http://harness.test", 2.0, http)).max_seed_bytes

    assert asyncio.run(go()) == read


def test_the_replay_harness_learns_a_wave_in_parts_as_a_wave_sent_whole() -> None:
    dataset = build_dataset(7, "8.0.0", "full")
    ids = WireIds.of(dataset, "11" * 32)
    whole, cut = ReplayHarness(dataset, Answers()), ReplayHarness(dataset, Answers())
    for wave in dataset.memory_waves:
        shown = ids.seed_request(wave)
        whole.seed(to_wire(shown))
        parts = seed_parts(shown, 2_000)
        for part in parts:
            cut.seed(seed_part_wire(part))
    assert len(whole._shown_pairs) == sum(len(w.pairs) for w in dataset.memory_waves)
    assert cut._shown_pairs == whole._shown_pairs
