"""Run the study: N datasets, every strategy on each, graded by the real grader.

``run_study`` generates the datasets of consecutive seeds (``first_seed`` .. ``first_seed + N -
1``) at one run size and bench version, answers every case with each strategy of
``study.strategies``, grades each transcript with ``grade_run`` and folds the reports into the
figures of ``study.figures``. It is a pure function of its arguments (no clock, no randomness);
``progress`` is told after each seed.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dittobench.core.errors import DittobenchError
from dittobench.core.prng import check_seed
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.packs import Pack, own_pack
from dittobench.spec.report import ScoreReport
from dittobench.spec.versions import get_policy
from dittobench.study.figures import (
    CategoryFigures,
    SeedScore,
    Separation,
    StrategyFigures,
    category_figures,
    noise_floor,
    separations,
    spread,
)
from dittobench.study.index import remember_pack
from dittobench.study.strategies import KNOWN_STRATEGIES, STRATEGIES, Strategy, across

MIN_SEEDS = 2
"""The noise floor pairs consecutive seeds, so a study needs two at least."""

Progress = Callable[[int, int], None]
"""Told (seeds done, seeds in all) after each seed."""


class StudyError(DittobenchError, ValueError):
    """A study that cannot run as asked (too few seeds, a seed out of range)."""

    http_status = 400


@dataclass(frozen=True, slots=True)
class StudyResult:
    bench_version: str
    run_size: str
    seeds: tuple[int, ...]
    strategies: tuple[StrategyFigures, ...]
    separations: tuple[Separation, ...]
    categories: tuple[CategoryFigures, ...]
    pack: str = ""
    """``<id> (<sha256>)`` of the pack the datasets were made from."""
    attack_pack: str = ""
    """The same of the pack ``grammar-across`` was built on ("" without one)."""

    def strategy(self, name: str) -> StrategyFigures:
        return next(s for s in self.strategies if s.name == name)

    @property
    def noise_floor(self) -> float:
        """The largest noise floor among the strategies that do not know the key."""
        return max((s.noise_floor for s in self.strategies if not s.knows_key), default=0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "study": "dittobench-study-1",
            "bench_version": self.bench_version,
            "run_size": self.run_size,
            "pack": self.pack,
            "attack_pack": self.attack_pack,
            "seeds": [str(seed) for seed in self.seeds],
            "noise_floor": round(self.noise_floor, 6),
            "strategies": [s.to_json() for s in self.strategies],
            "separations": [s.to_json() for s in self.separations],
            "categories": [c.to_json() for c in self.categories],
        }


@dataclass
class _Tally:
    """Per category: the case count of one strategy's runs and each strategy's score sum."""

    kind: str
    cases: int = 0
    sums: dict[str, float] = field(default_factory=dict)


def study_seeds(count: int, first_seed: int = 1) -> tuple[int, ...]:
    """``count`` consecutive seeds from ``first_seed``; ``StudyError`` when too few or out of
    range."""
    if count < MIN_SEEDS:
        raise StudyError(
            f"--seeds must be at least {MIN_SEEDS} (the noise floor compares consecutive seeds); "
            f"got {count}"
        )
    seeds = tuple(range(first_seed, first_seed + count))
    for seed in (seeds[0], seeds[-1]):
        try:
            check_seed(seed)
        except DittobenchError as exc:
            raise StudyError(f"seed {seed}: {exc}") from None
    return seeds


def select_strategies(names: Sequence[str]) -> tuple[Strategy, ...]:
    """The strategies named (``KNOWN_STRATEGIES``: the default set and the context-window
    ones), in report order whatever the order asked; ``StudyError`` naming an unknown one, or
    when none is named."""
    known = {s.name: s for s in KNOWN_STRATEGIES}
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise StudyError(
            f"unknown strategy {', '.join(repr(n) for n in unknown)}; known: {', '.join(known)}"
            if unknown
            else "name at least one strategy"
        )
    wanted = set(names)
    return tuple(s for s in KNOWN_STRATEGIES if s.name in wanted)


def run_study(
    seeds: Sequence[int],
    run_size: str = "medium",
    bench_version: str | None = None,
    strategies: Sequence[Strategy] = STRATEGIES,
    progress: Progress | None = None,
    pack: Pack | None = None,
    attack_pack: Pack | None = None,
) -> StudyResult:
    """Every strategy on every seed's dataset, made from ``pack`` (default: the version's
    public pack). With ``attack_pack`` (a pack other than the datasets'), the grammar attack
    built on it is added as ``grammar-across``. Raises ``UnknownVersionError``,
    ``UnknownRunSizeError`` or ``PackError`` before any work on a bad version, size or pack."""
    policy = get_policy(bench_version) if bench_version else get_policy()
    policy.run_size(run_size)
    if pack is not None:
        remember_pack(pack)
    studied = pack if pack is not None else own_pack(policy.version)
    if attack_pack is not None and attack_pack.sha256 != studied.sha256:
        strategies = (*strategies, across(attack_pack))
    scores: dict[str, list[SeedScore]] = {s.name: [] for s in strategies}
    tallies: dict[str, _Tally] = {}
    for done, seed in enumerate(seeds, start=1):
        dataset = build_dataset(seed, policy.version, run_size, pack)
        for strategy in strategies:
            report = grade_run(dataset, strategy.transcript(dataset)).report
            scores[strategy.name].append(
                SeedScore(seed, report.composite, report.tool_mean, report.memory_mean)
            )
            _tally(tallies, strategy.name, report)
        if progress is not None:
            progress(done, len(seeds))
    figures = tuple(_figures(s, scores[s.name]) for s in strategies)
    categories = tuple(
        category_figures(
            name,
            tally.kind,
            tally.cases // len(strategies),
            {s.name: tally.sums[s.name] / (tally.cases / len(strategies)) for s in strategies},
            figures,
        )
        for name, tally in sorted(tallies.items(), key=lambda t: (t[1].kind != "tool", t[0]))
    )
    across_on = next((s for s in strategies if s.name == "grammar-across"), None)
    return StudyResult(
        policy.version,
        run_size,
        tuple(seeds),
        figures,
        separations(figures),
        categories,
        _named(studied),
        _named(attack_pack) if across_on is not None and attack_pack is not None else "",
    )


def _named(pack: Pack) -> str:
    return f"{pack.pack_id} ({pack.sha256})"


def _tally(tallies: dict[str, _Tally], strategy: str, report: ScoreReport) -> None:
    for case in report.per_case:
        tally = tallies.setdefault(case.category, _Tally(case.kind))
        tally.cases += 1
        tally.sums[strategy] = tally.sums.get(strategy, 0.0) + case.score


def _figures(strategy: Strategy, seeds: list[SeedScore]) -> StrategyFigures:
    composites = [s.composite for s in seeds]
    return StrategyFigures(
        name=strategy.name,
        summary=strategy.summary,
        knows_key=strategy.knows_key,
        reads_history=strategy.reads_history,
        composite=spread(composites),
        tool_mean=statistics.fmean(s.tool_mean for s in seeds),
        memory_mean=statistics.fmean(s.memory_mean for s in seeds),
        noise_floor=noise_floor(composites),
        seeds=tuple(seeds),
    )
