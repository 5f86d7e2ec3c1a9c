"""Forge receipts the way an attacker holding a signing key would: change what is signed, make
the leaves and the tree consistent again, and sign anew, so only checks beyond the signature
(a trusted-keys file, a regrade) can catch it."""

from __future__ import annotations

import base64
import copy
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.core.canonical import canonical_bytes
from dittobench.receipts.keys import key_id, raw_public_key
from dittobench.receipts.merkle import leaf_bytes, leaf_hash, merkle_root


def rehash(receipt: dict[str, Any]) -> dict[str, Any]:
    """A copy with every leaf hash recomputed from its leaf and the manifest's Merkle root rebuilt
    from them (the signature is left as it was: ``resign`` next)."""
    out = copy.deepcopy(receipt)
    for entry in out["leaves"]:
        entry["hash"] = leaf_hash(leaf_bytes(entry["leaf"]))
    out["manifest"]["merkle_root"] = merkle_root([e["hash"] for e in out["leaves"]])
    return out


def resign(receipt: dict[str, Any], key: Ed25519PrivateKey) -> dict[str, Any]:
    """Re-sign a (possibly altered) receipt with ``key``, making it self-consistent again."""
    out = copy.deepcopy(receipt)
    kid = key_id(key)
    out["manifest"]["key_id"] = kid
    out["key_id"] = kid
    out["public_key"] = base64.b64encode(raw_public_key(key)).decode()
    out["signature"] = base64.b64encode(key.sign(canonical_bytes(out["manifest"]))).decode()
    return out
