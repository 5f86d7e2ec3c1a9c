"""Print what tool-prompt cues are worth: cue routers against the oracle, per bench version.

Figures only, never assertions (``tests/unit/test_tool_cues.py`` pins a loose bound). Run from
the repository root:
    python benchmarks/tool_cues.py [--seeds N] [--run-size S] [--versions V ...]

For each version: the tool mean (the grader's mean tool-case score) of the oracle, of a
description router (the catalog tools whose descriptions share the most content words with the
prompt) and of a keyword router (the tools of the category whose most frequent grammar words the
prompt holds most), both generous (expected arguments for free, retries, the figure their frame
reader picks), as a ratio to the 0.35 target; then how often a frame reader trained on served
findings, and a reader that compares dates, pick the needle when a needle and a decoy result
stand side by side (both orders). ``tests/helpers/tool_routers.py`` defines the strategies.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers import tool_routers as R

TARGET = 0.35
EXTRA_K = (5, 30, 60)
"""Other keyword-list lengths, printed for reference (the measured router keeps 15)."""
VERSIONS = ("1.1.0", "3.0.0")


def measure(version: str, seeds: range, run_size: str) -> None:
    started = time.perf_counter()
    setting = R.Setting.of(version)
    reader = R.FrameReader(setting)
    routers = {
        "description router": R.DescriptionRouter(setting).route,
        "keyword router": R.KeywordRouter(setting).route,
    }
    for k in EXTRA_K:
        routers[f"keyword router k={k}"] = R.KeywordRouter(setting, keywords=k).route
    routers["tf-idf router"] = R.KeywordRouter(setting, distinctive=True).route
    means: dict[str, list[float]] = defaultdict(list)
    groups: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for seed in seeds:
        cases, fixtures = setting.tool_side(seed, run_size)
        answers = {"oracle": R.oracle}
        for name, route in routers.items():
            answers[name] = R.answer_with(route, reader, seed, setting.version)
        for name, answer in answers.items():
            scores = R.tool_scores(setting, cases, fixtures, answer)
            means[name].append(statistics.fmean(scores))
            for case, score in zip(cases, scores, strict=True):
                groups[name][case.group].append(score)
    print(f"bench {version} ({run_size}, seeds {seeds.start}-{seeds.stop - 1}):")
    for name, values in means.items():
        mean = statistics.fmean(values)
        spread = f"{min(values):.3f}-{max(values):.3f}"
        measured = name in ("description router", "keyword router")
        ratio = f"{mean / TARGET:.2f}x the {TARGET} target" if measured else ""
        print(f"  {name:<20} tool mean {mean:.3f} (per seed {spread}) {ratio}")
        by_group = ", ".join(f"{g} {statistics.fmean(s):.2f}" for g, s in groups[name].items())
        print(f"  {'':<20} {by_group}")
    _side_by_side(setting, reader, seeds)
    print(f"  ({time.perf_counter() - started:.1f} s)")


def _side_by_side(setting: R.Setting, reader: R.FrameReader, seeds: range) -> None:
    """Needle-pick rates when a needle finding and a decoy finding are both shown."""
    dates = R.date_reader(setting)
    hits = {"frame reader": 0, "date reader": 0}
    pairs = 0
    for needle, decoy in R.findings(setting, seeds):
        needle, decoy = needle.replace("{figure}", "11,111"), decoy.replace("{figure}", "22,222")
        for shown in ((needle, decoy), (decoy, needle)):
            pairs += 1
            hits["frame reader"] += reader.pick(shown) == "11,111"
            hits["date reader"] += dates(shown) == "11,111"
    for name, hit in hits.items():
        print(f"  {name:<20} picks the needle in {hit / max(pairs, 1):.0%} of {pairs} pairs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--run-size", default="full")
    parser.add_argument("--versions", nargs="+", default=list(VERSIONS))
    args = parser.parse_args()
    for version in args.versions:
        measure(version, range(args.seeds), args.run_size)


if __name__ == "__main__":
    main()
