"""Checks on who signed a receipt: the key id, the signature, and the trusted keys.

The carried public key's id must be both ``key_id``s and the key must verify the Ed25519
signature over the manifest's canonical bytes. With trusted keys, the signer's id must be
trusted, the trusted copy of the key must verify the signature, and ``created_at`` must lie in
that key's validity window. The functions that pick the key return how it is named in words.
"""

from __future__ import annotations

from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dittobench.core.canonical import CanonicalJSONError, canonical_bytes
from dittobench.receipts.checks import Checklist
from dittobench.receipts.keys import (
    KeyFileError,
    TrustedKey,
    TrustedKeys,
    b64decode_strict,
    key_id,
    public_key_from_raw,
)
from dittobench.receipts.manifest import Manifest, parse_rfc3339


def check_key_id(
    checks: Checklist, receipt: dict[str, Any], manifest: dict[str, Any]
) -> Ed25519PublicKey | None:
    """Check the carried key's id; return the key when it is a usable Ed25519 public key."""
    try:
        raw = b64decode_strict(receipt.get("public_key"), "public_key")
        public = public_key_from_raw(raw)
    except (KeyFileError, ValueError) as exc:
        checks.add("key id", False, str(exc))
        return None
    derived = key_id(raw)
    carried, signed = receipt.get("key_id"), manifest.get("key_id")
    if derived == carried == signed:
        checks.add("key id", True, f"{derived} is the id of the carried public key")
    else:
        checks.add(
            "key id",
            False,
            f"the carried public key has id {derived}; receipt says {carried!r:.40}, "
            f"manifest says {signed!r:.40}",
        )
    return public


def check_signature(
    checks: Checklist,
    receipt: dict[str, Any],
    raw_manifest: Any,
    public: Ed25519PublicKey | None,
) -> str | None:
    """Check the signature with the carried key; return the key used, in words, or None when
    no key was tried."""
    signature, message = _signature_inputs(checks, receipt, raw_manifest)
    if signature is None or message is None:
        return None
    if public is None:
        checks.add("signature", False, "no usable public key in the receipt")
        return None
    kid = key_id(public)
    key_used = f"carried key {kid} (not pinned: give trusted keys to check who signed)"
    try:
        public.verify(signature, message)
    except InvalidSignature:
        checks.add(
            "signature",
            False,
            f"does not verify over the {len(message)} manifest bytes with carried key {kid}: "
            "the manifest or the signature was altered",
        )
        return key_used
    checks.add("signature", True, f"Ed25519 over the {len(message)} manifest bytes, key {kid}")
    return key_used


def _signature_inputs(
    checks: Checklist, receipt: dict[str, Any], raw_manifest: Any
) -> tuple[bytes | None, bytes | None]:
    try:
        signature = b64decode_strict(receipt.get("signature"), "signature")
    except KeyFileError as exc:
        checks.add("signature", False, str(exc))
        return None, None
    if len(signature) != 64:
        checks.add("signature", False, f"an Ed25519 signature is 64 bytes, got {len(signature)}")
        return None, None
    if not isinstance(raw_manifest, dict):
        checks.add("signature", False, "no manifest to check it over")
        return None, None
    try:
        return signature, canonical_bytes(raw_manifest)
    except CanonicalJSONError as exc:
        checks.add("signature", False, f"the manifest has no canonical form: {exc}")
        return None, None


def check_trusted(
    checks: Checklist,
    trusted: TrustedKeys,
    receipt: dict[str, Any],
    raw_manifest: Any,
    manifest: Manifest | None,
) -> str:
    """Check the signer against the trusted keys; return the key used, in words."""
    wanted = receipt.get("key_id")
    entry = trusted.lookup(wanted) if isinstance(wanted, str) else None
    if entry is None:
        known = ", ".join(k.key_id for k in trusted.keys) or "none"
        checks.add("trusted key", False, f"key id {wanted!r:.40} is not trusted (trusted: {known})")
        return "no trusted key: the signer is not in the trusted keys"
    _check_trusted_signature(checks, entry, receipt, raw_manifest)
    _check_validity(checks, entry, manifest)
    return f"trusted key {entry.key_id} ({entry.origin})"


def _check_trusted_signature(
    checks: Checklist, entry: TrustedKey, receipt: dict[str, Any], raw_manifest: Any
) -> None:
    signature, message = _trusted_inputs(receipt, raw_manifest)
    if signature is None or message is None:
        checks.add("trusted key", False, "no signature or manifest to check")
        return
    try:
        public_key_from_raw(entry.public_key).verify(signature, message)
    except InvalidSignature:
        checks.add(
            "trusted key",
            False,
            f"the trusted key {entry.key_id} does not verify the signature",
        )
    else:
        checks.add("trusted key", True, f"the trusted key {entry.key_id} verifies it")


def _trusted_inputs(
    receipt: dict[str, Any], raw_manifest: Any
) -> tuple[bytes | None, bytes | None]:
    try:
        signature = b64decode_strict(receipt.get("signature"), "signature")
        return signature, canonical_bytes(raw_manifest)
    except (KeyFileError, CanonicalJSONError):
        return None, None


def _check_validity(checks: Checklist, entry: TrustedKey, manifest: Manifest | None) -> None:
    if manifest is None:
        checks.add("key validity", False, "no valid created_at to place in the key's window")
        return
    problem = entry.window_problem(parse_rfc3339(manifest.created_at))
    if problem:
        checks.add("key validity", False, f"created_at {manifest.created_at}: {problem}")
    else:
        until = entry.valid_until or "no end"
        checks.add(
            "key validity",
            True,
            f"created_at {manifest.created_at} is within {entry.valid_from} .. {until}",
        )
