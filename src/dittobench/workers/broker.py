"""The Celery application over a Redis broker, as both ends use it: the service and
``dittobench run --queue celery`` send tasks, ``dittobench worker`` consumes them.

One task, ``dittobench.run_job(run_id)``, keyed by the run id (its task id is the run id). It is
acknowledged late (only once it has returned) and rejected back to the queue if its worker dies,
so a delivery is never lost to a crash; a task delivered twice finds the run held or finished
and does nothing (``workers.tasks``). Results are not kept in Celery: the store has them.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from dittobench.core.errors import DittobenchError

TASK_NAME = "dittobench.run_job"
QUEUE = "dittobench"
VISIBILITY_TIMEOUT_S = 6 * 3600
"""How long Redis keeps a delivered, unacknowledged task from others. A dead worker's runs are
found sooner through the store's lease (``workers.sweeper``); this is only the broker's own
backstop, and longer than any run so a live one is never delivered twice by it."""


class BrokerError(DittobenchError, RuntimeError):
    """The broker cannot be used; the message names its URL (without a password)."""

    exit_code = 2
    http_status = 503


def shown_url(url: str) -> str:
    """The broker URL for messages: its password replaced by ``***``."""
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.hostname or ""
        user = f"{parts.username}:***@" if parts.username else ":***@"
        port = f":{parts.port}" if parts.port else ""
        return urlunsplit((parts.scheme, user + host + port, parts.path, "", ""))
    except ValueError:
        return url.split("://", 1)[0] + "://..."


def make_app(broker_url: str) -> Any:
    """The Celery app for ``broker_url`` (``redis://host:port/db``)."""
    if not broker_url.startswith(("redis://", "rediss://", "redis+socket://")):
        raise BrokerError(
            f"broker {shown_url(broker_url)!r}: only Redis brokers are supported "
            "(redis://host:6379/0)"
        )
    try:
        from celery import Celery
    except ImportError:
        raise BrokerError(
            "Celery is not installed: pip install '.[workers]' in a clone of dittobench"
        ) from None
    app = Celery("dittobench", broker=broker_url, set_as_current=False)
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        task_default_queue=QUEUE,
        task_serializer="json",
        accept_content=["json"],
        worker_prefetch_multiplier=1,  # a worker takes only what it can start now
        worker_hijack_root_logger=False,
        worker_redirect_stdouts=False,
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT_S},
    )
    return app


def check_reachable(app: Any, broker_url: str, timeout_s: float = 5.0) -> None:
    """Connect to the broker once, or raise ``BrokerError`` naming it."""
    try:
        with app.connection_for_write() as conn:
            conn.ensure_connection(
                max_retries=1, interval_start=0, interval_step=0.5, timeout=timeout_s
            )
            conn.default_channel.client.ping()
    except Exception as exc:  # kombu and redis raise many kinds; all mean the same here
        first = " ".join(str(exc).split())[:300]
        raise BrokerError(f"cannot reach the broker at {shown_url(broker_url)}: {first}") from None


class Broker:
    """The sending end: hands a run id to the workers."""

    def __init__(self, broker_url: str) -> None:
        self.url = broker_url
        self.app = make_app(broker_url)

    def check(self) -> None:
        check_reachable(self.app, self.url)

    def send(self, run_id: str) -> None:
        self.app.send_task(TASK_NAME, args=[run_id], task_id=run_id, queue=QUEUE)

    def close(self) -> None:
        self.app.close()


__all__ = ["QUEUE", "TASK_NAME", "Broker", "BrokerError", "check_reachable", "make_app"]
