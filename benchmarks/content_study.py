"""Print the content figures of issue 13 over N seeds, against their targets.

Figures only, never assertions. Run from the repository root:
    python benchmarks/content_study.py [--seeds N] [--first-seed K] [--run-size S]
                                       [--bench-version V] [--study-seeds M]

Definitions (over the datasets of seeds K .. K + N - 1; docs/study.md says the same):

- unique questions: the share of memory question instances whose text appears in no other
  seed's dataset (target >= 95%);
- answer in its question: among answerable questions (every answer kind but decline and
  acknowledge, whose keys hold a subject or a label, not an answer), the share whose expected
  answer or one of its answer items occurs in the question's own text as whole words
  (target <= 1%);
- one-fact pairs: of the history pairs that state at least one fact as true, the share stating
  exactly one, from the generator's own record of what each pair states (``Beat.stated``; a
  slip is stated by its correction, look-alikes never; ``tests/helpers/history.py``
  ``one_fact_pairs``, the definition ``benchmarks/history_study.py`` prints), pooled over the
  seeds (target <= 40%);
- newest-wave evidence: among answerable questions with evidence, the share whose evidence
  pairs all arrived in the newest wave of the user's seeded before the question is asked
  (target <= 50%);
- the study's strategies (``dittobench study``) over the first M seeds: parser memory mean
  (target <= 0.35), router tool mean (<= 0.35), oracle composite (= 1.000), paraphrase memory
  mean (>= 0.97).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from dittobench.core.text import contains_phrase
from dittobench.generate.assemble import build_dataset
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.study.run import run_study, study_seeds

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers import history as H

UNANSWERED_KINDS = ("decline", "acknowledge")


def answerable(case: MemoryCase) -> bool:
    return case.answer_kind not in UNANSWERED_KINDS


def unique_questions(datasets: Sequence[Dataset]) -> tuple[int, int]:
    """(instances whose text no other seed asks, instances)."""
    per_seed = [{c.question for c in d.memory_cases} for d in datasets]
    seeds_asking = Counter(text for texts in per_seed for text in texts)
    instances = [c.question for d in datasets for c in d.memory_cases]
    return sum(seeds_asking[text] == 1 for text in instances), len(instances)


def answers_in_question(datasets: Sequence[Dataset]) -> tuple[int, int, Counter[str]]:
    """(answerable questions naming their own answer, answerable questions, by type)."""
    hits: Counter[str] = Counter()
    total = 0
    for dataset in datasets:
        for case in filter(answerable, dataset.memory_cases):
            total += 1
            answers = [a for a in (case.expected_answer, *case.answer_items) if a]
            if any(contains_phrase(case.question, a) for a in answers):
                hits[case.question_type] += 1
    return sum(hits.values()), total, hits


def one_fact_pairs(seeds: Iterable[int], version: str, size: str) -> tuple[int, int]:
    """(pairs stating exactly one fact, pairs stating at least one), pooled over ``seeds``."""
    one = bearing = 0
    for seed in seeds:
        _dataset, side, _texts = H.memory_side(seed, version, size)
        counts = H.one_fact_pairs(side)
        one += counts[0]
        bearing += counts[1]
    return one, bearing


def newest_wave_evidence(datasets: Sequence[Dataset]) -> tuple[int, int]:
    """(answerable questions whose evidence is all in the newest seeded wave, such questions)."""
    newest = total = 0
    for dataset in datasets:
        wave_of = {(w.user_id, p.pair_id): w.wave for w in dataset.memory_waves for p in w.pairs}
        waves = {(w.user_id, w.wave) for w in dataset.memory_waves}
        for case in filter(answerable, dataset.memory_cases):
            if not case.evidence_pair_ids:
                continue
            seeded = [wave for user, wave in waves if user == case.user_id]
            last = max(w for w in seeded if w <= case.run_after_wave)
            total += 1
            newest += all(wave_of[(case.user_id, p)] == last for p in case.evidence_pair_ids)
    return newest, total


def row(name: str, figure: float, target: float, at_least: bool, share: bool = True) -> str:
    """One figure against its target: the ratio figure / target and whether it meets it."""
    shown = f"{figure:7.1%}" if share else f"{figure:7.3f}"
    goal = f"{target:.0%}" if share else f"{target:.3f}"
    aim = f"{'>=' if at_least else '<='} {goal}"
    meets = figure >= target if at_least else figure <= target
    ratio = figure / target if target else float("inf")
    verdict = "meets" if meets else "MISSES"
    return f"  {name:<34} {shown}   target {aim:<9} ratio {ratio:6.2f}   {verdict}"


def _datasets(seeds: Iterable[int], version: str, size: str) -> list[Dataset]:
    return [build_dataset(seed, version, size) for seed in seeds]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=200, help="datasets (consecutive seeds)")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--run-size", default="full", choices=("small", "medium", "full"))
    parser.add_argument("--bench-version", default=CURRENT_VERSION)
    parser.add_argument(
        "--study-seeds", type=int, default=20, help="seeds the strategies are scored on (>= 2)"
    )
    args = parser.parse_args()
    seeds = study_seeds(args.seeds, args.first_seed)
    start = time.perf_counter()
    datasets = _datasets(seeds, args.bench_version, args.run_size)
    print(
        f"bench {args.bench_version} · {args.run_size} · {len(seeds)} seeds "
        f"({seeds[0]}..{seeds[-1]})",
    )
    unique, instances = unique_questions(datasets)
    named, asked, by_type = answers_in_question(datasets)
    one, pairs = one_fact_pairs(seeds, args.bench_version, args.run_size)
    newest, cited = newest_wave_evidence(datasets)
    print("\ncontent:")
    print(row(f"unique questions (of {instances})", unique / instances, 0.95, True))
    print(row(f"answer in its question (of {asked})", named / asked, 0.01, False))
    kinds = ", ".join(f"{t} {n}" for t, n in by_type.most_common())
    print(f"    by type: {kinds or 'none'}")
    print(row(f"one-fact pairs (of {pairs})", one / pairs, 0.40, False))
    print(row(f"newest-wave evidence (of {cited})", newest / cited, 0.50, False))
    study_count = min(args.study_seeds, len(seeds))
    progress = lambda done, total: print(f"[study] seed {done}/{total}", file=sys.stderr)  # noqa: E731
    result = run_study(seeds[:study_count], args.run_size, args.bench_version, progress=progress)
    print(f"\nstrategies over {study_count} seeds:")
    print(row("parser memory mean", result.strategy("parser").memory_mean, 0.35, False, False))
    print(row("router tool mean", result.strategy("router").tool_mean, 0.35, False, False))
    print(row("oracle composite", result.strategy("oracle").composite.mean, 1.0, True, False))
    para = result.strategy("paraphrase").memory_mean
    print(row("paraphrase memory mean", para, 0.97, True, False))
    for s in result.strategies:
        print(f"    {s.name:<11} tool {s.tool_mean:.3f}   memory {s.memory_mean:.3f}")
    print(f"\n{time.perf_counter() - start:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
