"""`dittobench run`, `runs` and `show` as a user runs them, against a real harness process."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset
from dittobench.store import RunRow, RunStore
from tests.helpers.cli import dittobench
from tests.helpers.harness_process import harness


def test_run_then_list_and_show(tmp_path: Path) -> None:
    db, out = tmp_path / "runs.db", tmp_path / "out"
    with harness("nothing") as url:
        result = dittobench(
            "run",
            "--harness",
            url,
            "--seed",
            "4",
            "--db",
            str(db),
            "--out-dir",
            str(out),
            "--json",
            str(tmp_path / "report.json"),
        )
    assert result.returncode == 0, result.stderr
    assert "composite    0.0000" in result.stdout
    run_id = next(
        line.split()[-1] for line in result.stdout.splitlines() if line.startswith("run id")
    )
    assert "[running]" in result.stderr and "[scoring]" in result.stderr
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["n"] == 12 and report["seed"] == "4"
    assert (out / run_id / "transcript.json").exists()
    assert (tmp_path / "keys" / "dittobench-ed25519.pem").exists()  # kept beside the database
    public = tmp_path / "keys" / "dittobench-ed25519.pub.pem"
    shown = dittobench("keys", "show", "--key", str(public))
    assert shown.returncode == 0, shown.stderr
    (tmp_path / "mine.json").write_text(shown.stdout.splitlines()[-1], encoding="utf-8")
    verified = dittobench(
        "verify",
        str(out / run_id / "receipt.json"),
        "--transcript",
        str(out / run_id / "transcript.json"),
        "--trusted-keys",
        str(tmp_path / "mine.json"),
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    # The command the run prints for its receipt works as printed: it names the key beside the
    # store, which is not this installation's own.
    hint = next(line for line in result.stdout.splitlines() if line.startswith("receipt"))
    command = shlex.split(hint[hint.index("(dittobench ") + 1 : -1])
    assert command[:2] == ["dittobench", "verify"] and command[-2:] == [
        "--trusted-keys",
        str(public),
    ]
    printed = dittobench(*command[1:])
    assert printed.returncode == 0, printed.stdout + printed.stderr

    listed = dittobench("runs", "--db", str(db))
    assert listed.returncode == 0 and run_id in listed.stdout and "done" in listed.stdout
    shown = dittobench("show", run_id, "--db", str(db))
    assert shown.returncode == 0
    case_lines = [
        line
        for line in shown.stdout.splitlines()
        if line.split()[:1] and line.split()[0].startswith("c") and len(line.split()[0]) == 17
    ]
    assert len(case_lines) == 12
    missing = dittobench("show", "r-nope", "--db", str(db))
    assert missing.returncode == 2 and "r-nope" in missing.stderr


def test_unreachable_harness_fails_clearly(tmp_path: Path) -> None:
    result = dittobench(
        "run",
        "--harness",
        "http://127.0.0.1:9",
        "--wait",
        "0.5",
        "--db",
        str(tmp_path / "runs.db"),
        "--out-dir",
        str(tmp_path),
    )
    assert result.returncode == 1
    assert "never answered" in result.stderr
    listed = dittobench("runs", "--db", str(tmp_path / "runs.db"))
    assert "failed" in listed.stdout


def test_bad_run_size_exits_2(tmp_path: Path) -> None:
    result = dittobench(
        "run",
        "--harness",
        "http://127.0.0.1:9",
        "--run-size",
        "huge",
        "--db",
        str(tmp_path / "runs.db"),
    )
    assert result.returncode == 2 and "huge" in result.stderr


def test_who_chose_the_seed_is_kept_and_signed(tmp_path: Path) -> None:
    """A --seed makes the run practice (the submitter chose it); a seed the command draws is
    the operator's. The store keeps it and the receipt (format 5, open questions) signs it."""
    db, out = tmp_path / "runs.db", tmp_path / "out"
    with harness("nothing") as url:
        for seed in (["--seed", "4"], []):
            made = dittobench(
                "run", "--harness", url, *seed, "--db", str(db), "--out-dir", str(out)
            )  # fmt: skip
            assert made.returncode == 0, made.stderr
    with RunStore(RunStore.sqlite_url(db)) as store:
        runs = {row.run_id: row for row in store.list_runs() if isinstance(row, RunRow)}
    sources = {}
    for run_id, row in runs.items():
        manifest = json.loads((out / run_id / "receipt.json").read_text("utf-8"))["manifest"]
        assert manifest["format"] == "dittobench-receipt-5"
        assert manifest["seed_source"] == row.seed_source
        sources[manifest["seed"] == "4"] = manifest["seed_source"]
    assert sources == {True: "submitter", False: "operator"}


def test_a_replay_of_offline_answers_is_practice(tmp_path: Path) -> None:
    """Answers written for a seed were written knowing it: the replay's run is the submitter's."""
    (tmp_path / "answers.jsonl").write_text("", encoding="utf-8")
    made = dittobench(
        "replay", str(tmp_path / "answers.jsonl"), "--seed", "5",
        "--db", str(tmp_path / "runs.db"), "--out-dir", str(tmp_path / "out"), cwd=tmp_path,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    receipt = json.loads(next((tmp_path / "out").glob("*/receipt.json")).read_text("utf-8"))
    assert receipt["manifest"]["seed_source"] == "submitter"


def test_run_starts_the_builtin_baseline_by_default(tmp_path: Path) -> None:
    result = dittobench(
        "run", "--seed", "6", "--db", str(tmp_path / "runs.db"), "--out-dir", str(tmp_path / "out")
    )
    assert result.returncode == 0, result.stderr
    assert "composite" in result.stdout and "receipt" in result.stdout
    assert (tmp_path / "baseline").is_dir()  # its memory, kept for a resume
    report = json.loads(next((tmp_path / "out").glob("*/report.json")).read_text("utf-8"))
    assert report["n"] == 12
    assert report["details"]["undelivered_cases"] == 0


def test_a_database_url_keeps_runs_in_postgresql(tmp_path: Path, postgres_database: str) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "dittobench", *args]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)

    result = cli("run", "--seed", "8", "--db", postgres_database, "--out-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    run_id = next(
        line.split()[-1] for line in result.stdout.splitlines() if line.startswith("run id")
    )
    # No SQLite file anywhere; the installation's own files go to its data folder.
    assert (tmp_path / "data" / "dittobench" / "keys" / "dittobench-ed25519.pem").exists()
    assert (tmp_path / "data" / "dittobench" / "baseline" / f"{run_id}.db").exists()
    with RunStore(postgres_database) as store:
        assert store.get_run(run_id).status == "done"
        assert len(store.recorded_cases(run_id)) == 14  # 12 graded, 2 open questions
    listed = cli("runs", "--db", postgres_database)
    assert listed.returncode == 0 and run_id in listed.stdout
    shown = cli("show", run_id, "--db", postgres_database)
    assert shown.returncode == 0 and "composite" in shown.stdout


def test_a_database_that_cannot_be_opened_exits_2_without_its_password(tmp_path: Path) -> None:
    for url, said in [
        ("postgresql+psycopg://me:s3cret@127.0.0.1:1/runs", "connection"),
        ("nosuchdb://me:s3cret@host/runs", "no driver"),
        ("postgresql+psycopg://me@127.0.0.1:1/runs?password=s3cret", "connection"),
        ("postgresql+psycopg://me:s3c@ret@127.0.0.1:1/runs", "cannot open"),  # unescaped @
        ("postgresql+psycopg://me:s3cret@127.0.0.1:port/runs", "not a database URL"),
    ]:
        result = dittobench("runs", "--db", url)
        assert result.returncode == 2, result.stderr
        assert said in result.stderr and "s3c" not in result.stderr, result.stderr
        assert "Traceback" not in result.stderr


@pytest.mark.parametrize("flag", ["--strict-order", "--overlap"])
def test_schedule_flags_reach_the_engine(tmp_path: Path, flag: str) -> None:
    with harness("slow", "--delay-ms", "10") as url:
        result = dittobench(
            "run", "--harness", url, "--seed", "3", flag, "--concurrency", "4",
            "--db", str(tmp_path / "runs.db"), "--out-dir", str(tmp_path / "out"),
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
            f"{url}/stats", timeout=5
        ) as reply:
            events = json.loads(reply.read())["events"]
    run_id = next(
        line.split()[-1] for line in result.stdout.splitlines() if line.startswith("run id")
    )
    with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
        assert store.get_run(run_id).schedule == ("safe" if flag == "--strict-order" else "overlap")
    in_flight, overlapped = 0, 0
    for event in events:
        in_flight += {"start": 1, "end": -1}.get(event[0], 0)
        overlapped += event[0] == "seed" and in_flight > 0
    if flag == "--strict-order":
        assert overlapped == 0


def test_contradictory_schedule_flags_exit_2(tmp_path: Path) -> None:
    result = dittobench(
        "run", "--harness", "http://127.0.0.1:9", "--strict-order", "--overlap",
        "--db", str(tmp_path / "runs.db"), "--out-dir", str(tmp_path / "out"),
    )  # fmt: skip
    assert result.returncode == 2 and "choose one" in result.stderr, result.stderr


def test_no_reseed_without_resume_is_a_usage_error(tmp_path: Path) -> None:
    """--no-reseed only means something to a resumed run: alone it is refused (exit 2, naming
    both options) before anything is made."""
    result = dittobench(
        "run", "--harness", "http://127.0.0.1:9", "--no-reseed",
        "--db", str(tmp_path / "runs.db"), "--out-dir", str(tmp_path / "out"),
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "--no-reseed" in result.stderr and "--resume" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "runs.db").exists() and not (tmp_path / "out").exists()


INTERRUPTED = """
import asyncio, os, signal, sys, time
import dittobench.engine.runner as runner

def ctrl_c():
    os.kill(os.getpid(), signal.SIGINT)  # as a terminal's Ctrl-C would

def generating(*args, **kwargs):  # interrupted while the dataset is made, before it is stored
    ctrl_c()
    time.sleep(30)

async def running(*args, **kwargs):  # interrupted with the run stored and its cases running
    ctrl_c()
    await asyncio.sleep(30)

if sys.argv.pop(1) == "generating":
    runner.build_dataset = generating
else:
    runner.execute_run = running
from dittobench.cli.app import main
sys.argv[0] = "dittobench"
main()
"""


@pytest.mark.parametrize("when", ["generating", "running"])
def test_ctrl_c_offers_a_resume_only_for_a_run_that_was_stored(tmp_path: Path, when: str) -> None:
    """Ctrl-C while the dataset is being made leaves no run behind: the message says nothing
    was stored and to run again, never a --resume of a run id that does not exist. Once the run
    is stored, Ctrl-C names the --resume that finishes it."""
    db = tmp_path / "runs.db"
    with harness("nothing") as url:
        result = subprocess.run(
            [sys.executable, "-c", INTERRUPTED, when, "run", "--harness", url, "--seed", "5",
             "--db", str(db), "--out-dir", str(tmp_path / "out")],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr
    with RunStore(RunStore.sqlite_url(db)) as store:
        stored = [row.run_id for row in store.list_runs()]
    if when == "generating":
        assert stored == [] and "--resume" not in result.stderr
        assert "nothing was stored" in result.stderr and "run the command again" in result.stderr
    else:
        assert len(stored) == 1
        assert f"finish it with: dittobench run --resume {stored[0]}" in result.stderr


def interrupted_then_resumed(db: Path, out: Path, url: str) -> str:
    """A run interrupted by Ctrl-C while its cases run, then resumed once with ``--resume``; its
    id. The fresh start counts no resume; the resume counts one."""
    started = subprocess.run(
        [sys.executable, "-c", INTERRUPTED, "running", "run", "--harness", url, "--seed", "5",
         "--db", str(db), "--out-dir", str(out)],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert started.returncode == 130, started.stderr
    with RunStore(RunStore.sqlite_url(db)) as store:
        (row,) = [r for r in store.list_runs() if isinstance(r, RunRow) and r.status != "done"]
    assert row.status == "interrupted" and row.resumes == 0
    resumed = dittobench(
        "run", "--resume", row.run_id, "--harness", url, "--db", str(db), "--out-dir", str(out)
    )
    assert resumed.returncode == 0, resumed.stderr
    return row.run_id


def test_a_resume_is_counted_and_listed(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with harness("nothing") as url:
        run_id = interrupted_then_resumed(db, tmp_path / "out", url)
    with RunStore(RunStore.sqlite_url(db)) as store:
        row = store.get_run(run_id)
    assert (row.status, row.resumes) == ("done", 1)
    listed = dittobench("runs", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    (line,) = [line for line in listed.stdout.splitlines() if line.startswith(run_id)]
    assert line.endswith("resumed ×1")


def test_the_summary_says_how_many_cases_got_no_answer(tmp_path: Path) -> None:
    """An answer-key harness that cannot place two of the tool cases (left out of its key) nor
    the open questions answers them 400: the summary `run` prints at the end, and `show`, say
    how many cases got no answer and why. Every case answered: no such line."""
    dataset = build_dataset(6, run_size="small")  # the version `run` uses by default
    key = dataset.to_json()
    key["tool_cases"] = key["tool_cases"][2:]
    (tmp_path / "key.json").write_bytes(canonical_bytes(key))
    db = tmp_path / "runs.db"
    with harness("oracle", "--answers", str(tmp_path / "key.json")) as url:
        result = dittobench(
            "run", "--harness", url, "--seed", "6",
            "--db", str(db), "--out-dir", str(tmp_path / "out"),
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    run_id = next(line.split()[-1] for line in lines if line.startswith("run id"))
    records = json.loads((tmp_path / "out" / run_id / "transcript.json").read_bytes())["cases"]
    missing = [r for r in records if r["response"] is None]  # the open questions too: no key
    assert len(missing) >= 2 and {r["execution"]["outcome"] for r in missing} == {"http_error"}
    said = f"undelivered  {len(missing)} of {len(records)} cases ({len(missing)} http_error)"
    assert said in lines
    shown = dittobench("show", run_id, "--db", str(db))
    assert shown.returncode == 0 and said in shown.stdout.splitlines()
    with harness("nothing") as url:
        answered = dittobench(
            "run", "--harness", url, "--seed", "6",
            "--db", str(db), "--out-dir", str(tmp_path / "out"),
        )  # fmt: skip
    assert answered.returncode == 0 and "undelivered" not in answered.stdout
