"""Print how long grading takes and what the red-team strategies score.

Figures only, never assertions. Run from the repository root:
    python benchmarks/grade_speed.py [--runs N] [--seeds N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers import redteam as R

from dittobench import study as T
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.spec.versions import CURRENT_VERSION

STRATEGIES = {
    "oracle": {},
    "oracle in other words": {"memory": T.paraphrase_memory},
    "one canned answer": {
        "memory": T.canned("67 days. Done, saved. 1, 2, 3, 4, 5, 6, 7"),
        "tool": T.no_tools,
    },
    "all candidates": {"memory": R.all_candidates, "tool": T.no_tools},
    "always decline": {"memory": T.always_decline, "tool": T.no_tools},
    "echo the question": {"memory": R.echo_question, "tool": T.no_tools},
    "dump every stored value": {"memory": T.dump_everything, "tool": T.no_tools},
    "the answer's public pool": {"memory": R.public_pool, "tool": T.no_tools},
    "instruct the grader": {"memory": R.instruct_grader, "tool": T.no_tools},
    "self-reported tool calls": {"observe": False},
    "repeat the decoy token": {"memory": R.repeat_decoy},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9, help="timed repetitions (median shown)")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per red-team figure")
    parser.add_argument("--bench-version", default=CURRENT_VERSION, help="version to measure")
    args = parser.parse_args()
    version = args.bench_version

    dataset = build_dataset(1, version, run_size="full")
    transcript = T.build(dataset)
    grade_run(dataset, transcript)
    samples = []
    for _ in range(args.runs):
        start = time.perf_counter()
        grade_run(dataset, transcript)
        samples.append(time.perf_counter() - start)
    print(
        f"grade a full run ({len(transcript.cases)} cases, hashes included): "
        f"median {statistics.median(samples) * 1000:.1f} ms"
    )

    print(f"\nbench {version}, composites over {args.seeds} full seeds (mean; tool, memory means):")
    datasets = [build_dataset(seed, version, run_size="full") for seed in range(args.seeds)]
    for name, options in STRATEGIES.items():
        reports = [grade_run(d, T.build(d, **options)).report for d in datasets]  # type: ignore[arg-type]
        mean = statistics.mean
        print(
            f"  {name:<26} composite {mean(r.composite for r in reports):.3f}   "
            f"tool {mean(r.tool_mean for r in reports):.3f}   "
            f"memory {mean(r.memory_mean for r in reports):.3f}"
        )


if __name__ == "__main__":
    main()
