"""The comparison maths on numbers small enough to check by hand."""

from __future__ import annotations

import math

import pytest

from dittobench.views.compare import (
    Z95,
    Side,
    compare,
    paired_stderr,
    unpaired_stderr,
    win_loss_tie,
)

HALVES = {"tool": 0.5, "memory": 0.5}


def side(scores: dict[str, float], composite: float, se: float, base: float) -> Side:
    kinds = {k: ("tool" if k.startswith("t") else "memory") for k in scores}
    categories = {k: ("cat-" + k[0]) for k in scores}
    return Side(scores, kinds, categories, composite, se, base, {})


def test_wins_losses_and_ties_count_the_cases_both_runs_have() -> None:
    a = {"x": 1.0, "y": 0.0, "z": 0.5, "only-a": 1.0}
    b = {"x": 1.0, "y": 1.0, "z": 0.25, "only-b": 0.0}
    assert win_loss_tie(a, b) == (1, 1, 1)  # y won, z lost, x tied
    assert win_loss_tie(b, a) == (1, 1, 1)


def test_paired_stderr_by_hand() -> None:
    # tool diffs 1, 0, -1, 0: mean 0, s^2 = 2/3, SE = sqrt(2/3 / 4) = sqrt(1/6)
    # memory diffs 0.5, 0.5: s^2 = 0, SE = 0
    se = paired_stderr({"tool": [1, 0, -1, 0], "memory": [0.5, 0.5]}, HALVES, 1.0)
    assert se == pytest.approx(0.5 * math.sqrt(1 / 6))
    # the scale multiplies; a kind alone weighs 1
    assert paired_stderr({"tool": [1, 0, -1, 0]}, HALVES, 0.8) == pytest.approx(
        0.8 * math.sqrt(1 / 6)
    )
    assert paired_stderr({"tool": [], "memory": []}, HALVES, 1.0) == 0.0


def test_a_paired_comparison_by_hand() -> None:
    a = side({"t1": 1, "t2": 0, "t3": 1, "t4": 0, "m1": 0, "m2": 0}, 0.25, 0.1, 0.25)
    b = side({"t1": 1, "t2": 1, "t3": 0, "t4": 0, "m1": 0.5, "m2": 0.5}, 0.5, 0.1, 0.5)
    made = compare(a, b, paired=True, halves=HALVES)
    assert made.paired and (made.wins, made.losses, made.ties) == (3, 1, 2)
    assert made.composite.value == pytest.approx(0.25)
    expected_se = 0.5 * math.sqrt(1 / 6)  # both factors are 1
    assert made.composite.std_err == pytest.approx(expected_se)
    assert made.composite.low == pytest.approx(0.25 - Z95 * expected_se)
    assert made.composite.high == pytest.approx(0.25 + Z95 * expected_se)
    assert not made.composite.clear  # 0.25 - 1.96 x 0.204 = -0.150: the interval holds 0
    by_category = {c.category: c for c in made.categories}
    assert by_category["cat-m"].delta.value == pytest.approx(0.5)
    assert by_category["cat-m"].delta.std_err == 0.0
    assert by_category["cat-t"].delta.value == pytest.approx(0.0)
    assert by_category["cat-t"].mean_a == pytest.approx(0.5)


def test_the_factor_product_scales_the_paired_error() -> None:
    # composite / base = 0.5 for both runs: the standard error halves
    a = side({"t1": 1, "t2": 0}, 0.25, 0.1, 0.5)
    b = side({"t1": 0, "t2": 0}, 0.0, 0.0, 0.0)
    made = compare(a, b, paired=True, halves=HALVES)
    # diffs -1, 0: s^2 = 0.5, SE = 0.5; weight 1 (tool only); scale (0.5 + 1) / 2 = 0.75
    assert made.composite.std_err == pytest.approx(0.5 * 0.75)


def test_unpaired_uses_the_two_reports_errors() -> None:
    a = Side({"t1": 1}, {"t1": "tool"}, {"t1": "c"}, 0.40, 0.03, 0.40, {"c": (0.4, 0.03, 10)})
    b = Side({"t9": 1}, {"t9": "tool"}, {"t9": "c"}, 0.45, 0.04, 0.45, {"c": (0.6, 0.04, 12)})
    made = compare(a, b, paired=False, halves=HALVES)
    assert not made.paired and (made.wins, made.losses, made.ties) == (0, 0, 0)
    assert made.composite.value == pytest.approx(0.05)
    assert made.composite.std_err == pytest.approx(0.05)  # sqrt(0.03^2 + 0.04^2)
    assert unpaired_stderr(0.03, 0.04) == pytest.approx(0.05)
    assert not made.composite.clear  # 0.05 +- 0.098 straddles zero
    (category,) = made.categories
    assert category.delta.value == pytest.approx(0.2) and category.count == 10
