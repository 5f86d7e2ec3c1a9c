"""The baseline reads a ``/seed`` body of the usual shape without the spec's generic decoder
(``server.seed_request``, a fifth of its work on a long history); whatever it builds is what the
decoder builds, and any body it does not recognise goes to the decoder, which reads it or says
what is wrong."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from dittobench.generate.assemble import build_dataset
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.wire import SeedPart, SeedRequest, seed_part_wire, seed_parts, to_wire
from dittobench_baseline.server import seed_request
from tests.helpers.seed_waves import synthetic


def _bodies() -> list[dict[str, Any]]:
    waves = build_dataset(7, "8.0.0", "full").memory_waves
    bodies = [to_wire(w) for w in waves]
    bodies += [seed_part_wire(p) for p in seed_parts(synthetic(4, 90), 4_000)]
    bodies.append(seed_part_wire(SeedPart(SeedRequest("u", 2))))  # no arrays at all
    bodies.append({"pairs": bodies[0]["pairs"]})  # user and wave left to their defaults
    bodies.append({**bodies[0], "extra": [1, {"x": None}]})
    return bodies


WELL_FORMED = _bodies()


@pytest.mark.parametrize("body", WELL_FORMED, ids=lambda b: f"{len(b.get('pairs', []))}-pairs")
def test_a_usual_body_is_built_as_the_decoder_builds_it(body: dict[str, Any]) -> None:
    built = seed_request(body)
    assert built is not None  # the fast path took it: the comparison is not vacuous
    assert built == decode(SeedRequest, body)


SPOILERS: dict[str, Callable[[dict[str, Any]], object]] = {
    "wave text": lambda body: body.update(wave="1"),
    "wave bool": lambda body: body.update(wave=True),
    "wave float": lambda body: body.update(wave=1.0),
    "user null": lambda body: body.update(user_id=None),
    "pairs null": lambda body: body.update(pairs=None),
    "pairs object": lambda body: body.update(pairs={"a": body["pairs"][0]}),
    "pair missing": lambda body: body["pairs"][0].pop("timestamp"),
    "pair number": lambda body: body["pairs"][0].update(prompt=3),
    "pair list": lambda body: body["pairs"].append([1]),
    "link null": lambda body: body["links"][0].update(pair_id=None),
    "subject missing": lambda body: body["subjects"][0].pop("description_text"),
    "links text": lambda body: body.update(links="none"),
}
"""Ways a body goes wrong, each applied to a wave that has pairs, subjects and links."""


@pytest.mark.parametrize("change", sorted(SPOILERS))
def test_any_other_body_is_left_to_the_decoder(change: str) -> None:
    body = copy.deepcopy(WELL_FORMED[1])
    SPOILERS[change](body)
    assert seed_request(body) is None
    with pytest.raises(DecodeError):
        decode(SeedRequest, body)


def test_a_body_that_is_not_an_object_is_left_to_the_decoder() -> None:
    assert seed_request([WELL_FORMED[0]]) is None
    assert seed_request("seed") is None
