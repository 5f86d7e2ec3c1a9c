"""Means and standard errors (the within-run estimate of how much a score varies by chance)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def std_err(values: Sequence[float]) -> float:
    """sqrt(s^2 / n) with the Bessel-corrected sample variance s^2; 0 below two values."""
    n = len(values)
    if n < 2:
        return 0.0
    m = mean(values)
    variance = sum((v - m) ** 2 for v in values) / (n - 1)
    return math.sqrt(variance / n)


def median_int(values: Sequence[int]) -> int:
    """The median; for an even count, the integer mean of the middle two."""
    if not values:
        return 0
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) // 2
