"""Abuse limits (service/limits.py): the sliding window and the JSON depth scan."""

from __future__ import annotations

import pytest

from dittobench.service.limits import SlidingWindow, json_depth


def test_the_window_slides_and_refused_hits_do_not_count() -> None:
    now = [0.0]
    window = SlidingWindow(2, 10.0, clock=lambda: now[0])
    assert window.hit("a") == 0
    now[0] = 5.0
    assert window.hit("a") == 0
    now[0] = 6.0
    assert window.hit("a") == 4  # until the first hit leaves the window
    assert window.hit("b") == 0  # another client has its own budget
    now[0] = 10.0
    assert window.hit("a") == 0  # the first hit left; the refused one never counted
    assert window.hit("a") == 5  # the hit at 5 s leaves at 15 s


@pytest.mark.parametrize(
    ("body", "depth"),
    [
        (b"", 0),
        (b'{"a": 1}', 1),
        (b'{"a": [1, {"b": []}]}', 4),
        (b'{"a": "[[[[{{{{"}', 1),
        (b'{"a": "\\"[[[["}', 1),
        (b"[" * 100 + b"]" * 100, 100),
    ],
)
def test_json_depth_counts_brackets_outside_strings(body: bytes, depth: int) -> None:
    assert json_depth(body) == depth
