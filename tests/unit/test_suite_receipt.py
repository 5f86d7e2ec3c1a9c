"""A suite's summary and receipt: the mean and the 95% t interval worked by hand, the t table's
rows, and a suite receipt that verifies with its key and fails on a changed run receipt, a run
left out, a reordered suite or another key."""

from __future__ import annotations

import math

import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.receipts.keys import generate_private_key
from dittobench.receipts.merkle import leaf_hash, merkle_root
from dittobench.receipts.suite import (
    SuiteError,
    SuiteRun,
    build_suite_receipt,
    check_suite_receipt,
    receipt_leaf,
    summarise,
    t95,
)

RUNS = [
    SuiteRun("r-20260101-000000-00000a", 1, 0.50, 0.05),
    SuiteRun("r-20260101-000000-00000b", 2, 0.60, 0.05),
    SuiteRun("r-20260101-000000-00000c", 3, 0.70, 0.04),
    SuiteRun("r-20260101-000000-00000d", 4, 0.40, 0.06),
]


def test_the_interval_is_the_t_interval_of_the_composites() -> None:
    summary = summarise(RUNS)
    # mean 0.55; deviations .05 .05 .15 .15 -> sum of squares 0.05, sd sqrt(0.05 / 3)
    assert summary.mean == pytest.approx(0.55)
    assert summary.stdev == pytest.approx(math.sqrt(0.05 / 3))
    half = 3.182 * math.sqrt(0.05 / 3) / 2
    assert (summary.low, summary.high) == (pytest.approx(0.55 - half), pytest.approx(0.55 + half))
    one = summarise(RUNS[:1])
    assert (one.low, one.mean, one.high, one.stdev) == (0.5, 0.5, 0.5, 0.0)
    with pytest.raises(SuiteError):
        summarise([])


def test_the_t_table() -> None:
    assert (t95(1), t95(2), t95(30)) == (12.706, 4.303, 2.042)
    assert (t95(35), t95(45), t95(100), t95(500), t95(5000)) == (2.042, 2.021, 2.0, 1.98, 1.96)
    with pytest.raises(SuiteError):
        t95(0)


def _run_receipts() -> list[dict[str, object]]:
    return [{"manifest": {"run": run.run_id, "composite": str(run.composite)}} for run in RUNS]


def test_a_suite_receipt_binds_its_runs_receipts() -> None:
    key = generate_private_key()
    receipts = _run_receipts()
    signed = build_suite_receipt(
        "s-20260101-000000-0000aa",
        list(zip(RUNS, receipts, strict=True)),
        key,
        "2026-01-01T00:00:00Z",
    )
    manifest = signed["manifest"]
    leaves = [leaf_hash(canonical_bytes(r)) for r in receipts]
    assert (
        [e["receipt_leaf"] for e in manifest["runs"]]
        == leaves
        == [receipt_leaf(r) for r in receipts]
    )
    assert manifest["merkle_root"] == merkle_root(leaves)
    assert manifest["mean_composite"] == "0.550000"
    assert check_suite_receipt(signed, key.public_key(), receipts) == []

    changed = [dict(r) for r in receipts]
    changed[2] = {"manifest": {"run": RUNS[2].run_id, "composite": "0.99"}}
    assert check_suite_receipt(signed, key.public_key(), changed)
    assert check_suite_receipt(signed, key.public_key(), receipts[:3])
    assert check_suite_receipt(signed, key.public_key(), receipts[::-1])
    assert check_suite_receipt(signed, generate_private_key().public_key(), receipts)
    forged = {**signed, "manifest": {**manifest, "mean_composite": "0.900000"}}
    assert check_suite_receipt(forged, key.public_key(), receipts) == [
        "the signature does not verify with the trusted key"
    ]
