"""A harness that restarts mid-run, and a run stopped and resumed, end with the per-case scores of
an uninterrupted run (protocol.md, "Restarts"): the engine notices the restart, by a new
``instance`` in ``/health`` or by connections refused while the harness was down, and brings the
harness's memory back to where an uninterrupted run has it, the run's own writes (a delete, a
save, an update) included. Real processes on real ports; the harness is killed and started again
on the same port."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.engine.client import ClientLimits
from dittobench.engine.orchestrate import Progress
from dittobench.engine.runner import RunOptions, RunOutcome, resume_run, start_run
from dittobench.generate.assemble import build_dataset
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.vocab import RunSizeName
from dittobench.store import RunStore

SEED = 7
SIZE: RunSizeName = (
    "medium"  # five waves; a delete after the second, a save and an update after the third
)
LIMITS = ClientLimits(
    health_wait_s=20, health_interval_s=0.1, run_deadline_s=20, backoff_s=(0.05, 0.1)
)
STATEFUL = Path(__file__).parents[1] / "helpers" / "stateful_harness.py"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Restartable:
    """A harness process on a fixed port that can be killed and started again there."""

    def __init__(self, command: list[str], port: int) -> None:
        self.command, self.port = command, port
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL
        )
        self.starts += 1
        give_up = time.monotonic() + 20
        while time.monotonic() < give_up:
            try:
                if httpx.get(f"{self.url}/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.05)
        raise RuntimeError(f"{self.command} did not come up on port {self.port}")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            if self.process.stdin is not None:
                self.process.stdin.close()

    def restart(self, gap_s: float = 0.0) -> None:
        self.kill()
        time.sleep(gap_s)
        self.start()


@contextmanager
def _running(command: list[str], port: int) -> Iterator[Restartable]:
    harness = Restartable(command, port)
    harness.start()
    try:
        yield harness
    finally:
        harness.kill()


def baseline() -> AbstractContextManager[Restartable]:
    """The built-in harness: its memory (writes included) lives in the process."""
    port = _free_port()
    return _running([sys.executable, "-m", "dittobench_baseline", "--port", str(port)], port)


def stateful(mode: str, answers: Path, *args: str) -> AbstractContextManager[Restartable]:
    """``tests/helpers/stateful_harness.py`` on a port of its own."""
    port = _free_port()
    command = [
        sys.executable, str(STATEFUL), "--mode", mode, "--answers", str(answers),
        "--port", str(port), "--exit-on-stdin-eof", *args,
    ]  # fmt: skip
    return _running(command, port)


def stateful_memory(answers: Path, delay_ms: int = 20) -> AbstractContextManager[Restartable]:
    """A harness that declares no instance and answers a memory question only when every pair
    it rests on was seeded into this process (writes act on that memory)."""
    return stateful("memory", answers, "--delay-ms", str(delay_ms))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as opened:
        yield opened


def _options(url: str, tmp: Path, version: str = CURRENT_VERSION) -> RunOptions:
    return RunOptions(url, SEED, SIZE, version, 4, tmp / "out", LIMITS)


def _clock() -> str:
    return "2026-12-07T00:00:00Z"


def _quiet(progress: Progress) -> None:
    del progress


def _scores(outcome: RunOutcome) -> dict[str, float]:
    return {c.case_id: c.score for c in outcome.report.per_case}


def _once(when: Callable[[Progress], bool], act: Callable[[], None]) -> Callable[[Progress], None]:
    """A progress reporter that does ``act`` the first time ``when`` holds."""
    done = threading.Event()

    def report(progress: Progress) -> None:
        if not done.is_set() and when(progress):
            done.set()
            act()

    return report


def _seeding(wave: str) -> Callable[[Progress], bool]:
    return lambda p: p.stage == "seeding" and p.note == f"user miner, wave {wave}"


class Stop(Exception):
    """Stands for the run being stopped part-way (a Ctrl-C, a crash)."""


def _stop() -> None:
    raise Stop


def test_a_restart_noticed_by_its_instance_restores_memory_and_writes(
    store: RunStore, tmp_path: Path
) -> None:
    with baseline() as harness:
        whole = _scores(
            start_run(store, "r-whole", _options(harness.url, tmp_path), _clock, _quiet)
        )
    with baseline() as harness:
        # Restarted before wave 2 is seeded (the delete of wave 1 answered): no request sees it
        # down, so only the new instance tells.
        report = _once(_seeding("2"), harness.restart)
        restarted = start_run(store, "r-restart", _options(harness.url, tmp_path), _clock, report)
        assert harness.starts == 2
    assert _scores(restarted) == whole
    assert store.get_run("r-restart").status == "done"


@pytest.mark.parametrize(
    ("gap_s", "delay_ms", "retry_s"),
    [(1.0, 20, 0.05), (0.0, 300, 2.0)],
    ids=["down-a-second", "back-at-once"],
)
def test_a_restart_noticed_by_lost_connections_restores_memory(
    store: RunStore, tmp_path: Path, gap_s: float, delay_ms: int, retry_s: float
) -> None:
    """Down for a second (connections refused), or back at once with the cases in flight cut
    (each takes 300 ms, so some always are) and the engine's retry 2 s later: either way the
    harness declares no instance and is taken to have restarted."""
    options = replace(_options("", tmp_path), limits=replace(LIMITS, backoff_s=(retry_s, retry_s)))
    answers = tmp_path / "answers.json"
    answers.write_bytes(canonical_bytes(build_dataset(SEED, CURRENT_VERSION, SIZE).to_json()))
    with stateful_memory(answers, delay_ms) as harness:
        whole = _scores(
            start_run(store, "r-whole", replace(options, harness_url=harness.url), _clock, _quiet)
        )
    assert min(whole.values()) >= 0.99  # every memory answer needs what was seeded
    with stateful_memory(answers, delay_ms) as harness:
        # Killed while cases are in flight, back with an empty memory.
        in_background = lambda: threading.Thread(target=harness.restart, args=(gap_s,)).start()  # noqa: E731
        report = _once(lambda p: p.stage == "running" and p.done >= 30, in_background)
        restarted = start_run(
            store, "r-restart", replace(options, harness_url=harness.url), _clock, report
        )
        assert harness.starts == 2
    assert _scores(restarted) == whole


@pytest.mark.parametrize(
    ("restart", "wave"),
    [(False, "2"), (False, "3"), (True, "2"), (True, "3")],
    ids=["same-harness-1", "same-harness-2", "restarted-harness-1", "restarted-harness-2"],
)
def test_a_resumed_run_keeps_what_the_harness_was_told_to_forget(
    store: RunStore, tmp_path: Path, restart: bool, wave: str
) -> None:
    answers = tmp_path / "answers.json"
    answers.write_bytes(canonical_bytes(build_dataset(SEED, CURRENT_VERSION, SIZE).to_json()))
    with stateful_memory(answers) as harness:
        whole = _scores(
            start_run(store, "r-whole", _options(harness.url, tmp_path), _clock, _quiet)
        )
    assert min(whole.values()) >= 0.99
    with stateful_memory(answers) as harness:
        # Stopped before wave 2 (the delete of wave 1 answered, its read-back not yet) or before
        # wave 3 (the save and the update of wave 2 answered too): the resume sends the waves
        # again, which must not undo them, nor lose them in a harness that restarted meanwhile.
        options = _options(harness.url, tmp_path)
        with pytest.raises(Stop):
            start_run(store, "r-stop", options, _clock, _once(_seeding(wave), _stop))
        if restart:
            harness.restart()
        resumed = resume_run(store, "r-stop", options, _clock, _quiet)
    assert _scores(resumed) == whole


def _serial_run(store: RunStore, tmp_path: Path, *args: str) -> tuple[RunOutcome, dict[str, int]]:
    answers = tmp_path / "answers.json"
    answers.write_bytes(canonical_bytes(build_dataset(SEED, CURRENT_VERSION, "small").to_json()))
    # 14 cases, 150 ms each one after another: 8 sent at once cannot all finish in 0.8 s.
    limits = ClientLimits(health_wait_s=20, health_interval_s=0.1, run_deadline_s=0.8)
    options = RunOptions("", SEED, "small", CURRENT_VERSION, 8, tmp_path / "out", limits)
    # One case at a time, 150 ms each.
    with stateful("plain", answers, "--delay-ms", "150", "--serial", *args) as harness:
        outcome = start_run(
            store, "r-serial", replace(options, harness_url=harness.url), _clock, _quiet
        )
        stats = httpx.get(f"{harness.url}/stats").json()
    return outcome, stats


def test_a_harness_that_answers_one_case_at_a_time_is_not_charged_for_the_engine_s_haste(
    store: RunStore, tmp_path: Path
) -> None:
    outcome, _ = _serial_run(store, tmp_path)
    records = store.recorded_cases("r-serial").values()
    # The answer keys know no open question: those get a 400 (an answer, graded 0).
    assert {r["execution"]["outcome"] for r in records if r["kind"] != "open"} == {"ok"}
    assert _delivered_scores(outcome) >= 0.99


def test_a_declared_max_concurrency_is_never_exceeded(store: RunStore, tmp_path: Path) -> None:
    outcome, stats = _serial_run(store, tmp_path, "--max-concurrency", "1")
    assert stats["peak"] == 1
    records = store.recorded_cases("r-serial").values()
    assert all(len(r["execution"]["attempts"]) == 1 for r in records)  # nothing timed out
    assert _delivered_scores(outcome) >= 0.99


def _delivered_scores(outcome: RunOutcome) -> float:
    return min(c.score for c in outcome.report.per_case if c.kind != "open")
