"""One worker process: consume run ids from the broker and drive them, ``concurrency`` at once.

The pool is threads in this one process (a run's cases already run on an event loop of their
own, and the engine's work is waiting on the harness), so killing the process kills every run it
drives, and the store's lease says so at once. A warm stop (SIGTERM, Ctrl-C) stops runs at their
next report, leaving them resumable by any worker.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from dataclasses import dataclass
from typing import Any

from dittobench.store.jobs import ServiceStore
from dittobench.workers.broker import QUEUE, TASK_NAME, check_reachable, make_app
from dittobench.workers.driver import JobDriver
from dittobench.workers.intake import install
from dittobench.workers.logs import event
from dittobench.workers.sweeper import Keeper
from dittobench.workers.tasks import Runtime, run_job


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    broker_url: str
    concurrency: int = 1
    """Runs driven at once."""
    sweep_s: float = 10.0
    """How often to look for runs whose worker is gone."""
    name: str = ""
    """How the worker is named in logs and the store; ``host:pid`` when empty."""


def worker_name(config: WorkerConfig) -> str:
    return config.name or f"{socket.gethostname()}:{os.getpid()}"


def serve_worker(
    config: WorkerConfig, store: ServiceStore, driver: JobDriver, log: logging.Logger
) -> int:
    """Run the worker until it is stopped; its exit code. ``BrokerError`` when the broker
    cannot be reached at start."""
    app = make_app(config.broker_url)
    check_reachable(app, config.broker_url)
    began = time.monotonic()
    rt = Runtime(store, driver, worker_name(config), log)

    def task(run_id: str) -> str:
        return run_job(rt, run_id)

    app.task(name=TASK_NAME, acks_late=True, reject_on_worker_lost=True)(task)
    install(app, log)  # a malformed message is logged and dropped, never the worker's end
    keeper = Keeper(rt, (_sender(app), _waiting(app)), config.concurrency, config.sweep_s)
    _on_shutdown(rt)
    _on_ready(rt, began)
    event(log, "worker_started", concurrency=config.concurrency, queue=QUEUE)
    keeper.start()
    try:
        worker = app.Worker(
            pool="threads",
            concurrency=config.concurrency,
            queues=[QUEUE],
            hostname=f"dittobench@{rt.name}",
            without_gossip=True,
            without_mingle=True,
            without_heartbeat=True,
            loglevel="WARNING",
            redirect_stdouts=False,
        )
        worker.start()
        return int(worker.exitcode or 0)
    finally:
        rt.stopping.set()
        keeper.stop()
        event(log, "worker_stopped")
        app.close()


def _sender(app: Any) -> Any:
    def send(run_id: str) -> None:
        app.send_task(TASK_NAME, args=[run_id], task_id=run_id, queue=QUEUE)

    return send


def _waiting(app: Any) -> Any:
    def waiting() -> int:
        with app.connection_for_read() as conn:
            return int(conn.default_channel.client.llen(QUEUE))

    return waiting


def _on_ready(rt: Runtime, began: float) -> None:
    """Log ``worker_ready`` (with the seconds since ``began``, once the broker was reached)
    when the consumer listens on the queue. ``worker_started`` comes before Celery's own
    start-up (its bootsteps, the broker's connection), a tenth of a second here and more on a
    busy machine: only from ``worker_ready`` on does a task sent reach this worker at once, so
    a fleet's start (or a benchmark's clock) waits for it."""
    from celery.signals import worker_ready

    def ready(**_kwargs: Any) -> None:
        event(rt.log, "worker_ready", seconds=round(time.monotonic() - began, 3))

    worker_ready.connect(ready, weak=False)


def _on_shutdown(rt: Runtime) -> None:
    """Runs stop at their next report once a warm shutdown begins (they resume elsewhere)."""
    from celery.signals import worker_shutting_down

    def stopping(**_kwargs: Any) -> None:
        rt.stopping.set()
        event(rt.log, "worker_stopping", driving=",".join(rt.driving()))

    worker_shutting_down.connect(stopping, weak=False)


__all__ = ["WorkerConfig", "serve_worker", "worker_name"]
