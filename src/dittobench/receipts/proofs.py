"""Inclusion proofs: one case's leaf, its sibling hashes and the root, checked on their own.

A proof is built from the receipt's stored leaf hashes, so the other cases' content is not
needed to give it; it is checked by hashing the leaf afresh and folding it through the siblings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dittobench.core.canonical import CanonicalJSONError
from dittobench.core.errors import DittobenchError
from dittobench.receipts.checks import Checklist
from dittobench.receipts.merkle import (
    MerkleError,
    inclusion_proof,
    leaf_bytes,
    leaf_hash,
    verify_proof,
)


class ReceiptError(DittobenchError, ValueError):
    """A receipt that cannot yield what was asked (e.g. a proof for a case it lacks)."""

    http_status = 400


@dataclass(frozen=True, slots=True)
class ProofResult:
    """One case's inclusion proof, checked with only its leaf, the proof and the root."""

    case_id: str
    leaf_hash: str
    steps: tuple[tuple[str, str], ...]
    """(side of the sibling, sibling hash), bottom first."""
    root: str
    ok: bool


def inclusion_proof_for(receipt: Any, case_id: str) -> dict[str, Any]:
    """A self-contained proof for one case: ``{"case_id", "leaf", "proof", "root",
    "leaf_count"}``. The siblings come from the receipt's stored hashes, so the other cases'
    content is not needed. ``ReceiptError`` when the receipt cannot give one."""
    if not isinstance(receipt, dict) or not isinstance(receipt.get("leaves"), list):
        raise ReceiptError("the receipt has no leaves list")
    manifest = receipt.get("manifest")
    root = manifest.get("merkle_root") if isinstance(manifest, dict) else None
    if not isinstance(root, str):
        raise ReceiptError("the receipt's manifest has no merkle_root")
    entries = receipt["leaves"]
    hashes, index = [], -1
    for position, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ReceiptError(f"leaves[{position}] is not an object")
        hashes.append(entry.get("hash"))
        if entry.get("case_id") == case_id:
            index = position
    if index < 0:
        raise ReceiptError(f"the receipt has no leaf for case {case_id!r}")
    try:
        steps = inclusion_proof(hashes, index)
    except MerkleError as exc:
        raise ReceiptError(f"cannot build the proof: {exc}") from None
    return {
        "case_id": case_id,
        "leaf": entries[index].get("leaf"),
        "proof": [list(step) for step in steps],
        "root": root,
        "leaf_count": len(entries),
    }


def check_inclusion(leaf: Any, proof: Sequence[Any], root: str) -> bool:
    """True when the leaf object, hashed afresh, folds through ``proof`` to ``root``."""
    try:
        return verify_proof(leaf_hash(leaf_bytes(leaf)), proof, root)
    except (CanonicalJSONError, TypeError, ValueError):
        return False


def check_proof(checks: Checklist, receipt: dict[str, Any], case_id: str) -> ProofResult | None:
    """Build and check one case's proof; the result to show, or None when none could be built."""
    try:
        bundle = inclusion_proof_for(receipt, case_id)
    except ReceiptError as exc:
        checks.add("inclusion proof", False, str(exc))
        return None
    steps = tuple((str(side), str(sibling)) for side, sibling in bundle["proof"])
    ok = check_inclusion(bundle["leaf"], bundle["proof"], bundle["root"])
    try:
        fresh = leaf_hash(leaf_bytes(bundle["leaf"]))
    except (CanonicalJSONError, TypeError, ValueError):
        fresh = "(leaf cannot be hashed)"
    if ok:
        checks.add(
            "inclusion proof",
            True,
            f"case {case_id}: its leaf and {len(steps)} sibling hash(es) give the root",
        )
    else:
        checks.add(
            "inclusion proof",
            False,
            f"case {case_id}: its leaf and proof do not give the manifest's root",
        )
    return ProofResult(case_id, fresh, steps, bundle["root"], ok)
