"""Trust tiers and receipt checks for pages.

- ``receipt-verified``: the service ran the harness and its receipt verifies, offline, against
  the operator's own public key (the trusted key; leaves, Merkle root, signature, key window);
- ``operator-run``: the service ran it, but it has no receipt (yet) or the receipt does not
  verify (the check's first failure is shown);
- ``self-reported``: a run in the store that the service did not run (``dittobench run`` on
  this machine, signed with an installation key as self-reported).

A receipt never changes once written, so each check is made once per process and kept."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dittobench.receipts.keys import TrustedKeys, trusted_entry
from dittobench.receipts.verify import verify_receipt

VERIFIED = "receipt-verified"
OPERATOR = "operator-run"
SELF = "self-reported"


@dataclass(frozen=True, slots=True)
class ReceiptCheck:
    ok: bool
    summary: str
    """``verified with key KEYID`` or the first failed check."""


class ReceiptChecks:
    """Receipt checks against the operator's key, made once per run."""

    def __init__(self, operator_key: Ed25519PublicKey) -> None:
        self._trusted = TrustedKeys((trusted_entry(operator_key, "1970-01-01T00:00:00Z"),))
        self._done: dict[str, ReceiptCheck] = {}
        self._lock = threading.Lock()

    def check(self, run_id: str, receipt_text: str) -> ReceiptCheck:
        with self._lock:
            kept = self._done.get(run_id)
        if kept is not None:
            return kept
        try:
            receipt = json.loads(receipt_text)
        except ValueError:
            made = ReceiptCheck(False, "the stored receipt is not JSON")
        else:
            result = verify_receipt(receipt, self._trusted)
            if result.ok:
                made = ReceiptCheck(True, f"verified with the operator's key ({result.key_used})")
            else:
                first = result.failed[0]
                made = ReceiptCheck(False, f"{first.name}: {first.detail}")
        with self._lock:
            self._done[run_id] = made
        return made


def tier(job: bool, check: ReceiptCheck | None) -> str:
    if not job:
        return SELF
    return VERIFIED if check is not None and check.ok else OPERATOR


def stored_tier(receipt: str | None, operator_key: Ed25519PublicKey | None, run_id: str) -> str:
    """The tier of a stored run for a reader without the service (``report --html``): the
    service job's ``receipt`` (None: not a job), checked against ``operator_key`` when known."""
    if receipt is None:
        return SELF
    if not receipt or operator_key is None:
        return OPERATOR
    return tier(True, ReceiptChecks(operator_key).check(run_id, receipt))


__all__ = [
    "OPERATOR",
    "SELF",
    "VERIFIED",
    "ReceiptCheck",
    "ReceiptChecks",
    "stored_tier",
    "tier",
]
