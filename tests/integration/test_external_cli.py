"""`dittobench external run` and `dittobench external verify` as a user runs them: each format
end to end against the real built-in baseline harness (a subprocess), then the receipt checked,
the run regraded from the source file, and tampering caught."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.helpers.cli import dittobench
from tests.helpers.judge_server import scripted_judge

DATA = Path(__file__).resolve().parents[1] / "data" / "external"
COUNTS = {"longmemeval": 8, "locomo": 10}


@pytest.mark.parametrize("fmt", ["longmemeval", "locomo"])
def test_each_format_end_to_end_against_the_builtin_baseline(tmp_path: Path, fmt: str) -> None:
    source = DATA / f"{fmt}-mini.json"
    out = tmp_path / "out"
    run = dittobench(
        "external", "run", str(source), "--format", fmt, "--harness", "builtin",
        "--allow-unknown-file", "--out", str(out), cwd=tmp_path,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    assert "is no known release" in run.stderr  # the unknown file is said, not hidden
    first = run.stdout.splitlines()[0]
    assert first.startswith("EXTERNAL SUITE") and "not a dittobench score" in first
    assert "composite" not in run.stdout.lower()
    assert "unjudged" in run.stdout  # no --judge-url: open questions recorded, not judged

    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    transcript_bytes = (out / "transcript.json").read_bytes()
    transcript = json.loads(transcript_bytes)
    assert report["benchmark"] == "dittobench-external" and report["format"] == fmt
    assert report["release"] == "" and report["allow_unknown"] is True
    assert len(report["per_question"]) == len(transcript["records"]) == COUNTS[fmt]
    delivered = [r for r in transcript["records"] if r["response"] is not None]
    assert len(delivered) == COUNTS[fmt]  # the baseline answered every question
    assert report["transcript_sha256"] == hashlib.sha256(transcript_bytes).hexdigest()
    statuses: dict[str, set[str]] = {v["graded_by"]: set() for v in report["per_question"]}
    for verdict in report["per_question"]:
        statuses[verdict["graded_by"]].add(verdict["status"])
    assert statuses == {"value": {"graded"}, "decline": {"graded"}, "open": {"not_judged"}}
    assert report["identity"] == transcript["identity"]  # what /health declared, if anything
    assert (out / "report.html").read_text(encoding="utf-8").count("not a dittobench score") >= 1

    receipt = out / "receipt.json"
    checked = dittobench(
        "external", "verify", str(receipt), "--transcript", str(out / "transcript.json"),
        "--report", str(out / "report.json"), "--source", str(source), cwd=tmp_path,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "verdict: VERIFIED" in checked.stdout
    for name in ("signature", "transcript", "report", "suite", "regrade"):
        assert any(
            line.startswith("ok") and f" {name} " in f"{line} "
            for line in checked.stdout.splitlines()
        ), (name, checked.stdout)

    # The dittobench verifier points at the external one.
    plain = dittobench("verify", str(receipt), cwd=tmp_path)
    assert plain.returncode == 2 and "dittobench external verify" in plain.stderr

    # A changed reply no longer regrades to the signed report.
    transcript["records"][0]["response"]["final_text"] = "Something else entirely."
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(transcript), encoding="utf-8")
    caught = dittobench(
        "external", "verify", str(receipt), "--transcript", str(forged), "--source", str(source),
        cwd=tmp_path,
    )  # fmt: skip
    assert caught.returncode == 1 and "NOT VERIFIED" in caught.stdout
    assert "transcript" in caught.stdout.split("failed:")[1]


def test_an_unknown_file_is_refused_before_anything_runs(tmp_path: Path) -> None:
    source = DATA / "locomo-mini.json"
    refused = dittobench(
        "external", "run", str(source), "--format", "locomo", "--harness", "http://127.0.0.1:9",
        "--out", str(tmp_path / "out"), cwd=tmp_path,
    )  # fmt: skip
    assert refused.returncode == 2
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    assert digest in refused.stderr and "--allow-unknown-file" in refused.stderr
    assert not (tmp_path / "out").exists()


def test_a_malformed_file_names_the_path(tmp_path: Path) -> None:
    data = json.loads((DATA / "longmemeval-mini.json").read_text(encoding="utf-8"))
    data[2]["haystack_sessions"][0][0]["role"] = "narrator"
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    result = dittobench(
        "external", "run", str(broken), "--format", "longmemeval", "--allow-unknown-file",
        cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 2
    assert f"{broken}: $[2].haystack_sessions[0][0].role" in result.stderr


def test_open_questions_are_judged_with_a_judge_and_regraded_from_its_replies(
    tmp_path: Path,
) -> None:
    source, out = DATA / "locomo-mini.json", tmp_path / "out"
    with scripted_judge() as (url, script):
        run = dittobench(
            "external", "run", str(source), "--format", "locomo", "--allow-unknown-file",
            "--judge-url", url, "--out", str(out), cwd=tmp_path,
        )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    opened = [v for v in report["per_question"] if v["graded_by"] == "open"]
    assert opened and {v["status"] for v in opened} <= {"judged", "no_answer"}
    asked = sum(1 for v in opened if v["status"] == "judged")
    assert len(script.requests) == 3 * asked  # a panel of three per answered open question
    assert report["judged"]["scored"] == len(opened) and report["judge"]["official"] is True
    assert report["rules"]["n"] == len(report["per_question"]) - len(opened)
    checked = dittobench(
        "external", "verify", str(out / "receipt.json"), "--transcript",
        str(out / "transcript.json"), "--source", str(source), cwd=tmp_path,
    )  # fmt: skip
    assert checked.returncode == 0 and "verdict: VERIFIED" in checked.stdout, checked.stdout
