"""Receipt format 4: format 3 plus ``seed_source``, who chose the run's seed. A round trip keeps
the signed bytes; changing who chose the seed (a practice run passed off as operator-seeded, or
the field dropped by calling the receipt format 3) breaks the signature; a value outside
``operator`` / ``submitter`` is refused; receipts of formats 1 to 3 verify byte for byte as
before, and a build without a seed source still makes them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.core.canonical import canonical_bytes
from dittobench.core.hashing import canonical_sha256
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.receipts.keys import TrustedKeys, trusted_entry
from dittobench.receipts.manifest import (
    RECEIPT_FORMAT,
    RECEIPT_FORMAT_1,
    RECEIPT_FORMAT_3,
    RECEIPT_FORMAT_4,
    Manifest,
    ManifestError,
    manifest_bytes,
)
from dittobench.receipts.regrade import regrade_receipt
from dittobench.receipts.sign import build_receipt, case_prompts
from dittobench.receipts.verify import verify_receipt
from dittobench.spec.dataset import Dataset
from dittobench.spec.seeds import SeedSourceError
from dittobench.spec.transcript import CaseRecord, Transcript
from dittobench.spec.wire import RunResponse
from tests.helpers.receipts import resign

NONCE = "3c" * 32
CREATED = "2026-12-05T10:00:00Z"
OLD_FIXTURE = Path(__file__).resolve().parents[1] / "integration" / "data" / "receipt-1"


@pytest.fixture(scope="module")
def dataset() -> Dataset:
    # Formats 1 to 4 sign runs without open questions (format 5: test_receipt_judged.py).
    return build_dataset(7, "7.1.0", "small")


@pytest.fixture(scope="module")
def key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def trusted(key: Ed25519PrivateKey) -> TrustedKeys:
    return TrustedKeys((trusted_entry(key, "2026-01-01T00:00:00Z"),))


def transcript_for(dataset: Dataset, nonce: str) -> Transcript:
    records = tuple(
        CaseRecord(case.id, "memory", case.user_id, RunResponse(final_text="I don't know."))
        for case in dataset.memory_cases
    )
    sha = canonical_sha256(dataset.to_json())
    return Transcript(
        "dittobench", dataset.bench_version, dataset.seed, "small", sha, "h", records, None, nonce
    )


def sign(
    dataset: Dataset, key: Ed25519PrivateKey, nonce: str = NONCE, **extra: Any
) -> dict[str, Any]:
    transcript = transcript_for(dataset, nonce)
    report = grade_run(dataset, transcript).report
    prompts = case_prompts(dataset)
    return build_receipt(report, transcript, prompts, key, "verified", CREATED, "h", **extra)


def test_a_format_4_manifest_round_trips_and_verifies(
    dataset: Dataset, key: Ed25519PrivateKey
) -> None:
    for source in ("operator", "submitter"):
        receipt = sign(dataset, key, seed_source=source)
        manifest = receipt["manifest"]
        assert manifest["format"] == RECEIPT_FORMAT_4 == "dittobench-receipt-4"
        assert (manifest["seed_source"], manifest["wire_nonce"]) == (source, NONCE)
        parsed = Manifest.from_json(manifest)
        assert parsed.seed_source == source and parsed.to_json() == manifest
        assert manifest_bytes(parsed) == canonical_bytes(manifest)  # the bytes signed
        result = verify_receipt(receipt, trusted(key), transcript_for(dataset, NONCE).to_json())
        assert result.ok, result.failed
        fields = next(c for c in result.checks if c.name == "manifest fields")
        said = "drawn by the operator" if source == "operator" else "chosen by the submitter"
        assert said in fields.detail
        regraded = regrade_receipt(receipt)
        assert regraded.ok, (regraded.blocked, regraded.disagreements)


def test_changing_who_chose_the_seed_breaks_the_signature(
    dataset: Dataset, key: Ed25519PrivateKey
) -> None:
    practice = sign(dataset, key, seed_source="submitter")
    promoted = copy.deepcopy(practice)
    promoted["manifest"]["seed_source"] = "operator"  # a practice run passed off as ranked
    assert [c.name for c in verify_receipt(promoted).failed] == ["signature"]
    assert "signature" in {c.name for c in verify_receipt(promoted, trusted(key)).failed}
    # Dropping the field by calling the receipt format 3 changes the signed bytes too.
    dropped = copy.deepcopy(practice)
    del dropped["manifest"]["seed_source"]
    dropped["manifest"]["format"] = RECEIPT_FORMAT_3
    assert [c.name for c in verify_receipt(dropped).failed] == ["signature"]
    # Only a holder of the key makes a consistent one: then the trusted-keys file is the check.
    forged = resign(promoted, Ed25519PrivateKey.generate())
    assert "trusted key" in {c.name for c in verify_receipt(forged, trusted(key)).failed}


def test_format_4_fields_are_exact(dataset: Dataset, key: Ed25519PrivateKey) -> None:
    manifest = sign(dataset, key, seed_source="operator")["manifest"]
    with pytest.raises(ManifestError, match="missing seed_source"):
        Manifest.from_json({k: v for k, v in manifest.items() if k != "seed_source"})
    with pytest.raises(ManifestError, match="missing wire_nonce"):
        Manifest.from_json({k: v for k, v in manifest.items() if k != "wire_nonce"})
    with pytest.raises(ManifestError, match=r"manifest\.seed_source: expected one of operator"):
        Manifest.from_json({**manifest, "seed_source": "alice"})
    with pytest.raises(ManifestError, match=r"manifest\.seed_source: expected a string"):
        Manifest.from_json({**manifest, "seed_source": None})
    three = {**manifest, "format": RECEIPT_FORMAT_3}
    with pytest.raises(ManifestError, match=r"unknown field\(s\) seed_source"):
        Manifest.from_json(three)
    bad = sign(dataset, key, seed_source="operator")
    bad["manifest"]["seed_source"] = "anyone"
    result = verify_receipt(resign(bad, key), trusted(key))
    assert "manifest fields" in {c.name for c in result.failed}
    with pytest.raises(SeedSourceError, match="'anyone'"):
        sign(dataset, key, seed_source="anyone")


def test_older_formats_are_built_and_verified_as_before(
    dataset: Dataset, key: Ed25519PrivateKey
) -> None:
    # Without a seed source: format 3 (a nonce) or 2 (none), exactly as before format 4.
    three, two = sign(dataset, key), sign(dataset, key, nonce="")
    assert three["manifest"]["format"] == RECEIPT_FORMAT_3
    assert "seed_source" not in three["manifest"]
    assert two["manifest"]["format"] == RECEIPT_FORMAT and "wire_nonce" not in two["manifest"]
    # A run stored before wire ids has no nonce, so no format-4 place: signed in format 2.
    unkeyed = sign(dataset, key, nonce="", seed_source="submitter")
    assert unkeyed["manifest"]["format"] == RECEIPT_FORMAT
    assert "seed_source" not in unkeyed["manifest"]
    for receipt in (three, two, unkeyed):
        manifest = Manifest.from_json(receipt["manifest"])
        assert manifest_bytes(manifest) == canonical_bytes(receipt["manifest"])
        result = verify_receipt(receipt, trusted(key))
        assert result.ok, result.failed
        fields = next(c for c in result.checks if c.name == "manifest fields")
        assert f"who chose it is not signed in {manifest.format}" in fields.detail


def test_a_stored_format_1_receipt_still_verifies_byte_for_byte() -> None:
    receipt = json.loads((OLD_FIXTURE / "receipt.json").read_bytes())
    assert receipt["manifest"]["format"] == RECEIPT_FORMAT_1
    manifest = Manifest.from_json(receipt["manifest"])
    assert manifest.seed_source == "" and manifest.to_json() == receipt["manifest"]
    assert verify_receipt(receipt).ok
