"""The parts of distributed mode that need no broker: a worker's log lines are JSON with the run
id, a broker URL is shown without its password, an unreachable broker is named (by `worker`,
`serve --queue celery` and `run --queue celery`, which then queues nothing), and the embedded
default never imports Celery."""

from __future__ import annotations

import io
import json
import logging
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from dittobench.store.jobs import ServiceStore
from dittobench.workers.broker import BrokerError, make_app, shown_url
from dittobench.workers.logs import JsonLines, event
from tests.helpers.cli import dittobench


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_log_lines_are_json_with_the_run_id() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines("host:1"))
    log = logging.getLogger("dittobench.worker.test")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
    event(log, "run_done", "r-20260101-000000-abcdef", composite=0.5, seconds=1.25)
    event(log, "run_failed", "r-20260101-000000-abcdef", kind="harness", error='a "quoted"\nline')
    logging.getLogger("celery.worker.test").addHandler(handler)
    logging.getLogger("celery.worker.test").warning("from celery %s", 7)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert lines[0]["event"] == "run_done" and lines[0]["run_id"] == "r-20260101-000000-abcdef"
    assert (lines[0]["worker"], lines[0]["composite"], lines[0]["level"]) == ("host:1", 0.5, "info")
    assert lines[1]["level"] == "warning" and lines[1]["error"] == 'a "quoted"\nline'
    assert lines[2]["event"] == "celery" and lines[2]["message"] == "from celery 7"
    assert all(line["ts"].endswith("Z") for line in lines)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
        ("redis://:s3cret@10.0.0.5:6380/2", "redis://:***@10.0.0.5:6380/2"),
        ("redis://user:p%40ss@cache.internal/1", "redis://user:***@cache.internal/1"),
    ],
)
def test_a_broker_is_shown_without_its_password(url: str, shown: str) -> None:
    assert shown_url(url) == shown


def test_only_redis_brokers() -> None:
    with pytest.raises(BrokerError, match="only Redis brokers"):
        make_app("amqp://guest:guest@127.0.0.1:5672//")


def test_an_unreachable_broker_is_named_by_every_command(tmp_path: Path) -> None:
    url = f"redis://:hunter22@127.0.0.1:{_closed_port()}/3"
    shown = url.replace("hunter22", "***")
    db = str(tmp_path / "runs.db")
    worker = dittobench("worker", "--broker", url, "--db", db, cwd=tmp_path)
    assert worker.returncode == 2
    assert f"cannot reach the broker at {shown}" in worker.stderr
    assert "hunter22" not in worker.stderr + worker.stdout
    run = dittobench(
        "run", "--queue", "celery", "--broker", url, "--db", db, "--harness",
        "http://127.0.0.1:9", cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 2 and f"cannot reach the broker at {shown}" in run.stderr
    with ServiceStore(ServiceStore.sqlite_url(Path(db))) as store:
        assert store.list_jobs()[1] == 0  # nothing queued
    env = {"DITTOBENCH_CONTROL_TOKEN": "T0ken-0123456789abcdef"}
    serve = dittobench(
        "serve", "--db", db, "--queue", "celery", "--broker", url, cwd=tmp_path, env=env
    )
    assert serve.returncode == 2 and f"cannot reach the broker at {shown}" in serve.stderr
    unset = dittobench("serve", "--db", db, "--queue", "celery", cwd=tmp_path, env=env)
    assert unset.returncode == 2 and "setting broker: needed with queue = celery" in unset.stderr


def test_the_embedded_default_never_imports_celery() -> None:
    code = (
        "import sys; import dittobench.cli.app, dittobench.service.app, dittobench.cli.suites;"
        "import dittobench.workers.driver, dittobench.workers.broker;"
        "print(sorted(m for m in ('celery', 'kombu', 'redis') if m in sys.modules))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"
