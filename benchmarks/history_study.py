"""Print how much a run's history gives away (issue 13, the history side of bench 3.0).

For each bench version and run size, over seeds 0..N-1: the share of pairs stating a fact as
true that state exactly one (the generator's record, ``Beat.stated``, pooled over the seeds as
``benchmarks/content_study.py`` pools it), and as means: the share of the user's fact mentions
whose attribute also has a look-alike in the history (a negation, a plan that fell through, a
hypothetical, someone's claim or another person's value), the share of voiced values coined for
the run rather than listed in the pack, and the memory mean of the simple parser of issue 13 (one
regular expression per statement wording of the public pack, last mention wins;
``tests/helpers/history.py``), strict (each wording up to the first symbol after the value) and
loose (cut right after the value).
With ``--oracles``, the oracle's and the honest paraphrase oracle's memory means too.

Figures only, never assertions (tests/unit/test_history_study.py pins loose bounds). Run from
the repository root:
    python benchmarks/history_study.py [--seeds N] [--sizes medium full] [--oracles]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers import history as H

VERSIONS = ("1.1.0", "2.0.0", "3.0.0")


def row(version: str, size: str, seeds: int, oracles: bool) -> str:
    started = time.perf_counter()
    columns: dict[str, list[float]] = {}

    def add(name: str, value: float) -> None:
        columns.setdefault(name, []).append(value)

    stating = [0, 0]
    for seed in range(seeds):
        dataset, side, texts = H.memory_side(seed, version, size)
        figures = H.figures(side)
        one, bearing = H.one_fact_pairs(side)
        stating[0] += one
        stating[1] += bearing
        add("twinned", figures.twinned_share)
        add("coined", figures.coined_share)
        add("parser", H.parser_mean(dataset, texts))
        add("loose parser", H.parser_mean(dataset, texts, loose=True))
        if oracles:
            from dittobench import study

            add("oracle", H.memory_mean(dataset, study.oracle_memory))
            add("paraphrase", H.memory_mean(dataset, study.paraphrase_memory))
    means = f"one fact {stating[0] / stating[1]:.3f}, " + ", ".join(
        f"{k} {statistics.mean(v):.3f}" for k, v in columns.items()
    )
    lows = ", ".join(
        f"{k} {min(v):.3f}" for k, v in columns.items() if k in ("oracle", "paraphrase")
    )
    took = time.perf_counter() - started
    return (
        f"{version} {size:6} seeds 0..{seeds - 1}: {means}"
        + (f" (lowest: {lows})" if lows else "")
        + f" [{took:.1f} s]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--sizes", nargs="+", default=["medium", "full"])
    parser.add_argument("--versions", nargs="+", default=list(VERSIONS))
    parser.add_argument("--oracles", action="store_true")
    args = parser.parse_args()
    for version in args.versions:
        for size in args.sizes:
            print(row(version, size, args.seeds, args.oracles), flush=True)


if __name__ == "__main__":
    main()
