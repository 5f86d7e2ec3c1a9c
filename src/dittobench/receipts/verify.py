"""Verify a receipt: every check named, each with what it found (docs/receipts.md, "Verify").

``verify_receipt`` never raises on a malformed receipt: whatever is missing, mistyped or
mis-encoded becomes a failed check with a detail. ``ok`` holds only when every check passes.
The checks run in a fixed order: the receipt's shape and manifest fields, the leaves and the
tree (``leaf_checks``), the transcript (``transcript_checks``), the key and the signature
(``signature_checks``), one case's inclusion proof (``proofs``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dittobench.receipts.checks import Check, Checklist
from dittobench.receipts.keys import TrustedKeys
from dittobench.receipts.leaf_checks import check_count, check_leaves, check_order, check_root
from dittobench.receipts.manifest import Manifest, ManifestError
from dittobench.receipts.proofs import (
    ProofResult,
    ReceiptError,
    check_inclusion,
    check_proof,
    inclusion_proof_for,
)
from dittobench.receipts.signature_checks import check_key_id, check_signature, check_trusted
from dittobench.receipts.transcript_checks import check_transcript
from dittobench.spec.seeds import OPERATOR, SUBMITTER

RECEIPT_KEYS = ("key_id", "leaves", "manifest", "public_key", "signature")
_KINDS: dict[str, type] = {
    "manifest": dict,
    "signature": str,
    "public_key": str,
    "key_id": str,
    "leaves": list,
}
_KIND_WORDS: dict[type, str] = {dict: "object", str: "string", list: "list"}


@dataclass(frozen=True, slots=True)
class Verification:
    checks: tuple[Check, ...]
    key_used: str
    """Which public key the signature was checked with, in words."""
    proof: ProofResult | None = None
    manifest: dict[str, Any] = field(default_factory=dict)
    """The manifest as carried (empty when there was none), for display."""

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if not c.ok)


def unchecked(exc: Exception) -> Verification:
    """The verdict on a receipt so malformed a check raised: failed, saying what raised."""
    return Verification(
        (Check("receipt", False, f"could not be checked: {type(exc).__name__}: {exc}"),), "none"
    )


def verify_receipt(
    receipt: Any,
    trusted_keys: TrustedKeys | None = None,
    transcript: Any | None = None,
    proof_case: str | None = None,
) -> Verification:
    """Check a parsed receipt. With ``trusted_keys`` the signer must be one of them, checked with
    the trusted copy of its key inside its validity window; with ``transcript`` (parsed JSON) the
    leaves must carry exactly its responses and observed calls; with ``proof_case`` that case's
    inclusion proof is built and checked on its own."""
    try:
        return _verify(receipt, trusted_keys, transcript, proof_case)
    except Exception as exc:  # a last guard: a malformed receipt must never raise
        return unchecked(exc)


def _verify(
    receipt: Any,
    trusted: TrustedKeys | None,
    transcript: Any | None,
    proof_case: str | None,
) -> Verification:
    checks = Checklist()
    if not isinstance(receipt, dict):
        checks.add("receipt shape", False, "a receipt is a JSON object")
        return Verification(tuple(checks.checks), "none", None, {})
    _check_shape(checks, receipt)
    raw_manifest = receipt.get("manifest")
    manifest_json: dict[str, Any] = raw_manifest if isinstance(raw_manifest, dict) else {}
    manifest = _check_manifest(checks, raw_manifest)
    entries = receipt.get("leaves")
    if not isinstance(entries, list):
        entries = []
    hashes = check_leaves(checks, entries, manifest_json)
    check_order(checks, entries)
    check_count(checks, entries, manifest_json)
    check_root(checks, hashes, manifest_json)
    if transcript is not None:
        check_transcript(checks, transcript, entries, manifest_json)
    public = check_key_id(checks, receipt, manifest_json)
    key_used = check_signature(checks, receipt, raw_manifest, public) or "none"
    if trusted is not None:
        key_used = check_trusted(checks, trusted, receipt, raw_manifest, manifest)
    proof = check_proof(checks, receipt, proof_case) if proof_case is not None else None
    return Verification(tuple(checks.checks), key_used, proof, manifest_json)


def _check_shape(checks: Checklist, receipt: dict[str, Any]) -> None:
    problems = [f"missing {name}" for name in RECEIPT_KEYS if name not in receipt]
    problems += [
        f"{name} is not a{'n' if kind is dict else ''} {_KIND_WORDS[kind]}"
        for name, kind in _KINDS.items()
        if name in receipt and not isinstance(receipt[name], kind)
    ]
    extra = sorted(set(receipt) - set(RECEIPT_KEYS))
    if extra:
        problems.append(f"unknown field(s) {', '.join(extra)}")
    if problems:
        checks.add("receipt shape", False, "; ".join(problems))
    else:
        checks.add("receipt shape", True, "manifest, signature, public key, key id, leaves")


def _check_manifest(checks: Checklist, raw: Any) -> Manifest | None:
    try:
        manifest = Manifest.from_json(raw)
    except ManifestError as exc:
        checks.add("manifest fields", False, str(exc))
        return None
    checks.add(
        "manifest fields",
        True,
        f"{manifest.benchmark} {manifest.bench_version} · seed {manifest.seed} "
        f"({seed_chooser(manifest)}) · {manifest.run_size} · {manifest.trust_tier} · "
        f"{manifest.created_at}",
    )
    return manifest


def seed_chooser(manifest: Manifest) -> str:
    """Who chose the seed, in words: format 4 signs it; before that it was not recorded."""
    if manifest.seed_source == OPERATOR:
        return "drawn by the operator: a run a board may rank"
    if manifest.seed_source == SUBMITTER:
        return "chosen by the submitter: practice, never ranked"
    return f"who chose it is not signed in {manifest.format}"


__all__ = [
    "RECEIPT_KEYS",
    "Check",
    "ProofResult",
    "ReceiptError",
    "Verification",
    "check_inclusion",
    "inclusion_proof_for",
    "seed_chooser",
    "unchecked",
    "verify_receipt",
]
