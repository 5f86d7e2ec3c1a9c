"""Whose signature `dittobench verify` accepts: a key from --trusted-keys (a service's own
GET /v1/keys), from --keys-url, or this installation's own key; anything else exits 2 unless
--any-key asks for integrity only, which the verdict says."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench import study as T
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.receipts.keys import (
    PRIVATE_KEY_NAME,
    TrustedKeys,
    generate_private_key,
    key_id,
    load_private_key,
    save_keypair,
)
from dittobench.receipts.sign import build_receipt
from tests.helpers.cli import dittobench
from tests.helpers.receipts import resign
from tests.helpers.service_process import ServiceProcess, start_service


@pytest.fixture(scope="module")
def receipt() -> dict[str, Any]:
    """A receipt of a small oracle run, signed by a throw-away key."""
    dataset = build_dataset(7, "7.1.0", "small")
    transcript = T.build(dataset)
    report = grade_run(dataset, transcript).report
    prompts = {c.id: c.prompt for c in dataset.tool_cases} | {
        c.id: c.question for c in dataset.memory_cases
    }
    signed = build_receipt(
        report, transcript, prompts, generate_private_key(), "verified", _now(), "oracle"
    )
    return dict(signed)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Any:
    handle = start_service(tmp_path_factory.mktemp("service"))
    yield handle
    handle.stop()


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def signed_by(receipt: dict[str, Any], key: Ed25519PrivateKey, folder: Path) -> Path:
    """The receipt re-signed by ``key`` now, written to ``folder/receipt.json``."""
    fresh = dict(receipt, manifest=dict(receipt["manifest"], created_at=_now()))
    path = folder / "receipt.json"
    path.write_text(json.dumps(resign(fresh, key)), encoding="utf-8")
    return path


def service_key(service: ServiceProcess) -> Ed25519PrivateKey:
    """The key the service signs with: in keys/ of its data folder, its --db's folder."""
    command = service.process.args
    assert isinstance(command, list)
    return load_private_key(
        Path(str(command[command.index("--db") + 1])).parent / "keys" / PRIVATE_KEY_NAME
    )


def test_a_receipt_signed_by_an_untrusted_key_exits_2_naming_it(
    receipt: dict[str, Any], tmp_path: Path
) -> None:
    stranger = generate_private_key()
    path = signed_by(receipt, stranger, tmp_path)
    refused = dittobench("verify", str(path), cwd=tmp_path)
    assert refused.returncode == 2, refused.stdout + refused.stderr
    line = refused.stderr.strip()
    assert key_id(stranger) in line and "--trusted-keys" in line and "\n" not in line
    assert "VERIFIED" not in refused.stdout


def test_any_key_checks_integrity_only_and_says_so(receipt: dict[str, Any], tmp_path: Path) -> None:
    path = signed_by(receipt, generate_private_key(), tmp_path)
    checked = dittobench("verify", str(path), "--any-key", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    verdict = checked.stdout.strip().splitlines()[-1]
    assert verdict.startswith("verdict: VERIFIED") and "signer was NOT checked" in verdict
    both = dittobench("verify", str(path), "--any-key", "--keys-url", "http://x", cwd=tmp_path)
    assert both.returncode == 2 and "--any-key" in both.stderr


def test_the_keys_a_service_serves_verify_its_receipts(
    receipt: dict[str, Any], service: ServiceProcess, tmp_path: Path
) -> None:
    status, headers, body = service.call("GET", "/v1/keys", None)
    assert status == 200 and headers["cache-control"] == "public, max-age=300"
    well_known = service.call("GET", "/.well-known/dittobench-keys.json", None)
    assert well_known[0] == 200 and well_known[2] == body
    keys = TrustedKeys.from_json(json.loads(body))
    assert len(keys.keys) == 1 and keys.keys[0].valid_until is None
    kid = keys.keys[0].key_id
    (tmp_path / "keys.json").write_bytes(body)
    path = signed_by(receipt, service_key(service), tmp_path)
    assert key_id(service_key(service)) == kid
    pinned = dittobench("verify", str(path), "--trusted-keys", str(tmp_path / "keys.json"))
    assert pinned.returncode == 0, pinned.stdout + pinned.stderr
    assert f"key used: trusted key {kid} (from the trusted-keys file)" in pinned.stdout
    assert pinned.stdout.strip().splitlines()[-1] == "verdict: VERIFIED"
    fetched = dittobench("verify", str(path), "--keys-url", service.url + "/v1/keys", cwd=tmp_path)
    assert fetched.returncode == 0, fetched.stdout + fetched.stderr
    served = f"key used: trusted key {kid} (served at {service.url}/v1/keys (--keys-url))"
    assert served in fetched.stdout, fetched.stdout
    base = dittobench("verify", str(path), "--keys-url", service.url, cwd=tmp_path)
    assert base.returncode == 0, base.stdout + base.stderr
    other = signed_by(receipt, generate_private_key(), tmp_path)
    refused = dittobench("verify", str(other), "--keys-url", service.url, cwd=tmp_path)
    assert refused.returncode == 2 and "not trusted" in refused.stderr


def test_the_keys_are_in_the_openapi_document(service: ServiceProcess) -> None:
    status, document = service.json("GET", "/openapi.json", None)
    assert status == 200
    assert {"/v1/keys", "/.well-known/dittobench-keys.json"} <= set(document["paths"])


def test_a_failed_keys_fetch_exits_2_naming_the_url(
    receipt: dict[str, Any], service: ServiceProcess, tmp_path: Path
) -> None:
    path = signed_by(receipt, generate_private_key(), tmp_path)
    missing = service.url + "/v1/no-keys-here"
    failed = dittobench("verify", str(path), "--keys-url", missing, cwd=tmp_path)
    assert failed.returncode == 2 and missing in failed.stderr
    wrong = dittobench("verify", str(path), "--keys-url", "ftp://example.org/k", cwd=tmp_path)
    assert wrong.returncode == 2 and "ftp://example.org/k" in wrong.stderr


def test_the_installations_own_key_verifies_with_no_option(
    receipt: dict[str, Any], tmp_path: Path
) -> None:
    own = generate_private_key()
    save_keypair(own, tmp_path / "data" / "dittobench" / "keys")
    path = signed_by(receipt, own, tmp_path)
    checked = dittobench("verify", str(path), cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.strip().splitlines()[-1] == "verdict: VERIFIED"
    assert "(this installation's own key, in " in checked.stdout, checked.stdout
    assert "trusted-keys file" not in checked.stdout
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert dittobench("verify", str(path), cwd=elsewhere).returncode == 2


def test_keys_show_prints_a_line_verify_accepts(receipt: dict[str, Any], tmp_path: Path) -> None:
    key = generate_private_key()
    private_path, public_path = save_keypair(key, tmp_path / "k")
    path = signed_by(receipt, key, tmp_path)
    for given in (private_path, public_path):
        shown = dittobench("keys", "show", "--key", str(given), cwd=tmp_path)
        assert shown.returncode == 0, shown.stderr
        lines = shown.stdout.splitlines()
        assert f"key id       {key_id(key)}" in lines
        (tmp_path / "mine.json").write_text(lines[-1], encoding="utf-8")
        checked = dittobench("verify", str(path), "--trusted-keys", str(tmp_path / "mine.json"))
        assert checked.returncode == 0, checked.stdout + checked.stderr
    as_json = dittobench("keys", "show", "--key", str(public_path), "--json", cwd=tmp_path)
    shown_json = json.loads(as_json.stdout)
    assert shown_json["key_id"] == key_id(key)
    assert TrustedKeys.from_json(shown_json["trusted_keys"]).lookup(key_id(key)) is not None
    (tmp_path / "shown.json").write_text(as_json.stdout, encoding="utf-8")  # taken whole too
    whole = dittobench("verify", str(path), "--trusted-keys", str(tmp_path / "shown.json"))
    assert whole.returncode == 0, whole.stdout + whole.stderr
    none_yet = dittobench("keys", "show", cwd=tmp_path)
    assert none_yet.returncode == 2 and "no key yet" in none_yet.stderr


def test_a_key_pem_given_as_trusted_keys_is_trusted_and_a_broken_one_exits_2(
    receipt: dict[str, Any], tmp_path: Path
) -> None:
    key = generate_private_key()
    private_path, public_path = save_keypair(key, tmp_path / "k")
    path = signed_by(receipt, key, tmp_path)
    for given in (public_path, private_path):  # only a private key's public half is read
        checked = dittobench("verify", str(path), "--trusted-keys", str(given), cwd=tmp_path)
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert f"(the key in {given} (--trusted-keys))" in checked.stdout, checked.stdout
    other = save_keypair(generate_private_key(), tmp_path / "other")[1]
    refused = dittobench("verify", str(path), "--trusted-keys", str(other), cwd=tmp_path)
    assert refused.returncode == 2 and "not trusted" in refused.stderr, refused.stderr
    broken = tmp_path / "broken.pem"
    broken.write_text("-----BEGIN PUBLIC KEY-----\nnot base64\n", encoding="utf-8")
    failed = dittobench("verify", str(path), "--trusted-keys", str(broken), cwd=tmp_path)
    assert failed.returncode == 2 and failed.stderr.startswith("error: --trusted-keys: ")
    assert "not a PEM public key" in failed.stderr and "Traceback" not in failed.stderr


def test_external_verify_decides_the_signer_the_same_way(tmp_path: Path) -> None:
    path = tmp_path / "receipt.json"
    stranger = "0123456789abcdef"
    shaped = {"manifest": {}, "signature": "", "public_key": "", "key_id": stranger}
    path.write_text(json.dumps(shaped), encoding="utf-8")
    refused = dittobench("external", "verify", str(path), cwd=tmp_path)
    assert refused.returncode == 2 and f"key {stranger}, which is not trusted" in refused.stderr
    unchecked = dittobench("external", "verify", str(path), "--any-key", cwd=tmp_path)
    assert unchecked.returncode == 1 and "NOT VERIFIED" in unchecked.stdout
