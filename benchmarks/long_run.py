"""Print what a ``long`` run costs beside a full run measured in the same process (issue 32):
generating the dataset, grading it, a whole run's engine (wall and peak RSS) against an instant
harness, and the run page of the finished run. Targets on this 2-core machine: generate a long
dataset in at most 5 s and at most 1.3x full's cost per pair; engine peak RSS at most 300 MiB;
the long run's page in at most 100 ms.

Generation and grading are timed in-process (best of ``--rounds``); each run is a real
``dittobench run`` subprocess (its peak RSS from ``os.wait4``) against
``benchmarks/sleepy_harness.py --delay-ms 0``; the pages are fetched from a real
``dittobench serve`` on the runs' store (the first fetch rebuilds the dataset; the median of the
next ``--rounds`` is the figure), which then drives a long run of the next seed against the same
harness: its wall time and the service's peak RSS. Figures only, never assertions. Run from the
repository root:
    python benchmarks/long_run.py [--seed N] [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers.service_process import ADMIN, start_service

from dittobench.core.hashing import canonical_sha256
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.spec.dataset import Dataset
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.study.strategies import STRATEGIES

HERE = Path(__file__).resolve().parent
SIZES = ("full", "long")


@dataclass(frozen=True, slots=True)
class Engine:
    """One ``dittobench run``: its run id, wall seconds and peak RSS in MiB."""

    run_id: str
    wall_s: float
    peak_mib: float


def pairs(dataset: Dataset) -> int:
    return sum(len(wave.pairs) for wave in dataset.memory_waves)


def best(rounds: int, work: object) -> float:
    """The fastest of ``rounds`` calls of ``work``, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        work()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def generation(seed: int, rounds: int) -> dict[str, tuple[float, int]]:
    """Per size: the best build time in seconds and the dataset's pairs."""
    out = {}
    for size in SIZES:
        build_dataset(seed, CURRENT_VERSION, size)  # warm: the pack is read once
        seconds = best(rounds, lambda size=size: build_dataset(seed, CURRENT_VERSION, size))
        out[size] = (seconds, pairs(build_dataset(seed, CURRENT_VERSION, size)))
    return out


def grading(seed: int, rounds: int) -> dict[str, float]:
    """Per size: the best time to grade the oracle's transcript, the dataset's hash passed in.
    Each round grades a dataset object built anew, so what grading works out once per dataset
    (its history keys, wire ids, answer keys) is counted, as in a run graded once."""
    oracle = next(s for s in STRATEGIES if s.name == "oracle")
    out = {}
    for size in SIZES:
        times = []
        for _ in range(rounds):
            dataset = build_dataset(seed, CURRENT_VERSION, size)
            transcript = oracle.transcript(dataset)
            sha = canonical_sha256(dataset.to_json())
            start = time.perf_counter()
            grade_run(dataset, transcript, dataset_sha256=sha)
            times.append(time.perf_counter() - start)
        out[size] = min(times)
    return out


def instant_harness() -> tuple[subprocess.Popen[str], str]:
    harness = subprocess.Popen(
        [sys.executable, str(HERE / "sleepy_harness.py"), "--delay-ms", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert harness.stdout is not None
    port = harness.stdout.readline().split()[1]
    return harness, f"http://127.0.0.1:{port}"


def engine_run(folder: Path, url: str, size: str, seed: int) -> Engine:
    env = {**os.environ, "HOME": str(folder), "XDG_DATA_HOME": str(folder / "data")}
    command = [
        sys.executable, "-m", "dittobench", "run", "--harness", url, "--run-size", size,
        "--seed", str(seed), "--db", str(folder / "runs.db"), "--out-dir", str(folder / "out"),
    ]  # fmt: skip
    start = time.perf_counter()
    child = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=folder, env=env
    )
    assert child.stdout is not None
    said = child.stdout.read()
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"dittobench run --run-size {size} failed ({status}):\n{said}")
    run_id = next(line.split()[-1] for line in said.splitlines() if line.startswith("run id"))
    return Engine(run_id, wall, usage.ru_maxrss / 1024)


def page(http: httpx.Client, path: str, rounds: int) -> tuple[float, float]:
    """(first, median of the next ``rounds``) in ms."""
    times = []
    for _ in range(rounds + 1):
        start = time.perf_counter()
        reply = http.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert reply.status_code == 200, (path, reply.status_code)
    return times[0], statistics.median(times[1:])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} (2 cores); seed {args.seed}")
    made = generation(args.seed, args.rounds)
    (full_s, full_pairs), (long_s, long_pairs) = made["full"], made["long"]
    ratio = (long_s / long_pairs) / (full_s / full_pairs)
    print(f"generate  full {full_s:.2f} s ({full_pairs:,} pairs, both users) · long {long_s:.2f} s "
          f"({long_pairs:,} pairs) · per pair {ratio:.2f}x full")  # fmt: skip
    print("          targets: long <= 5 s, per pair <= 1.3x full")
    graded = grading(args.seed, args.rounds)
    per_pair = (graded["long"] / long_pairs) / (graded["full"] / full_pairs)
    print(f"grade     full {graded['full'] * 1000:.0f} ms · long {graded['long'] * 1000:.0f} ms · "
          f"per pair {per_pair:.2f}x full")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        harness, url = instant_harness()
        try:
            runs = {size: engine_run(folder, url, size, args.seed) for size in SIZES}
            report(runs)
            served(folder, runs, url, args)
        finally:
            harness.terminate()
            harness.wait()


def report(runs: dict[str, Engine]) -> None:
    """The engine's figures, long beside full."""
    for size, run in runs.items():
        print(f"engine    {size:<4} wall {run.wall_s:.1f} s · peak RSS {run.peak_mib:.0f} MiB "
                  f"(target <= 300 MiB)")  # fmt: skip
    print(f"engine    long / full: wall {runs['long'].wall_s / runs['full'].wall_s:.2f}x, "
          f"RSS {runs['long'].peak_mib / runs['full'].peak_mib:.2f}x")  # fmt: skip


def served(folder: Path, runs: dict[str, Engine], url: str, args: argparse.Namespace) -> None:
    """The run pages of both runs, then a long run submitted to the same service: its wall time
    and the service process's peak RSS (``VmHWM``) once it is done."""
    service = start_service(folder, "--allow-private-harness")
    try:
        headers = {"Authorization": f"Bearer {ADMIN}"}
        with httpx.Client(base_url=service.url, headers=headers, timeout=120) as http:
            for size, run in runs.items():
                first, median = page(http, f"/runs/{run.run_id}", args.rounds * 5)
                print(f"run page  {size:<4} first {first:.0f} ms · median {median:.1f} ms "
                      "(target <= 100 ms)")  # fmt: skip
            start = time.perf_counter()
            body = {"harness_url": url, "seed": args.seed + 1, "run_size": "long"}
            run_id = http.post("/v1/submit", json=body).json()["run_id"]
            while http.get(f"/v1/runs/{run_id}").json()["status"] not in ("done", "failed"):
                time.sleep(0.5)
            wall = time.perf_counter() - start
            status = http.get(f"/v1/runs/{run_id}").json()["status"]
        peak = _peak_mib(service.process.pid)
        print(f"service   long run {status} in {wall:.1f} s · service peak RSS {peak:.0f} MiB "
              "(target <= 300 MiB)")  # fmt: skip
    finally:
        service.stop()


def _peak_mib(pid: int) -> float:
    """A live process's peak resident set (``VmHWM``), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


if __name__ == "__main__":
    main()
