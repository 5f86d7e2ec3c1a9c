"""Every worker's keeper thread: its heartbeat, and the search for runs nobody drives.

The heartbeat writes the worker's row (``store.fleet``) every ``BEAT_S``. The sweep, every
``sweep_s``, looks at every job being driven: one whose run's lease is free or ran out, or whose
holder is a process of this machine that is gone, lost its worker (killed, or stopped); so does
one taken from the queue whose run was never made. Such a job is handed to the workers again (its
task is idempotent: of several deliveries one resumes it). So is a job still queued while the
broker's queue is empty: the broker lost its task (a Redis without persistence, restarted). The
broker's own redelivery of an unacknowledged task only comes after hours
(``broker.VISIBILITY_TIMEOUT_S``); the lease finds a dead worker within seconds on one machine and
within the lease's 60 s across machines.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable

from dittobench.drive.clock import now
from dittobench.engine.runner import LEASE_S, held_by_another
from dittobench.store import StoreError
from dittobench.store.fleet import WorkerRow
from dittobench.store.jobs import ACTIVE, JobRow
from dittobench.workers.logs import event
from dittobench.workers.tasks import Runtime, older_than

BEAT_S = 5.0
SETTLE_S = 3.0
"""A job touched this recently may be between being taken and its run's lease being claimed
(milliseconds, normally): it is left alone until then."""
LOST_AFTER_S = 10.0
"""A queued job older than this while the broker's queue is empty was lost by the broker (the
service sends a new job within a second)."""
RESEND_AFTER_S = 60.0
"""A job handed over again waits this long before it is handed over again (it may sit in the
queue behind busy workers meanwhile)."""


class Keeper(threading.Thread):
    """Beats and sweeps until ``stop``."""

    def __init__(
        self,
        rt: Runtime,
        broker: tuple[Callable[[str], None], Callable[[], int]],
        concurrency: int,
        sweep_s: float,
    ) -> None:
        """``broker`` is how to send a run id and how many tasks wait in the broker's queue."""
        super().__init__(name="dittobench-keeper", daemon=True)
        self.rt, self.concurrency, self.sweep_s = rt, concurrency, sweep_s
        self.send, self.waiting = broker
        self.started_at = now()
        self._halt = threading.Event()
        self._sent: dict[str, float] = {}

    def run(self) -> None:
        next_beat = next_sweep = 0.0
        while not self._halt.is_set():
            moment = time.monotonic()
            try:
                if moment >= next_beat:
                    self.beat()
                    next_beat = moment + BEAT_S
                if moment >= next_sweep:
                    self.sweep()
                    next_sweep = moment + self.sweep_s
            except StoreError as exc:  # a busy or unreachable store: try again next time
                event(self.rt.log, "keeper_error", error=str(exc))
            self._halt.wait(min(1.0, self.sweep_s))

    def stop(self) -> None:
        self._halt.set()
        self.join(5.0)

    def beat(self) -> None:
        self.rt.store.beat_worker(
            WorkerRow(
                name=self.rt.name,
                host=socket.gethostname(),
                pid=os.getpid(),
                concurrency=self.concurrency,
                started_at=self.started_at,
                seen_at=now(),
                active=self.rt.driving(),
                runs_done=0,
            )
        )

    def sweep(self) -> None:
        mine = set(self.rt.driving())
        for job in self.rt.store.jobs_in(ACTIVE):
            if job.run_id not in mine and self._abandoned(job):
                self._hand_over(job.run_id, "no live driver holds it")
        for job in self._lost():
            self._hand_over(job.run_id, "queued, but the broker holds no task for it")

    def _lost(self) -> list[JobRow]:
        """Queued jobs the broker has lost (Redis as often run keeps nothing over a restart):
        the queue is empty, yet a job has waited longer than the service takes to send it."""
        queued = self.rt.store.jobs_in(frozenset({"queued"}))
        if not queued:
            return []
        try:
            if self.waiting() > 0:
                return []
        except Exception as exc:  # the broker is down: nothing to hand over to now
            event(self.rt.log, "requeue_error", error=str(exc))
            return []
        return [job for job in queued if older_than(job.updated_at, LOST_AFTER_S)]

    def _hand_over(self, run_id: str, reason: str) -> None:
        last = self._sent.get(run_id)
        if last is not None and time.monotonic() - last < RESEND_AFTER_S:
            return
        try:
            self.send(run_id)
        except Exception as exc:  # the broker is down: try at the next sweep
            event(self.rt.log, "requeue_error", run_id, error=str(exc))
            return
        self._sent[run_id] = time.monotonic()
        event(self.rt.log, "run_requeued", run_id, reason=reason)

    def _abandoned(self, job: JobRow) -> bool:
        try:
            return held_by_another(self.rt.store, job.run_id, now) == "" and older_than(
                job.updated_at, SETTLE_S
            )
        except StoreError:  # taken from the queue, no run made yet
            return older_than(job.updated_at, LEASE_S)


__all__ = ["BEAT_S", "Keeper"]
