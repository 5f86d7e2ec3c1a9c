"""Print the offline baseline harness's figures: its score (mean ± SE over seeds at full size),
the time to seed 10,000 pairs, and /run latency over HTTP (p50, p95).

Figures only, never assertions. Run from the repository root:
    python benchmarks/baseline_speed.py [--seeds N]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from dittobench.catalog import CATALOG
from dittobench.engine.client import ClientLimits
from dittobench.engine.launcher import builtin_harness
from dittobench.engine.runner import RunOptions, start_run
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.wire import Pair, RunRequest, SeedRequest, to_wire
from dittobench.store import RunStore
from dittobench_baseline.store import MemoryStore


def scores(seeds: int, version: str) -> None:
    composites, tools, memories = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        store = RunStore(RunStore.sqlite_url(root / "runs.db"))
        for seed in range(1, seeds + 1):
            with builtin_harness(root / f"baseline-{seed}.db") as url:
                options = RunOptions(url, seed, "full", version, 8, root, ClientLimits())
                report = start_run(
                    store, f"r-{seed}", options, lambda: "2026-11-30T00:00:00Z", lambda p: None
                ).report
            composites.append(report.composite)
            tools.append(report.tool_mean)
            memories.append(report.memory_mean)
        store.close()

    def show(name: str, values: list[float]) -> str:
        se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
        return f"{name} {statistics.mean(values):.3f} ± {se:.3f}"

    print(
        f"offline baseline, bench {version}, full size, seeds 1..{seeds}: "
        f"{show('composite', composites)}, {show('tool mean', tools)}, "
        f"{show('memory mean', memories)}"
    )


def seeding(pairs: int) -> None:
    rows = tuple(
        Pair(
            f"p-{i:06d}",
            f"s-{i // 12:05d}",
            f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T10:00:00Z",
            f"Note {i}: I moved the blue bookcase to room {i % 97} and booked the {i % 31} train.",
            "Got it, thanks for telling me.",
        )
        for i in range(pairs)
    )
    with tempfile.TemporaryDirectory() as folder:
        store = MemoryStore(Path(folder) / "memory.db")
        start = time.perf_counter()
        store.upsert(SeedRequest("miner", 0, rows))
        elapsed = time.perf_counter() - start
        store.close()
    print(f"seeding {pairs:,} pairs into the baseline store: {elapsed:.2f} s")


def latency(requests: int) -> None:
    with tempfile.TemporaryDirectory() as folder, builtin_harness(Path(folder) / "m.db") as url:
        seed = SeedRequest(
            "miner",
            0,
            tuple(
                Pair(
                    f"p-{i}",
                    "s-1",
                    "2026-10-01T10:00:00Z",
                    f"My sister's name is Clara {i}.",
                    "Noted.",
                )
                for i in range(500)
            ),
        )
        with httpx.Client(timeout=30) as http:
            http.post(f"{url}/seed", json=to_wire(seed))
            samples = []
            for i in range(requests):
                body = RunRequest(
                    f"c{i:016x}",
                    "You are a memory assistant.",
                    "What is my sister's name?",
                    CATALOG,
                    "",
                    "miner",
                )
                start = time.perf_counter()
                http.post(f"{url}/run", json=to_wire(body))
                samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    p50 = samples[len(samples) // 2]
    p95 = samples[int(len(samples) * 0.95) - 1]
    print(
        f"/run latency offline over HTTP ({requests} requests, 500 stored pairs): "
        f"p50 {p50:.1f} ms, p95 {p95:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5, help="full runs for the score figure")
    parser.add_argument("--bench-version", default=CURRENT_VERSION, help="version to score")
    parser.add_argument("--scores-only", action="store_true", help="skip the speed figures")
    args = parser.parse_args()
    if not args.scores_only:
        seeding(10_000)
        latency(200)
    scores(args.seeds, args.bench_version)


if __name__ == "__main__":
    main()
