"""`dittobench harness check URL` against real harness processes: the built-in baseline passes,
and a broken harness is named by its first failing step, the later ones skipped."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers.cli import dittobench
from tests.helpers.harness_process import harness


def _steps(stdout: str) -> dict[str, dict[str, str]]:
    listed = json.loads(stdout)
    assert [step["step"] for step in listed] == [
        "health",
        "seed",
        "memory",
        "tool",
        "tool endpoint",
    ]
    return {step["step"]: step for step in listed}


def test_the_builtin_baseline_passes_every_step() -> None:
    done = dittobench("harness", "check", "builtin", "--seed", "5", "--json")
    assert done.returncode == 0, done.stderr
    steps = _steps(done.stdout)
    assert {name: step["status"] for name, step in steps.items()} == dict.fromkeys(steps, "pass")
    assert "1 wave(s)" in steps["seed"]["detail"]
    assert "call(s) reached http://127.0.0.1:" in steps["tool endpoint"]["detail"]


def test_a_harness_that_never_calls_its_tools_gets_a_warning() -> None:
    with harness("nothing") as url:
        done = dittobench("harness", "check", url, "--seed", "7", "--json")
    assert done.returncode == 0, done.stderr
    steps = _steps(done.stdout)
    assert [steps[n]["status"] for n in ("health", "seed", "memory", "tool")] == ["pass"] * 4
    assert steps["tool endpoint"]["status"] == "warn"
    assert "scores 0 on tool cases" in steps["tool endpoint"]["detail"]


@pytest.mark.parametrize(
    ("mode", "said"), [("error500", "http_error HTTP 500"), ("malformed", "bad_json")]
)
def test_a_broken_run_reply_is_named_at_the_memory_step(mode: str, said: str) -> None:
    with harness(mode) as url:
        done = dittobench("harness", "check", url, "--seed", "7", "--json", "--case-timeout", "5")
    assert done.returncode == 1
    steps = _steps(done.stdout)
    assert steps["health"]["status"] == steps["seed"]["status"] == "pass"
    assert steps["memory"]["status"] == "fail"
    assert said in steps["memory"]["detail"]
    assert steps["tool"]["status"] == steps["tool endpoint"]["status"] == "skipped"
    assert "fails the memory step" in done.stderr


def test_a_harness_that_is_not_there_fails_at_health() -> None:
    with socket.socket() as held:  # a port nobody listens on while the check runs
        held.bind(("127.0.0.1", 0))
        port = held.getsockname()[1]
        done = dittobench("harness", "check", f"http://127.0.0.1:{port}", "--wait", "0.5")
    assert done.returncode == 1
    first = done.stdout.splitlines()[0]
    assert first.startswith("FAIL") and "health" in first and "never answered 2xx" in first
    assert all(line.startswith("SKIPPED") for line in done.stdout.splitlines()[1:])


def test_a_url_that_is_not_one_exits_2() -> None:
    done = dittobench("harness", "check", "ftp://example.org")
    assert done.returncode == 2
    assert "URL must be `builtin` or an http(s) URL" in done.stderr


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "minimal_harness.py"


@pytest.fixture
def example_harness() -> Iterator[str]:
    """docs/protocol.md's 50-line harness, as its reader would start it."""
    process = subprocess.Popen(
        [sys.executable, str(EXAMPLE), "0"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("listening on http://127.0.0.1:"), line
        yield line.split()[-1]
    finally:
        process.terminate()
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


def test_the_protocol_pages_example_harness_passes_and_runs(
    example_harness: str, tmp_path: Path
) -> None:
    done = dittobench("harness", "check", example_harness, "--seed", "11", "--json")
    assert done.returncode == 0, done.stderr
    assert {step["status"] for step in _steps(done.stdout).values()} == {"pass"}
    ran = dittobench(
        "run", "--harness", example_harness, "--run-size", "small", "--seed", "11",
        "--db", str(tmp_path / "runs.db"), "--out-dir", str(tmp_path / "runs"), cwd=tmp_path,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    transcript = json.loads(next((tmp_path / "runs").glob("*/transcript.json")).read_bytes())
    outcomes = {case["execution"]["outcome"] for case in transcript["cases"]}
    assert outcomes == {"ok"}, "the example must never break the protocol"
    assert any(case["observed"] for case in transcript["cases"] if case["kind"] == "tool")
