"""The ids a harness is shown are keyed by a per-run nonce (``spec.wireids``), checked on real runs
against harness processes that log every ``/seed`` and ``/run`` body they receive
(``harness_server.py --record``): no id the seed computes crosses the wire, two runs of one seed
show different ids, a resume shows the same ones, every case carries a user (a tool case one of
a small pool, never a memory user, so a full run shows at most six user ids), the tool endpoint
knows a case by the id the harness was shown, write instructions carried out by the ids the
harness was given score as they did when it was given the dataset's, and a receipt regrades from
its leaves through the nonce it signs."""

from __future__ import annotations

import asyncio
import copy
import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.core.canonical import canonical_bytes
from dittobench.core.ids import case_id, opaque_id
from dittobench.engine.client import ClientLimits, HarnessError
from dittobench.engine.runner import RunOptions, RunOutcome, resume_run, start_run
from dittobench.engine.tool_endpoint import ToolEndpoint
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.receipts.regrade import regrade_receipt
from dittobench.receipts.verify import verify_receipt
from dittobench.spec.dataset import Dataset
from dittobench.spec.transcript import Transcript
from dittobench.spec.versions import get_policy
from dittobench.spec.wireids import TOOL_USERS, WireIds
from dittobench.store import RunStore
from tests.helpers.harness_process import harness
from tests.helpers.receipts import resign

FAST = ClientLimits(
    health_wait_s=10, health_interval_s=0.1, run_deadline_s=5.0, backoff_s=(0.05, 0.1)
)
SEED = 123456789  # a seed a person would choose: the kind recovered by brute force before
ID_SHAPE = re.compile(r"c[0-9a-f]{16}|(?:p|s|subj|fam|u)-[0-9a-f]{12}")
WIRE_USER = re.compile(r"u-[0-9a-f]{12}")


def clock() -> str:
    return "2026-11-30T00:00:00Z"


def answers(tmp: Path, dataset: Dataset) -> str:
    path = tmp / f"answers-{dataset.bench_version}-{dataset.run_size}.json"
    path.write_bytes(canonical_bytes(dataset.to_json()))
    return str(path)


def options(tmp: Path, dataset: Dataset, url: str = "", concurrency: int = 4) -> RunOptions:
    return RunOptions(
        url,
        dataset.seed,
        dataset.run_size,
        dataset.bench_version,
        concurrency,
        tmp / "out",
        FAST,
    )


def recorded(path: Path) -> list[dict[str, Any]]:
    """The bodies the harness logged, in arrival order: ``{"path", "body"}``."""
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return [json.loads(line) for line in lines]


def oracle_run(tmp: Path, dataset: Dataset, name: str) -> tuple[RunOutcome, list[dict[str, Any]]]:
    """A whole run of ``dataset`` against the oracle harness, and every body it was sent."""
    record = tmp / f"{name}.jsonl"
    with (
        RunStore(RunStore.sqlite_url(tmp / "runs.db")) as store,
        harness("oracle", "--answers", answers(tmp, dataset), "--record", str(record)) as url,
    ):
        outcome = start_run(store, name, options(tmp, dataset, url), clock, lambda p: None)
    return outcome, recorded(record)


def seed_ids(dataset: Dataset) -> set[str]:
    """Every id anyone holding the seed computes for this dataset (``core.ids``): the case ids
    and every pair and session id by ordinal, recomputed here from the seed alone, and the subject
    and family ids the generator derived from it the same way."""
    seed, version = dataset.seed, get_policy(dataset.bench_version).content_version
    tools = {case_id(seed, version, "tool", i) for i in range(len(dataset.tool_cases))}
    memory = {case_id(seed, version, "mem", i) for i in range(len(dataset.memory_cases))}
    assert tools == {c.id for c in dataset.tool_cases}
    assert memory == {c.id for c in dataset.memory_cases}
    users = {w.user_id for w in dataset.memory_waves}
    pairs = {opaque_id("p", seed, version, u, i) for u in users for i in range(3000)}
    sessions = {opaque_id("s", seed, version, u, i) for u in users for i in range(300)}
    waves = dataset.memory_waves
    assert {p.pair_id for w in waves for p in w.pairs} <= pairs
    assert {p.session_id for w in waves for p in w.pairs} <= sessions
    subjects = {s.id for w in waves for s in w.subjects}
    families = {c.family_id for c in dataset.memory_cases if c.family_id}
    return tools | memory | pairs | sessions | subjects | families


def user_ids(bodies: list[dict[str, Any]]) -> list[str]:
    return [str(b["body"].get("user_id", "")) for b in bodies]


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0", "2.0.0"])
def test_no_id_the_seed_computes_crosses_the_wire(tmp_path: Path, version: str) -> None:
    dataset = build_dataset(SEED, version, "medium")
    outcome, bodies = oracle_run(tmp_path, dataset, "r-leak")
    seeds = [b for b in bodies if b["path"] == "/seed"]
    runs = [b for b in bodies if b["path"] == "/run"]
    assert len(seeds) == len(dataset.memory_waves)
    assert len(runs) == len(dataset.tool_cases) + len(dataset.memory_cases)
    wire = "\n".join(json.dumps(b["body"]) for b in bodies)
    shaped = set(ID_SHAPE.findall(wire))
    assert not shaped & seed_ids(dataset)
    # Every id the harness was shown is a wire id of this run's nonce, and stands for one of
    # the dataset's.
    transcript = json.loads(outcome.transcript_path.read_bytes())
    ids = WireIds.of(dataset, transcript["wire_nonce"])
    shown = {b["body"]["case_id"] for b in runs}
    for field in ("pair_id", "session_id", "id", "subject_id"):
        shown |= set(re.findall(rf'"{field}": "([^"]*)"', json.dumps([b["body"] for b in seeds])))
    known = {c.id for c in dataset.tool_cases} | {c.id for c in dataset.memory_cases}
    known |= {i for w in dataset.memory_waves for p in w.pairs for i in (p.pair_id, p.session_id)}
    known |= {s.id for w in dataset.memory_waves for s in w.subjects}
    assert {ids.dataset_id(i) for i in shown} <= known
    # Users: never the constants, always keyed; the seeded users are the memory cases' users.
    seeded = set(user_ids(seeds))
    assert all(WIRE_USER.fullmatch(u) for u in user_ids(bodies))
    assert not {"miner", "colleague", ""} & set(user_ids(bodies))
    assert seeded == {ids.run_user("", w.user_id) for w in dataset.memory_waves}
    tool_ids = {ids.case(c.id) for c in dataset.tool_cases}
    tool_users = [str(b["body"]["user_id"]) for b in runs if b["body"]["case_id"] in tool_ids]
    memory_users = {str(b["body"]["user_id"]) for b in runs if b["body"]["case_id"] not in tool_ids}
    assert len(tool_users) == len(dataset.tool_cases)
    assert len(set(tool_users)) <= TOOL_USERS  # a small pool, not one user per case
    assert not set(tool_users) & (seeded | memory_users)
    assert memory_users <= seeded
    # The transcript and the report keep the dataset's ids; the oracle still earns full marks.
    cases = {c.id for c in dataset.tool_cases} | {c.id for c in dataset.memory_cases}
    assert {c["case_id"] for c in transcript["cases"]} == cases
    assert outcome.report.composite >= 0.99, [c for c in outcome.report.per_case if c.score < 1]
    assert outcome.report.details.observed_tool_cases > 0  # the endpoint took the wire case ids


def test_a_full_run_shows_the_harness_a_handful_of_user_ids(tmp_path: Path) -> None:
    """A harness that keeps a few file handles per user id ran out of them within a few runs
    when every tool case had a user of its own (86 user ids a full run). Through the real
    engine, a full run now sends at most the tool users' pool and the two memory users."""
    dataset = build_dataset(SEED, run_size="full")
    record = tmp_path / "full.jsonl"
    with (
        RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store,
        harness("nothing", "--record", str(record)) as url,
    ):
        chosen = options(tmp_path, dataset, url, concurrency=8)
        start_run(store, "r-full-users", chosen, clock, lambda p: None)
    runs = [b for b in recorded(record) if b["path"] == "/run"]
    assert len(runs) >= len(dataset.tool_cases) + len(dataset.memory_cases)
    memory_users = {c.user_id for c in dataset.memory_cases}
    assert memory_users == {"miner", "colleague"}
    sent = set(user_ids(runs))
    assert all(WIRE_USER.fullmatch(u) for u in sent)
    assert len(sent) <= TOOL_USERS + len(memory_users) == 6


def test_two_runs_of_one_seed_show_different_ids(tmp_path: Path) -> None:
    dataset = build_dataset(SEED, "2.0.0", "small")
    first, one = oracle_run(tmp_path, dataset, "r-first")
    second, two = oracle_run(tmp_path, dataset, "r-second")

    def shown(bodies: list[dict[str, Any]]) -> set[str]:
        return set(ID_SHAPE.findall("\n".join(json.dumps(b["body"]) for b in bodies)))

    assert shown(one) and shown(two)
    assert not shown(one) & shown(two)
    nonces = [json.loads(o.transcript_path.read_bytes())["wire_nonce"] for o in (first, second)]
    assert nonces[0] != nonces[1]
    assert [(c.case_id, c.score) for c in first.report.per_case] == [
        (c.case_id, c.score) for c in second.report.per_case
    ]


def test_a_resume_shows_the_harness_the_same_ids(tmp_path: Path) -> None:
    dataset = build_dataset(SEED, "2.0.0", "medium")
    key = answers(tmp_path, dataset)
    before, after = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    chosen = options(tmp_path, dataset, concurrency=1)
    with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
        dying = harness("oracle", "--answers", key, "--record", str(before), "--die-after", "30")
        with dying as url, pytest.raises(HarnessError):
            start_run(store, "r-resumed", replace(chosen, harness_url=url), clock, lambda p: None)
        nonce = store.get_run("r-resumed").wire_nonce
        assert len(nonce) == 64
        with harness("oracle", "--answers", key, "--record", str(after)) as url:
            outcome = resume_run(
                store, "r-resumed", replace(chosen, harness_url=url), clock, lambda p: None
            )
        assert store.get_run("r-resumed").wire_nonce == nonce
    first, second = recorded(before), recorded(after)
    assert [b for b in first if b["path"] == "/seed"] and [b for b in second if b["path"] == "/run"]
    # Every wave sent again carries exactly the ids it carried the first time.
    sent = {
        (b["body"]["user_id"], b["body"]["wave"]): b["body"] for b in first if "wave" in b["body"]
    }
    again = [b["body"] for b in second if b["path"] == "/seed"]
    assert any((b["user_id"], b["wave"]) in sent for b in again)
    for body in again:
        if (body["user_id"], body["wave"]) in sent:
            assert body == sent[(body["user_id"], body["wave"])]
    ids = WireIds.of(dataset, nonce)
    cases = {c.id for c in dataset.tool_cases} | {c.id for c in dataset.memory_cases}
    for body in (b["body"] for b in (*first, *second) if b["path"] == "/run"):
        assert ids.dataset_id(body["case_id"]) in cases
    assert json.loads(outcome.transcript_path.read_bytes())["wire_nonce"] == nonce
    assert outcome.report.composite >= 0.99


def write_calls(transcript: dict[str, Any], dataset: Dataset, op: str) -> list[dict[str, Any]]:
    cases = {c.id for c in dataset.memory_cases if c.write_op == op}
    return [
        call
        for record in transcript["cases"]
        if record["case_id"] in cases and record["response"]
        for call in record["response"]["tool_calls"]
    ]


def test_write_instructions_carried_out_by_the_given_ids_score_as_before(tmp_path: Path) -> None:
    dataset = build_dataset(SEED, "2.0.0", "medium")
    outcome, _ = oracle_run(tmp_path, dataset, "r-writes")
    scores = {c.case_id: c.score for c in outcome.report.per_case}
    writes = [c for c in dataset.memory_cases if c.write_op]
    assert {c.write_op for c in writes} == {"save", "update", "delete"}
    assert all(scores[c.id] == 1.0 for c in writes), [(c.write_op, scores[c.id]) for c in writes]
    transcript = json.loads(outcome.transcript_path.read_bytes())
    ids = WireIds.of(dataset, transcript["wire_nonce"])
    deletes = write_calls(transcript, dataset, "delete")
    evidence = {p for c in writes if c.write_op == "delete" for p in c.evidence_pair_ids}
    assert deletes and all(call["args"]["pair_id"] not in evidence for call in deletes)
    assert {ids.dataset_id(call["args"]["pair_id"]) for call in deletes} <= evidence

    # The same replies with the dataset's ids and no nonce (how runs were made before) grade the
    # same, case for case.
    before = json.loads(json.dumps(transcript))
    del before["wire_nonce"]
    for call in write_calls(before, dataset, "delete") + write_calls(before, dataset, "update"):
        call["args"]["pair_id"] = ids.dataset_id(call["args"]["pair_id"])
    regraded = grade_run(dataset, Transcript.from_json(before)).report
    assert [(c.case_id, c.score) for c in regraded.per_case] == [
        (c.case_id, c.score) for c in outcome.report.per_case
    ]
    # A harness that deleted by the dataset's id (computed from the seed, never shown) earns
    # nothing for it.
    cheat = json.loads(json.dumps(transcript))
    for call in write_calls(cheat, dataset, "delete"):
        call["args"]["pair_id"] = ids.dataset_id(call["args"]["pair_id"])
    cheated = grade_run(dataset, Transcript.from_json(cheat)).report
    deleted = [
        c for c in cheated.per_case if c.case_id in {w.id for w in writes if w.write_op == "delete"}
    ]
    assert deleted and all(c.score == 0.0 for c in deleted)


def test_the_tool_endpoint_knows_a_case_by_the_id_the_harness_was_shown() -> None:
    dataset = build_dataset(SEED, "2.0.0", "small")
    ids = WireIds.of(dataset, "5a" * 32)
    case = dataset.tool_cases[0]
    version = get_policy(dataset.bench_version).content_version

    async def go() -> tuple[list[int], tuple[str, ...]]:
        endpoint = ToolEndpoint(dataset, version, ids=ids)
        await endpoint.start()
        try:
            async with httpx.AsyncClient(timeout=5) as client:
                endpoint.open_case(case.id)
                statuses = []
                for named in (case.id, ids.case(case.id)):  # the seed's id, then the shown one
                    body = {"case_id": named, "name": "search_web", "args": {"queries": ["x"]}}
                    statuses.append((await client.post(endpoint.url, json=body)).status_code)
                calls = endpoint.close_case(case.id)
                return statuses, tuple(c.name for c in calls)
        finally:
            await endpoint.stop()

    statuses, calls = asyncio.run(go())
    assert statuses == [404, 200] and calls == ("search_web",)


def test_a_receipt_regrades_from_its_leaves_through_the_nonce_it_signs(tmp_path: Path) -> None:
    dataset = build_dataset(SEED, "2.0.0", "medium")
    key = Ed25519PrivateKey.generate()
    record = tmp_path / "bodies.jsonl"
    with (
        RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store,
        harness("oracle", "--answers", answers(tmp_path, dataset), "--record", str(record)) as url,
    ):
        chosen = replace(options(tmp_path, dataset, url), signing_key=key)
        outcome = start_run(store, "r-receipt", chosen, clock, lambda p: None)
    assert outcome.receipt_path is not None
    receipt = json.loads(outcome.receipt_path.read_bytes())
    transcript = json.loads(outcome.transcript_path.read_bytes())
    assert receipt["manifest"]["wire_nonce"] == transcript["wire_nonce"]
    assert regrade_receipt(receipt).ok and regrade_receipt(receipt, transcript).ok
    # Signed with another nonce, the deletes name pairs the harness was never shown.
    forged = copy.deepcopy(receipt)
    forged["manifest"]["wire_nonce"] = "5a" * 32
    forged = resign(forged, key)
    assert verify_receipt(forged).ok  # intact and signed: only the regrade catches it
    regraded = regrade_receipt(forged)
    deletes = {c.id for c in dataset.memory_cases if c.write_op == "delete"}
    assert {d.case_id for d in regraded.disagreements if d.field == "leaf.score"} == deletes
    assert not verify_receipt(forged, transcript=transcript).ok
