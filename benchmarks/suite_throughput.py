"""Print how much faster a suite finishes on 2 workers than on 1 (issue 33: at least 1.8x on this
2-core machine), with what it costs the machine, so a shortfall can be told from a busy machine.

A suite of ``--runs`` small runs against benchmarks/sleepy_harness.py (every case answered after
``--delay-ms``, 100: a run is mostly waiting, like a run against a real model, and the harness is
never the bottleneck), one case in flight per run, one run at a time per worker. Suites on 1 and
on 2 workers (or ``--workers 2 4``) take turns, in an order that alternates between rounds, so a
change in the machine's load falls on both; each round gives one ratio.

Shapes (``--shape``):
- ``celery`` (default): fresh ``dittobench worker`` processes over the machine's Redis and a fresh
  store (``--store postgres``, the default, a new database on the machine's PostgreSQL; or
  ``sqlite``, one file all workers share). Every worker has logged ``worker_ready`` (its consumer
  listens) before the suite is handed to the broker.
- ``local``: a fresh ``dittobench serve`` (SQLite) that drives runs in its own threads,
  ``DITTOBENCH_MAX_ACTIVE_RUNS`` = the worker count; the suite is ``POST /v1/submit {"seeds": N}``.

For each suite: the wall time from handing it over to its last run done, the runs each worker
drove, a run's mean seconds as its worker logged them (``run_done``), the ideal (the harness's
wait for the busiest worker's runs), the CPU seconds per run of the workers (or the service) and
of the harness, how busy the machine's cores were meanwhile (every process's, others' included),
and the 1-minute load average at its start. With ``celery`` the same seeds run at every worker
count, and the runs' reports are compared: the scores may not depend on who drove them. Figures
only, never assertions. Run from the repository root:
    python benchmarks/suite_throughput.py [--rounds 3] [--runs 8] [--workers 2] [--shape celery]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers import redis_service
from tests.helpers.postgres import MACHINE_SERVICE, fresh_database, machine_service_reachable
from tests.helpers.service_process import ADMIN, start_service
from tests.helpers.worker_process import WorkerProcess, start_worker

from dittobench.drive.clock import new_run_id, now
from dittobench.receipts.keys import generate_private_key, save_keypair
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.vocab import RUN_SIZES, RunSizeName, member
from dittobench.store.jobs import TERMINAL, JobRow, ServiceStore
from dittobench.workers.broker import Broker

HERE = Path(__file__).resolve().parent
REDIS_DB = 15
POLL_S = 0.025
SEED_BASE = 1000
TIMEOUT_S = 600.0
TIMED = frozenset({"transcript_sha256"})
"""Report fields that change with the harness's timing (beside every ``*_ms``): left out when the
reports of one seed are compared (the transcript records each case's latency)."""


@dataclass(frozen=True, slots=True)
class Harness:
    url: str
    pid: int


@dataclass
class Suite:
    """One suite's figures."""

    workers: int
    wall_s: float
    load: float
    busy: float
    """Share of the machine's core time spent busy (all processes) while the suite ran."""
    cpu_per_run: float
    harness_cpu_per_run: float
    db_cpu_per_run: float = math.nan
    """PostgreSQL's backends' CPU seconds per run (NaN for SQLite: inside the workers)."""
    boot_s: float = math.nan
    """The slowest worker's start-up: from ``worker_started`` to ``worker_ready``, which the
    suite's clock no longer includes."""
    split: tuple[int, ...] = ()
    run_s: float = math.nan
    ideal_s: float = math.nan
    scores: dict[int, str] = field(default_factory=dict)
    """Seed -> the run's report without its timings (``score_of``)."""


@dataclass(frozen=True, slots=True)
class Plan:
    runs: int
    size: RunSizeName
    delay_ms: int
    store: str
    shape: str


@contextlib.contextmanager
def sleepy(delay_ms: int) -> Iterator[Harness]:
    """benchmarks/sleepy_harness.py in a subprocess, healthy before it is yielded."""
    script = HERE / "sleepy_harness.py"
    command = [sys.executable, str(script), "--delay-ms", str(delay_ms)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    try:
        assert process.stdout is not None
        url = f"http://127.0.0.1:{process.stdout.readline().decode().split()[1]}"
        _healthy(url)
        yield Harness(url, process.pid)
    finally:
        process.terminate()
        process.wait(timeout=10)
        if process.stdout is not None:
            process.stdout.close()


def _healthy(url: str, timeout_s: float = 30.0) -> None:
    """Until the harness answers ``/health`` (its own start-up is not the suite's time)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    give_up = time.monotonic() + timeout_s
    while True:
        try:
            with opener.open(f"{url}/health", timeout=5) as reply:
                if reply.status == 200:
                    return
        except OSError:
            if time.monotonic() > give_up:
                raise
        time.sleep(0.05)


def cpu_s(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of every core since boot, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return sum(values) - idle, sum(values)


def wait_done(store: ServiceStore, runs: int) -> None:
    """Until ``runs`` jobs of the store are over; SystemExit when one did not end done."""
    give_up = time.monotonic() + TIMEOUT_S
    while time.monotonic() < give_up:
        over = store.jobs_in(TERMINAL)
        if len(over) >= runs:
            failed = [f"{job.run_id}: {job.status} {job.failure_message}" for job in over
                      if job.status != "done"]  # fmt: skip
            if failed:
                raise SystemExit(f"runs did not finish: {failed}")
            return
        time.sleep(POLL_S)
    raise SystemExit(f"the suite did not finish within {TIMEOUT_S:.0f} s")


def score_of(store: ServiceStore, run_id: str) -> str:
    """The run's report without its timings, as canonical text."""
    return json.dumps(_untimed(store.report(run_id) or {}), sort_keys=True)


def _untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in TIMED and k[-3:] != "_ms"}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def db_backends(db: str) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving ``db`` (its pid: seconds); {} for
    SQLite, which runs inside the processes measured already."""
    if not db.startswith("postgresql"):
        return {}
    import psycopg

    server, name = db.removeprefix("postgresql+psycopg://").rsplit("/", 1)
    query = "SELECT pid FROM pg_stat_activity WHERE datname = %s"
    with psycopg.connect(f"postgresql://{server}/postgres", autocommit=True) as conn:
        pids = [int(found[0]) for found in conn.execute(query, (name,)).fetchall()]
    seconds = {}
    for pid in pids:
        with contextlib.suppress(OSError):  # a backend that ended meanwhile
            seconds[pid] = cpu_s(pid)
    return seconds


def measured(
    workers: int, pids: list[int], harness: Harness, runs: int, work: Any, db: str = ""
) -> Suite:
    """Run ``work()`` (hand the suite over and wait for it) and measure it."""
    load = os.getloadavg()[0]
    db0 = db_backends(db)
    cpu0, harness0, ticks0 = sum(cpu_s(p) for p in pids), cpu_s(harness.pid), machine_ticks()
    began = time.perf_counter()
    work()
    wall = time.perf_counter() - began
    ticks1 = machine_ticks()
    busy = (ticks1[0] - ticks0[0]) / max(1, ticks1[1] - ticks0[1])
    cpu = (sum(cpu_s(p) for p in pids) - cpu0) / runs
    harness_cpu = (cpu_s(harness.pid) - harness0) / runs
    suite = Suite(workers, wall, load, busy, cpu, harness_cpu)
    if db.startswith("postgresql"):
        db1 = db_backends(db)
        suite.db_cpu_per_run = sum(s - db0.get(pid, 0.0) for pid, s in db1.items()) / runs
    return suite


def celery_suite(workers: int, plan: Plan, harness: Harness, folder: Path) -> Suite:
    """One suite on ``workers`` fresh Celery workers."""
    redis_service.flush(REDIS_DB)
    broker_url = redis_service.broker_url(REDIS_DB)
    stamp_ns = time.monotonic_ns()
    if plan.store == "postgres":
        db = fresh_database(MACHINE_SERVICE)
    else:
        db = f"sqlite:///{folder / f'runs-{workers}-{stamp_ns}.db'}"
    key = save_keypair(generate_private_key(), folder / f"keys-{workers}-{stamp_ns}")[0]
    started: list[WorkerProcess] = []
    store, broker = ServiceStore(db), Broker(broker_url)
    try:
        for index in range(workers):
            name = f"bench-{index}"
            args = ("--run-concurrency", "1", "--sweep-every", "30")
            started.append(start_worker(folder / name, broker_url, db, key, name, *args))
        boot = max(float(worker.wait_for("worker_ready")["seconds"]) for worker in started)
        run_ids = _queue_jobs(store, plan, harness.url)

        def work() -> None:
            for run_id in run_ids:
                broker.send(run_id)
            wait_done(store, plan.runs)

        pids = [worker.process.pid for worker in started]
        suite = measured(workers, pids, harness, plan.runs, work, db)
        suite.boot_s = boot
        _worker_figures(suite, started, plan.runs)
        cases = store.get_run(run_ids[0]).cases_total
        suite.ideal_s = math.ceil(plan.runs / workers) * cases * plan.delay_ms / 1000
        suite.scores = {SEED_BASE + i: score_of(store, r) for i, r in enumerate(run_ids)}
        return suite
    finally:
        for worker in started:
            worker.stop()
        broker.close()
        store.close()
        if plan.store == "postgres":
            _drop(db)


def _queue_jobs(store: ServiceStore, plan: Plan, harness: str) -> list[str]:
    """Queue the suite's jobs in the store (seeds ``SEED_BASE`` on); their run ids."""
    run_ids: list[str] = []
    stamp = now()
    for index in range(plan.runs):
        run_id = new_run_id()
        while run_id in run_ids:
            run_id = new_run_id()
        run_ids.append(run_id)
        store.create_job(
            JobRow(
                run_id, 0, "bench", "submit", harness, SEED_BASE + index, plan.size,
                CURRENT_VERSION, "", "queued", "", False, "", "", stamp, stamp, "",
            ),
            one_per_submitter=False,
        )  # fmt: skip
    return run_ids


def _worker_figures(suite: Suite, started: list[WorkerProcess], runs: int) -> None:
    """The split and a run's mean seconds, from the workers' ``run_done`` events (a worker logs
    one just after its job shows ``done``)."""
    give_up = time.monotonic() + 10
    done = [worker.events("run_done") for worker in started]
    while sum(len(events) for events in done) < runs and time.monotonic() < give_up:
        time.sleep(0.05)
        done = [worker.events("run_done") for worker in started]
    suite.split = tuple(len(events) for events in done)
    seconds = [float(event["seconds"]) for events in done for event in events]
    suite.run_s = statistics.mean(seconds) if seconds else math.nan


def local_suite(workers: int, plan: Plan, harness: Harness, folder: Path) -> Suite:
    """One suite on a fresh service driving ``workers`` runs at once in its own threads."""
    place = folder / f"service-{workers}-{time.monotonic_ns()}"
    env = {
        "DITTOBENCH_MAX_ACTIVE_RUNS": str(workers),
        "DITTOBENCH_RUN_CONCURRENCY": "1",
    }
    service = start_service(place, "--allow-private-harness", env=env)
    store = ServiceStore(f"sqlite:///{place / 'runs.db'}")
    try:
        body = {"harness_url": harness.url, "seeds": plan.runs, "run_size": plan.size}

        def work() -> None:
            status, reply = service.json("POST", "/v1/submit", ADMIN, body)
            if status != 202:
                raise SystemExit(f"submit refused: {status} {reply}")
            wait_done(store, plan.runs)

        suite = measured(workers, [service.process.pid], harness, plan.runs, work)
        run_id = store.jobs_in(TERMINAL)[0].run_id
        cases = store.get_run(run_id).cases_total
        suite.ideal_s = math.ceil(plan.runs / workers) * cases * plan.delay_ms / 1000
        return suite
    finally:
        store.close()
        service.stop()


def _drop(db: str) -> None:
    import psycopg

    server, name = db.removeprefix("postgresql+psycopg://").rsplit("/", 1)
    with psycopg.connect(f"postgresql://{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')


def row(round_no: int, suite: Suite) -> str:
    split = "+".join(str(n) for n in suite.split) or "-"
    run_s = "-" if math.isnan(suite.run_s) else f"{suite.run_s:.2f}"
    db_cpu = "-" if math.isnan(suite.db_cpu_per_run) else f"{suite.db_cpu_per_run:.3f}"
    boot = "-" if math.isnan(suite.boot_s) else f"{suite.boot_s:.2f}"
    return (
        f"{round_no:>5} {suite.workers:>7} {suite.wall_s:>7.2f} {suite.ideal_s:>6.2f} "
        f"{split:>9} {run_s:>6} {suite.cpu_per_run:>8.3f} {suite.harness_cpu_per_run:>8.3f} "
        f"{db_cpu:>9} {100 * suite.busy:>5.0f}% {suite.load:>5.2f} {boot:>6}"
    )


HEADER = (
    f"{'round':>5} {'workers':>7} {'wall s':>7} {'ideal':>6} {'split':>9} {'run s':>6} "
    f"{'cpu/run':>8} {'hcpu/run':>8} {'dbcpu/run':>9} {'busy':>6} {'load':>5} {'boot s':>6}"
)
LEGEND = (
    "wall s: handed over to last run done; ideal: the harness's wait for the busiest worker's "
    "runs; split: runs each worker drove; run s: a run's mean, as its worker logged it; "
    "cpu/run, hcpu/run, dbcpu/run: CPU seconds per run of the workers (or the service), the "
    "harness, PostgreSQL's backends; busy: the machine's cores busy meanwhile (every process); "
    "load: 1-minute load average at the start; boot s: the slowest worker's start-up, "
    "worker_started to worker_ready (the clock starts after it)"
)


def summary(suites: list[list[Suite]], counts: list[int]) -> None:
    """Per worker count: the median wall and the rounds' ratios to one worker."""
    print()
    for count in counts:
        walls = [s.wall_s for r in suites for s in r if s.workers == count]
        line = f"{count} worker(s): median {statistics.median(walls):.2f} s"
        if count != 1:
            ratios = [_ratio(r, count) for r in suites]
            shown = " ".join(f"{x:.2f}" for x in ratios)
            line += f"; vs 1 per round {shown}: median {statistics.median(ratios):.2f}x"
        print(line)
    loads = [s.load for r in suites for s in r]
    print(f"load average (1 min) at the suites' starts: {min(loads):.2f} to {max(loads):.2f}; "
          f"now {' '.join(f'{x:.2f}' for x in os.getloadavg())}")  # fmt: skip
    scores = [s.scores for r in suites for s in r if s.scores]
    if scores:
        same = all(other == scores[0] for other in scores)
        print(f"reports of each seed identical at every worker count: {'yes' if same else 'NO'}")


def _ratio(round_suites: list[Suite], count: int) -> float:
    one = next(s.wall_s for s in round_suites if s.workers == 1)
    return one / next(s.wall_s for s in round_suites if s.workers == count)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=8, help="runs in the suite")
    parser.add_argument("--size", default="small", help="run size of each run")
    parser.add_argument("--rounds", type=int, default=3, help="suites per worker count")
    parser.add_argument("--workers", type=int, nargs="+", default=[2], help="compared with 1")
    parser.add_argument("--delay-ms", type=int, default=100, help="the harness's wait per case")
    parser.add_argument("--shape", choices=("celery", "local"), default="celery")
    parser.add_argument("--store", choices=("postgres", "sqlite"), default="postgres")
    args = parser.parse_args()
    plan = Plan(args.runs, member(RUN_SIZES, args.size, "--size"), args.delay_ms, args.store,
                args.shape)  # fmt: skip
    if plan.shape == "celery":
        reason = redis_service.why_no_redis()
        if reason is None and plan.store == "postgres" and not machine_service_reachable():
            reason = f"no PostgreSQL at {MACHINE_SERVICE}"
        if reason is not None:
            raise SystemExit(reason)
    counts = [1, *sorted(set(args.workers) - {1})]
    store = "SQLite" if plan.shape == "local" else plan.store
    print(f"{datetime.now().astimezone():%Y-%m-%d %H:%M %Z}, {os.cpu_count()} cores; "
          f"suite of {plan.runs} {plan.size} runs, {plan.delay_ms} ms per case, one case in "
          f"flight per run, one run at a time per worker; shape {plan.shape}, store {store}; "
          f"{args.rounds} rounds, the order alternating")  # fmt: skip
    print(LEGEND)
    print(HEADER)
    one_suite = celery_suite if plan.shape == "celery" else local_suite
    suites: list[list[Suite]] = []
    with sleepy(plan.delay_ms) as harness, tempfile.TemporaryDirectory() as tmp:
        for round_no in range(1, args.rounds + 1):
            order = counts if round_no % 2 else counts[::-1]
            suites.append([])
            for count in order:
                suite = one_suite(count, plan, harness, Path(tmp))
                suites[-1].append(suite)
                print(row(round_no, suite), flush=True)
    if plan.shape == "celery":
        redis_service.flush(REDIS_DB)
    summary(suites, counts)


if __name__ == "__main__":
    main()
