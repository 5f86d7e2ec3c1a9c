"""The engine's life as a process among others, through real processes, signals and sockets: a
SIGINT it was started to ignore never stops its tool endpoint; a second ``--resume`` of a run
being driven refuses and changes nothing; a killed engine leaves no built-in harness behind; a
neighbour's malformed requests cannot wedge the built-in harness."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.engine import runner
from dittobench.engine.client import ClientLimits
from dittobench.engine.launcher import builtin_harness
from dittobench.engine.runner import RunOptions, start_run
from dittobench.generate.assemble import build_dataset
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.vocab import RunSizeName
from dittobench.store import RunStore, StoreError
from tests.helpers.stateful_process import stateful

SEED = 29
SIZE: RunSizeName = "medium"
LIMITS = ClientLimits(health_wait_s=10, health_interval_s=0.05, run_deadline_s=10.0)
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def answers_file(tmp_path: Path) -> Path:
    path = tmp_path / "answers.json"
    path.write_bytes(canonical_bytes(build_dataset(SEED, CURRENT_VERSION, SIZE).to_json()))
    return path


def cli(tmp_path: Path, *args: str) -> list[str]:
    return [
        sys.executable, "-m", "dittobench", "run", "--db", str(tmp_path / "runs.db"),
        "--out-dir", str(tmp_path / "out"), "--bench-version", CURRENT_VERSION, *args,
    ]  # fmt: skip


def ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def wait_for_line(stream: IO[bytes], start: str, timeout: float = 60) -> str:
    """The first line of ``stream`` starting with ``start`` (stderr of a run: plain lines)."""
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        line = stream.readline().decode()
        assert line, f"the engine exited before printing {start!r}"
        if line.startswith(start):
            return line
    raise AssertionError(f"no {start!r} line within {timeout} s")


def per_case(report: dict[str, Any]) -> dict[str, float]:
    return {case["case_id"]: case["score"] for case in report["per_case"]}


def stats(url: str) -> dict[str, int]:
    with OPENER.open(f"{url}/stats", timeout=5) as reply:
        found: dict[str, int] = json.loads(reply.read())
    return found


def test_an_ignored_sigint_never_stops_the_tool_endpoint(tmp_path: Path) -> None:
    answers = answers_file(tmp_path)
    with stateful("plain", answers, "--delay-ms", "60") as harness:
        with RunStore(RunStore.sqlite_url(tmp_path / "reference.db")) as store:
            options = RunOptions(
                harness.url, SEED, SIZE, CURRENT_VERSION, 4, tmp_path / "ref", LIMITS
            )
            reference = start_run(
                store, "r-ref", options, lambda: "2026-12-01T00:00:00Z", lambda p: None
            )
        command = cli(tmp_path, "--harness", harness.url, "--seed", str(SEED), "--run-size", SIZE)
        command += ["--concurrency", "4"]
        with subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=ignore_sigint,  # as a script started in the background is
        ) as engine:
            try:
                assert engine.stderr is not None
                wait_for_line(engine.stderr, "[running]")
                for _ in range(3):  # while tool cases are in flight
                    time.sleep(0.3)
                    engine.send_signal(signal.SIGINT)
                out, err = engine.communicate(timeout=120)
            finally:
                engine.kill()
    assert engine.returncode == 0, err
    run_id = next(
        line.split()[-1] for line in out.decode().splitlines() if line.startswith("run id")
    )
    report = json.loads((tmp_path / "out" / run_id / "report.json").read_text("utf-8"))
    assert per_case(report) == {c.case_id: c.score for c in reference.report.per_case}
    assert report["details"]["observed_tool_cases"] == reference.report.details.observed_tool_cases


def test_a_second_resume_of_a_run_being_driven_refuses(tmp_path: Path) -> None:
    answers = answers_file(tmp_path)
    dataset = build_dataset(SEED, CURRENT_VERSION, SIZE)
    with stateful("plain", answers, "--delay-ms", "150") as harness:
        first = cli(tmp_path, "--harness", harness.url, "--seed", str(SEED), "--run-size", SIZE)
        with subprocess.Popen(first, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as engine:
            assert engine.stderr is not None
            run_id = wait_for_line(engine.stderr, "run r-").split()[1]
            wait_for_line(engine.stderr, "[running]")
            engine.send_signal(signal.SIGINT)
            engine.communicate(timeout=60)
        assert engine.returncode == 130
        seeded_before = stats(harness.url)["seeds"]
        resume = cli(tmp_path, "--resume", run_id, "--harness", harness.url, "--concurrency", "2")
        with subprocess.Popen(resume, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as holder:
            try:
                assert holder.stderr is not None
                wait_for_line(holder.stderr, "[running]")
                with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
                    before = store.get_run(run_id)
                second = subprocess.run(resume, capture_output=True, text=True, timeout=60)
                with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
                    after = store.get_run(run_id)
                overlapped = holder.poll() is None
                _, err = holder.communicate(timeout=120)
            finally:
                holder.kill()
        assert second.returncode != 0
        assert "being driven by another process" in second.stderr, second.stderr
        assert overlapped, "the first resume ended before the second started: nothing tested"
        assert (after.status, after.lease_owner) == (before.status, before.lease_owner)
        assert holder.returncode == 0, err
        # Only the first resume sent its waves again: the refused one sent nothing.
        assert stats(harness.url)["seeds"] == seeded_before + len(dataset.memory_waves)
    with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
        row = store.get_run(run_id)
    assert (row.status, row.lease_owner, row.cases_done) == ("done", "", row.cases_total)


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        with suppress(OSError):
            found += [int(p) for p in (task / "children").read_text().split()]
    return found


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (OSError, IndexError):
        return True
    return state == "Z"  # exited; whoever adopted it has not reaped it yet


def test_a_killed_engine_leaves_no_builtin_harness_behind(tmp_path: Path) -> None:
    command = cli(tmp_path, "--seed", str(SEED), "--run-size", SIZE, "--concurrency", "1")
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as engine:
        try:
            assert engine.stderr is not None
            wait_for_line(engine.stderr, "[running]")
            harnesses = children(engine.pid)
            assert len(harnesses) == 1, harnesses
        finally:
            engine.send_signal(signal.SIGKILL)
            engine.wait(timeout=10)
    give_up = time.monotonic() + 15
    while not gone(harnesses[0]) and time.monotonic() < give_up:
        time.sleep(0.1)
    alive = not gone(harnesses[0])
    if alive:
        os.kill(harnesses[0], signal.SIGKILL)  # leave nothing behind, then fail
    assert not alive, "the built-in harness outlived the engine killed under it"


@contextmanager
def raw_connection(url: str) -> Iterator[socket.socket]:
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        yield sock


def test_malformed_requests_cannot_wedge_the_builtin_harness(tmp_path: Path) -> None:
    with builtin_harness(tmp_path / "baseline" / "r-x.db") as url:
        for _ in range(4000):  # each makes it log a line to its stderr
            try:
                with raw_connection(url) as sock:
                    sock.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
                    sock.recv(1024)
            except OSError:
                break  # a wedged harness stops answering: /health below says so
        with OPENER.open(f"{url}/health", timeout=10) as reply:
            assert reply.status == 200


def test_a_driver_whose_run_is_taken_over_stops_and_leaves_it_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(runner, "RENEW_EVERY_S", 0.1)  # notice the take-over within the test
    answers = answers_file(tmp_path)
    stamp = "2026-12-01T00:00:00Z"
    with (
        stateful("plain", answers, "--delay-ms", "100") as harness,
        RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store,
    ):

        def steal() -> None:
            give_up = time.monotonic() + 30
            while time.monotonic() < give_up:
                with suppress(StoreError):
                    row = store.get_run("r-20261201-000000-000001")
                    if row.cases_done >= 5:
                        store.claim_run(
                            row.run_id, "thief", now=stamp, until=stamp, take_over=row.lease_owner
                        )
                        return
                time.sleep(0.02)

        thief = threading.Thread(target=steal)
        thief.start()
        options = RunOptions(harness.url, SEED, SIZE, CURRENT_VERSION, 2, tmp_path / "out", LIMITS)
        with pytest.raises(runner.LeaseLost, match="taken over"):
            start_run(store, "r-20261201-000000-000001", options, lambda: stamp, lambda p: None)
        thief.join()
        row = store.get_run("r-20261201-000000-000001")
    assert (row.lease_owner, row.status) == ("thief", "running")  # untouched by the loser
    assert row.cases_done < row.cases_total
