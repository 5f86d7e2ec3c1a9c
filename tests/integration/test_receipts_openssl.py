"""The manual verification of docs/receipts.md, run for real with stock OpenSSL 3.

Export the signed bytes, the signature and the public key with
``dittobench receipt export``, then ``openssl pkeyutl -verify -rawin``: a real receipt
verifies, a receipt with one manifest character changed does not.
"""

from __future__ import annotations

import base64
import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dittobench import study as T
from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.receipts.keys import generate_private_key
from dittobench.receipts.sign import build_receipt

OPENSSL = shutil.which("openssl")
pytestmark = pytest.mark.skipif(
    OPENSSL is None, reason="the openssl command is not installed, so the recipe cannot be run"
)

SPKI_ED25519_PREFIX = bytes.fromhex("302a300506032b6570032100")
"""DER SubjectPublicKeyInfo header of an Ed25519 key (RFC 8410); the raw 32 bytes follow."""


@pytest.fixture(scope="module")
def receipt() -> dict[str, Any]:
    dataset = build_dataset(7, "7.1.0", "small")  # a run without open questions: format 3
    transcript = T.build(dataset)
    report = grade_run(dataset, transcript).report
    prompts = {c.id: c.prompt for c in dataset.tool_cases} | {
        c.id: c.question for c in dataset.memory_cases
    }
    return build_receipt(
        report,
        transcript,
        prompts,
        generate_private_key(),
        "self-reported",
        "2026-12-05T10:00:00Z",
        "oracle",
    )


def export(receipt: dict[str, Any], folder: Path) -> dict[str, Path]:
    folder.mkdir()
    path = folder / "receipt.json"
    path.write_text(json.dumps(receipt, indent=2, ensure_ascii=False), encoding="utf-8")
    out = {
        "manifest": folder / "manifest.bin",
        "signature": folder / "sig.bin",
        "public_key": folder / "pub.pem",
    }
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "dittobench",
            "receipt",
            "export",
            str(path),
            "--manifest",
            str(out["manifest"]),
            "--signature",
            str(out["signature"]),
            "--public-key",
            str(out["public_key"]),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return out


def openssl_verify(files: dict[str, Path], public_key: Path | None = None) -> Any:
    assert OPENSSL is not None
    return subprocess.run(
        [
            OPENSSL,
            "pkeyutl",
            "-verify",
            "-pubin",
            "-inkey",
            str(public_key or files["public_key"]),
            "-rawin",
            "-in",
            str(files["manifest"]),
            "-sigfile",
            str(files["signature"]),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_openssl_verifies_a_real_receipt(receipt: dict[str, Any], tmp_path: Path) -> None:
    files = export(receipt, tmp_path / "good")
    assert files["manifest"].read_bytes() == canonical_bytes(receipt["manifest"])
    assert files["signature"].read_bytes() == base64.b64decode(receipt["signature"])
    result = openssl_verify(files)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Signature Verified Successfully" in result.stdout


def test_openssl_rejects_a_changed_manifest(receipt: dict[str, Any], tmp_path: Path) -> None:
    for field in ("composite", "merkle_root"):
        mutated = copy.deepcopy(receipt)
        if field == "composite":
            mutated["manifest"]["scores"]["composite"] = "0.999999"
        else:
            root = mutated["manifest"]["merkle_root"]
            mutated["manifest"]["merkle_root"] = ("1" if root[0] != "1" else "2") + root[1:]
        files = export(mutated, tmp_path / field)
        result = openssl_verify(files)
        assert result.returncode != 0, field
        assert "Signature Verification Failure" in result.stdout, result.stdout + result.stderr


def test_the_public_key_can_be_built_with_openssl_alone(
    receipt: dict[str, Any], tmp_path: Path
) -> None:
    """The documented alternative: DER header + raw key bytes, converted by `openssl pkey`."""
    assert OPENSSL is not None
    files = export(receipt, tmp_path / "alone")
    der = tmp_path / "pub.der"
    der.write_bytes(SPKI_ED25519_PREFIX + base64.b64decode(receipt["public_key"]))
    pem = tmp_path / "pub-from-der.pem"
    subprocess.run(
        [OPENSSL, "pkey", "-pubin", "-inform", "DER", "-in", str(der), "-out", str(pem)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    assert pem.read_bytes() == files["public_key"].read_bytes()
    result = openssl_verify(files, public_key=pem)
    assert "Signature Verified Successfully" in result.stdout


def test_any_rfc8785_implementation_gives_the_same_bytes(receipt: dict[str, Any]) -> None:
    rfc8785 = pytest.importorskip("rfc8785", reason="the dev extra's rfc8785 package is absent")
    assert rfc8785.dumps(receipt["manifest"]) == canonical_bytes(receipt["manifest"])


def test_export_exits_2_on_unreadable_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"manifest": 1}', encoding="utf-8")
    # A reader keeping the first of two keys would show the first scores; verify refuses the
    # file, and so does export.
    twice = tmp_path / "twice.json"
    twice.write_text('{"manifest": {"scores": 1}, "manifest": {}}', encoding="utf-8")
    nan = tmp_path / "nan.json"
    nan.write_text('{"manifest": NaN}', encoding="utf-8")
    for path in (bad, twice, nan, tmp_path / "missing.json"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "dittobench",
                "receipt",
                "export",
                str(path),
                "--manifest",
                str(tmp_path / "m.bin"),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 2 and result.stderr.startswith("error:")
