"""Signed receipts over a real graded run: leaves, tree, manifest, keys, verification, the CLI.

Every tamper test starts from one receipt of a real run (seed 7, small, oracle answers) and
changes a single character of one field: the verifier must fail and name the check that caught it.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import hashlib
import json
import stat
import string
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

import dittobench
import dittobench.cli.app  # the full command line...
import dittobench.cli.receipting  # ...with `keys` and `verify` registered on it
from dittobench import study as T
from dittobench.cli.common import app
from dittobench.core.canonical import canonical_bytes
from dittobench.core.hashing import text_sha256
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.packs import public_pack
from dittobench.receipts.keys import (
    PRIVATE_KEY_NAME,
    PUBLIC_KEY_NAME,
    KeyFileError,
    TrustedKey,
    TrustedKeys,
    b64decode_strict,
    generate_private_key,
    key_id,
    load_private_key,
    load_public_key,
    raw_public_key,
    save_keypair,
    trusted_entry,
)
from dittobench.receipts.manifest import (
    PACK_FIELDS,
    RECEIPT_FORMAT,
    RECEIPT_FORMAT_1,
    Manifest,
    ManifestError,
    manifest_bytes,
)
from dittobench.receipts.merkle import (
    EMPTY_ROOT,
    MerkleError,
    format_score,
    inclusion_proof,
    leaf_bytes,
    leaf_hash,
    merkle_root,
    node_hash,
    verify_proof,
)
from dittobench.receipts.regrade import regrade_receipt
from dittobench.receipts.sign import ReceiptInputError, build_receipt, case_prompts
from dittobench.receipts.verify import (
    ReceiptError,
    Verification,
    check_inclusion,
    inclusion_proof_for,
    verify_receipt,
)
from dittobench.spec.dataset import Dataset, PackRef
from dittobench.spec.transcript import Transcript
from dittobench.spec.versions import get_policy
from tests.helpers.receipts import resign

CREATED = "2026-12-05T10:00:00Z"
WINDOW_START = "2026-01-01T00:00:00Z"


@dataclass(frozen=True)
class Run:
    dataset: Dataset
    transcript: Transcript
    prompts: dict[str, str]
    key: Ed25519PrivateKey
    receipt: dict[str, Any]
    trusted: TrustedKeys

    def fresh(self) -> dict[str, Any]:
        return copy.deepcopy(self.receipt)


def prompts_of(dataset: Dataset) -> dict[str, str]:
    return {c.id: c.prompt for c in dataset.tool_cases} | {
        c.id: c.question for c in dataset.memory_cases
    }


@pytest.fixture(scope="module")
def run() -> Run:
    # Formats 1 to 4 sign runs without open questions (format 5: test_receipt_judged.py).
    dataset = build_dataset(7, "7.1.0", "small")
    transcript = T.build(dataset)
    report = grade_run(dataset, transcript).report
    prompts = prompts_of(dataset)
    key = generate_private_key()
    receipt = build_receipt(report, transcript, prompts, key, "verified", CREATED, "oracle")
    trusted = TrustedKeys((trusted_entry(key, WINDOW_START),))
    return Run(dataset, transcript, prompts, key, receipt, trusted)


def check(run: Run, receipt: Any, **kwargs: Any) -> Verification:
    kwargs.setdefault("trusted_keys", run.trusted)
    kwargs.setdefault("transcript", run.transcript.to_json())
    return verify_receipt(receipt, **kwargs)


def failed_names(result: Verification) -> set[str]:
    return {c.name for c in result.failed}


def flip(text: str, index: int = -1) -> str:
    """Change one character, keeping its class (digit, hex letter, letter) where possible."""
    i = index % len(text)
    ch = text[i]
    if ch.isdigit():
        pool = string.digits
    elif ch in "abcdef":
        pool = "abcdef"
    elif ch.isalpha():
        pool = string.ascii_letters
    else:
        pool = "xy"
    new = next(c for c in pool if c != ch)
    return text[:i] + new + text[i + 1 :]


# -- the untouched receipt --------------------------------------------------------------------


def test_untouched_receipt_passes_every_check(run: Run) -> None:
    first = run.receipt["leaves"][0]["case_id"]
    result = check(run, run.fresh(), proof_case=first)
    assert result.ok, result.failed
    assert [c.name for c in result.checks] == [
        "receipt shape",
        "manifest fields",
        "leaf hashes",
        "leaf order",
        "leaf count",
        "merkle root",
        "transcript hash",
        "transcript run",
        "transcript cases",
        "key id",
        "signature",
        "trusted key",
        "key validity",
        "inclusion proof",
    ]
    assert result.key_used.startswith(f"trusted key {key_id(run.key)}")
    assert result.proof is not None and result.proof.ok


def test_without_trusted_keys_the_carried_key_is_named_as_unpinned(run: Run) -> None:
    result = verify_receipt(run.fresh())
    assert result.ok
    assert "not pinned" in result.key_used


def test_receipt_round_trips_through_json(run: Run) -> None:
    again = json.loads(json.dumps(run.receipt, indent=2, ensure_ascii=False))
    assert check(run, again).ok


def test_manifest_carries_the_run(run: Run) -> None:
    m = run.receipt["manifest"]
    assert m["benchmark"] == "dittobench" and m["bench_version"] == run.dataset.bench_version
    assert m["package_version"] == dittobench.__version__
    assert m["seed"] == "7" and m["run_size"] == "small"
    assert m["dataset_sha256"] == run.transcript.dataset_sha256
    assert m["transcript_sha256"] == run.transcript.sha256
    assert m["leaf_count"] == len(run.receipt["leaves"]) == 12
    assert m["trust_tier"] == "verified" and m["created_at"] == CREATED
    assert m["harness"] == "oracle"
    assert m["grading_policy"] == get_policy(run.dataset.bench_version).grading.id
    assert m["scores"]["composite"] == "1.000000"
    assert set(m["scores"]["dimensions"]) >= {"recall", "temporal", "reasoning", "weighted"}
    assert m["key_id"] == run.receipt["key_id"] == key_id(run.key)
    # The transcript names no pack (as one made before packs): the version's own is signed.
    assert run.transcript.pack is None
    assert m["format"] == RECEIPT_FORMAT == "dittobench-receipt-2"
    own = public_pack(get_policy(run.dataset.bench_version).pack_id)
    assert (m["pack_id"], m["pack_sha256"]) == (own.pack_id, own.sha256)


def test_the_manifest_names_the_transcripts_pack(run: Run) -> None:
    pack = PackRef("sealed-1", "ab" * 32)
    transcript = dataclasses.replace(run.transcript, pack=pack)
    report = grade_run(run.dataset, transcript).report
    assert report.pack == pack
    receipt = build_receipt(report, transcript, run.prompts, run.key, "verified", CREATED, "oracle")
    assert receipt["manifest"]["pack_id"] == "sealed-1"
    assert receipt["manifest"]["pack_sha256"] == "ab" * 32
    assert verify_receipt(receipt, run.trusted, transcript.to_json()).ok
    # The signed pack is checked against the transcript's, either side's absence standing for
    # the version's own pack.
    result = verify_receipt(receipt, run.trusted, run.transcript.to_json())
    assert {"transcript hash", "transcript run"} == failed_names(result)
    assert "differ in: pack" in {c.name: c.detail for c in result.checks}["transcript run"]


def test_the_prompts_are_the_cases_texts(run: Run) -> None:
    assert case_prompts(run.dataset) == prompts_of(run.dataset)


def test_the_signature_covers_exactly_the_manifest_bytes(run: Run) -> None:
    manifest = Manifest.from_json(run.receipt["manifest"])
    data = manifest_bytes(manifest)
    assert data == canonical_bytes(run.receipt["manifest"])
    signature = base64.b64decode(run.receipt["signature"])
    run.key.public_key().verify(signature, data)  # raises if not


def test_leaves_hold_what_was_graded(run: Run) -> None:
    records = {c["case_id"]: c for c in run.transcript.to_json()["cases"]}
    ids = [e["case_id"] for e in run.receipt["leaves"]]
    assert ids == sorted(ids) == sorted(run.prompts)
    for entry in run.receipt["leaves"]:
        leaf = entry["leaf"]
        assert set(leaf) == {"case_id", "prompt_sha256", "response", "observed", "score"}
        assert leaf["prompt_sha256"] == text_sha256(run.prompts[entry["case_id"]])
        assert leaf["response"] == records[entry["case_id"]]["response"]
        assert leaf["observed"] == records[entry["case_id"]]["observed"]
        assert leaf["score"] == "1.000000"
        expected = hashlib.sha256(b"\x00" + canonical_bytes(leaf)).hexdigest()
        assert entry["hash"] == expected


def test_a_case_missing_from_the_transcript_is_a_null_leaf(run: Run) -> None:
    kept = tuple(c for c in run.transcript.cases if c.kind == "tool")
    transcript = Transcript(
        run.transcript.benchmark,
        run.transcript.bench_version,
        run.transcript.seed,
        run.transcript.run_size,
        run.transcript.dataset_sha256,
        run.transcript.harness,
        kept,
    )
    report = grade_run(run.dataset, transcript).report
    receipt = build_receipt(
        report, transcript, run.prompts, run.key, "self-reported", CREATED, "oracle"
    )
    memory_ids = {c.id for c in run.dataset.memory_cases}
    for entry in receipt["leaves"]:
        if entry["case_id"] in memory_ids:
            assert entry["leaf"]["response"] is None and entry["leaf"]["observed"] == []
            assert entry["leaf"]["score"] == "0.000000"
    assert verify_receipt(receipt, run.trusted, transcript.to_json()).ok


# -- tampering: every leaf, every field -------------------------------------------------------


def test_one_character_of_any_leafs_response_fails_naming_the_case(run: Run) -> None:
    for position, entry in enumerate(run.receipt["leaves"]):
        receipt = run.fresh()
        response = receipt["leaves"][position]["leaf"]["response"]
        response["final_text"] = flip(response["final_text"], 0)
        result = check(run, receipt)
        assert not result.ok
        assert {"leaf hashes", "transcript cases"} <= failed_names(result)
        detail = {c.name: c.detail for c in result.checks}
        assert f"case {entry['case_id']}" in detail["leaf hashes"]
        assert f"case {entry['case_id']}: response differs" in detail["transcript cases"]
        # Without the transcript the leaf hash alone still catches it.
        assert "leaf hashes" in failed_names(verify_receipt(receipt, run.trusted))


def test_one_character_of_any_leafs_score_or_prompt_hash_fails(run: Run) -> None:
    for position, entry in enumerate(run.receipt["leaves"]):
        for name in ("score", "prompt_sha256"):
            receipt = run.fresh()
            leaf = receipt["leaves"][position]["leaf"]
            leaf[name] = flip(leaf[name])
            result = check(run, receipt)
            # The root is rebuilt from recomputed leaf hashes, so it breaks too.
            assert failed_names(result) == {"leaf hashes", "merkle root"}, (name, result.failed)
            assert entry["case_id"] in result.failed[0].detail


def test_a_field_riding_beside_a_leaf_fails(run: Run) -> None:
    """A leaf entry is case_id, leaf and hash; the entry itself is not signed, so nothing else
    may travel in it looking as if it were."""
    receipt = run.fresh()
    entry = receipt["leaves"][0]
    entry["note"] = "score corrected to 1.0 by the operator"
    result = check(run, receipt)
    assert "leaf hashes" in failed_names(result)
    detail = {c.name: c.detail for c in result.checks}["leaf hashes"]
    assert f"case {entry['case_id']}: unknown field(s) note" in detail


def test_an_observed_call_changed_fails(run: Run) -> None:
    observed = [i for i, e in enumerate(run.receipt["leaves"]) if e["leaf"]["observed"]]
    assert observed, "the oracle's tool cases reach the endpoint"
    for position in observed:
        receipt = run.fresh()
        call = receipt["leaves"][position]["leaf"]["observed"][0]
        call["name"] = flip(call["name"], 0)
        result = check(run, receipt)
        assert {"leaf hashes", "transcript cases"} <= failed_names(result)


def test_a_leaf_and_its_hash_changed_together_breaks_the_root(run: Run) -> None:
    for position in range(len(run.receipt["leaves"])):
        receipt = run.fresh()
        entry = receipt["leaves"][position]
        entry["leaf"]["score"] = "0.000000"
        entry["hash"] = leaf_hash(leaf_bytes(entry["leaf"]))
        result = verify_receipt(receipt, run.trusted)
        assert failed_names(result) == {"merkle root"}
        # ... and fixing the root as well breaks the signature.
        receipt["manifest"]["merkle_root"] = merkle_root([e["hash"] for e in receipt["leaves"]])
        assert failed_names(verify_receipt(receipt, run.trusted)) == {"signature", "trusted key"}


def test_any_stored_leaf_hash_changed_fails(run: Run) -> None:
    for position in range(len(run.receipt["leaves"])):
        receipt = run.fresh()
        receipt["leaves"][position]["hash"] = flip(receipt["leaves"][position]["hash"])
        assert failed_names(check(run, receipt)) == {"leaf hashes"}


def manifest_paths(manifest: dict[str, Any]) -> list[tuple[str, ...]]:
    """Every string field of the manifest, nested ones included."""
    out: list[tuple[str, ...]] = []
    for name, value in manifest.items():
        if isinstance(value, str):
            out.append((name,))
        elif isinstance(value, dict):
            out += [(name, *sub) for sub in manifest_paths(value)]
    return out


def test_one_character_of_any_manifest_field_breaks_the_signature(run: Run) -> None:
    paths = manifest_paths(run.receipt["manifest"])
    assert len(paths) >= 20
    for path in paths:
        receipt = run.fresh()
        target = receipt["manifest"]
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = flip(target[path[-1]])
        failed = failed_names(check(run, receipt))
        assert "signature" in failed, path
        assert "trusted key" in failed, path


def test_the_failing_check_names_the_manifest_field_where_it_can(run: Run) -> None:
    named = {
        "merkle_root": "merkle root",
        "transcript_sha256": "transcript hash",
        "dataset_sha256": "transcript run",
        "key_id": "key id",
        "pack_sha256": "transcript run",
        "pack_id": "transcript run",
    }
    for field, check_name in named.items():
        receipt = run.fresh()
        receipt["manifest"][field] = flip(receipt["manifest"][field])
        assert check_name in failed_names(check(run, receipt)), field
    receipt = run.fresh()
    receipt["manifest"]["leaf_count"] += 1
    assert {"leaf count", "signature"} <= failed_names(check(run, receipt))


def test_any_character_of_the_signature_changed_fails(run: Run) -> None:
    signature = run.receipt["signature"]
    for index in range(len(signature)):
        receipt = run.fresh()
        receipt["signature"] = flip(signature, index)
        failed = failed_names(verify_receipt(receipt, run.trusted))
        assert "signature" in failed, index
        assert "trusted key" in failed, index


def test_any_character_of_the_public_key_or_key_id_changed_fails(run: Run) -> None:
    for field in ("public_key", "key_id"):
        value = run.receipt[field]
        for index in range(len(value)):
            receipt = run.fresh()
            receipt[field] = flip(value, index)
            assert "key id" in failed_names(verify_receipt(receipt, run.trusted)), (field, index)


def test_reordered_dropped_or_doubled_leaves_fail(run: Run) -> None:
    swapped = run.fresh()
    leaves = swapped["leaves"]
    leaves[0], leaves[1] = leaves[1], leaves[0]
    assert {"leaf order", "merkle root"} <= failed_names(check(run, swapped))
    dropped = run.fresh()
    dropped["leaves"].pop()
    assert {"leaf count", "merkle root", "transcript cases"} <= failed_names(check(run, dropped))
    doubled = run.fresh()
    doubled["leaves"].insert(1, copy.deepcopy(doubled["leaves"][0]))
    assert {"leaf order", "leaf count"} <= failed_names(check(run, doubled))


def test_a_different_transcript_fails(run: Run) -> None:
    other = T.build(run.dataset, memory=T.canned("No idea."))
    failed = failed_names(check(run, run.fresh(), transcript=other.to_json()))
    assert {"transcript hash", "transcript cases"} <= failed


# -- keys: trust, rotation, validity ----------------------------------------------------------


def test_a_self_consistent_receipt_by_an_untrusted_key_fails(run: Run) -> None:
    stranger = generate_private_key()
    report = grade_run(run.dataset, run.transcript).report
    forged = build_receipt(
        report, run.transcript, run.prompts, stranger, "verified", CREATED, "oracle"
    )
    assert verify_receipt(forged, None, run.transcript.to_json()).ok  # self-consistent
    result = check(run, forged)
    assert failed_names(result) == {"trusted key"}
    assert "is not trusted" in result.failed[0].detail
    # An altered run re-signed by the stranger: self-consistent, still refused.
    altered = run.fresh()
    altered["leaves"][0]["leaf"]["score"] = "0.000000"
    altered["leaves"][0]["hash"] = leaf_hash(leaf_bytes(altered["leaves"][0]["leaf"]))
    altered["manifest"]["merkle_root"] = merkle_root([e["hash"] for e in altered["leaves"]])
    altered = resign(altered, stranger)
    assert verify_receipt(altered).ok
    assert "trusted key" in failed_names(verify_receipt(altered, run.trusted))


def test_the_trusted_copy_of_the_key_is_what_verifies(run: Run) -> None:
    """A stranger's signature under the trusted key's id: the carried key does not match its id,
    and the trusted key does not verify the signature."""
    stranger = generate_private_key()
    forged = resign(run.fresh(), stranger)
    trusted_id = key_id(run.key)
    forged["key_id"] = trusted_id
    forged["manifest"]["key_id"] = trusted_id
    forged["signature"] = base64.b64encode(
        stranger.sign(canonical_bytes(forged["manifest"]))
    ).decode()
    result = verify_receipt(forged, run.trusted)
    assert "signature" not in failed_names(result)  # the carried (stranger's) key verifies...
    assert {"key id", "trusted key"} <= failed_names(result)  # ...but it is not the trusted one
    assert "does not verify" in {c.name: c.detail for c in result.checks}["trusted key"]


@pytest.mark.parametrize(
    ("valid_from", "valid_until", "ok"),
    [
        (WINDOW_START, None, True),
        (CREATED, None, True),
        (WINDOW_START, "2026-12-05T10:00:01Z", True),
        (WINDOW_START, CREATED, False),  # valid_until is exclusive
        (WINDOW_START, "2026-06-30T00:00:00Z", False),  # rotated out before the run
        ("2026-12-05T10:00:01Z", None, False),  # not yet valid
        ("2026-12-05T11:00:00+01:00", None, True),  # offsets compare as instants
    ],
)
def test_the_trusted_key_must_be_valid_at_created_at(
    run: Run, valid_from: str, valid_until: str | None, ok: bool
) -> None:
    trusted = TrustedKeys((trusted_entry(run.key, valid_from, valid_until),))
    result = verify_receipt(run.fresh(), trusted)
    assert result.ok is ok
    if not ok:
        assert failed_names(result) == {"key validity"}


def test_rotation_keeps_old_receipts_verifiable(run: Run) -> None:
    newer = generate_private_key()
    trusted = TrustedKeys(
        (
            trusted_entry(run.key, WINDOW_START, "2027-01-01T00:00:00Z"),
            trusted_entry(newer, "2027-01-01T00:00:00Z"),
        )
    )
    assert verify_receipt(run.fresh(), trusted).ok
    report = grade_run(run.dataset, run.transcript).report
    late = build_receipt(
        report, run.transcript, run.prompts, run.key, "verified", "2027-02-01T00:00:00Z", "x"
    )
    assert failed_names(verify_receipt(late, trusted)) == {"key validity"}
    fresh = build_receipt(
        report, run.transcript, run.prompts, newer, "verified", "2027-02-01T00:00:00Z", "x"
    )
    assert verify_receipt(fresh, trusted).ok


def test_keys_save_load_and_id(tmp_path: Path) -> None:
    key = generate_private_key()
    private_path, public_path = save_keypair(key, tmp_path / "keys")
    assert private_path.name == PRIVATE_KEY_NAME and public_path.name == PUBLIC_KEY_NAME
    assert stat.S_IMODE(private_path.stat().st_mode) == 0o600
    assert b"BEGIN PRIVATE KEY" in private_path.read_bytes()
    assert b"BEGIN PUBLIC KEY" in public_path.read_bytes()
    loaded = load_private_key(private_path)
    assert raw_public_key(loaded) == raw_public_key(key)
    assert raw_public_key(load_public_key(public_path)) == raw_public_key(key)
    assert key_id(key) == hashlib.sha256(raw_public_key(key)).hexdigest()[:16]
    with pytest.raises(FileExistsError):
        save_keypair(generate_private_key(), tmp_path / "keys")
    assert load_private_key(private_path).sign(b"m") == key.sign(b"m")  # Ed25519 is deterministic
    with pytest.raises(KeyFileError):
        load_private_key(public_path)


def test_trusted_keys_file_is_checked() -> None:
    key = generate_private_key()
    entry = trusted_entry(key, WINDOW_START).to_json()
    parsed = TrustedKeys.from_json({"keys": [entry]})
    assert parsed.lookup(key_id(key)) == TrustedKey(
        key_id(key), raw_public_key(key), WINDOW_START, None
    )
    assert parsed.lookup("0" * 16) is None
    bad: list[Any] = [
        [],
        {"keys": {}},
        {"keys": [entry, entry]},
        {"keys": [{**entry, "key_id": flip(entry["key_id"])}]},
        {"keys": [{**entry, "public_key": entry["public_key"][:-2]}]},
        {"keys": [{**entry, "public_key": base64.b64encode(b"x" * 31).decode()}]},
        {"keys": [{**entry, "valid_from": "yesterday"}]},
        {"keys": [{**entry, "valid_until": "2026-13-01T00:00:00Z"}]},
        {"keys": [{**entry, "valid_from": None}]},
    ]
    for data in bad:
        with pytest.raises(KeyFileError):
            TrustedKeys.from_json(data)


def test_base64_must_be_canonical() -> None:
    assert b64decode_strict("AAE=", "x") == b"\x00\x01"
    for text in ("AAF=", "AAE", "AA E=", "AAE=\n", "-_8=", 5):
        with pytest.raises(KeyFileError):
            b64decode_strict(text, "x")


# -- inclusion proofs -------------------------------------------------------------------------


def test_every_case_has_a_proof_that_needs_only_its_leaf(run: Run) -> None:
    root = run.receipt["manifest"]["merkle_root"]
    for entry in run.receipt["leaves"]:
        bundle = json.loads(json.dumps(inclusion_proof_for(run.receipt, entry["case_id"])))
        assert bundle["root"] == root and bundle["leaf"] == entry["leaf"]
        assert check_inclusion(bundle["leaf"], bundle["proof"], root)
        tampered = copy.deepcopy(bundle["leaf"])
        tampered["score"] = flip(tampered["score"])
        assert not check_inclusion(tampered, bundle["proof"], root)
        assert not check_inclusion(bundle["leaf"], bundle["proof"], flip(root))
        if bundle["proof"]:
            side, sibling = bundle["proof"][0]
            other = "right" if side == "left" else "left"
            assert not check_inclusion(
                bundle["leaf"], [[other, sibling], *bundle["proof"][1:]], root
            )
        result = check(run, run.fresh(), proof_case=entry["case_id"])
        assert result.ok and result.proof is not None and result.proof.case_id == entry["case_id"]


def test_a_proof_for_a_tampered_or_unknown_case_fails(run: Run) -> None:
    receipt = run.fresh()
    case_id = receipt["leaves"][5]["case_id"]
    receipt["leaves"][5]["leaf"]["response"]["final_text"] += "!"
    result = verify_receipt(receipt, run.trusted, proof_case=case_id)
    assert {"leaf hashes", "inclusion proof"} <= failed_names(result)
    result = verify_receipt(run.fresh(), run.trusted, proof_case="no-such-case")
    assert failed_names(result) == {"inclusion proof"}
    with pytest.raises(ReceiptError):
        inclusion_proof_for(run.receipt, "no-such-case")


# -- the tree ---------------------------------------------------------------------------------


def vector_leaves(n: int) -> list[str]:
    return [leaf_hash(str(i).encode()) for i in range(n)]


@pytest.mark.parametrize(
    ("count", "root"),
    [
        (0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        (1, "db3426e878068d28d269b6c87172322ce5372b65756d0789001d34835f601c03"),
        (2, "cb00989d94a569c0a678ae042b63dcd4625db96440517f37a6eb7976ea24ed4b"),
        (3, "725d5230db68f557470dc35f1d8865813acd7ebb07ad152774141decbae71327"),
        (5, "b6748f6ed7a99de7da84fd97e1a3bac6fab8999f4a43695cab9528a2de431147"),
    ],
)
def test_merkle_root_known_vectors(count: int, root: str) -> None:
    """Leaf i is the bytes of the decimal string i; pinned roots."""
    assert merkle_root(vector_leaves(count)) == root


def test_tree_rules_spelled_out() -> None:
    a, b, c, d, e = vector_leaves(5)
    assert a == hashlib.sha256(b"\x000").hexdigest()  # leaf = H(0x00 || bytes)
    assert a != hashlib.sha256(b"0").hexdigest()
    ab = hashlib.sha256(b"\x01" + bytes.fromhex(a) + bytes.fromhex(b)).hexdigest()
    assert node_hash(a, b) == ab  # node = H(0x01 || left || right)
    assert merkle_root([a, b, c]) == node_hash(ab, c)  # the odd node is promoted, not doubled
    assert merkle_root([a, b, c]) != node_hash(ab, node_hash(c, c))
    assert merkle_root([a, b, c, d, e]) == node_hash(node_hash(ab, node_hash(c, d)), e)
    assert merkle_root([]) == EMPTY_ROOT == hashlib.sha256(b"").hexdigest()
    assert merkle_root([a]) == a


def test_proofs_for_every_index_of_many_sizes() -> None:
    for count in range(1, 18):
        leaves = vector_leaves(count)
        root = merkle_root(leaves)
        for index, leaf in enumerate(leaves):
            proof = inclusion_proof(leaves, index)
            assert verify_proof(leaf, proof, root), (count, index)
            assert not verify_proof(leaves[(index + 1) % count], proof, root) or count == 1
    assert inclusion_proof(vector_leaves(3), 2) == [("left", node_hash(*vector_leaves(2)))]
    with pytest.raises(MerkleError):
        inclusion_proof(vector_leaves(3), 3)
    assert not verify_proof("zz", [], "00" * 32)
    assert not verify_proof(vector_leaves(1)[0], [("up", "00" * 32)], "00" * 32)
    assert not verify_proof(vector_leaves(1)[0], ["left"], "00" * 32)
    with pytest.raises(MerkleError):
        merkle_root(["ABCD"])


def test_scores_are_six_decimal_strings() -> None:
    assert format_score(0.8123449) == "0.812345"
    assert format_score(1) == "1.000000"
    assert format_score(-0.0) == "0.000000"
    assert format_score(1 / 3) == "0.333333"
    for bad in (float("nan"), float("inf"), True, "0.5"):
        with pytest.raises(MerkleError):
            format_score(bad)  # type: ignore[arg-type]


# -- formats ------------------------------------------------------------------------------------


def as_format_1(receipt: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """The receipt as a build before packs signed it: no pack fields, format 1, re-signed."""
    old = copy.deepcopy(receipt)
    for name in PACK_FIELDS:
        del old["manifest"][name]
    old["manifest"]["format"] = RECEIPT_FORMAT_1
    return resign(old, key)


def test_a_format_1_receipt_verifies_and_regrades(run: Run) -> None:
    old = as_format_1(run.receipt, run.key)
    result = check(run, old)
    assert result.ok, result.failed
    manifest = Manifest.from_json(old["manifest"])
    assert (manifest.format, manifest.pack_id, manifest.pack_sha256) == (RECEIPT_FORMAT_1, "", "")
    assert manifest_bytes(manifest) == canonical_bytes(old["manifest"])  # the bytes signed
    for transcript in (None, run.transcript.to_json()):
        found = regrade_receipt(old, transcript)
        assert found.ok, (found.blocked, found.disagreements)
        assert found.pack_id == get_policy(run.dataset.bench_version).pack_id
    # A transcript naming another pack does not belong to a format-1 receipt.
    other = dataclasses.replace(run.transcript, pack=PackRef("sealed-1", "ab" * 32)).to_json()
    old["manifest"]["transcript_sha256"] = hashlib.sha256(canonical_bytes(other)).hexdigest()
    old = resign(old, run.key)
    assert failed_names(check(run, old, transcript=other)) == {"transcript run"}
    assert "the transcript names pack" in regrade_receipt(old, other).blocked


def test_each_format_has_exactly_its_fields(run: Run) -> None:
    without = run.fresh()["manifest"]
    del without["pack_sha256"]
    with pytest.raises(ManifestError, match="missing pack_sha256"):
        Manifest.from_json(without)
    old = as_format_1(run.receipt, run.key)["manifest"]
    with pytest.raises(ManifestError, match=r"unknown field\(s\) pack_id, pack_sha256"):
        Manifest.from_json({**old, "pack_id": "public-1.1", "pack_sha256": "ab" * 32})
    with pytest.raises(ManifestError, match="missing pack_id, pack_sha256"):
        Manifest.from_json({**old, "format": RECEIPT_FORMAT})
    with pytest.raises(ManifestError, match="is not one of dittobench-receipt-1, dittobench-rec"):
        Manifest.from_json({**old, "format": "dittobench-receipt-9"})
    with pytest.raises(ManifestError, match=r"manifest\.pack_id: expected 1-64"):
        Manifest.from_json({**run.fresh()["manifest"], "pack_id": "-leading-dash"})


# -- building -----------------------------------------------------------------------------------


def test_build_refuses_inputs_that_do_not_match(run: Run) -> None:
    report = grade_run(run.dataset, run.transcript).report
    other = T.build(run.dataset, harness="someone else")

    def build(**overrides: Any) -> dict[str, Any]:
        args: dict[str, Any] = {
            "report": report,
            "transcript": run.transcript,
            "prompts": run.prompts,
            "private_key": run.key,
            "trust_tier": "verified",
            "created_at": CREATED,
            "harness": "oracle",
        }
        return build_receipt(**{**args, **overrides})

    with pytest.raises(ReceiptInputError, match="different transcript"):
        build(transcript=other)
    with pytest.raises(ReceiptInputError, match="different content packs"):
        build(report=dataclasses.replace(report, pack=PackRef("sealed-1", "ab" * 32)))
    with pytest.raises(ReceiptInputError, match="no prompt text"):
        build(prompts=dict(list(run.prompts.items())[1:]))
    with pytest.raises(ManifestError, match="trust tier"):
        build(trust_tier="gold")
    with pytest.raises(ManifestError, match="RFC 3339"):
        build(created_at="2026-12-05 10:00")
    assert build(trust_tier="self-reported")["manifest"]["trust_tier"] == "self-reported"


# -- malformed receipts never raise -------------------------------------------------------------


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], Any]:
    def mutate(receipt: dict[str, Any]) -> Any:
        target: Any = receipt
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
        return receipt

    return mutate


def _delete(name: str) -> Callable[[dict[str, Any]], Any]:
    def mutate(receipt: dict[str, Any]) -> Any:
        del receipt[name]
        return receipt

    return mutate


MALFORMED: dict[str, Callable[[dict[str, Any]], Any]] = {
    "not an object": lambda r: [r],
    "null": lambda r: None,
    "no manifest": _delete("manifest"),
    "no signature": _delete("signature"),
    "no public key": _delete("public_key"),
    "no key id": _delete("key_id"),
    "no leaves": _delete("leaves"),
    "extra field": _set(("note",), "hi"),
    "manifest a string": _set(("manifest",), "{}"),
    "signature a number": _set(("signature",), 12),
    "signature bad base64": _set(("signature",), "%%%%"),
    "signature short": _set(("signature",), base64.b64encode(b"x" * 63).decode()),
    "public key bad base64": _set(("public_key",), "not base64!"),
    "public key short": _set(("public_key",), base64.b64encode(b"x" * 31).decode()),
    "leaves an object": _set(("leaves",), {}),
    "leaf entry a string": _set(("leaves", 0), "leaf"),
    "leaf not an object": _set(("leaves", 0, "leaf"), []),
    "leaf hash a number": _set(("leaves", 0, "hash"), 7),
    "leaf case id missing": _set(("leaves", 0, "case_id"), None),
    "leaf with NaN": _set(("leaves", 0, "leaf", "observed"), [float("nan")]),
    "leaf extra key": _set(("leaves", 0, "leaf", "extra"), 1),
    "leaf count a string": _set(("manifest", "leaf_count"), "12"),
    "manifest NaN": _set(("manifest", "harness"), float("nan")),
    "manifest huge int": _set(("manifest", "leaf_count"), 2**60),
    "scores missing": _set(("manifest", "scores"), {}),
    "created_at garbage": _set(("manifest", "created_at"), "soon"),
    "root not hex": _set(("manifest", "merkle_root"), "Z" * 64),
    "format unknown": _set(("manifest", "format"), "dittobench-receipt-9"),
    "format a number": _set(("manifest", "format"), 2),
    "pack sha not hex": _set(("manifest", "pack_sha256"), "AB" * 32),
    "pack sha short": _set(("manifest", "pack_sha256"), "ab" * 31),
    "pack id not an id": _set(("manifest", "pack_id"), "Sealed Pack"),
    "pack id a number": _set(("manifest", "pack_id"), 7),
    "format 1 with a pack": _set(("manifest", "format"), "dittobench-receipt-1"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_receipts_fail_with_a_detail(run: Run, name: str) -> None:
    receipt = MALFORMED[name](run.fresh())
    for proof_case in (None, run.receipt["leaves"][0]["case_id"]):
        result = check(run, receipt, proof_case=proof_case)
        assert not result.ok, name
        assert all(c.detail for c in result.failed)
        assert "could not be checked" not in " ".join(c.detail for c in result.failed), name


def test_a_malformed_transcript_or_trusted_keys_never_raise(run: Run) -> None:
    transcripts: list[Any] = [[], {"cases": "x"}, {"cases": [1, {"case_id": 3}]}, float("nan")]
    for transcript in transcripts:
        assert not check(run, run.fresh(), transcript=transcript).ok


# -- the CLI ------------------------------------------------------------------------------------


def invoke(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def test_cli_keys_generate_writes_a_0600_private_key(tmp_path: Path) -> None:
    out = tmp_path / "k"
    result = invoke("keys", "generate", "--out", str(out))
    assert result.exit_code == 0, result.output
    private_path, public_path = out / PRIVATE_KEY_NAME, out / PUBLIC_KEY_NAME
    assert stat.S_IMODE(private_path.stat().st_mode) == 0o600
    kid = key_id(load_public_key(public_path))
    assert f"key id       {kid}" in result.stdout
    entry = json.loads(result.stdout.split("trusted-keys entry:\n", 1)[1])
    parsed = TrustedKeys.from_json({"keys": [entry]})
    assert parsed.lookup(kid) is not None and entry["valid_until"] is None
    again = invoke("keys", "generate", "--out", str(out))
    assert again.exit_code == 2 and "already exists" in again.output


@pytest.fixture
def files(run: Run, tmp_path: Path) -> dict[str, Path]:
    paths = {
        "receipt": tmp_path / "receipt.json",
        "trusted": tmp_path / "trusted.json",
        "untrusted": tmp_path / "untrusted.json",
        "transcript": tmp_path / "transcript.json",
        "tampered": tmp_path / "tampered.json",
    }
    paths["receipt"].write_text(json.dumps(run.receipt, indent=2), encoding="utf-8")
    paths["trusted"].write_text(json.dumps(run.trusted.to_json()), encoding="utf-8")
    other = TrustedKeys((trusted_entry(generate_private_key(), WINDOW_START),))
    paths["untrusted"].write_text(json.dumps(other.to_json()), encoding="utf-8")
    paths["transcript"].write_bytes(canonical_bytes(run.transcript.to_json()))
    tampered = run.fresh()
    tampered["leaves"][3]["leaf"]["response"]["final_text"] += "."
    paths["tampered"].write_text(json.dumps(tampered), encoding="utf-8")
    return paths


def test_cli_verify_exit_codes(run: Run, files: dict[str, Path], tmp_path: Path) -> None:
    receipt, trusted = str(files["receipt"]), str(files["trusted"])
    ok = invoke(
        "verify", receipt, "--trusted-keys", trusted, "--transcript", str(files["transcript"])
    )
    assert ok.exit_code == 0, ok.output
    assert "verdict: VERIFIED" in ok.stdout and "FAIL" not in ok.stdout
    assert f"key used: trusted key {key_id(run.key)}" in ok.stdout
    unpinned = invoke("verify", receipt, "--any-key")
    assert unpinned.exit_code == 0 and "the signer was NOT checked" in unpinned.stdout
    unlisted = invoke("verify", receipt)
    assert unlisted.exit_code == 2 and f"key {key_id(run.key)}, which is not trusted" in (
        unlisted.output
    )

    bad = invoke("verify", str(files["tampered"]), "--trusted-keys", trusted)
    assert bad.exit_code == 1
    assert "FAIL  leaf hashes" in bad.stdout and "NOT VERIFIED" in bad.stdout
    stranger = invoke("verify", receipt, "--trusted-keys", str(files["untrusted"]))
    assert stranger.exit_code == 2 and "not trusted" in stranger.output
    assert "VERIFIED" not in stranger.stdout

    missing = invoke("verify", str(tmp_path / "nope.json"))
    assert missing.exit_code == 2
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json", encoding="utf-8")
    assert invoke("verify", str(garbage)).exit_code == 2
    duplicate = tmp_path / "dup.json"
    duplicate.write_text('{"manifest": {}, "manifest": {}}', encoding="utf-8")
    assert invoke("verify", str(duplicate)).exit_code == 2
    assert invoke("verify", receipt, "--trusted-keys", str(garbage)).exit_code == 2
    assert invoke("verify", receipt, "--trusted-keys", str(files["transcript"])).exit_code == 2
    assert invoke("verify", receipt, "--transcript", str(tmp_path / "nope.json")).exit_code == 2
    shapeless = tmp_path / "shapeless.json"
    shapeless.write_text("[1, 2]", encoding="utf-8")
    assert invoke("verify", str(shapeless)).exit_code == 1


def test_cli_verify_prints_a_proof(run: Run, files: dict[str, Path]) -> None:
    case_id = run.receipt["leaves"][4]["case_id"]
    trusted = ("--trusted-keys", str(files["trusted"]))
    result = invoke("verify", str(files["receipt"]), *trusted, "--proof", case_id)
    assert result.exit_code == 0, result.output
    assert f"proof for {case_id}:" in result.stdout
    assert f"  root   {run.receipt['manifest']['merkle_root']}" in result.stdout
    assert "ok    inclusion proof" in result.stdout
    unknown = invoke("verify", str(files["receipt"]), *trusted, "--proof", "nope")
    assert unknown.exit_code == 1 and "FAIL  inclusion proof" in unknown.stdout
