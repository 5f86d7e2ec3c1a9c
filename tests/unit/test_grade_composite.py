"""The composite's factors (grade/composite.py): efficiency, consistency, token and the base."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from dittobench.grade.composite import base, consistency, efficiency, token_factor
from dittobench.spec.versions import GRADING_1

P = GRADING_1


# --- efficiency --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("overs", "want"),
    [
        ((), 1.0),
        ((0,), 1.0),
        ((-3,), 1.0),
        ((1,), 1.0),
        ((0, 1, 1), 1.0),
        ((2,), 1 - 0.15 * 1 / 4),
        ((3,), 1 - 0.15 * 2 / 4),
        ((4,), 1 - 0.15 * 3 / 4),
        ((5,), 0.85),
        ((6,), 0.85),
        ((100,), 0.85),
        ((0, 5), (1.0 + 0.85) / 2),
        ((3, 5, 0, 1), (1 - 0.15 * 2 / 4 + 0.85 + 1 + 1) / 4),
    ],
)
def test_efficiency(overs: Sequence[int], want: float) -> None:
    assert efficiency(overs, P) == pytest.approx(want)


def test_efficiency_never_drops_below_the_max_loss() -> None:
    assert efficiency([10**9] * 50, P) == pytest.approx(1 - P.efficiency_max_loss)


def test_efficiency_follows_the_policy() -> None:
    assert P.efficiency_free_calls == 1
    assert P.efficiency_saturation == 4
    assert P.efficiency_max_loss == 0.15


# --- consistency -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("families", "want", "split"),
    [
        ({}, 1.0, 0),
        ({"a": [True, True, True]}, 1.0, 0),
        ({"a": [False, False, False]}, 1.0, 0),
        ({"a": [True, True, True], "b": [False, False, False]}, 1.0, 0),
        ({"a": [True]}, 1.0, 0),
        ({"a": []}, 1.0, 0),
        ({"a": [True, True, True], "b": [True, False, True]}, 1 - 0.15 * 0.5, 1),
        ({"a": [True, False], "b": [False, True]}, 0.85, 2),
        ({"a": [True, False], "b": [True], "c": [False], "d": [True, True]}, 1 - 0.15 / 4, 1),
    ],
)
def test_consistency(families: dict[str, list[bool]], want: float, split: int) -> None:
    factor, splits = consistency(families, P)
    assert factor == pytest.approx(want)
    assert splits == split


# --- token -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("correct", "leaked", "want"),
    [
        (None, False, 1.0),
        (None, True, 1.0),
        (True, False, 1.0),
        (True, True, 1.0),
        (False, False, 0.85),
        (False, True, 0.5),
    ],
)
def test_token_factor(correct: bool | None, leaked: bool, want: float) -> None:
    assert token_factor(correct, leaked, P) == want


# --- base --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tool", "memory", "want"),
    [
        (None, None, 0.0),
        (0.7, None, 0.7),
        (0.0, None, 0.0),
        (None, 0.3, 0.3),
        (None, 0.0, 0.0),
        (0.8, 0.4, 0.6),
        (1.0, 0.0, 0.5),
        (0.0, 1.0, 0.5),
        (1.0, 1.0, 1.0),
    ],
)
def test_base(tool: float | None, memory: float | None, want: float) -> None:
    assert base(tool, memory, P) == pytest.approx(want)
