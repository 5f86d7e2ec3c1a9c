"""Print how the scoring service (`dittobench serve`) answers while it drives a run: the latency
of 200 concurrent status polls (``GET /v1/runs/{id}``, provisional per-case scores included)
during a run, p50 and p99, and the time from ``POST /v1/submit`` to the first case recorded.

A real service process on a loopback port drives the built-in baseline harness (a full run,
one case in flight so the run lasts while it is polled). Figures only, never assertions. Run from
the repository root:
    python benchmarks/service_polls.py [--rounds N] [--polls N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers.service_process import ADMIN, start_service

from dittobench.engine.launcher import builtin_harness

AUTH = {"Authorization": f"Bearer {ADMIN}"}
OVER = ("done", "failed", "cancelled")


def first_case_latency(url: str, harness_url: str, seed: int) -> tuple[str, float]:
    """Submit a run and time it until the job shows its first recorded case."""
    with httpx.Client(base_url=url, headers=AUTH, timeout=30) as http:
        start = time.perf_counter()
        run_id = http.post(
            "/v1/submit", json={"harness_url": harness_url, "seed": seed, "run_size": "full"}
        ).json()["run_id"]
        while http.get(f"/v1/runs/{run_id}").json()["progress"]["done"] < 1:
            time.sleep(0.002)
        return run_id, time.perf_counter() - start


async def poll_round(url: str, path: str, polls: int) -> list[float]:
    """``polls`` status reads at once; each one's latency in ms."""
    limits = httpx.Limits(max_connections=polls)
    async with httpx.AsyncClient(base_url=url, headers=AUTH, timeout=60, limits=limits) as http:

        async def one() -> float:
            start = time.perf_counter()
            answer = await http.get(path)
            answer.raise_for_status()
            return (time.perf_counter() - start) * 1000

        return list(await asyncio.gather(*(one() for _ in range(polls))))


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of concurrent polls")
    parser.add_argument("--polls", type=int, default=200, help="concurrent polls per round")
    args = parser.parse_args()
    env = {"DITTOBENCH_RUN_CONCURRENCY": "1"}
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        service = start_service(root / "svc", "--allow-private-harness", env=env)
        try:
            with builtin_harness(root / "harness.db") as harness_url:
                latencies = []
                for seed in (1, 2, 3):
                    run_id, took = first_case_latency(service.url, harness_url, seed)
                    latencies.append(took)
                    full: list[float] = []
                    bare: list[float] = []
                    for _ in range(args.rounds):
                        path = f"/v1/runs/{run_id}"
                        full += asyncio.run(poll_round(service.url, path, args.polls))
                        bare += asyncio.run(
                            poll_round(service.url, path + "?partial=false", args.polls)
                        )
                    with httpx.Client(base_url=service.url, headers=AUTH) as http:
                        state = http.get(f"/v1/runs/{run_id}").json()
                        http.delete(f"/v1/runs/{run_id}")
                        while http.get(f"/v1/runs/{run_id}").json()["status"] not in OVER:
                            time.sleep(0.05)
                    print(
                        f"run {seed}: {args.rounds} x {args.polls} concurrent polls while "
                        f"{state['status']} ({state['progress']['done']}/"
                        f"{state['progress']['total']} cases): with partial scores p50 "
                        f"{percentile(full, 0.5):.0f} ms, p99 {percentile(full, 0.99):.0f} ms; "
                        f"partial=false p50 {percentile(bare, 0.5):.0f} ms, p99 "
                        f"{percentile(bare, 0.99):.0f} ms"
                    )
                print(
                    "submit to first recorded case (full, built-in harness): median "
                    f"{statistics.median(latencies) * 1000:.0f} ms "
                    f"(runs: {', '.join(f'{t * 1000:.0f}' for t in latencies)} ms)"
                )
        finally:
            service.stop()
    load = os.getloadavg()[0]
    print(f"load average at the end: {load:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
