"""The suite interval's Student-t table, recomputed from the t density itself (Simpson's rule and
bisection, stdlib only), so a mistyped row cannot hide: every quantile it gives is the true
two-sided 95% quantile rounded to three places, or, between rows, a wider one."""

from __future__ import annotations

import functools
import math

import pytest

from dittobench.receipts.suite import t95


def _density(x: float, df: int) -> float:
    log_scale = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(log_scale - (df + 1) / 2 * math.log1p(x * x / df))


def _upper_tail(t: float, df: int, steps: int = 600) -> float:
    """P(T > t) = 1/2 - the integral of the density over [0, t] (Simpson's rule)."""
    width = t / steps
    total = _density(0.0, df) + _density(t, df)
    total += sum((4 if i % 2 else 2) * _density(i * width, df) for i in range(1, steps))
    return 0.5 - total * width / 3


@functools.cache
def _quantile_975(df: int) -> float:
    low, high = 1.9, 13.0
    for _ in range(34):  # to within 1e-9 of the root
        middle = (low + high) / 2
        low, high = (middle, high) if _upper_tail(middle, df) > 0.025 else (low, middle)
    return (low + high) / 2


@pytest.mark.parametrize("df", [*range(1, 31), 40, 60, 120])
def test_each_row_is_the_true_quantile_to_three_places(df: int) -> None:
    assert t95(df) == pytest.approx(round(_quantile_975(df), 3), abs=0.0011)


@pytest.mark.parametrize("df", [31, 35, 39, 41, 59, 61, 119, 121, 500, 1000])
def test_between_rows_the_interval_is_never_narrower_than_the_truth(df: int) -> None:
    assert t95(df) >= _quantile_975(df) - 0.0005


def test_far_out_it_is_the_normal_quantile() -> None:
    assert t95(5000) == pytest.approx(_quantile_975(5000), abs=0.001)
