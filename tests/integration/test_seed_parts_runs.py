"""Seeding in parts, on real harness processes (docs/protocol.md, "Seeding in parts").

A harness that declares a small ``max_seed_bytes`` gets every wave over it in parts, and a whole
run against it scores exactly as a run that sent each wave whole, whose bodies are the waves'
own, byte for byte. No wave of today's sizes reaches the 64 KiB floor, so the run test lowers the
floor the engine reads the declaration with; the floor itself is checked on a long synthetic
wave. The baseline harness ends with the same store whether a run's waves came whole or in parts.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.engine import orchestrate
from dittobench.engine.client import ClientLimits, HarnessClient
from dittobench.engine.launcher import builtin_harness
from dittobench.engine.orchestrate import declared_health
from dittobench.engine.runner import RunOptions, start_run
from dittobench.engine.seeding import SeedSending, seed_wave
from dittobench.generate.assemble import build_dataset
from dittobench.spec.dataset import Dataset
from dittobench.spec.report import ScoreReport
from dittobench.spec.wire import SEED_BYTES_FLOOR, SeedRequest, seed_bytes_limit, to_wire
from dittobench.spec.wireids import WireIds
from dittobench.store import RunStore
from tests.helpers.harness_process import harness
from tests.helpers.seed_waves import synthetic

FAST = ClientLimits(
    health_wait_s=10, health_interval_s=0.1, run_deadline_s=10.0, backoff_s=(0.05, 0.1)
)
SMALL = 8_192
"""The parts asked for in the run test: every wave of a full run but the smallest is cut."""
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def clock() -> str:
    return "2026-11-30T00:00:00Z"


def oracle_run(
    tmp: Path, dataset: Dataset, name: str, *extra: str
) -> tuple[ScoreReport, WireIds, list[dict[str, Any]]]:
    """A whole run of ``dataset`` against the oracle harness (``extra``: more of its options):
    the report, the run's wire ids and every ``/seed`` body the harness got, in order."""
    answers = tmp / "answers.json"
    answers.write_bytes(canonical_bytes(dataset.to_json()))
    record = tmp / f"{name}.jsonl"
    options = RunOptions(
        "", dataset.seed, dataset.run_size, dataset.bench_version, 4, tmp / "out", FAST
    )
    with (
        RunStore(RunStore.sqlite_url(tmp / "runs.db")) as store,
        harness("oracle", "--answers", str(answers), "--record", str(record), *extra) as url,
    ):
        outcome = start_run(store, name, replace(options, harness_url=url), clock, lambda p: None)
        nonce = store.get_run(name).wire_nonce
    bodies = [json.loads(line) for line in record.read_text(encoding="utf-8").splitlines()]
    seeds = [b["body"] for b in bodies if b["path"] == "/seed"]
    return outcome.report, WireIds.of(dataset, nonce), seeds


def scores(report: ScoreReport) -> dict[str, Any]:
    """Everything a run's grade says, but its latencies and the transcript's hash."""
    return {
        "composite": (report.composite, report.composite_stderr),
        "means": (report.tool_mean, report.memory_mean, report.dimensions),
        "cases": [(c.case_id, c.score, c.correct, c.reason, c.tool_score) for c in report.per_case],
        "categories": list(report.per_category),
        "retrieval": report.retrieval,
    }


def test_a_run_in_small_parts_scores_as_a_run_of_whole_waves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dataset = build_dataset(7, "8.0.0", "full")
    whole, ids, sent = oracle_run(tmp_path, dataset, "r-whole", "--retrieved")
    # One request a wave, each the wave's own body byte for byte.
    expected = [canonical_bytes(to_wire(ids.seed_request(w))) for w in dataset.memory_waves]
    assert [canonical_bytes(body) for body in sent] == expected
    assert max(len(b) for b in expected) > SMALL

    monkeypatch.setattr(orchestrate, "SEED_BYTES_FLOOR", 4_096)
    extra = ("--retrieved", "--max-seed-bytes", str(SMALL))
    cut, ids, sent = oracle_run(tmp_path, dataset, "r-parts", *extra)
    assert len(sent) > 2 * len(dataset.memory_waves)
    for body in sent:
        assert len(canonical_bytes(body)) <= SMALL or len(body["pairs"]) == 1
    waves = [(b["user_id"], b["wave"]) for b in sent if b.get("part", 0) == 0]
    assert waves == [(ids.run_user("", w.user_id), w.wave) for w in dataset.memory_waves]
    got = {(b["user_id"], b["wave"], p["pair_id"]) for b in sent for p in b["pairs"]}
    assert len(got) == sum(len(w.pairs) for w in dataset.memory_waves)
    assert whole.composite > 0.5  # the oracle answered: the comparison is not of two zeros
    assert scores(cut) == scores(whole)


def get_json(url: str) -> Any:
    with OPENER.open(url, timeout=10) as reply:
        return json.loads(reply.read())


def test_a_harness_asking_for_the_floor_gets_a_long_wave_in_parts_within_it() -> None:
    wave = synthetic(3, 700)
    assert len(canonical_bytes(to_wire(wave))) > 4 * SEED_BYTES_FLOOR

    async def go(url: str) -> int:
        async with HarnessClient(url, FAST) as client:
            declared = await declared_health(url, 5.0, client.http)
            limit = seed_bytes_limit(declared.max_seed_bytes)
            assert limit == SEED_BYTES_FLOOR  # 1 KiB asked for: the floor
            how = SeedSending(limit, (), "miner", "wave 3")
            return await seed_wave(client, wave, how, lambda _note: None)

    with harness("nothing", "--max-seed-bytes", "1024") as url:
        parts = asyncio.run(go(url))
        stats = get_json(f"{url}/stats")
    assert parts >= 4
    assert stats["pairs"] == {wave.user_id: len(wave.pairs)}
    assert stats["events"] == [["seed", wave.user_id, 3, i, parts] for i in range(parts)]


def baseline_store(db: Path, waves: tuple[SeedRequest, ...], limit: int) -> dict[str, Any]:
    """What the baseline harness holds after ``waves`` were sent in parts of ``limit`` bytes."""

    async def go(url: str) -> int:
        async with HarnessClient(url, FAST) as client:
            await client.wait_healthy()
            sent = 0
            for wave in waves:
                how = SeedSending(limit, (), wave.user_id, f"wave {wave.wave}")
                sent += await seed_wave(client, wave, how, lambda _note: None)
            return sent

    with builtin_harness(db) as url:
        sent = asyncio.run(go(url))
    with sqlite3.connect(db) as conn:
        tables = {
            name: conn.execute(f"SELECT rowid, * FROM {name} ORDER BY rowid").fetchall()
            for name in ("pairs", "subjects", "links", "pairs_fts", "subjects_fts")
        }
    return {"requests": sent, **tables}


def test_the_baseline_holds_the_same_memory_from_parts_as_from_whole_waves(
    tmp_path: Path,
) -> None:
    waves = build_dataset(7, "8.0.0", "full").memory_waves
    whole = baseline_store(tmp_path / "whole.db", waves, 10**9)
    cut = baseline_store(tmp_path / "parts.db", waves, 4_096)
    assert whole["requests"] == len(waves) and cut["requests"] > 3 * len(waves)
    assert len(whole["pairs"]) == sum(len(w.pairs) for w in waves)
    assert {k: v for k, v in cut.items() if k != "requests"} == {
        k: v for k, v in whole.items() if k != "requests"
    }
