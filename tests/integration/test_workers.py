"""Runs on Celery workers for real: two ``dittobench worker`` processes on loopback, a real Redis
broker and a real PostgreSQL store, harness processes of the test's own (the oracle harness,
each case held 120 ms so a run can be caught midway).

A suite of four runs is spread over both workers; one worker is SIGKILLed mid-run, the other
resumes its run from the store, which ends with the per-case scores of an undisturbed
``dittobench run`` of that seed, and no case reaches the harness twice but the one in flight
when the worker died; a worker stopped with SIGTERM mid-run leaves its run to another, which
resumes it. A task delivered three times (one through ``serve --queue celery``, two
sent again by hand) drives its run once: the others find it held or over. ``run --seeds 3
--queue celery`` is a suite on the workers whose receipt binds theirs. Skipped only where Redis
or PostgreSQL cannot be reached or started. A run a worker drives is cancelled through the
service; a queued run whose task the broker lost is handed to the workers again.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dittobench.drive.clock import new_run_id, now
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.store.jobs import TERMINAL, JobRow, ServiceStore
from dittobench.workers.broker import Broker
from tests.helpers import redis_service
from tests.helpers.cli import dittobench
from tests.helpers.harness_process import HarnessProcess, start_harness
from tests.helpers.harness_process import harness as harness_running
from tests.helpers.service_process import ADMIN, start_service
from tests.helpers.worker_process import WorkerProcess, start_worker
from tests.integration.test_suites import check_suite_output

PAUSE_MS = "120"


@pytest.fixture
def broker_url(broker_db: int) -> str:
    return redis_service.broker_url(broker_db)


def oracle(tmp: Path, seed: int) -> tuple[HarnessProcess, Path]:
    """An oracle harness for ``seed``'s small dataset, recording every request it gets."""
    answers, record = tmp / f"dataset-{seed}.json", tmp / f"requests-{seed}.jsonl"
    made = dittobench("generate", "--seed", str(seed), "--run-size", "small", "--out", str(answers))
    assert made.returncode == 0, made.stderr
    args = ("--answers", str(answers), "--pause-ms", PAUSE_MS, "--record", str(record))
    return start_harness("oracle", *args), record


def runs_per_case(record: Path) -> Counter[str]:
    """How many ``/run`` requests the harness got for each (wire) case id."""
    counts: Counter[str] = Counter()
    for line in record.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        # A body cut short (its worker killed while sending it) was never a question: the
        # harness refused it as not JSON, and the record keeps it as text.
        if entry["path"] == "/run" and isinstance(entry["body"], dict):
            counts[entry["body"]["case_id"]] += 1
    return counts


def queue_run(
    store: ServiceStore, broker: Broker | None, harness_url: str, seed: int, stamp: str = ""
) -> str:
    """Make a queued job and hand it to the broker (not with ``broker`` None: a lost task)."""
    run_id, stamp = new_run_id(), stamp or now()
    job = JobRow(
        run_id, 0, "test", "submit", harness_url, seed, "small", CURRENT_VERSION, "", "queued",
        "", False, "", "", stamp, stamp, "",
    )  # fmt: skip
    store.create_job(job, one_per_submitter=False)
    if broker is not None:
        broker.send(run_id)
    return run_id


def wait_until(check: Any, timeout: float, what: str) -> Any:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def status_of(store: ServiceStore, run_id: str) -> str:
    """The status of a queued run's job."""
    job = store.get_job(run_id)
    assert job is not None, run_id
    return job.status


def scores(report: dict[str, Any]) -> dict[str, float]:
    return {case["case_id"]: case["score"] for case in report["per_case"]}


def undisturbed(tmp: Path, url: str, seed: int) -> dict[str, Any]:
    out = tmp / f"undisturbed-{seed}.json"
    result = dittobench(
        "run", "--harness", url, "--seed", str(seed), "--db", str(tmp / "local.db"),
        "--out-dir", str(tmp / "local-out"), "--json", str(out), cwd=tmp,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def victim_of(store: ServiceStore, run_ids: list[str], worker: str) -> str:
    """A run ``worker`` is driving that has recorded at least 4 of its cases, or ""."""
    for run_id in run_ids:
        job = store.get_job(run_id)
        if job is None or job.worker != worker or job.status in TERMINAL:
            continue
        try:
            if store.get_run(run_id).cases_done >= 4:
                return run_id
        except Exception:  # not made yet
            continue
    return ""


def test_a_suite_spreads_over_two_workers_and_survives_a_sigkill(
    tmp_path: Path, broker_url: str, postgres_database: str, key: Path
) -> None:
    seeds = [101, 102, 103, 104]
    harnesses = {seed: oracle(tmp_path, seed) for seed in seeds}
    workers: dict[str, WorkerProcess] = {}
    store = ServiceStore(postgres_database)
    broker = Broker(broker_url)
    try:
        for name in ("worker-a", "worker-b"):
            workers[name] = start_worker(
                tmp_path / name, broker_url, postgres_database, key, name,
                "--run-concurrency", "1", "--sweep-every", "1",
            )  # fmt: skip
        by_run = {queue_run(store, broker, harnesses[s][0].url, s): s for s in seeds}
        run_ids = list(by_run)
        victim = wait_until(lambda: victim_of(store, run_ids, "worker-a"), 60, "a run on a")
        workers["worker-a"].kill()
        jobs = wait_until(
            lambda: (
                all(j is not None and j.status in TERMINAL for j in js) and js
                if (js := [store.get_job(r) for r in run_ids])
                else None
            ),
            90,
            "every run to end",
        )
        assert [j.status for j in jobs] == ["done"] * 4, [
            (j.status, j.failure_message) for j in jobs
        ]
        survivor = workers["worker-b"]
        assert survivor.events("run_resumed", victim), survivor.lines[-20:]
        assert survivor.events("run_requeued", victim)  # its sweep found the run abandoned
        started_by = {
            name: {e["run_id"] for e in w.events("run_started")} for name, w in workers.items()
        }
        assert started_by["worker-a"] and started_by["worker-b"]  # spread over both
        assert started_by["worker-a"] | started_by["worker-b"] == set(run_ids)
        # The victim's run: the same per-case scores as an undisturbed run of its seed, and no
        # case asked twice but the one in flight when its worker died.
        seed = by_run[victim]
        report = store.report(victim)
        assert report is not None and len(report["per_case"]) == 12
        counts = runs_per_case(harnesses[seed][1])
        assert len(counts) == 14 and sum(counts.values()) <= 15, counts  # 2 open questions
        assert scores(report) == scores(undisturbed(tmp_path, harnesses[seed][0].url, seed))
        for run_id, other in by_run.items():
            if run_id != victim:
                assert set(runs_per_case(harnesses[other][1]).values()) == {1}
        # A warm stop (SIGTERM) mid-run: the run stops at its next report and another worker
        # resumes it. The harness is slow enough (12 cases, 7 s) that the run is still going
        # when the next worker has started, which takes seconds on a busy machine.
        with harness_running("slow", "--delay-ms", "600") as slow_url:
            stopped = queue_run(store, broker, slow_url, 9)
            wait_until(lambda: victim_of(store, [stopped], "worker-b"), 30, "the run on b")
            workers["worker-e"] = start_worker(
                tmp_path / "worker-e", broker_url, postgres_database, key, "worker-e",
                "--run-concurrency", "1", "--sweep-every", "1",
            )  # fmt: skip
            assert workers["worker-b"].stop() == 0
            wait_until(lambda: status_of(store, stopped) in TERMINAL, 30, "the stopped run")
        assert status_of(store, stopped) == "done"
        assert workers["worker-b"].events("run_stopped", stopped)
        assert workers["worker-e"].events("run_resumed", stopped)
    finally:
        for handle in workers.values():
            handle.stop()
        for harness, _ in harnesses.values():
            harness.stop()
        broker.close()
        store.close()


def test_a_task_delivered_three_times_runs_once(
    tmp_path: Path, broker_url: str, postgres_database: str, key: Path
) -> None:
    harness, record = oracle(tmp_path, 105)
    workers = [
        start_worker(tmp_path / n, broker_url, postgres_database, key, n, "--run-concurrency", "1")
        for n in ("worker-c", "worker-d")
    ]
    service = start_service(
        tmp_path / "svc", "--allow-private-harness", "--queue", "celery", "--broker", broker_url,
        "--db", postgres_database,
        env={"DITTOBENCH_DATA_DIR": str(tmp_path / "svc-data"), "DITTOBENCH_SIGNING_KEY": str(key)},
    )  # fmt: skip
    broker = Broker(broker_url)
    try:
        status, accepted = service.json(
            "POST", "/v1/submit", ADMIN, {"harness_url": harness.url, "seed": 105}
        )
        assert status == 202, accepted
        run_id = accepted["run_id"]
        broker.send(run_id)  # delivered again while it is queued or being driven
        job = service.wait_for(run_id, lambda j: j["status"] in TERMINAL, timeout=60)
        broker.send(run_id)  # and once it is over
        wait_until(
            lambda: (
                sum(len(w.events(n, run_id)) for w in workers for n in ("run_over", "run_held"))
                >= 2
            ),
            20,
            "both duplicates to be turned away",
        )
        assert job["status"] == "done", job
        assert job["receipt"] is not None
        drives = [
            e for w in workers for e in w.events(run_id=run_id) if e["event"].startswith("run_")
        ]
        assert [e["event"] for e in drives].count("run_started") == 1, drives
        assert not [e for e in drives if e["event"] == "run_resumed"], drives
        assert set(runs_per_case(record).values()) == {1}  # no case asked twice
        assert len(runs_per_case(record)) == 14  # 12 graded cases and 2 open questions
        # A suite from the command line, spread over the same workers.
        suite = dittobench(
            "run", "--seeds", "3", "--queue", "celery", "--broker", broker_url,
            "--db", postgres_database, "--key", str(key), "--out-dir", str(tmp_path / "out"),
            cwd=tmp_path, timeout=120,
        )  # fmt: skip
        assert suite.returncode == 0, suite.stderr
        check_suite_output(suite.stdout, tmp_path / "out", key, 3)
        # The service sees the workers: alive, the queue empty, the runs each has finished.
        fleet = service.json("GET", "/v1/capabilities", None)[1]["fleet"]
        assert fleet["queue"] == "celery" and fleet["queue_depth"] == 0, fleet
        assert fleet["workers_alive"] == 2
        assert {w["name"] for w in fleet["workers"]} == {"worker-c", "worker-d"}
        assert sum(fleet["runs_per_worker"].values()) == 4, fleet
        # Cancelling a run a worker drives: the worker sees it in the store and stops.
        with harness_running("slow", "--delay-ms", "300") as slow_url:
            body = {"harness_url": slow_url, "seed": 7}
            status, accepted = service.json("POST", "/v1/submit", ADMIN, body)
            assert status == 202, accepted
            slow_id = accepted["run_id"]
            service.wait_for(slow_id, lambda j: j["progress"]["done"] >= 2, timeout=30)
            assert service.json("DELETE", f"/v1/runs/{slow_id}", ADMIN)[0] == 202
            ended = service.wait_for(slow_id, lambda j: j["status"] in TERMINAL, timeout=30)
        assert ended["status"] == "cancelled", ended
        assert any(w.events("run_cancelled", slow_id) for w in workers)
    finally:
        service.stop()
        for handle in workers:
            handle.stop()
        harness.stop()
        broker.close()


def test_a_queued_run_whose_task_the_broker_lost_is_handed_over_again(
    tmp_path: Path, broker_url: str, postgres_database: str, key: Path
) -> None:
    store = ServiceStore(postgres_database)
    try:
        with harness_running("slow", "--delay-ms", "10") as url:
            # Queued a while ago, its task gone with a restarted Redis (never sent here).
            lost = queue_run(store, None, url, 11, stamp="2026-01-01T00:00:00Z")
            worker = start_worker(
                tmp_path / "w", broker_url, postgres_database, key, "worker-f",
                "--sweep-every", "1",
            )  # fmt: skip
            try:
                wait_until(lambda: status_of(store, lost) in TERMINAL, 30, "the lost run")
            finally:
                worker.stop()
        assert status_of(store, lost) == "done"
        (requeued,) = worker.events("run_requeued", lost)
        assert requeued["reason"] == "queued, but the broker holds no task for it"
    finally:
        store.close()
