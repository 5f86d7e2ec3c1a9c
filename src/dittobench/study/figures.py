"""The study's figures: how each strategy scores over seeds, how noisy one seed is, how far
apart neighbouring strategies stand, and what each category measures.

Definitions (``docs/study.md`` says the same):

- **spread** of a strategy's composite over the N seeds: mean, sample SD (n - 1), min, p10,
  median, p90, max (quantiles interpolated linearly between the sorted values);
- **noise floor** of a strategy: the mean absolute difference of its composite between
  consecutive seeds (seed k and k + 1), i.e. how far a score moves when only the seed changes;
- **separation** of two strategies adjacent in the ranking: the mean of their per-seed
  composite differences, its sample SD, and the share of seeds on which the higher one scores
  strictly more;
- per **category** (a tool category, or a memory question type) over every case of every seed:
  each strategy's mean score; ``honest``, the paraphrase oracle's; ``others``, the mean over
  the strategies that do not know the key; **difficulty** = honest - others (what reading the
  history right earns over the shortcuts); **discrimination** = the best minus the worst of
  those strategies; flags ``saturated`` (a strategy that neither knows the key nor reads the
  history scores >= 0.98), ``floor`` (the oracle or the paraphrase oracle scores <= 0.02) and
  ``parser-solvable`` (the grammar-aware parser or the regex parser scores >= 0.9).
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SATURATED_AT = 0.98
FLOOR_AT = 0.02
PARSER_SOLVES_AT = 0.9


@dataclass(frozen=True, slots=True)
class SeedScore:
    seed: int
    composite: float
    tool_mean: float
    memory_mean: float


@dataclass(frozen=True, slots=True)
class Spread:
    mean: float
    sd: float
    minimum: float
    p10: float
    median: float
    p90: float
    maximum: float

    def to_json(self) -> dict[str, float]:
        return {
            "mean": _r(self.mean),
            "sd": _r(self.sd),
            "min": _r(self.minimum),
            "p10": _r(self.p10),
            "median": _r(self.median),
            "p90": _r(self.p90),
            "max": _r(self.maximum),
        }


@dataclass(frozen=True, slots=True)
class StrategyFigures:
    name: str
    summary: str
    knows_key: bool
    reads_history: bool
    composite: Spread
    tool_mean: float
    memory_mean: float
    noise_floor: float
    seeds: tuple[SeedScore, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "summary": self.summary,
            "knows_key": self.knows_key,
            "reads_history": self.reads_history,
            "composite": self.composite.to_json(),
            "tool_mean": _r(self.tool_mean),
            "memory_mean": _r(self.memory_mean),
            "noise_floor": _r(self.noise_floor),
            "seeds": [
                {
                    "seed": str(s.seed),
                    "composite": _r(s.composite),
                    "tool_mean": _r(s.tool_mean),
                    "memory_mean": _r(s.memory_mean),
                }
                for s in self.seeds
            ],
        }


@dataclass(frozen=True, slots=True)
class Separation:
    higher: str
    lower: str
    gap: float
    sd: float
    wins: float

    def to_json(self) -> dict[str, Any]:
        return {
            "higher": self.higher,
            "lower": self.lower,
            "gap": _r(self.gap),
            "sd": _r(self.sd),
            "wins": _r(self.wins),
        }


@dataclass(frozen=True, slots=True)
class CategoryFigures:
    category: str
    kind: str
    cases: int
    means: Mapping[str, float]
    honest: float
    others: float
    difficulty: float
    discrimination: float
    flags: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "kind": self.kind,
            "cases": self.cases,
            "means": {name: _r(mean) for name, mean in self.means.items()},
            "honest": _r(self.honest),
            "others": _r(self.others),
            "difficulty": _r(self.difficulty),
            "discrimination": _r(self.discrimination),
            "flags": list(self.flags),
        }


def quantile(ordered: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted values, interpolated linearly between neighbours."""
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def spread(values: Sequence[float]) -> Spread:
    """Mean, sample SD and quantiles of at least two values."""
    ordered = sorted(values)
    return Spread(
        mean=statistics.fmean(ordered),
        sd=statistics.stdev(ordered),
        minimum=ordered[0],
        p10=quantile(ordered, 0.1),
        median=statistics.median(ordered),
        p90=quantile(ordered, 0.9),
        maximum=ordered[-1],
    )


def noise_floor(composites: Sequence[float]) -> float:
    """Mean absolute difference between consecutive seeds' composites."""
    return statistics.fmean(abs(b - a) for a, b in itertools.pairwise(composites))


def separations(strategies: Sequence[StrategyFigures]) -> tuple[Separation, ...]:
    """Each strategy against the next one down the ranking (by mean composite), paired by
    seed."""
    ranked = sorted(strategies, key=lambda s: -s.composite.mean)
    out = []
    for high, low in itertools.pairwise(ranked):
        diffs = [a.composite - b.composite for a, b in zip(high.seeds, low.seeds, strict=True)]
        out.append(
            Separation(
                high.name,
                low.name,
                statistics.fmean(diffs),
                statistics.stdev(diffs),
                sum(d > 0 for d in diffs) / len(diffs),
            )
        )
    return tuple(out)


def category_figures(
    category: str,
    kind: str,
    cases: int,
    means: Mapping[str, float],
    strategies: Sequence[StrategyFigures],
) -> CategoryFigures:
    """One category's figures from each strategy's mean score over its cases."""
    outsiders = [s.name for s in strategies if not s.knows_key and s.name in means]
    other_means = [means[name] for name in outsiders]
    honest = means.get("paraphrase", 0.0)
    others = statistics.fmean(other_means) if other_means else 0.0
    flags = []
    blind = [s.name for s in strategies if not s.knows_key and not s.reads_history]
    if any(means.get(name, 0.0) >= SATURATED_AT for name in blind):
        flags.append("saturated")
    if any(means.get(name, 1.0) <= FLOOR_AT for name in ("oracle", "paraphrase")):
        flags.append("floor")
    if max(means.get("parser", 0.0), means.get("regex", 0.0)) >= PARSER_SOLVES_AT:
        flags.append("parser-solvable")
    return CategoryFigures(
        category=category,
        kind=kind,
        cases=cases,
        means=dict(means),
        honest=honest,
        others=others,
        difficulty=honest - others,
        discrimination=max(other_means) - min(other_means) if other_means else 0.0,
        flags=tuple(flags),
    )


def _r(value: float) -> float:
    return round(value, 6)
