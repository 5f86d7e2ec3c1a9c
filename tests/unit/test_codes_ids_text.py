"""Coined codes, opaque ids and text helpers."""

from __future__ import annotations

import re

from dittobench.core import codes
from dittobench.core.ids import case_id
from dittobench.core.prng import Stream
from dittobench.core.text import contains_phrase, normalize, words


def test_code_spaces_are_at_least_1e15() -> None:
    assert codes.space_integrity_token() >= 10**15
    assert codes.space_write_code() >= 10**15
    # A needle combines a coined name, a figure, a noun and a unit; name x figure alone:
    assert codes.space_coined_name() * codes.space_figure() >= 10**15


def test_integrity_token_shape_and_spread() -> None:
    tokens = {codes.integrity_token(Stream(seed, "1.0", "token")) for seed in range(10_000)}
    assert len(tokens) == 10_000
    pattern = re.compile(r"VK-[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{10}")
    assert all(pattern.fullmatch(t) for t in tokens)


def test_look_alike_differs_in_exactly_two_places() -> None:
    for seed in range(500):
        stream = Stream(seed, "1.0", "decoy")
        token = codes.integrity_token(stream)
        decoy = codes.look_alike(token, stream)
        assert decoy.startswith("VK-") and len(decoy) == len(token)
        assert sum(a != b for a, b in zip(token, decoy, strict=True)) == 2


def test_write_codes_are_distinct_and_unambiguous() -> None:
    made = {codes.write_code(Stream(seed, "1.0", "w")) for seed in range(5_000)}
    assert len(made) == 5_000
    assert not any(set(code) & set("IO01") for code in made)


def test_case_ids_are_opaque_and_stable() -> None:
    cid = case_id(123456789, "1.0", "tool", 0)
    assert re.fullmatch(r"c[0-9a-f]{16}", cid)
    assert cid == case_id(123456789, "1.0", "tool", 0)
    others = {case_id(123456789, "1.0", kind, n) for kind in ("tool", "mem") for n in range(500)}
    assert len(others) == 1000
    assert cid != case_id(123456789, "1.1", "tool", 0)


def test_text_helpers() -> None:
    assert normalize("  Ｈｅｌｌｏ\tWORLD \n") == "hello world"
    assert words("Set it to Dark-Mode, please!") == ["set", "it", "to", "dark", "mode", "please"]
    assert contains_phrase("The code is XK-12.", "xk-12")
    assert not contains_phrase("tokens", "token")
    assert not contains_phrase("anything", "")
