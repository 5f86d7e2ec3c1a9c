"""Print how fast ``dittobench serve`` serves its web pages: the run page of a full run (279
cases: summary, chart, the whole case table) and the leaderboard and runs list over 1,000 runs.
Targets (issue 17): under 200 ms each.

A real ``dittobench run --run-size full`` against the built-in harness fills a fresh store; 999
more finished runs (20 harnesses, small reports) are written straight into it; then a real
service process serves the pages on a loopback port and each is fetched with a bearer token,
sequentially: the first fetch (cold: the run's dataset is rebuilt for the case texts) and the
median and worst of the next ``--rounds``. Figures only, never assertions. Run from the
repository root:
    python benchmarks/web_pages.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers.service_process import ADMIN, start_service

from dittobench.core.prng import Stream
from dittobench.store import RunRow, RunStore

RUNS = 1_000
HARNESSES = 20


def full_run(folder: Path) -> str:
    made = subprocess.run(
        [sys.executable, "-m", "dittobench", "run", "--run-size", "full", "--seed", "7",
         "--db", str(folder / "runs.db"), "--out-dir", str(folder / "out")],
        capture_output=True, text=True, check=True, cwd=folder,
        env={"HOME": str(folder), "XDG_DATA_HOME": str(folder / "data"), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    return next(line.split()[-1] for line in made.stdout.splitlines() if line.startswith("run id"))


def more_runs(folder: Path, like: str, count: int) -> None:
    """``count`` finished runs with the full run's shape and a small report each; one in four
    on a seed the submitter chose (practice), the rest ranked."""
    store = RunStore(RunStore.sqlite_url(folder / "runs.db"))
    row = store.get_run(like)
    report = store.report(like) or {}
    small = {**report, "per_case": report["per_case"][:12], "per_category": []}
    draws = Stream(7, "bench", "web-pages")
    for n in range(count):
        composite = draws.below(1_000_000) / 1_000_000
        stamp = f"2026-11-{1 + n % 28:02d}T{n % 24:02d}:{n % 60:02d}:00Z"
        run_id = f"r-202611{1 + n % 28:02d}-{n % 24:02d}{n % 60:02d}00-{n:06x}"
        store.create_run(
            RunRow(run_id, n, row.bench_version, "full", row.dataset_sha256,
                   f"http://harness-{n % HARNESSES}.example", "running", "running", "", stamp,
                   stamp, 279, 279, None, None, "", 5,
                   seed_source="operator" if n % 4 else "submitter")
        )  # fmt: skip
        done = {**small, "composite": composite, "composite_stderr": 0.02,
                "transcript_sha256": "0" * 64}  # fmt: skip
        store.save_report(run_id, done, {"cases": []}, updated_at=stamp)
    store.close()


def timed(http: httpx.Client, path: str, rounds: int) -> tuple[float, float, float, int]:
    """(first, median, worst) in ms, and the page's size in bytes."""
    times = []
    size = 0
    for _ in range(rounds + 1):
        start = time.perf_counter()
        reply = http.get(path)
        times.append((time.perf_counter() - start) * 1000)
        assert reply.status_code == 200, (path, reply.status_code)
        size = len(reply.content)
    return times[0], statistics.median(times[1:]), max(times[1:]), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print("making a full run with the built-in harness ...", file=sys.stderr)
        run_id = full_run(folder)
        more_runs(folder, run_id, RUNS - 1)
        service = start_service(folder)
        try:
            headers = {"Authorization": f"Bearer {ADMIN}"}
            with httpx.Client(base_url=service.url, headers=headers, timeout=60) as http:
                rows = [
                    ("run page, full run (279 cases)", timed(http, f"/runs/{run_id}", args.rounds)),
                    (f"leaderboard, {RUNS:,} runs", timed(http, "/leaderboard", args.rounds)),
                    (f"runs list, {RUNS:,} runs (50 shown)", timed(http, "/", args.rounds)),
                    ("case page", timed(http, f"/runs/{run_id}/cases/" + _a_case(http, run_id),
                                        args.rounds)),
                ]  # fmt: skip
        finally:
            service.stop()
    print(f"{'page':<36} {'first ms':>9} {'median ms':>10} {'worst ms':>9} {'bytes':>9}")
    for name, (first, median, worst, size) in rows:
        print(f"{name:<36} {first:9.1f} {median:10.1f} {worst:9.1f} {size:9,}")
    print(json.dumps({name: round(figures[1], 1) for name, figures in rows}))


def _a_case(http: httpx.Client, run_id: str) -> str:
    page = http.get(f"/runs/{run_id}").text
    marker = f"/runs/{run_id}/cases/"
    start = page.index(marker) + len(marker)
    return page[start : page.index('"', start)]


if __name__ == "__main__":
    main()
