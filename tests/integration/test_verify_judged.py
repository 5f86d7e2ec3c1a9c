"""`dittobench run --judge-url` then `dittobench verify` on its receipt (format 5), as a user runs
them: real processes, the built-in baseline harness, and the scripted judge (a real HTTP server,
``tests/helpers/judge_server.py``).

Pinned: a judged run verifies, with the transcript and regraded, and the output says which scores
are recomputed by rules and which are bound but judged (and by which model, official or not); an
edited verdict in the receipt and an edited reply in the transcript fail, naming the case; an
unofficial judge is signed and shown as unofficial; an unjudged run verifies and says so;
`--rejudge` reports full agreement against the same judge and per-item disagreement against a
judge that says the opposite (or nothing usable), without failing or changing the receipt.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from dittobench.receipts.keys import PUBLIC_KEY_NAME, TrustedKeys, load_public_key, trusted_entry
from tests.helpers.cli import dittobench
from tests.helpers.judge_server import JudgeScript, _Server, scripted_judge

VERSION = "8.0.0"
OTHER_MODEL = "some-other-model-q8"


@dataclass
class ContraryScript(JudgeScript):
    """A judge that says the opposite of the scripted rule for every item."""

    def reply(self, body: dict[str, Any]) -> str:
        said = super().reply(body)
        return said.replace("YES", "\0").replace("NO", "YES").replace("\0", "NO")


@contextmanager
def contrary_judge() -> Iterator[str]:
    server = _Server(ContraryScript())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()


@dataclass(frozen=True)
class Run:
    receipt_path: Path
    transcript_path: Path
    trusted_path: Path
    """A trusted-keys file of the key the run signed with (kept beside its --db)."""

    @property
    def receipt(self) -> dict[str, Any]:
        return dict(json.loads(self.receipt_path.read_text(encoding="utf-8")))

    def verify(self, *options: str, receipt: Path | None = None) -> tuple[int, str]:
        trusted = ("--trusted-keys", str(self.trusted_path))
        done = dittobench(
            "verify", str(receipt or self.receipt_path), *trusted, *options, timeout=300
        )
        return done.returncode, done.stdout + done.stderr


def make_run(home: Path, *judging: str) -> Run:
    made = dittobench(
        "run",
        "--bench-version",
        VERSION,
        "--run-size",
        "small",
        "--seed",
        "11",
        "--db",
        str(home / "runs.db"),
        "--out-dir",
        str(home / "out"),
        *judging,
        cwd=home,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    receipt = next((home / "out").glob("*/receipt.json"))
    key = load_public_key(home / "keys" / PUBLIC_KEY_NAME)
    trusted = home / "trusted.json"
    entry = trusted_entry(key, "2000-01-01T00:00:00Z")
    trusted.write_text(json.dumps(TrustedKeys((entry,)).to_json()), encoding="utf-8")
    return Run(receipt, receipt.with_name("transcript.json"), trusted)


@pytest.fixture(scope="module")
def judge() -> Iterator[str]:
    with scripted_judge() as (url, _):
        yield url


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory, judge: str) -> Run:
    return make_run(tmp_path_factory.mktemp("judged"), "--judge-url", judge)


def open_case_ids(receipt: dict[str, Any]) -> list[str]:
    return [e["case_id"] for e in receipt["leaves"] if "judged" in e["leaf"]]


def test_a_judged_run_verifies_and_says_what_is_judged(judged: Run) -> None:
    receipt = judged.receipt
    assert receipt["manifest"]["format"] == "dittobench-receipt-5"
    assert receipt["manifest"]["nuance"]["official"] is True
    assert open_case_ids(receipt)
    code, out = judged.verify("--transcript", str(judged.transcript_path), "--regrade")
    assert code == 0, out
    assert "ok    transcript judge" in out
    assert "recomputed by rules" in out
    assert "bound but judged, by model" in out and "(official)" in out
    assert "nuance recomputed from the judge's replies in the transcript" in out
    code, out = judged.verify("--regrade")
    assert code == 0, out
    assert "the signed verdicts are bound but judged" in out
    assert out.rstrip().splitlines()[-1].startswith("verdict: VERIFIED")


def test_an_edited_verdict_fails_naming_its_leaf(judged: Run, tmp_path: Path) -> None:
    receipt = judged.receipt
    entry = next(e for e in receipt["leaves"] if e["leaf"].get("judged", {}).get("verdicts"))
    verdicts = entry["leaf"]["judged"]["verdicts"]
    item = sorted(verdicts)[0]
    verdicts[item] = "NO" if verdicts[item] == "YES" else "YES"
    edited = tmp_path / "receipt.json"
    edited.write_text(json.dumps(receipt), encoding="utf-8")
    code, out = judged.verify(receipt=edited)
    assert code == 1
    assert "FAIL  leaf hashes" in out and f"case {entry['case_id']}: leaf hashes to" in out
    assert "verdict: NOT VERIFIED (failed: leaf hashes, merkle root)" in out


def test_an_edited_reply_in_the_transcript_fails(judged: Run, tmp_path: Path) -> None:
    transcript = json.loads(judged.transcript_path.read_text(encoding="utf-8"))
    judgement = transcript["judge"]["judgements"][0]
    judgement["calls"][0]["reply"] += "\n(one more line)"
    edited = tmp_path / "transcript.json"
    edited.write_text(json.dumps(transcript), encoding="utf-8")
    code, out = judged.verify("--transcript", str(edited))
    assert code == 1
    assert "FAIL  transcript hash" in out
    assert f"case {judgement['case_id']}: the judge calls" in out


def test_rejudge_agrees_with_the_same_judge(judged: Run, judge: str) -> None:
    code, out = judged.verify(
        "--transcript", str(judged.transcript_path), "--rejudge", "--judge-url", judge
    )
    assert code == 0, out
    assert "ok    full agreement:" in out
    assert "DIFF" not in out


def test_rejudge_reports_disagreement_per_item(judged: Run) -> None:
    before = judged.receipt_path.read_bytes()
    transcript = ("--transcript", str(judged.transcript_path))
    with contrary_judge() as url:
        code, out = judged.verify(*transcript, "--rejudge", "--judge-url", url)
    assert code == 0, out  # a judge is a model: disagreement is reported, not failed
    assert "DIFF  agreement: 0 of" in out
    diffs = [line for line in out.splitlines() if line.startswith("  DIFF  case ")]
    assert len(diffs) == len(open_case_ids(judged.receipt))
    assert " receipt NO rejudged YES" in out
    with scripted_judge("garbage") as (url, _):
        code, out = judged.verify(*transcript, "--rejudge", "--judge-url", url)
    assert code == 0, out
    assert "rejudge judge_error" in out
    assert judged.receipt_path.read_bytes() == before  # never changed


def test_rejudge_needs_a_transcript_and_a_judge(judged: Run, judge: str) -> None:
    code, out = judged.verify("--rejudge", "--judge-url", judge)
    assert code == 2 and "--rejudge needs --transcript" in out
    code, out = judged.verify("--transcript", str(judged.transcript_path), "--judge-url", judge)
    assert code == 2 and "add --rejudge" in out


def test_an_unofficial_judge_is_bound_as_unofficial(tmp_path: Path) -> None:
    with scripted_judge(model=OTHER_MODEL) as (url, _):
        run = make_run(tmp_path, "--judge-url", url, "--judge-model", OTHER_MODEL)
    nuance = run.receipt["manifest"]["nuance"]
    assert nuance["official"] is False and nuance["judge_model"] == OTHER_MODEL
    code, out = run.verify("--transcript", str(run.transcript_path), "--regrade")
    assert code == 0, out
    assert f"bound but judged, by model {OTHER_MODEL}" in out
    assert "(unofficial: not the version's locked judge)" in out


def test_an_unjudged_run_verifies_and_says_so(tmp_path: Path, judge: str) -> None:
    run = make_run(tmp_path)
    nuance = run.receipt["manifest"]["nuance"]
    assert nuance["protocol_sha256"] == "" and nuance["score"] is None
    code, out = run.verify("--transcript", str(run.transcript_path), "--regrade")
    assert code == 0, out
    assert "nuance    unjudged: none of the" in out
    assert "nuance: unjudged, as signed" in out
    code, out = run.verify(
        "--transcript", str(run.transcript_path), "--rejudge", "--judge-url", judge
    )
    assert code == 1
    assert "the run was not judged" in out
