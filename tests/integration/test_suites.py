"""`dittobench run --seeds N` here (two runs at a time against the built-in harness): every run
is reported with its own composite beside the suite's mean and interval, the numbers are those
of the runs' reports, and the suite receipt verifies against the installation's key and the
runs' own receipts, in order (and `dittobench verify-suite` says so, and refuses a reordered
suite or an untrusted key). Wrong combinations are refused before anything starts."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dittobench.receipts.keys import (
    TrustedKeys,
    generate_private_key,
    load_private_key,
    trusted_entry,
)
from dittobench.receipts.suite import SuiteRun, check_suite_receipt, summarise
from dittobench.store.jobs import ServiceStore
from tests.helpers.cli import dittobench


def check_suite_output(stdout: str, out: Path, key: Path, runs: int) -> str:
    """Check a suite's printed lines and files; its id."""
    found = re.findall(r"^(r-\S+)  seed (\d+)\s+composite (\d\.\d{4}) ± (\d\.\d{4})$", stdout, re.M)
    assert len(found) == runs, stdout
    suite_id = re.search(r"^suite\s+(s-\S+)\s+\((\d+) runs\)$", stdout, re.M)
    assert suite_id is not None and suite_id.group(2) == str(runs), stdout
    reports = [json.loads((out / r / "report.json").read_text("utf-8")) for r, *_ in found]
    assert len({report["seed"] for report in reports}) == runs  # fresh seeds
    summary = summarise(
        [
            SuiteRun(r, report["seed"], report["composite"], report["composite_stderr"])
            for (r, *_), report in zip(found, reports, strict=True)
        ]
    )
    assert (
        f"composite   {summary.mean:.4f}   95% CI [{summary.low:.4f}, {summary.high:.4f}]" in stdout
    )
    receipt = json.loads((out / suite_id.group(1) / "suite-receipt.json").read_text("utf-8"))
    run_receipts = [json.loads((out / r / "receipt.json").read_text("utf-8")) for r, *_ in found]
    public = load_private_key(key).public_key()
    assert check_suite_receipt(receipt, public, run_receipts) == []
    assert check_suite_receipt(receipt, public, run_receipts[::-1])  # order is bound too
    return suite_id.group(1)


def test_a_local_suite_of_three_runs(tmp_path: Path) -> None:
    result = dittobench(
        "run", "--seeds", "3", "--parallel", "2", "--db", str(tmp_path / "runs.db"),
        "--out-dir", str(tmp_path / "out"), cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    key = tmp_path / "keys" / "dittobench-ed25519.pem"
    suite_id = check_suite_output(result.stdout, tmp_path / "out", key, 3)
    with ServiceStore(ServiceStore.sqlite_url(tmp_path / "runs.db")) as store:
        suite = store.get_suite(suite_id)
        assert suite is not None and len(suite.run_ids) == 3 and suite.receipt_json
        assert [store.get_run(r).status for r in suite.run_ids] == ["done"] * 3
    # An auditor's check: the suite receipt, then its runs' receipts, against a trusted key.
    trusted = tmp_path / "trusted.json"
    entry = trusted_entry(load_private_key(key), "2000-01-01T00:00:00Z")
    trusted.write_text(json.dumps(TrustedKeys((entry,)).to_json()), encoding="utf-8")
    receipt = tmp_path / "out" / suite_id / "suite-receipt.json"
    runs = [str(tmp_path / "out" / r / "receipt.json") for r in suite.run_ids]
    checked = dittobench("verify-suite", str(receipt), *runs, "--trusted-keys", str(trusted))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "verdict: VERIFIED: 3 run receipts bound, signed by a trusted key" in checked.stdout
    swapped = dittobench(
        "verify-suite", str(receipt), runs[1], runs[0], runs[2], "--trusted-keys", str(trusted)
    )
    assert swapped.returncode == 1 and "not the ones the suite names" in swapped.stdout
    other = tmp_path / "other.json"
    entry = trusted_entry(generate_private_key(), "2000-01-01T00:00:00Z")
    other.write_text(json.dumps(TrustedKeys((entry,)).to_json()), encoding="utf-8")
    untrusted = dittobench("verify-suite", str(receipt), *runs, "--trusted-keys", str(other))
    assert untrusted.returncode == 2 and "not trusted" in untrusted.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--seeds", "2", "--seed", "5"), "--seeds draws a fresh seed"),
        (("--seeds", "2", "--strict-order"), "apply to a single local run"),
        (("--queue", "rabbit"), "--queue must be local or celery"),
        (("--queue", "celery", "--resume", "r-20260101-000000-abcdef"), "--resume finishes one"),
        (("--seeds", "0"), "--seeds"),
    ],
)
def test_what_a_suite_cannot_do_is_refused(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    result = dittobench("run", *args, "--db", str(tmp_path / "runs.db"), cwd=tmp_path)
    assert result.returncode == 2
    assert said in result.stderr
    assert not (tmp_path / "runs.db").exists()
