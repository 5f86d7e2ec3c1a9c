"""How workers take the runs of a suite: a worker says when it can take one, and two workers
share a suite, one run at a time each, never one worker holding runs it cannot start yet.

Real ``dittobench worker`` processes on the machine's Redis (skipped, saying why, where Redis
cannot be reached or started) and one SQLite store, a harness that holds every case 100 ms.
Properties, never timings: ``benchmarks/suite_throughput.py`` measures the speed.
"""

from __future__ import annotations

import time
from pathlib import Path

import redis

from dittobench.drive.clock import new_run_id, now
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.store.jobs import TERMINAL, JobRow, ServiceStore
from dittobench.workers.broker import QUEUE, Broker
from tests.helpers import redis_service
from tests.helpers.harness_process import harness
from tests.helpers.worker_process import WorkerProcess, start_worker

UNACKED = "unacked"
"""The hash where kombu's Redis transport keeps the tasks delivered to a worker and not yet
acknowledged (acknowledged late: when the run is over)."""


def queue_suite(store: ServiceStore, harness_url: str, seeds: list[int]) -> list[str]:
    """Queued jobs of one suite (not yet handed to the broker); their run ids."""
    run_ids: list[str] = []
    stamp = now()
    for seed in seeds:
        run_id = new_run_id()
        while run_id in run_ids:
            run_id = new_run_id()
        run_ids.append(run_id)
        job = JobRow(
            run_id, 0, "test", "submit", harness_url, seed, "small", CURRENT_VERSION, "",
            "queued", "", False, "", "", stamp, stamp, "",
        )  # fmt: skip
        store.create_job(job, one_per_submitter=False)
    return run_ids


def names(worker: WorkerProcess) -> list[str]:
    return [e["event"] for e in worker.events()]


def test_a_worker_says_when_its_consumer_listens(tmp_path: Path, broker_db: int, key: Path) -> None:
    """``worker_started`` comes before Celery's own start-up; ``worker_ready`` only once a task
    sent reaches the worker, and it then takes a job sent after it."""
    broker_url = redis_service.broker_url(broker_db)
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    store, broker = ServiceStore(db), Broker(broker_url)
    worker = start_worker(tmp_path / "w", broker_url, db, key, "w", "--run-concurrency", "1")
    try:
        ready = worker.wait_for("worker_ready")
        assert names(worker).index("worker_started") < names(worker).index("worker_ready")
        assert float(ready["seconds"]) > 0
        with harness("slow", "--delay-ms", "10") as url:
            [run_id] = queue_suite(store, url, [5])
            broker.send(run_id)
            worker.wait_for("run_done", timeout=60)
        job = store.get_job(run_id)
        assert job is not None and (job.status, job.worker) == ("done", "w")
    finally:
        worker.stop()
        broker.close()
        store.close()


def test_two_workers_share_a_suite_one_run_at_a_time_each(
    tmp_path: Path, broker_db: int, key: Path
) -> None:
    """Each worker (one run at a time) holds at most the one run it drives: the rest of the
    suite waits in the queue for whichever worker is free first, so neither worker can sit on
    runs the other could start (Celery's default prefetch would reserve four at once). Every run
    is driven once, by one worker, and both workers drive runs."""
    broker_url = redis_service.broker_url(broker_db)
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    store, broker = ServiceStore(db), Broker(broker_url)
    client = redis.Redis.from_url(broker_url)
    workers: list[WorkerProcess] = []
    try:
        for name in ("a", "b"):
            workers.append(
                start_worker(tmp_path / name, broker_url, db, key, name, "--run-concurrency", "1")
            )
        for worker in workers:
            worker.wait_for("worker_ready")
        with harness("slow", "--delay-ms", "100") as url:
            run_ids = queue_suite(store, url, [11, 12, 13, 14, 15, 16])
            for run_id in run_ids:
                broker.send(run_id)
            held: list[int] = []
            give_up = time.monotonic() + 180
            while time.monotonic() < give_up:
                held.append(int(client.hlen(UNACKED)))
                jobs = [store.get_job(run_id) for run_id in run_ids]
                if all(job is not None and job.status in TERMINAL for job in jobs):
                    break
                time.sleep(0.02)
        assert max(held) == 2, held  # one run each, both busy at some point; never a third
        assert [job.status if job else "" for job in jobs] == ["done"] * len(run_ids)
        started = {w.name: [e["run_id"] for e in w.events("run_started")] for w in workers}
        assert started["a"] and started["b"], started
        assert sorted(started["a"] + started["b"]) == sorted(run_ids)  # each run once
        assert {job.worker for job in jobs if job} == {"a", "b"}
        assert int(client.llen(QUEUE)) == 0
    finally:
        for worker in workers:
            worker.stop()
        client.close()
        broker.close()
        store.close()
