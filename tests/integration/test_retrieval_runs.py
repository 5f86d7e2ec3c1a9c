"""Retrieval diagnostics over real runs on loopback: a harness listing exactly its evidence pairs
(by the ids /seed showed it) scores recall 1.0, one listing nothing reports as before, and the
built-in baseline lists what its search found."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.engine.client import ClientLimits
from dittobench.engine.runner import RunOptions, RunOutcome, start_run
from dittobench.generate.assemble import build_dataset
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.store import RunStore
from tests.helpers.cli import dittobench
from tests.helpers.harness_process import harness

FAST = ClientLimits(
    health_wait_s=10, health_interval_s=0.1, run_deadline_s=5.0, backoff_s=(0.05, 0.1)
)
SEED = 11


def clock() -> str:
    return "2026-11-30T00:00:00Z"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as opened:
        yield opened


def answers(tmp_path: Path) -> Path:
    path = tmp_path / "answers.json"
    path.write_bytes(canonical_bytes(build_dataset(SEED, CURRENT_VERSION, "small").to_json()))
    return path


def run(store: RunStore, url: str, tmp: Path, run_id: str) -> RunOutcome:
    options = RunOptions(url, SEED, "small", CURRENT_VERSION, 4, tmp / "out", FAST)
    return start_run(store, run_id, options, clock, lambda progress: None)


def test_a_harness_listing_its_evidence_pairs_has_perfect_recall(
    store: RunStore, tmp_path: Path
) -> None:
    key = str(answers(tmp_path))
    with harness("oracle", "--answers", key, "--retrieved") as url:
        listed = run(store, url, tmp_path, "r-test-listed")
    with harness("oracle", "--answers", key) as url:
        silent = run(store, url, tmp_path, "r-test-silent")
    block = listed.report.retrieval
    dataset = build_dataset(SEED, CURRENT_VERSION, "small")
    with_evidence = sum(1 for c in dataset.memory_cases if c.evidence_pair_ids)
    assert block is not None and (block.reported, block.unreported) == (with_evidence, 0)
    # Every evidence pair listed first: recall@k is min(k, |evidence|) / |evidence| per case.
    sizes = [len(c.evidence_pair_ids) for c in dataset.memory_cases if c.evidence_pair_ids]
    for k, got in ((1, block.recall_at_1), (5, block.recall_at_5), (10, block.recall_at_10)):
        assert got == round(sum(min(k, n) / n for n in sizes) / len(sizes), 6)
    assert (block.hit_at_1, block.hit_at_5, block.hit_at_10) == (1.0, 1.0, 1.0)
    stored = json.loads(listed.transcript_path.read_text("utf-8"))
    assert stored["wire_nonce"] and any(
        "retrieved" in (c["response"] or {}) for c in stored["cases"]
    )
    # Listing nothing: no block, and the same scores as the run that listed its pairs.
    assert silent.report.retrieval is None
    assert "retrieval" not in json.loads(silent.report_path.read_text("utf-8"))
    assert silent.report.composite == listed.report.composite
    scores = [(c.case_id, c.score, c.reason) for c in silent.report.per_case]
    assert scores == [(c.case_id, c.score, c.reason) for c in listed.report.per_case]


def test_the_builtin_baseline_reports_what_it_retrieved(tmp_path: Path) -> None:
    made = dittobench(
        "run", "--seed", "6", "--db", str(tmp_path / "runs.db"),
        "--out-dir", str(tmp_path / "out"), cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    report = json.loads(next((tmp_path / "out").glob("*/report.json")).read_text("utf-8"))
    block = report["retrieval"]
    assert block["reported"] > 0
    assert 0.0 <= block["recall_at_5"] <= block["recall_at_10"] <= 1.0
    assert block["hit_at_1"] <= block["hit_at_5"] <= block["hit_at_10"]
    assert any(line.startswith("retrieval    recall@5") for line in made.stdout.splitlines())
