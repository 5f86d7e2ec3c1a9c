"""`dittobench generate` as a user runs it: real subprocesses, real files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.helpers.cli import dittobench


def test_out_file_bytes_hash_to_the_printed_sha(tmp_path: Path) -> None:
    out = tmp_path / "dataset.json"
    wrote = dittobench("generate", "--seed", "7", "--run-size", "medium", "--out", str(out))
    assert wrote.returncode == 0, wrote.stderr
    sha = dittobench("generate", "--seed", "7", "--run-size", "medium", "--sha")
    assert sha.returncode == 0
    assert hashlib.sha256(out.read_bytes()).hexdigest() == sha.stdout.strip()
    data = json.loads(out.read_bytes())
    assert data["seed"] == "7" and data["run_size"] == "medium"
    assert {
        "seed",
        "bench_version",
        "generated_at",
        "tool_cases",
        "memory_waves",
        "memory_cases",
        "tool_fixtures",
        "benchmark",
        "run_size",
        "telemetry",
        "pack",  # bench 3.0.0 names its own pack
        "open_cases",  # bench 8.0.0's open questions
    } == set(data)
    assert data["pack"]["id"] == "public-8.0"
    assert len(data["open_cases"]) == 8
    assert len(data["tool_cases"]) == 40
    assert len(data["memory_cases"]) == 52 + 4
    assert [w["wave"] for w in data["memory_waves"]] == [0, 0, 1, 2, 3]


def test_stdout_is_the_canonical_bytes() -> None:
    printed = dittobench("generate", "--seed", "11")
    sha = dittobench("generate", "--seed", "11", "--sha")
    assert hashlib.sha256(printed.stdout.encode()).hexdigest() == sha.stdout.strip()


def test_without_seed_a_fresh_one_is_printed_on_stderr() -> None:
    result = dittobench("generate", "--sha")
    assert result.returncode == 0
    line = result.stderr.strip()
    assert line.startswith("seed: ")
    seed = int(line.removeprefix("seed: "))
    again = dittobench("generate", "--seed", str(seed), "--sha")
    assert again.stdout == result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seed", "-1"], "--seed must be an integer from 0 to"),
        (["--seed", str(2**63)], "--seed must be an integer from 0 to"),
        (["--seed", "abc"], "Invalid value for '--seed'"),
        (["--seed", "1", "--run-size", "huge"], "huge"),
        (["--seed", "1", "--bench-version", "9.9.9"], "unknown bench version '9.9.9'"),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message(args: list[str], message: str) -> None:
    result = dittobench("generate", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert result.stdout == ""


def test_unwritable_out_path_is_reported(tmp_path: Path) -> None:
    result = dittobench("generate", "--seed", "1", "--out", str(tmp_path / "missing" / "d.json"))
    assert result.returncode == 2
    assert "cannot write" in result.stderr


def test_help_explains_the_command() -> None:
    result = dittobench("generate", "--help")
    assert result.returncode == 0
    for option in ("--seed", "--run-size", "--bench-version", "--out", "--sha"):
        assert option in result.stdout
