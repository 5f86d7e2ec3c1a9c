"""The run schedule against harnesses that behave like real ones (``stateful_harness.py``): one
whose ``/seed`` fails while a case holds its lock, one that rebuilds its store on every ``/seed``,
one that keeps what was seeded in process memory only. By default none of them is broken: no
``/seed`` while a ``/run`` is in flight, a failed ``/seed`` is sent again, and a resumed run sends
again the waves a restarted harness lost, so it ends with the scores of an uninterrupted run."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.engine.client import ClientLimits, HarnessError
from dittobench.engine.orchestrate import declared_health
from dittobench.engine.runner import RunOptions, RunOutcome, resume_run, start_run
from dittobench.generate.assemble import build_dataset
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.vocab import RunSizeName
from dittobench.store import RunStore
from tests.helpers.stateful_process import stateful

LIMITS = ClientLimits(
    health_wait_s=10, health_interval_s=0.05, run_deadline_s=5.0, backoff_s=(0.05, 0.1)
)
BACKOFF = (0.05, 0.1, 0.2)
SEED = 23
SIZE: RunSizeName = "medium"
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
_ids = count()


def new_id() -> str:
    """A run id of the shape the command line makes (``show`` accepts no other)."""
    return f"r-20261201-000000-{next(_ids):06x}"


FAILING = "r-20261201-000001-000000"


def clock() -> str:
    return "2026-12-01T00:00:00Z"


def quiet(progress: object) -> None:
    """Progress goes nowhere."""


@pytest.fixture
def answers(tmp_path: Path) -> Path:
    path = tmp_path / "answers.json"
    path.write_bytes(canonical_bytes(build_dataset(SEED, CURRENT_VERSION, SIZE).to_json()))
    return path


@pytest.fixture
def store(tmp_path: Path) -> Any:
    with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as opened:
        yield opened


def options(url: str, tmp_path: Path, **extra: Any) -> RunOptions:
    return RunOptions(
        url, SEED, SIZE, CURRENT_VERSION, 8, tmp_path / "out", LIMITS,
        seed_backoff_s=BACKOFF, **extra,
    )  # fmt: skip


def run(store: RunStore, url: str, tmp_path: Path, **extra: Any) -> RunOutcome:
    return start_run(store, new_id(), options(url, tmp_path, **extra), clock, quiet)


def stats(url: str) -> dict[str, int]:
    with OPENER.open(f"{url}/stats", timeout=5) as reply:
        found: dict[str, int] = json.loads(reply.read())
    return found


def scores(outcome: RunOutcome) -> dict[str, float]:
    return {case.case_id: case.score for case in outcome.report.per_case}


@pytest.fixture
def reference(store: RunStore, tmp_path: Path, answers: Path) -> dict[str, float]:
    """Per-case scores of an undisturbed run against the same answers."""
    with stateful("plain", answers) as harness:
        outcome = run(store, harness.url, tmp_path)
    assert outcome.report.composite >= 0.99
    return scores(outcome)


def test_a_harness_that_locks_seeding_while_answering_is_never_refused(
    store: RunStore, tmp_path: Path, answers: Path, reference: dict[str, float]
) -> None:
    with stateful("seed-lock", answers) as harness:
        outcome = run(store, harness.url, tmp_path)
        seen = stats(harness.url)
    assert seen["refused_seeds"] == 0
    assert store.get_run(outcome.run_id).schedule == "safe"
    assert scores(outcome) == reference


def test_a_harness_that_rebuilds_its_store_on_seed_breaks_no_case(
    store: RunStore, tmp_path: Path, answers: Path, reference: dict[str, float]
) -> None:
    with stateful("rebuild", answers) as harness:
        outcome = run(store, harness.url, tmp_path)
        seen = stats(harness.url)
    assert seen["broken_runs"] == 0
    assert scores(outcome) == reference


def test_overlap_is_an_opt_in_the_harness_declares(
    store: RunStore, tmp_path: Path, answers: Path
) -> None:
    with stateful("rebuild", answers, "--capabilities", "seed_while_running,other") as harness:
        declared = run(store, harness.url, tmp_path)
        broken = stats(harness.url)["broken_runs"]
    assert store.get_run(declared.run_id).schedule == "overlap"
    assert broken > 0  # tool cases did run through seeding, as declared
    with stateful("rebuild", answers, "--capabilities", "seed_while_running") as harness:
        strict = run(store, harness.url, tmp_path, strict_order=True)
        assert stats(harness.url)["broken_runs"] == 0
    assert store.get_run(strict.run_id).schedule == "safe"


def test_a_failed_seed_is_sent_again(
    store: RunStore, tmp_path: Path, answers: Path, reference: dict[str, float]
) -> None:
    waves = len(build_dataset(SEED, CURRENT_VERSION, SIZE).memory_waves)
    with stateful("plain", answers, "--seed-failures", "3") as harness:
        outcome = run(store, harness.url, tmp_path)
        seen = stats(harness.url)
    assert seen["seeds"] == waves + 3 and seen["refused_seeds"] == 3
    assert scores(outcome) == reference


def test_a_seed_that_keeps_failing_stops_the_run_in_the_seeding_stage(
    store: RunStore, tmp_path: Path, answers: Path
) -> None:
    with (
        stateful("plain", answers, "--seed-failures", "1000") as harness,
        pytest.raises(HarnessError, match=r"answered HTTP 500.*4 attempts"),
    ):
        start_run(store, FAILING, options(harness.url, tmp_path), clock, quiet)
    row = store.get_run(FAILING)
    assert (row.status, row.stage) == ("failed", "seeding")
    shown = show(tmp_path / "runs.db", FAILING)
    assert "failed while seeding: /seed (user colleague, wave 0) answered HTTP 500" in shown


def test_a_seed_the_harness_refuses_is_not_sent_again(
    store: RunStore, tmp_path: Path, answers: Path
) -> None:
    with stateful("plain", answers, "--seed-failures", "1", "--seed-status", "400") as harness:
        with pytest.raises(HarnessError) as raised:
            start_run(store, FAILING, options(harness.url, tmp_path), clock, quiet)
        assert stats(harness.url)["seeds"] == 1  # a 4xx is the harness refusing: no retry
    message = str(raised.value)
    assert "answered HTTP 400: refused: transient failure at /var/lib/" in message
    assert "attempts" not in message
    # The body is quoted by whole lines up to 300 characters, never a path cut in two.
    quoted = message.split("answered HTTP 400: ", 1)[1]
    assert len(quoted) <= 302 and quoted.endswith(" …")
    assert quoted.removesuffix(" …").endswith("/index.db")


def show(db: Path, run_id: str) -> str:
    """``dittobench show`` as a user runs it."""
    command = [sys.executable, "-m", "dittobench", "show", run_id, "--db", str(db)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_show_lists_the_memory_tools_a_harness_reported(
    store: RunStore, tmp_path: Path, answers: Path
) -> None:
    with stateful("plain", answers, "--report-memory-tools") as harness:
        outcome = run(store, harness.url, tmp_path)
    lines = show(tmp_path / "runs.db", outcome.run_id).splitlines()
    memory = {c.id for c in build_dataset(SEED, CURRENT_VERSION, SIZE).memory_cases}
    listed = [line for line in lines if line.split()[:1] and line.split()[0] in memory]
    assert len(listed) == len(memory)
    assert all(line.split()[-1].startswith("search_memories") for line in listed), listed


@pytest.mark.parametrize("reseed", [True, False])
def test_resume_after_a_harness_restart_sends_the_lost_waves_again(
    store: RunStore, tmp_path: Path, answers: Path, reseed: bool
) -> None:
    with stateful("memory", answers) as harness:
        whole = run(store, harness.url, tmp_path)
    total = whole.report.n
    with (
        stateful("memory", answers, "--die-after", str(total * 2 // 3)) as harness,
        pytest.raises(HarnessError),
    ):
        start_run(store, "r-restart", options(harness.url, tmp_path), clock, quiet)
    assert store.get_run("r-restart").waves_seeded >= 2
    with stateful("memory", answers) as restarted:  # a new process: its memory is empty
        resumed = resume_run(
            store, "r-restart", options(restarted.url, tmp_path, reseed=reseed), clock, quiet
        )
        declined = stats(restarted.url)["declined"]
    if reseed:
        assert declined == 0
        assert scores(resumed) == scores(whole)
    else:  # told the harness kept its waves, when it did not: its answers change
        assert declined > 0
        assert scores(resumed) != scores(whole)


class _Health(BaseHTTPRequestHandler):
    body = b""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: Any) -> None:
        """Silent."""


@pytest.mark.parametrize(
    ("body", "declared"),
    [
        (
            b'{"status": "ok", "capabilities": ["seed_while_running", 7, "x"]}',
            {"seed_while_running", "x"},
        ),
        (b'{"capabilities": "seed_while_running"}', set()),
        (b'["seed_while_running"]', set()),
        (b"not json", set()),
        (b"[" * 50_000, set()),  # nested past any recursion limit
        (b'{"capabilities": ["seed_while_running"], "pad": "' + b"x" * 70_000 + b'"}', set()),
        (b"", set()),
    ],
)
def test_capabilities_are_read_liberally_and_safely(body: bytes, declared: set[str]) -> None:
    handler = type("Handler", (_Health,), {"body": body})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        assert asyncio.run(declared_health(url, 5.0)).capabilities == declared
    finally:
        server.shutdown()
        server.server_close()
