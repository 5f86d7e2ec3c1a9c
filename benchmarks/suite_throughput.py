"""Print a suite's throughput on 1, 2 and 4 Celery workers: the wall time from handing a suite of
runs to the broker to the last run done, against a harness that answers every case after 100 ms
(benchmarks/sleepy_harness.py), and the ratio to the one-worker time.

Real processes: `dittobench worker` processes (one run at a time each, one case in flight per
run, so a run is mostly waiting on the harness, like a run against a real model), the machine's
Redis as the broker and its PostgreSQL as the shared store (a fresh database each time). Figures
only, never assertions. Run from the repository root:
    python benchmarks/suite_throughput.py [--runs 8] [--size small] [--repeat 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from engine_speed import sleepy
from tests.helpers import redis_service
from tests.helpers.postgres import MACHINE_SERVICE, fresh_database, machine_service_reachable
from tests.helpers.worker_process import WorkerProcess, start_worker

from dittobench.drive.clock import new_run_id, now
from dittobench.receipts.keys import generate_private_key, save_keypair
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.vocab import RUN_SIZES, RunSizeName, member
from dittobench.store.jobs import TERMINAL, JobRow, ServiceStore
from dittobench.workers.broker import Broker

WORKERS = (1, 2, 4)


def suite_seconds(
    workers: int, runs: int, size: RunSizeName, harness: str, folder: Path, broker_url: str
) -> float:
    """One suite of ``runs`` runs on ``workers`` fresh workers: seconds to the last run done."""
    db = fresh_database(MACHINE_SERVICE)
    key = save_keypair(generate_private_key(), folder / f"keys-{workers}-{time.monotonic_ns()}")[0]
    started: list[WorkerProcess] = []
    store, broker = ServiceStore(db), Broker(broker_url)
    try:
        args = ("--run-concurrency", "1", "--sweep-every", "30")
        for index in range(workers):
            name = f"bench-{index}"
            started.append(start_worker(folder / name, broker_url, db, key, name, *args))
        run_ids, stamp = [], now()
        for seed in range(runs):
            run_id = new_run_id()
            while run_id in run_ids:
                run_id = new_run_id()
            run_ids.append(run_id)
            store.create_job(
                JobRow(
                    run_id, 0, "bench", "submit", harness, 1000 + seed, size, CURRENT_VERSION, "",
                    "queued", "", False, "", "", stamp, stamp, "",
                ),
                one_per_submitter=False,
            )  # fmt: skip
        began = time.perf_counter()
        for run_id in run_ids:
            broker.send(run_id)
        while True:
            jobs = [store.get_job(run_id) for run_id in run_ids]
            if all(job is not None and job.status in TERMINAL for job in jobs):
                break
            time.sleep(0.02)
        took = time.perf_counter() - began
        failed = [job.run_id for job in jobs if job is not None and job.status != "done"]
        if failed:
            raise SystemExit(f"runs did not finish: {failed}")
        return took
    finally:
        for worker in started:
            worker.stop()
        broker.close()
        store.close()
        _drop(db)


def _drop(db: str) -> None:
    import psycopg

    server, name = db.removeprefix("postgresql+psycopg://").rsplit("/", 1)
    with psycopg.connect(f"postgresql://{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=8, help="runs in the suite")
    parser.add_argument("--size", default="small", help="run size of each run")
    parser.add_argument("--repeat", type=int, default=2, help="suites per worker count")
    args = parser.parse_args()
    size = member(RUN_SIZES, args.size, "--size")
    reason = redis_service.why_no_redis()
    if reason is not None or not machine_service_reachable():
        raise SystemExit(reason or f"no PostgreSQL at {MACHINE_SERVICE}")
    db_index = 15
    broker_url = redis_service.broker_url(db_index)
    print(f"{os.cpu_count()} cores; suite of {args.runs} {args.size} runs, 100 ms per case,")
    print("one case in flight per run, one run per worker; median of", args.repeat, "suites")
    print(f"{'workers':>8} {'seconds':>9} {'runs/min':>9} {'vs 1':>6}")
    with sleepy(100) as harness, tempfile.TemporaryDirectory() as tmp:
        base = 0.0
        for workers in WORKERS:
            times = []
            for _ in range(args.repeat):
                redis_service.flush(db_index)
                times.append(
                    suite_seconds(workers, args.runs, size, harness, Path(tmp), broker_url)
                )
            took = statistics.median(times)
            base = base or took
            print(f"{workers:>8} {took:>9.2f} {60 * args.runs / took:>9.1f} {base / took:>5.2f}x")
        redis_service.flush(db_index)


if __name__ == "__main__":
    main()
