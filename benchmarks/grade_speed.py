"""Print how long grading takes and what the red-team strategies score.

Figures only, never assertions. Run from the repository root:
    python benchmarks/grade_speed.py [--runs N] [--seeds N] [--seed S]
"""

from __future__ import annotations

import argparse
import inspect
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers import redteam as R

from dittobench import study as T
from dittobench.core.hashing import canonical_sha256
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.spec.dataset import Dataset
from dittobench.spec.transcript import Transcript
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


def _best(runs: int, work: Callable[[], object]) -> tuple[float, float, float]:
    """Best and median seconds of ``runs`` calls of ``work`` (after one untimed call), and the
    best CPU seconds of this process (steadier than wall time on a busy shared machine)."""
    work()
    samples, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        samples.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(samples), statistics.median(samples), min(cpu)


def _time_grading(dataset: Dataset, transcript: Transcript, runs: int) -> None:
    """The full transcript's grade time, with the dataset hashed inside the call and with its
    hash passed in, each as a ratio to the anchor: hashing the dataset's canonical bytes once,
    timed in the same run (the load average says how busy the machine was)."""
    anchor, _, anchor_cpu = _best(runs, lambda: canonical_sha256(dataset.to_json()))
    sha = canonical_sha256(dataset.to_json())
    timings = {"dataset hashed in the call": _best(runs, lambda: grade_run(dataset, transcript))}
    if "dataset_sha256" in inspect.signature(grade_run).parameters:
        timings["dataset hash passed in"] = _best(
            runs, lambda: grade_run(dataset, transcript, dataset_sha256=sha)
        )
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"grade a full run (seed {dataset.seed}, {len(transcript.cases)} cases), best of {runs}")
    print(
        f"  anchor: canonical-hash the dataset once   {anchor * 1000:7.1f} ms"
        f" (CPU {anchor_cpu * 1000:.1f})"
    )
    for name, (best, median, cpu) in timings.items():
        print(
            f"  {name:<38}  {best * 1000:7.1f} ms (median {median * 1000:.1f}, CPU"
            f" {cpu * 1000:.1f})   {best / anchor:5.2f}× the anchor (CPU {cpu / anchor_cpu:.2f}×)"
        )
    print(f"  load average {load}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--runs", type=int, default=9, help="timed repetitions (best and median shown)"
    )
    parser.add_argument(
        "--seeds", type=int, default=10, help="seeds per red-team figure (0: timing only)"
    )
    parser.add_argument("--bench-version", default=CURRENT_VERSION, help="version to measure")
    parser.add_argument("--seed", type=int, default=123456789, help="seed of the timed dataset")
    args = parser.parse_args()
    version = args.bench_version

    dataset = build_dataset(args.seed, version, run_size="full")
    transcript = T.build(dataset)
    _time_grading(dataset, transcript, args.runs)
    if args.seeds < 1:  # timing only
        return
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
