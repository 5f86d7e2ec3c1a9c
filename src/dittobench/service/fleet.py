"""What ``GET /v1/capabilities`` says of where runs are driven, read live: the queue's depth
(jobs waiting for a place), runs driven in this process, and the workers heard from lately with
the runs each drives and has finished (``store.fleet``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from dittobench.service.context import ServiceState
from dittobench.store import StoreError

ALIVE_S = 30
"""A worker is alive while its last heartbeat (every 5 s) is at most this old."""


def fleet_view(service: ServiceState) -> dict[str, Any] | None:
    """The live part of the capabilities; None when the store cannot be read just now."""
    since = (datetime.now(UTC) - timedelta(seconds=ALIVE_S)).strftime("%Y-%m-%dT%H:%M:%SZ")
    try:
        depth = service.store.count_jobs("queued")
        alive = service.store.workers_seen_since(since)
        done = service.store.runs_per_worker()
    except StoreError:
        return None
    return {
        "queue": service.settings.queue,
        "queue_depth": depth,
        "in_process_runs": service.queue.active_count(),
        "workers_alive": len(alive),
        "workers": [
            {
                "name": worker.name,
                "seen_at": worker.seen_at,
                "concurrency": worker.concurrency,
                "active_runs": len(worker.active),
                "runs_done": worker.runs_done,
            }
            for worker in alive
        ],
        "runs_per_worker": done,
    }


__all__ = ["ALIVE_S", "fleet_view"]
