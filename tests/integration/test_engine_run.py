"""The scoring engine against real harness processes on loopback: the oracle earns full marks,
a do-nothing harness earns nothing, faults are recorded per case and never sink the run, and an
interrupted run resumes to the same scores."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from itertools import count
from pathlib import Path
from typing import Any

import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.engine.client import ClientLimits, HarnessError
from dittobench.engine.runner import RunError, RunOptions, RunOutcome, resume_run, start_run
from dittobench.generate.assemble import build_dataset
from dittobench.spec.report import ScoreReport
from dittobench.spec.vocab import RunSizeName
from dittobench.store import RunRow, RunStore
from tests.helpers.harness_process import harness

FAST = ClientLimits(
    health_wait_s=10, health_interval_s=0.1, run_deadline_s=2.0, backoff_s=(0.05, 0.1)
)
_ids = count()


def clock() -> str:
    return "2026-11-30T00:00:00Z"


def run(
    store: RunStore,
    url: str,
    tmp: Path,
    seed: int = 11,
    size: RunSizeName = "small",
    limits: ClientLimits = FAST,
    concurrency: int = 8,
) -> RunOutcome:
    options = RunOptions(url, seed, size, "1.1.0", concurrency, tmp / "out", limits)
    run_id = f"r-test-{next(_ids)}"
    return start_run(store, run_id, options, clock, lambda progress: None)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as opened:
        yield opened


def answers(tmp_path: Path, seed: int, size: str) -> Path:
    path = tmp_path / f"answers-{seed}-{size}.json"
    path.write_bytes(canonical_bytes(build_dataset(seed, "1.1.0", size).to_json()))
    return path


@pytest.mark.parametrize("size", ["small", "medium"])
def test_oracle_harness_scores_full_marks(
    store: RunStore, tmp_path: Path, size: RunSizeName
) -> None:
    with harness("oracle", "--answers", str(answers(tmp_path, 11, size))) as url:
        outcome = run(store, url, tmp_path, size=size)
    report = outcome.report
    assert report.composite >= 0.99, [c for c in report.per_case if c.score < 1]
    assert report.details.observed_tool_cases >= 1
    assert report.details.capped_tool_cases == 0
    assert outcome.transcript_path.exists() and outcome.report_path.exists()
    assert store.get_run(outcome.run_id).status == "done"


def test_do_nothing_harness_scores_zero(store: RunStore, tmp_path: Path) -> None:
    with harness("nothing") as url:
        report = run(store, url, tmp_path, size="medium").report
    assert report.composite <= 0.02
    assert report.tool_mean == 0 and report.memory_mean == 0


@pytest.mark.parametrize(
    ("mode", "outcome"),
    [("malformed", "bad_json"), ("huge", "too_large"), ("verbose", "too_large")],
)
def test_broken_replies_are_recorded_per_case_and_the_run_finishes(
    store: RunStore, tmp_path: Path, mode: str, outcome: str
) -> None:
    """A reply that arrived but is unusable is the harness's answer: graded 0, run scored."""
    limits = ClientLimits(
        health_wait_s=10, health_interval_s=0.1, run_deadline_s=1.0, backoff_s=(0.05, 0.1)
    )
    with harness(mode) as url:
        result = run(store, url, tmp_path, limits=limits)
    records = store.transcript(result.run_id)["cases"]  # type: ignore[index]
    assert len(records) == 12
    assert all(r["response"] is None for r in records)
    assert all(r["execution"]["outcome"] == outcome for r in records), {
        r["execution"]["outcome"] for r in records
    }
    assert result.report.composite == 0
    assert result.report.details.undelivered_cases == 12


@pytest.mark.parametrize(
    ("mode", "outcome"),
    [
        ("error500", "http_error"),
        ("drip", "timeout"),
        ("hang", "timeout"),
    ],
)
def test_a_run_whose_answers_never_arrive_fails_and_keeps_every_case(
    store: RunStore, tmp_path: Path, mode: str, outcome: str
) -> None:
    """No answer for want of the harness (timeouts, dropped connections, 5xx) on more than the
    set share of cases: the run fails, saying how many and why, instead of scoring 0 with exit
    0; every case is recorded with its outcome, and a resume asks them again."""
    limits = ClientLimits(
        health_wait_s=10, health_interval_s=0.1, run_deadline_s=1.0, backoff_s=(0.05, 0.1)
    )
    with harness(mode) as url, pytest.raises(RunError, match="12 of 12 cases got no answer"):
        run(store, url, tmp_path, limits=limits, concurrency=1)
    [row] = store.list_runs()
    assert isinstance(row, RunRow)
    assert row.status == "failed" and f"12 {outcome}" in row.error
    recorded = store.recorded_cases(row.run_id).values()
    assert len(recorded) == 12
    assert {r["execution"]["outcome"] for r in recorded} == {outcome}


def test_a_harness_that_drops_every_connection_fails_the_run(
    store: RunStore, tmp_path: Path
) -> None:
    """A harness declaring no ``instance`` that cuts every reply looks like one that keeps
    restarting: its memory is restored three times, then the run fails, saying so, with every
    case kept unanswered for a resume."""
    limits = ClientLimits(
        health_wait_s=10, health_interval_s=0.1, run_deadline_s=1.0, backoff_s=(0.05, 0.1)
    )
    with harness("reset") as url, pytest.raises(HarnessError, match="dropped connections, 4 times"):
        run(store, url, tmp_path, limits=limits, concurrency=1)
    [row] = store.list_runs()
    assert isinstance(row, RunRow)
    assert row.status == "failed" and "dropped connections" in row.error
    recorded = store.recorded_cases(row.run_id).values()
    assert recorded and all(r["response"] is None for r in recorded)


def test_retries_recover_from_transient_errors(store: RunStore, tmp_path: Path) -> None:
    with harness("flaky") as url:
        result = run(store, url, tmp_path)
    records = store.transcript(result.run_id)["cases"]  # type: ignore[index]
    assert all(r["response"] is not None for r in records)
    assert all(len(r["execution"]["attempts"]) == 2 for r in records)


@pytest.mark.parametrize("strict_order", [False, True])
def test_a_harness_that_dies_mid_run_loses_nothing_and_resumes(
    store: RunStore, tmp_path: Path, strict_order: bool
) -> None:
    key = str(answers(tmp_path, 11, "small"))
    options = RunOptions(
        "", 11, "small", "1.1.0", 1, tmp_path / "out", FAST, strict_order=strict_order
    )
    dying = harness("oracle", "--answers", key, "--die-after", "4")
    with dying as url, pytest.raises(HarnessError, match="stopped answering"):
        start_run(store, "r-dies", replace(options, harness_url=url), clock, lambda p: None)
    row = store.get_run("r-dies")
    assert row.status == "failed" and "stopped answering" in row.error
    recorded = store.recorded_cases("r-dies")
    delivered = [r for r in recorded.values() if r["response"] is not None]
    assert len(delivered) == 3
    assert {r["execution"]["outcome"] for r in recorded.values() if r["response"] is None} == {
        "connection_error"
    }
    with harness("oracle", "--answers", key) as url:
        outcome = resume_run(
            store, "r-dies", replace(options, harness_url=url), clock, lambda p: None
        )
    assert outcome.report.composite >= 0.99


def test_calls_made_for_another_case_earn_nothing(store: RunStore, tmp_path: Path) -> None:
    with harness("cross") as url:
        result = run(store, url, tmp_path)
    records = store.transcript(result.run_id)["cases"]  # type: ignore[index]
    assert all(r["observed"] == [] for r in records)
    tool_cases = [c for c in result.report.per_case if c.kind == "tool" and c.expected]
    assert not any(c.observed for c in tool_cases)
    assert all(c.score <= 0.5 for c in tool_cases)  # at most the self-report cap


def _wait_for_cases(db: Path, run_id: str, at_least: int, timeout: float = 30) -> None:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        if db.exists():
            probe = RunStore(RunStore.sqlite_url(db))
            try:
                if probe.get_run(run_id).cases_done >= at_least:
                    return
            except Exception:
                pass
            finally:
                probe.close()
        time.sleep(0.1)
    raise AssertionError(f"run {run_id} never reached {at_least} cases")


@pytest.mark.slow
def test_killed_engine_resumes_to_the_same_scores(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    seed = 13
    size: RunSizeName = "medium"
    with harness("oracle", "--answers", str(answers(tmp_path, seed, size))) as url:
        with RunStore(RunStore.sqlite_url(tmp_path / "straight.db")) as other:
            straight = run(other, url, tmp_path, seed=seed, size=size)
        command = [
            sys.executable,
            "-m",
            "dittobench",
            "run",
            "--bench-version",
            "1.1.0",
            "--harness",
            url,
            "--seed",
            str(seed),
            "--run-size",
            size,
            "--db",
            str(db),
            "--out-dir",
            str(tmp_path / "cli"),
            "--concurrency",
            "1",
        ]
        with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as engine:
            try:
                line = ""
                while not line.startswith("run r-"):
                    line = engine.stderr.readline().decode()  # type: ignore[union-attr]
                    assert line, "the engine exited before naming its run"
                run_id = line.split()[1]
                _wait_for_cases(db, run_id, 20)
            finally:
                engine.send_signal(signal.SIGKILL)
                engine.wait(timeout=10)
        with RunStore(RunStore.sqlite_url(db)) as stored:
            assert stored.get_run(run_id).status == "running"
            done_before = stored.get_run(run_id).cases_done
            assert 20 <= done_before < 96
            options = RunOptions(url, 0, size, "1.1.0", 4, tmp_path / "cli", FAST)
            resumed = resume_run(stored, run_id, options, clock, lambda progress: None)
    strip = ("latency_ms",)

    def scores(report: ScoreReport) -> list[dict[str, Any]]:
        return [{k: v for k, v in c.to_json().items() if k not in strip} for c in report.per_case]

    assert scores(resumed.report) == scores(straight.report)
    assert resumed.report.composite == straight.report.composite
    assert resumed.report.dataset_sha256 == straight.report.dataset_sha256
    assert os.path.exists(resumed.report_path)


@pytest.mark.slow
def test_ctrl_c_leaves_an_interrupted_run_that_resumes(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    seed = 5
    size: RunSizeName = "small"
    with harness("slow", "--delay-ms", "150") as url:
        command = [sys.executable, "-m", "dittobench", "run", "--harness", url, "--seed", str(seed)]
        command += ["--run-size", size, "--db", str(db), "--out-dir", str(tmp_path / "cli")]
        command += ["--concurrency", "1", "--bench-version", "1.1.0"]
        with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as engine:
            line = ""
            while not line.startswith("run r-"):
                line = engine.stderr.readline().decode()  # type: ignore[union-attr]
                assert line, "the engine exited before naming its run"
            run_id = line.split()[1]
            _wait_for_cases(db, run_id, 3)
            engine.send_signal(signal.SIGINT)
            try:
                code = engine.wait(timeout=20)
            finally:
                engine.kill()
            said = engine.stderr.read().decode()  # type: ignore[union-attr]
        assert code == 130, said
        assert f"dittobench run --resume {run_id}" in said
        with RunStore(RunStore.sqlite_url(db)) as stored:
            row = stored.get_run(run_id)
            assert row.status == "interrupted"
            assert 3 <= row.cases_done < row.cases_total
            options = RunOptions(url, 0, size, "1.1.0", 4, tmp_path / "cli", FAST)
            resumed = resume_run(stored, run_id, options, clock, lambda progress: None)
            assert stored.get_run(run_id).status == "done"
    assert resumed.report.n == row.cases_total
    assert all(c.reason != "undelivered" for c in resumed.report.per_case)


def test_postgresql_keeps_a_run_through_a_harness_death_and_resume(
    tmp_path: Path, postgres_database: str
) -> None:
    key = str(answers(tmp_path, 11, "small"))
    options = RunOptions("", 11, "small", "1.1.0", 2, tmp_path / "out", FAST)
    with RunStore(postgres_database) as store:
        dying = harness("oracle", "--answers", key, "--die-after", "5")
        with dying as url, pytest.raises(HarnessError, match="stopped answering"):
            start_run(store, "r-pg", replace(options, harness_url=url), clock, lambda p: None)
        assert store.get_run("r-pg").status == "failed"
        kept = [r for r in store.recorded_cases("r-pg").values() if r["response"] is not None]
        assert len(kept) >= 3
        with harness("oracle", "--answers", key) as url:
            outcome = resume_run(
                store, "r-pg", replace(options, harness_url=url), clock, lambda p: None
            )
        assert store.get_run("r-pg").status == "done"
        assert store.get_run("r-pg").cases_done == 12
    assert outcome.report.composite >= 0.99


def test_the_callers_transport_carries_every_request(store: RunStore, tmp_path: Path) -> None:
    """The scoring service hands the engine a connection layer that refuses non-public peers
    (DNS rebinding after the submit-time check); the engine must use it for the harness."""
    from dittobench.service.ssrf import GuardedTransport

    def loopback(host: str, port: int) -> list[str]:
        return ["127.0.0.1"]  # the name now points at a private address

    limits = ClientLimits(health_wait_s=0.5, health_interval_s=0.1, run_deadline_s=1.0)
    with harness("nothing") as url:
        options = RunOptions(
            url, 11, "small", "1.1.0", 2, tmp_path / "out", limits,
            transport=lambda: GuardedTransport(loopback),
        )  # fmt: skip
        with pytest.raises(HarnessError, match="non-public"):
            start_run(store, "r-guarded", options, clock, lambda progress: None)
        assert store.get_run("r-guarded").status == "failed"
        plain = run(store, url, tmp_path)  # the same harness without the guard is reached
    assert store.get_run(plain.run_id).status == "done"
