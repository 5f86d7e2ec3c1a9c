"""A malformed message on the queue is logged and dropped; the worker lives on.

A real ``dittobench worker`` on the machine's Redis (skipped, saying why, where Redis cannot be
reached or started): garbage of every kind is pushed straight onto the ``dittobench`` list, as
a stray client could, then a real job is sent. Before ``workers.intake`` the first of them
ended the worker ("Unrecoverable error: JSONDecodeError", a base64 error, a ``TypeError``).
"""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path
from typing import Any

import redis

from dittobench.drive.clock import new_run_id, now
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.store.jobs import TERMINAL, JobRow, ServiceStore
from dittobench.workers.broker import QUEUE, Broker
from tests.helpers import redis_service
from tests.helpers.cli import dittobench
from tests.helpers.harness_process import harness
from tests.helpers.worker_process import start_worker

RUN_ID = "r-20261201-142714-a1b2c3"


def envelope(task_body: Any, **changes: Any) -> bytes:
    """kombu's envelope around a Celery task body, as ``Broker.send`` makes it, changed."""
    made: dict[str, Any] = {
        "body": base64.b64encode(json.dumps(task_body).encode()).decode(),
        "content-encoding": "utf-8",
        "content-type": "application/json",
        "headers": {"lang": "py", "task": "dittobench.run_job", "id": "junk", "retries": 0},
        "properties": {
            "delivery_mode": 2,
            "delivery_info": {"exchange": "", "routing_key": QUEUE},
            "priority": 0,
            "body_encoding": "base64",
            "delivery_tag": "4f9e0e6a-0000-4000-8000-000000000000",
        },
    }
    made.update(changes)
    return json.dumps(made).encode()


NO_WORKFLOW = {"callbacks": None, "errbacks": None, "chain": None, "chord": None}
GARBAGE: list[tuple[bytes, str]] = [
    (b"\xff\xfe\x00 not UTF-8", "not UTF-8"),
    (b"plain words, not JSON", "not JSON"),
    (b'{"__type__": "datetime", "__value__": "no date"}', "not JSON"),
    (b"[1, 2, 3]", "not a message envelope"),
    (b'{"hello": "world"}', "no properties"),
    (envelope([[RUN_ID], {}, NO_WORKFLOW], body="!!!not*base64!!!"), "not base64"),
    (envelope({"args": [RUN_ID]}), "not [args, kwargs, embed]"),
    (envelope([[123], {}, NO_WORKFLOW]), "not one run id"),
    (envelope([["../../etc"], {}, NO_WORKFLOW]), "is not a run id"),
    (envelope([[RUN_ID], {}, NO_WORKFLOW], headers={"task": "os.system", "id": "x"}), "task"),
    (
        envelope([[RUN_ID], {}, NO_WORKFLOW], **{"content-type": "application/x-python-serialize"}),
        "content-type",
    ),
    (b"\x1b[2J\x1b[31m" + b"x" * 500, "not JSON"),
]


def wait_until(check: Any, timeout: float, what: str) -> Any:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def drop_consumer_connection(client: Any, db: int) -> None:
    """Close the connection the worker waits on the queue with (its BRPOP), as a broker that
    restarts would: the worker's consumer connects again with a new channel."""
    waiting = [c for c in client.client_list() if int(c["db"]) == db and c["cmd"] == "brpop"]
    assert waiting, client.client_list()
    for found in waiting:
        client.client_kill_filter(_id=found["id"])


def _status(store: ServiceStore, run_id: str) -> str:
    job = store.get_job(run_id)
    return "" if job is None else job.status


def test_malformed_messages_are_dropped_and_the_worker_takes_the_next(
    tmp_path: Path, broker_db: int
) -> None:
    made = dittobench("keys", "generate", "--out", str(tmp_path / "keys"))
    assert made.returncode == 0, made.stderr
    key = tmp_path / "keys" / "dittobench-ed25519.pem"
    db = str(tmp_path / "runs.db")
    broker_url = redis_service.broker_url(broker_db)
    worker = start_worker(tmp_path / "worker", broker_url, db, key, "w-intake")
    store = ServiceStore(ServiceStore.sqlite_url(Path(db)))
    broker = Broker(broker_url)
    client = redis.Redis(redis_service.HOST, redis_service.PORT, db=broker_db)
    try:
        half = len(GARBAGE) // 2
        for raw, _reason in GARBAGE[:half]:
            client.lpush(QUEUE, raw)
        wait_until(lambda: len(worker.events("message_dropped")) >= half, 20, "the first half")
        # The check is the consumer's, so it holds on the connection it makes after a loss too.
        drop_consumer_connection(client, broker_db)
        wait_until(
            lambda: [e for e in worker.events("celery") if "lost" in e.get("message", "")],
            10,
            "the worker to notice the loss",
        )
        for raw, _reason in GARBAGE[half:]:
            client.lpush(QUEUE, raw)
        every = len(GARBAGE)
        dropped = wait_until(
            lambda: found if len(found := worker.events("message_dropped")) >= every else None,
            30,
            "every malformed message to be dropped",
        )
        assert worker.process.poll() is None, worker.lines[-10:]
        # In the order pushed (the queue is first in, first out), each with what was wrong.
        for event, (raw, reason) in zip(dropped, GARBAGE, strict=True):
            assert event["level"] == "warning"
            assert reason in event["reason"], (reason, event)
            assert event["bytes"] == len(raw)
            assert len(event["excerpt"]) <= 83 and event["excerpt"].isprintable()
            assert event["excerpt"].isascii(), event
        assert dropped[0]["excerpt"].startswith("\\xff\\xfe\\x00 not UTF-8")
        last = dropped[-1]["excerpt"]
        assert last.startswith("\\x1b[2J\\x1b[31mxxx") and last.endswith("x...")
        assert not worker.events("task_received")  # none of it reached a task
        with harness("slow", "--delay-ms", "10") as url:
            run_id, stamp = new_run_id(), now()
            store.create_job(
                JobRow(run_id, 0, "test", "submit", url, 7, "small", CURRENT_VERSION, "",
                       "queued", "", False, "", "", stamp, stamp, ""),
                one_per_submitter=False,
            )  # fmt: skip
            broker.send(run_id)
            wait_until(lambda: _status(store, run_id) in TERMINAL, 60, "the real job")
        job = store.get_job(run_id)
        assert job is not None and job.status == "done", job
        assert worker.events("run_done", run_id)
        assert worker.process.poll() is None  # alive after all of it
        assert len(worker.events("message_dropped")) == len(GARBAGE)  # the real one was not
        assert not [e for e in worker.events() if e["level"] in ("error", "critical")]
    finally:
        broker.close()
        client.close()
        assert worker.stop() == 0
        store.close()
