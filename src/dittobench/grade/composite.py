"""The run's composite: the two halves, then efficiency, consistency and the integrity token.

composite = (tool_half x tool mean + memory_half x memory mean) x efficiency x consistency x token

- efficiency (>= 1 - max_loss): over the observed tool cases that scored as correct, calls beyond
  the budget plus ``free`` cost up to ``max_loss`` each (saturating at ``saturation`` extra);
  self-reported calls never feed it;
- consistency (>= 1 - max_loss): the share of paraphrase families answered all right or all
  wrong; a split family means the answer depended on the wording;
- token: 1 when the integrity token was recalled; ``token_missed`` when not; ``token_leaked``
  when the look-alike decoy was repeated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dittobench.grade.stats import mean
from dittobench.spec.versions import GradingPolicy


@dataclass(frozen=True, slots=True)
class Factors:
    efficiency: float
    consistency: float
    token: float
    families: int
    split_families: int
    efficiency_cases: int


def efficiency(overs: Sequence[int], policy: GradingPolicy) -> float:
    """``overs``: for each contributing case, observed calls minus the case's budget."""
    if not overs:
        return 1.0
    factors = []
    for over in overs:
        beyond = max(0, over - policy.efficiency_free_calls)
        factors.append(
            1 - policy.efficiency_max_loss * min(1.0, beyond / policy.efficiency_saturation)
        )
    return mean(factors)


def consistency(families: Mapping[str, Sequence[bool]], policy: GradingPolicy) -> tuple[float, int]:
    """(factor, number of split families) from each family's per-member correctness."""
    if not families:
        return 1.0, 0
    split = sum(1 for members in families.values() if len(set(members)) > 1)
    rate = 1 - split / len(families)
    return 1 - policy.consistency_max_loss * (1 - rate), split


def token_factor(correct: bool | None, leaked: bool, policy: GradingPolicy) -> float:
    """``correct`` is None when the run has no token case."""
    if correct is None or correct:
        return 1.0
    return policy.token_leaked if leaked else policy.token_missed


def base(tool_mean: float | None, memory_mean: float | None, policy: GradingPolicy) -> float:
    if tool_mean is None and memory_mean is None:
        return 0.0
    if memory_mean is None:
        return tool_mean or 0.0
    if tool_mean is None:
        return memory_mean
    return policy.tool_half * tool_mean + policy.memory_half * memory_mean
