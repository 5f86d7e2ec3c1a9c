"""A suite's summary and receipt: the mean and the 95% t interval worked by hand, the t table's
rows, and a suite receipt that verifies with its key and fails on a changed run receipt, a run
left out, a reordered suite, another key, figures its runs' receipts do not give (even signed by
the right key), a date outside the key's window and any malformed manifest (never raising)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.receipts.keys import b64encode, generate_private_key, trusted_entry
from dittobench.receipts.merkle import format_score, leaf_hash, merkle_root
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
    assert summary.low == pytest.approx(0.55 - half) and summary.high == pytest.approx(0.55 + half)
    one = summarise(RUNS[:1])
    assert (one.low, one.mean, one.high, one.stdev) == (0.5, 0.5, 0.5, 0.0)
    with pytest.raises(SuiteError):
        summarise([])


def test_the_t_table() -> None:
    assert (t95(1), t95(2), t95(30)) == (12.706, 4.303, 2.042)
    assert (t95(35), t95(45), t95(100), t95(500), t95(5000)) == (2.042, 2.021, 2.0, 1.98, 1.96)
    with pytest.raises(SuiteError):
        t95(0)


def _run_receipts(runs: list[SuiteRun] = RUNS) -> list[dict[str, Any]]:
    """What the suite check reads of a run receipt: its signed seed and composite."""
    return [
        {"manifest": {"seed": str(run.seed), "scores": {"composite": format_score(run.composite)}}}
        for run in runs
    ]


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
    changed[2] = _run_receipts([SuiteRun(RUNS[2].run_id, 3, 0.99, 0.04)])[0]
    assert check_suite_receipt(signed, key.public_key(), changed)
    assert check_suite_receipt(signed, key.public_key(), receipts[:3])
    assert check_suite_receipt(signed, key.public_key(), receipts[::-1])
    assert check_suite_receipt(signed, generate_private_key().public_key(), receipts)
    forged = {**signed, "manifest": {**manifest, "mean_composite": "0.900000"}}
    assert check_suite_receipt(forged, key.public_key(), receipts) == [
        "the signature does not verify with the trusted key",
        "mean_composite is '0.900000'; the runs' composites give 0.550000",
    ]


KEY = generate_private_key()


def _signed(**changes: Any) -> dict[str, Any]:
    """The suite of RUNS, its manifest changed by ``changes`` and signed again with KEY: the
    signature holds, so only the other checks can catch the change."""
    suite = build_suite_receipt(
        "s-20260101-000000-0000aa",
        list(zip(RUNS, _run_receipts(), strict=True)),
        KEY,
        "2026-01-01T00:00:00Z",
    )
    manifest = {**suite["manifest"], **changes}
    return {
        **suite,
        "manifest": manifest,
        "signature": b64encode(KEY.sign(canonical_bytes(manifest))),
    }


def test_the_signed_figures_must_be_the_ones_the_runs_receipts_give() -> None:
    receipts = _run_receipts()
    assert check_suite_receipt(_signed(), KEY.public_key(), receipts) == []
    entries = _signed()["manifest"]["runs"]
    lied = [dict(e) for e in entries]
    lied[1]["composite"], lied[2]["seed"] = "0.990000", "77"
    problems = check_suite_receipt(_signed(runs=lied), KEY.public_key(), receipts)
    assert any("runs[1]: composite '0.990000'" in p for p in problems)
    assert any("runs[2]: seed '77'" in p for p in problems)
    for changes in ({"mean_composite": "0.990000"}, {"ci95": ["0.000000", "1.000000"]}):
        problems = check_suite_receipt(_signed(**changes), KEY.public_key(), receipts)
        assert problems and all("the runs' composites give" in p for p in problems)
    # One run receipt bound twice (its leaf named twice): the seeds and composites give it away.
    twice = [dict(entries[0]), {**entries[0], "seed": "2", "composite": "0.970000"}]
    problems = check_suite_receipt(
        _signed(runs=twice, merkle_root=merkle_root([entries[0]["receipt_leaf"]] * 2)),
        KEY.public_key(),
        [receipts[0], receipts[0]],
    )
    assert any("runs[1]: seed '2'" in p for p in problems)


def test_a_summary_of_unrounded_composites_holds_against_their_six_decimals() -> None:
    runs = [SuiteRun(f"r-20260101-000000-00000{i}", i, 0.1234564 + i / 7, 0.0) for i in range(2)]
    receipts = _run_receipts(runs)
    suite = build_suite_receipt(
        "s-20260101-000000-0000ab",
        list(zip(runs, receipts, strict=True)),
        KEY,
        "2026-01-01T00:00:00Z",
    )
    assert check_suite_receipt(suite, KEY.public_key(), receipts) == []


def test_a_trusted_key_signs_suites_only_inside_its_window() -> None:
    receipts = _run_receipts()
    retired = trusted_entry(KEY, "2025-01-01T00:00:00Z", "2025-12-31T00:00:00Z")
    current = trusted_entry(KEY, "2025-01-01T00:00:00Z")
    assert check_suite_receipt(_signed(), KEY.public_key(), receipts, current) == []
    problems = check_suite_receipt(_signed(), KEY.public_key(), receipts, retired)
    assert problems == [
        f"created_at 2026-01-01T00:00:00Z: key {retired.key_id} expired at 2025-12-31T00:00:00Z"
    ]
    problems = check_suite_receipt(_signed(created_at="not a time"), KEY.public_key(), receipts)
    assert problems and "created_at" in problems[0]


@pytest.mark.parametrize(
    "changes",
    [
        {"runs": "xx"},
        {"runs": [1, 2]},
        {"runs": []},
        {"runs": [{"run_id": "r", "seed": 1, "composite": "0.5", "receipt_leaf": "x"}]},
        {"ci95": "0.5"},
        {"ci95": [0.1, 0.9]},
        {"mean_composite": 0.55},
        {"created_at": None},
        {"extra": "x"},
    ],
)
def test_a_malformed_manifest_is_a_problem_not_an_exception(changes: dict[str, Any]) -> None:
    problems = check_suite_receipt(_signed(**changes), KEY.public_key(), _run_receipts())
    assert problems and all(p.startswith("manifest") for p in problems)


@pytest.mark.parametrize("receipt", [[], "x", None, {"manifest": []}, {"manifest": {"format": 1}}])
def test_what_is_not_a_suite_receipt_says_so(receipt: Any) -> None:
    assert check_suite_receipt(receipt, KEY.public_key(), _run_receipts()) == [
        "not a suite receipt of format dittobench-suite-receipt/1"
    ]


def test_run_receipts_of_any_shape_are_problems_not_exceptions() -> None:
    odd: object
    for odd in ([], "x", None, {"manifest": 3}, {"manifest": {"scores": []}}):
        receipts: list[Any] = [*_run_receipts()[:3], odd]
        assert check_suite_receipt(_signed(), KEY.public_key(), receipts)
