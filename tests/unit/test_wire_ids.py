"""Wire ids (``core.ids.wire_id``, ``spec.wireids``): the exact rule, the identity without a
nonce, the one way back from an id a harness quotes, and where the nonce is kept: the run store
(a column older stores gain), the transcript (absent without one, so older transcripts keep
their bytes) and a receipt's manifest (format 3, only when there is a nonce)."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.core.hashing import canonical_sha256
from dittobench.core.ids import WIRE_SHAPES, wire_id
from dittobench.engine import runner
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import GradeInputError, grade_run
from dittobench.grade.writes import write_done
from dittobench.receipts.manifest import (
    RECEIPT_FORMAT,
    RECEIPT_FORMAT_3,
    Manifest,
    ManifestError,
)
from dittobench.receipts.regrade import regrade_receipt
from dittobench.receipts.sign import build_receipt, case_prompts
from dittobench.receipts.verify import verify_receipt
from dittobench.spec import wireids
from dittobench.spec.codec import DecodeError
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.transcript import CaseRecord, Transcript
from dittobench.spec.wire import RunResponse, SeedRequest, ToolCall
from dittobench.spec.wireids import TOOL_USERS, WireIdError, WireIds, tool_user
from dittobench.store import RunStore
from dittobench.store.errors import BadContentError
from tests.helpers.legacy_store import as_before_migrations
from tests.unit.test_store import make_run

NONCE = "0f" * 32
OLD_FIXTURE = Path(__file__).resolve().parents[1] / "integration" / "data" / "receipt-1"


@pytest.fixture(scope="module")
def dataset() -> Dataset:
    return build_dataset(7, "2.0.0", "medium")


def test_the_rule_is_an_hmac_of_the_kind_and_the_dataset_id_under_the_nonce() -> None:
    key = bytes.fromhex(NONCE)
    for kind, (prefix, length) in WIRE_SHAPES.items():
        mac = hmac.new(key, f"dittobench-wire|{kind}|p-0123456789ab".encode(), hashlib.sha256)
        assert wire_id(key, kind, "p-0123456789ab") == prefix + mac.hexdigest()[:length]
    assert len(wire_id(key, "case", "c0123456789abcdef")) == len("c0123456789abcdef")
    assert wire_id(key, "pair", "p-1") != wire_id(bytes(32), "pair", "p-1")


def test_no_nonce_is_the_identity(dataset: Dataset) -> None:
    ids = WireIds.of(dataset, "")
    wave = dataset.memory_waves[0]
    assert ids.seed_request(wave) is wave
    assert (
        ids.case("c1") == "c1" and ids.run_user("c1", "") == "" and ids.dataset_id("p-1") == "p-1"
    )
    assert ids.run_user("c1", "miner") == "miner"


def test_every_id_of_a_wave_is_keyed_and_maps_back(dataset: Dataset) -> None:
    ids = WireIds.of(dataset, NONCE)
    for wave in dataset.memory_waves:
        shown = ids.seed_request(wave)
        assert shown.user_id == ids.run_user("", wave.user_id) != wave.user_id
        assert [(p.prompt, p.response, p.timestamp) for p in shown.pairs] == [
            (p.prompt, p.response, p.timestamp) for p in wave.pairs
        ]
        for mine, theirs in zip(wave.pairs, shown.pairs, strict=True):
            assert ids.dataset_id(theirs.pair_id) == mine.pair_id != theirs.pair_id
            assert ids.dataset_id(theirs.session_id) == mine.session_id
            assert ids.dataset_id(theirs.pair_id.upper()) == mine.pair_id  # as the grader compares
            assert ids.dataset_id(mine.pair_id) == ""  # never shown: computed from the seed
        for mine_s, theirs_s in zip(wave.subjects, shown.subjects, strict=True):
            assert ids.dataset_id(theirs_s.id) == mine_s.id
        assert [ids.dataset_id(k.pair_id) for k in shown.links] == [k.pair_id for k in wave.links]
    tool = dataset.tool_cases[0]
    assert ids.dataset_id(ids.run_user(tool.id, "")) == tool_user(ids.case(tool.id))
    assert ids.dataset_id("any other text") == "any other text"


def test_tool_cases_share_a_small_pool_of_users_chosen_by_their_wire_ids() -> None:
    """A harness keeps resources per user id, so a run shows at most ``TOOL_USERS`` tool users
    (before, one per tool case: 84 on a full run, never freed), none of them a memory user.
    The pool user is read from the case's wire id (``c`` + 16 hex digits, modulo the pool):
    the same under one nonce, and nothing a harness could not compute from what it is shown."""
    full = build_dataset(7, "2.0.0", "full")
    ids = WireIds.of(full, NONCE)
    tool_users = [ids.run_user(c.id, "") for c in full.tool_cases]
    memory_users = {ids.run_user(c.id, c.user_id) for c in full.memory_cases}
    assert len(full.tool_cases) > 80 and len(set(tool_users)) == TOOL_USERS == 4
    assert not set(tool_users) & memory_users and len(memory_users) == 2
    for case, user in zip(full.tool_cases, tool_users, strict=True):
        k = int(ids.case(case.id)[1:], 16) % TOOL_USERS
        assert user == wire_id(bytes.fromhex(NONCE), "user", f"tool:{k}")
        assert ids.dataset_id(user) == f"tool:{k}" == tool_user(ids.case(case.id))
    assert tool_users == [WireIds.of(full, NONCE).run_user(c.id, "") for c in full.tool_cases]
    other = WireIds.of(full, "1e" * 32)
    assert not set(tool_users) & {other.run_user(c.id, "") for c in full.tool_cases}


def test_a_nonce_must_be_64_hex_digits_and_collisions_are_refused(
    dataset: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    for bad in ("0f" * 31, "0F" * 32, "zz" * 32):
        with pytest.raises(WireIdError):
            WireIds.of(dataset, bad)
    monkeypatch.setattr(wireids, "wire_id", lambda nonce, kind, dataset_id: "c0")
    with pytest.raises(WireIdError, match="two ids are shown as c0"):
        WireIds.of(dataset, NONCE)


def test_the_engine_draws_again_when_a_nonce_collides(
    dataset: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    real, tries = WireIds.of, []

    def of(data: Dataset, nonce: str) -> WireIds:
        tries.append(nonce)
        if len(tries) == 1:
            raise WireIdError("two ids are shown as c0 under this nonce")
        return real(data, nonce)

    monkeypatch.setattr(WireIds, "of", of)
    drawn = runner._draw_wire_ids(dataset)
    assert len(tries) == 2 and tries[0] != tries[1] and drawn.nonce == tries[1]


def delete_case(dataset: Dataset) -> MemoryCase:
    return next(c for c in dataset.memory_cases if c.write_op == "delete")


def test_a_delete_is_read_through_the_ids_the_harness_was_shown(dataset: Dataset) -> None:
    case = delete_case(dataset)
    ids = WireIds.of(dataset, NONCE)
    pair = case.evidence_pair_ids[0]
    shown = ids.wire("pair", pair)

    def delete(pair_id: str) -> tuple[ToolCall, ...]:
        return (ToolCall("delete_memory", {"pair_id": pair_id}),)

    assert write_done(case, delete(shown), ids.dataset_id)
    assert not write_done(case, delete(pair), ids.dataset_id)  # the seed's id, never shown
    assert write_done(case, delete(pair))  # no nonce: the dataset's ids, as before
    other = ids.wire("pair", next(p.pair_id for p in dataset.memory_waves[-1].pairs))
    assert not write_done(case, delete(shown) + delete(other), ids.dataset_id)


def transcript_for(dataset: Dataset, nonce: str) -> Transcript:
    case = delete_case(dataset)
    response = RunResponse(final_text="Done.")
    records = (CaseRecord(case.id, "memory", case.user_id, response),)
    sha = canonical_sha256(dataset.to_json())
    return Transcript(
        "dittobench", dataset.bench_version, dataset.seed, "medium", sha, "h", records, None, nonce
    )


def test_the_transcript_records_the_nonce_only_when_there_is_one(dataset: Dataset) -> None:
    plain, keyed = transcript_for(dataset, ""), transcript_for(dataset, NONCE)
    assert "wire_nonce" not in plain.to_json()
    assert keyed.to_json()["wire_nonce"] == NONCE
    assert Transcript.from_json(keyed.to_json()) == keyed
    assert Transcript.from_json(plain.to_json()).wire_nonce == ""
    with pytest.raises(DecodeError, match=r"\$\.wire_nonce"):
        Transcript.from_json({**keyed.to_json(), "wire_nonce": "xyz"})
    with pytest.raises(DecodeError):
        Transcript.from_json({**keyed.to_json(), "wire_nonce": 5})
    assert grade_run(dataset, keyed).report.n == grade_run(dataset, plain).report.n


def test_grading_refuses_a_nonce_it_cannot_use(
    dataset: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wireids, "wire_id", lambda nonce, kind, dataset_id: "c0")
    fresh = dataclasses.replace(dataset)  # grading works a dataset's wire ids out once
    with pytest.raises(GradeInputError, match="wire nonce"):
        grade_run(fresh, transcript_for(fresh, NONCE))


def test_a_receipt_signs_the_nonce_in_format_3_and_only_then(dataset: Dataset) -> None:
    key = Ed25519PrivateKey.generate()
    made = {}
    for nonce in ("", NONCE):
        transcript = transcript_for(dataset, nonce)
        report = grade_run(dataset, transcript).report
        made[nonce] = build_receipt(
            report, transcript, case_prompts(dataset), key, "verified", "2026-12-05T10:00:00Z", "h"
        )
    plain, keyed = made[""]["manifest"], made[NONCE]["manifest"]
    assert plain["format"] == RECEIPT_FORMAT and "wire_nonce" not in plain
    assert keyed["format"] == RECEIPT_FORMAT_3 and keyed["wire_nonce"] == NONCE
    assert Manifest.from_json(keyed).wire_nonce == NONCE
    assert verify_receipt(made[NONCE]).ok
    with pytest.raises(ManifestError, match="missing wire_nonce"):
        Manifest.from_json({k: v for k, v in keyed.items() if k != "wire_nonce"})
    with pytest.raises(ManifestError, match=r"unknown field\(s\) wire_nonce"):
        Manifest.from_json({**plain, "wire_nonce": NONCE})
    with pytest.raises(ManifestError, match=r"manifest\.wire_nonce: expected 64"):
        Manifest.from_json({**keyed, "wire_nonce": ""})
    # With the transcript: its nonce must be the manifest's.
    other = transcript_for(dataset, "1e" * 32).to_json()
    checked = verify_receipt(made[NONCE], transcript=other)
    assert [c.name for c in checked.failed] == ["transcript hash", "transcript run"]
    assert "wire_nonce" in checked.failed[1].detail
    regraded = regrade_receipt(made[NONCE], other)
    assert "wire nonce" in regraded.blocked
    assert regrade_receipt(made[NONCE], transcript_for(dataset, NONCE).to_json()).ok
    assert regrade_receipt(made[NONCE]).ok


def test_an_old_transcript_without_a_nonce_regrades_to_its_signed_report() -> None:
    raw = (OLD_FIXTURE / "transcript.json").read_bytes()
    manifest = json.loads((OLD_FIXTURE / "receipt.json").read_bytes())["manifest"]
    transcript = Transcript.from_json(json.loads(raw))
    assert transcript.wire_nonce == "" and transcript.sha256 == manifest["transcript_sha256"]
    dataset = build_dataset(int(manifest["seed"]), manifest["bench_version"], manifest["run_size"])
    report = grade_run(dataset, transcript).report
    scores = manifest["scores"]
    assert f"{report.composite:.6f}" == scores["composite"]
    assert f"{report.tool_mean:.6f}" == scores["tool_mean"]
    assert f"{report.memory_mean:.6f}" == scores["memory_mean"]
    assert report.transcript_sha256 == manifest["transcript_sha256"]


def test_the_store_keeps_the_nonce_and_an_older_store_gains_the_column(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    with RunStore(RunStore.sqlite_url(db)) as store:
        store.create_run(replace(make_run("run-1"), wire_nonce=NONCE))
        store.create_run(make_run("run-2"))
    with sqlite3.connect(db) as conn:
        conn.execute("ALTER TABLE runs DROP COLUMN wire_nonce")  # as a store made before nonces
    conn.close()
    as_before_migrations(db)  # and before migrations, which bring the column back
    with RunStore(RunStore.sqlite_url(db)) as store:
        assert store.get_run("run-1").wire_nonce == ""  # an old run resumes on dataset ids
        store.create_run(replace(make_run("run-3"), wire_nonce=NONCE))
        assert store.get_run("run-3").wire_nonce == NONCE
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE runs SET wire_nonce = 'not hex' WHERE run_id = 'run-2'")
    with RunStore(RunStore.sqlite_url(db)) as store, pytest.raises(BadContentError) as raised:
        store.get_run("run-2")
    assert "column wire_nonce" in str(raised.value)


def test_seed_requests_keep_their_shape(dataset: Dataset) -> None:
    ids = WireIds.of(dataset, NONCE)
    empty = SeedRequest(user_id="colleague", wave=3)
    assert ids.seed_request(empty) == replace(empty, user_id=ids.run_user("", "colleague"))
