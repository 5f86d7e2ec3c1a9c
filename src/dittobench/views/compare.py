"""Comparing two runs: paired per case when both graded the same dataset, unpaired otherwise.

Paired (same ``dataset_sha256``: same seed, bench version, run size and pack): every case was
asked of both harnesses, so each case is its own control. Per case B minus A is a win, a loss or
a tie; the composite delta is B's composite minus A's, and its standard error comes from the
per-case differences, composed the way the grader composes ``composite_stderr``::

    SE(delta) = sqrt((w_tool * SE(d_tool))^2 + (w_memory * SE(d_memory))^2) * f

with ``w`` the halves' weights (1 for the only kind when a run has one kind) and ``f`` the mean of
the two runs' factor products (efficiency x consistency x token = composite / base).

Unpaired (different datasets): nothing lines up case by case, so the delta's standard error is
sqrt(SE_A^2 + SE_B^2) from the two reports, which is wider. Both use the normal 95% interval,
delta +- 1.96 SE: runs have tens to hundreds of cases, where the t quantile differs by < 2%.
A category of one case has no interval
(one difference has no spread): its delta is shown alone. ``flips`` lists the cases whose score
changed, worst first. Pure: numbers in, numbers out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dittobench.grade.stats import mean, std_err

Z95 = 1.96
TIE_EPS = 1e-9
"""Two per-case scores closer than this are a tie (scores are rounded to six places)."""


@dataclass(frozen=True, slots=True)
class Side:
    """What the comparison needs of one run: per-case scores by case id with each case's kind
    and category, the composite, its standard error, and the composite's base (before the
    factors)."""

    scores: Mapping[str, float]
    kinds: Mapping[str, str]
    categories: Mapping[str, str]
    composite: float
    composite_stderr: float
    base: float
    category_means: Mapping[str, tuple[float, float, int]]
    """category -> (mean, standard error, count), as the report has them."""


@dataclass(frozen=True, slots=True)
class Delta:
    """B minus A with its standard error and 95% interval; ``interval`` False when there is
    none to give (a category of one case: one difference has no spread), and then ``low`` and
    ``high`` are the value itself and it is never ``clear``."""

    value: float
    std_err: float
    interval: bool = True

    @property
    def low(self) -> float:
        return self.value - Z95 * self.std_err if self.interval else self.value

    @property
    def high(self) -> float:
        return self.value + Z95 * self.std_err if self.interval else self.value

    @property
    def clear(self) -> bool:
        """The interval excludes zero (never when there is no interval)."""
        return self.interval and (self.low > 0 or self.high < 0)


@dataclass(frozen=True, slots=True)
class Flip:
    """One case both runs graded: its score in A and in B; ``delta`` is B minus A."""

    case_id: str
    kind: str
    category: str
    score_a: float
    score_b: float

    @property
    def delta(self) -> float:
        return self.score_b - self.score_a

    @property
    def changed(self) -> bool:
        return abs(self.delta) > TIE_EPS


@dataclass(frozen=True, slots=True)
class CategoryDelta:
    category: str
    kind: str
    mean_a: float
    mean_b: float
    delta: Delta
    count: int


@dataclass(frozen=True, slots=True)
class Comparison:
    paired: bool
    wins: int
    """Cases B scored higher on (0 when unpaired)."""
    losses: int
    ties: int
    composite: Delta
    categories: tuple[CategoryDelta, ...]
    only_a: int = 0
    """Paired runs: cases only A has (a run not finished)."""
    only_b: int = 0


def win_loss_tie(a: Mapping[str, float], b: Mapping[str, float]) -> tuple[int, int, int]:
    """(wins, losses, ties) of B against A over the cases both have."""
    wins = losses = ties = 0
    for case_id in a.keys() & b.keys():
        diff = b[case_id] - a[case_id]
        if diff > TIE_EPS:
            wins += 1
        elif diff < -TIE_EPS:
            losses += 1
        else:
            ties += 1
    return wins, losses, ties


def flips(a: Side, b: Side, *, changed_only: bool = True) -> tuple[Flip, ...]:
    """The cases both runs graded, worst first: the largest drop first, then smaller drops,
    then (unless ``changed_only``) the ties, then the gains; equal deltas by case id."""
    out = []
    for case_id in a.scores.keys() & b.scores.keys():
        made = Flip(
            case_id, a.kinds[case_id], a.categories[case_id], a.scores[case_id], b.scores[case_id]
        )
        if made.changed or not changed_only:
            out.append(made)
    return tuple(sorted(out, key=lambda f: (0.0 if not f.changed else f.delta, f.case_id)))


def factor(side: Side) -> float:
    """The product of the composite's factors, composite / base (1 when base is 0)."""
    return side.composite / side.base if side.base > 0 else 1.0


def paired_stderr(
    diffs_by_kind: Mapping[str, Sequence[float]], halves: Mapping[str, float], scale: float
) -> float:
    """SE of the composite delta from per-case differences grouped by kind; ``halves`` weighs
    each kind (``tool``, ``memory``). A kind with no cases drops out and the other weighs 1."""
    present = [kind for kind, diffs in diffs_by_kind.items() if diffs]
    if not present:
        return 0.0
    total = 0.0
    for kind in present:
        weight = halves.get(kind, 0.0) if len(present) > 1 else 1.0
        total += (weight * std_err(diffs_by_kind[kind])) ** 2
    return math.sqrt(total) * scale


def unpaired_stderr(se_a: float, se_b: float) -> float:
    return math.sqrt(se_a**2 + se_b**2)


def compare(a: Side, b: Side, *, paired: bool, halves: Mapping[str, float]) -> Comparison:
    """Compare run B against run A (``halves``: the composite's weight of each kind)."""
    value = b.composite - a.composite
    if not paired:
        return Comparison(
            False,
            0,
            0,
            0,
            Delta(value, unpaired_stderr(a.composite_stderr, b.composite_stderr)),
            _unpaired_categories(a, b),
        )
    common = sorted(a.scores.keys() & b.scores.keys())
    diffs: dict[str, list[float]] = {}
    for case_id in common:
        diffs.setdefault(a.kinds[case_id], []).append(b.scores[case_id] - a.scores[case_id])
    scale = (factor(a) + factor(b)) / 2
    wins, losses, ties = win_loss_tie(a.scores, b.scores)
    return Comparison(
        True,
        wins,
        losses,
        ties,
        Delta(value, paired_stderr(diffs, halves, scale)),
        _paired_categories(a, b, common),
        only_a=len(a.scores.keys() - b.scores.keys()),
        only_b=len(b.scores.keys() - a.scores.keys()),
    )


def _paired_categories(a: Side, b: Side, common: Sequence[str]) -> tuple[CategoryDelta, ...]:
    grouped: dict[str, list[str]] = {}
    for case_id in common:
        grouped.setdefault(a.categories[case_id], []).append(case_id)
    out = []
    for category, ids in grouped.items():
        diffs = [b.scores[i] - a.scores[i] for i in ids]
        mean_a = mean([a.scores[i] for i in ids])
        mean_b = mean([b.scores[i] for i in ids])
        kind = a.kinds[ids[0]]
        delta = Delta(mean(diffs), std_err(diffs), interval=len(ids) > 1)
        out.append(CategoryDelta(category, kind, mean_a, mean_b, delta, len(ids)))
    return tuple(sorted(out, key=lambda c: (c.delta.value, c.category)))


def _unpaired_categories(a: Side, b: Side) -> tuple[CategoryDelta, ...]:
    kinds = {a.categories[i]: a.kinds[i] for i in a.scores} | {
        b.categories[i]: b.kinds[i] for i in b.scores
    }
    out = []
    for category in a.category_means.keys() & b.category_means.keys():
        mean_a, se_a, n_a = a.category_means[category]
        mean_b, se_b, n_b = b.category_means[category]
        count = min(n_a, n_b)
        delta = Delta(mean_b - mean_a, unpaired_stderr(se_a, se_b), interval=count > 1)
        out.append(CategoryDelta(category, kinds.get(category, ""), mean_a, mean_b, delta, count))
    return tuple(sorted(out, key=lambda c: (c.delta.value, c.category)))


__all__ = [
    "TIE_EPS",
    "Z95",
    "CategoryDelta",
    "Comparison",
    "Delta",
    "Flip",
    "Side",
    "compare",
    "factor",
    "flips",
    "paired_stderr",
    "unpaired_stderr",
    "win_loss_tie",
]
