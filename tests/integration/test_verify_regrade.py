"""`dittobench verify RECEIPT --regrade` on a real run: the genuine receipt regrades; a receipt
whose figures were changed and re-signed with the same trusted key still verifies, and the
regrade is what catches it, naming the field, both values and (for a leaf) the case.

One small run of the built-in baseline (seed 6) is made once with `dittobench run`; every forgery
starts from its receipt and is re-signed with the key the run signed with.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.receipts.keys import PRIVATE_KEY_NAME, load_private_key, trusted_entry
from dittobench.receipts.regrade import regrade_receipt
from tests.helpers.cli import dittobench
from tests.helpers.receipts import rehash, resign


@dataclass(frozen=True)
class Run:
    folder: Path
    receipt: dict[str, Any]
    transcript: Path
    key: Ed25519PrivateKey
    trusted: Path

    def forged(self, receipt: dict[str, Any], name: str) -> Path:
        """``receipt`` with its leaves and root made consistent and re-signed with the run's own
        (trusted) key, written to a file."""
        path = self.folder / f"{name}.json"
        path.write_text(json.dumps(resign(rehash(receipt), self.key)), encoding="utf-8")
        return path

    def verify(self, receipt: Path, *options: str) -> subprocess.CompletedProcess[str]:
        return dittobench("verify", str(receipt), "--trusted-keys", str(self.trusted), *options)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Run:
    home = tmp_path_factory.mktemp("regrade")
    made = dittobench(
        "run",
        "--seed",
        "6",
        "--bench-version",
        "7.1.0",  # graded leaves only (open questions: test_verify_judged.py)
        "--db",
        str(home / "runs.db"),
        "--out-dir",
        str(home / "out"),
        cwd=home,
    )
    assert made.returncode == 0, made.stderr
    receipt_path = next((home / "out").glob("*/receipt.json"))
    key = load_private_key(home / "keys" / PRIVATE_KEY_NAME)
    trusted = home / "trusted.json"
    entry = trusted_entry(key, "2000-01-01T00:00:00Z").to_json()
    trusted.write_text(json.dumps({"keys": [entry]}), encoding="utf-8")
    receipt = json.loads(receipt_path.read_text(encoding="utf-8"))
    return Run(home, receipt, receipt_path.with_name("transcript.json"), key, trusted)


def other_score(score: str) -> str:
    return "1.000000" if score != "1.000000" else "0.000000"


def forged_root(path: Path) -> str:
    return str(json.loads(path.read_text(encoding="utf-8"))["manifest"]["merkle_root"])


def genuine_root(run: Run) -> str:
    return str(run.receipt["manifest"]["merkle_root"])


def diff_lines(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.strip().startswith("DIFF")]


def test_the_genuine_receipt_regrades(run: Run) -> None:
    path = run.forged(run.receipt, "genuine")  # re-signing an unchanged receipt changes nothing
    assert json.loads(path.read_text(encoding="utf-8")) == run.receipt
    for options in ((), ("--transcript", str(run.transcript))):
        result = run.verify(path, "--regrade", *options)
        assert result.returncode == 0, result.stdout + result.stderr
        source = "transcript" if options else "leaves"
        assert f"ok    12 cases regraded from the {source}" in result.stdout
        assert diff_lines(result.stdout) == []
        assert "verdict: VERIFIED" in result.stdout


def test_a_re_signed_composite_verifies_but_fails_the_regrade(run: Run) -> None:
    forged = json.loads(json.dumps(run.receipt))
    genuine = forged["manifest"]["scores"]["composite"]
    forged["manifest"]["scores"]["composite"] = other_score(genuine)
    path = run.forged(forged, "composite")
    plain = run.verify(path, "--transcript", str(run.transcript))
    assert plain.returncode == 0, plain.stdout  # the trusted key signed it: intact
    result = run.verify(path, "--transcript", str(run.transcript), "--regrade")
    assert result.returncode == 1, result.stdout + result.stderr
    assert diff_lines(result.stdout) == [
        f"DIFF  scores.composite  receipt {other_score(genuine)}  recomputed {genuine}"
    ]
    assert "regrade disagrees" in result.stdout
    assert "error:" in result.stderr and "1 signed figure(s) do not follow" in result.stderr


def test_a_re_signed_leaf_score_verifies_but_fails_the_regrade(run: Run) -> None:
    forged = json.loads(json.dumps(run.receipt))
    entry = next(e for e in forged["leaves"] if e["leaf"]["score"] != "1.000000")
    case_id, genuine = entry["case_id"], entry["leaf"]["score"]
    entry["leaf"]["score"] = "1.000000"
    path = run.forged(forged, "leaf")
    plain = run.verify(path, "--transcript", str(run.transcript))
    assert plain.returncode == 0, plain.stdout  # responses untouched, tree and signature rebuilt
    result = run.verify(path, "--regrade")
    assert result.returncode == 1, result.stdout + result.stderr
    diffs = [line.split() for line in diff_lines(result.stdout)]
    # The root the rebuilt leaves give is the genuine one, not the forged one; nothing else moved.
    assert diffs == [
        ["DIFF", "merkle_root", "receipt", forged_root(path), "recomputed", genuine_root(run)],
        ["DIFF", "leaf.score", "receipt", "1.000000", "recomputed", genuine, "case", case_id],
    ]


def test_a_re_signed_seed_fails_on_the_dataset_hash(run: Run) -> None:
    forged = json.loads(json.dumps(run.receipt))
    forged["manifest"]["seed"] = "7"
    path = run.forged(forged, "seed")
    plain = run.verify(path)
    assert plain.returncode == 0, plain.stdout
    result = run.verify(path, "--regrade")
    assert result.returncode == 1, result.stdout + result.stderr
    claimed = run.receipt["manifest"]["dataset_sha256"]
    [line] = diff_lines(result.stdout)
    assert line.split()[:3] == ["DIFF", "dataset_sha256", "receipt"]
    assert line.split()[3] == claimed and line.split()[5] != claimed
    assert "seed 7" in result.stdout and "not regraded" in result.stdout


def test_a_transcript_of_other_responses_fails_the_regrade(run: Run) -> None:
    """Grading the transcript, not the leaves: a response changed in it changes its leaf."""
    transcript = json.loads(run.transcript.read_text(encoding="utf-8"))
    record = next(c for c in transcript["cases"] if c["response"] is not None)
    record["response"]["final_text"] += " (edited)"
    found = regrade_receipt(run.receipt, transcript)
    assert not found.ok and found.source == "transcript"
    fields = {(d.field, d.case_id) for d in found.disagreements}
    assert {("transcript_sha256", ""), ("leaf.response", record["case_id"])} <= fields


def test_a_bench_version_this_build_lacks_cannot_be_regraded(run: Run) -> None:
    forged = json.loads(json.dumps(run.receipt))
    forged["manifest"]["bench_version"] = "9.9.9"
    path = run.forged(forged, "version")
    assert run.verify(path).returncode == 0
    result = run.verify(path, "--regrade")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "could not be regraded" in result.stdout
    assert "unknown bench version '9.9.9'" in result.stderr
