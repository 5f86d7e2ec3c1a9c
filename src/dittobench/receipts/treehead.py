"""Signed tree heads of the transparency log (docs/receipts.md, "The transparency log").

A tree head says: the log had ``tree_size`` entries with root ``root_hash`` at ``timestamp``.
It is the object ``{"format", "tree_size", "root_hash", "timestamp", "key_id", "public_key",
"signature"}``; the Ed25519 signature (base64) covers the RFC 8785 bytes of ``{"format",
"tree_size", "root_hash", "timestamp", "key_id"}``. ``public_key`` (base64 of the raw 32
bytes) is carried for convenience only: a verifier pins the signer with its trusted keys.
Pure: the caller passes the time in.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.core.canonical import MAX_SAFE_INTEGER, canonical_bytes
from dittobench.receipts.keys import (
    KeyFileError,
    TrustedKeys,
    b64decode_strict,
    b64encode,
    key_id,
    public_key_from_raw,
    raw_public_key,
)
from dittobench.receipts.logentries import LOG_TIME, LogEntryError
from dittobench.receipts.manifest import ManifestError, parse_rfc3339

TREE_HEAD_FORMAT: Final = "dittobench-tree-head-1"
_KEYS: Final = (
    "format",
    "key_id",
    "public_key",
    "root_hash",
    "signature",
    "timestamp",
    "tree_size",
)


@dataclass(frozen=True, slots=True)
class TreeHead:
    tree_size: int
    root_hash: str
    timestamp: str
    key_id: str


def signed_part(head: TreeHead) -> bytes:
    """The bytes a tree head's signature covers."""
    return canonical_bytes(
        {
            "format": TREE_HEAD_FORMAT,
            "tree_size": head.tree_size,
            "root_hash": head.root_hash,
            "timestamp": head.timestamp,
            "key_id": head.key_id,
        }
    )


def sign_tree_head(
    tree_size: int, root_hash: str, timestamp: str, key: Ed25519PrivateKey
) -> dict[str, Any]:
    """A signed tree head over the log's first ``tree_size`` entries."""
    head = TreeHead(tree_size, root_hash, timestamp, key_id(key))
    return {
        "format": TREE_HEAD_FORMAT,
        "tree_size": tree_size,
        "root_hash": root_hash,
        "timestamp": timestamp,
        "key_id": head.key_id,
        "public_key": b64encode(raw_public_key(key)),
        "signature": b64encode(key.sign(signed_part(head))),
    }


def check_tree_head(
    data: Any, trusted: TrustedKeys | None, what: str = "tree head"
) -> tuple[TreeHead | None, str]:
    """The tree head and ``""`` when its signature holds (by a key of ``trusted`` valid at its
    timestamp, or, with no trusted keys, by the key it carries); else None and what failed."""
    try:
        head = _parse(data, what)
        signature = b64decode_strict(data["signature"], f"{what}.signature")
        carried = b64decode_strict(data["public_key"], f"{what}.public_key")
    except (LogEntryError, KeyFileError) as exc:
        return None, str(exc)
    if trusted is None:
        if len(carried) != 32 or key_id(carried) != head.key_id:
            return None, f"{what}: key_id {head.key_id} is not the id of the key it carries"
        raw = carried
    else:
        entry = trusted.lookup(head.key_id)
        if entry is None:
            return None, f"{what}: signed by key {head.key_id}, which is not a trusted key"
        try:
            moment = parse_rfc3339(head.timestamp)
        except ManifestError as exc:
            return None, f"{what}: timestamp {head.timestamp!r:.40} is no time: {exc}"
        window = entry.window_problem(moment)
        if window:
            return None, f"{what}: {window}"
        raw = entry.public_key
    try:
        public_key_from_raw(raw).verify(signature, signed_part(head))
    except (InvalidSignature, KeyFileError):
        return (
            None,
            f"{what}: the signature does not match (size {head.tree_size}, root {head.root_hash})",
        )
    return head, ""


def _parse(data: Any, what: str) -> TreeHead:
    if not isinstance(data, Mapping):
        raise LogEntryError(f"{what}: expected an object")
    if sorted(data) != sorted(_KEYS):
        raise LogEntryError(f"{what}: expected exactly the fields {', '.join(_KEYS)}")
    if data["format"] != TREE_HEAD_FORMAT:
        raise LogEntryError(f"{what}.format: {data['format']!r:.40} is not {TREE_HEAD_FORMAT}")
    size = data["tree_size"]
    if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= MAX_SAFE_INTEGER:
        raise LogEntryError(f"{what}.tree_size: expected a count")
    root = data["root_hash"]
    if not isinstance(root, str) or len(root) != 64 or root.strip("0123456789abcdef"):
        raise LogEntryError(f"{what}.root_hash: expected 64 lowercase hex digits")
    stamp = data["timestamp"]
    if not isinstance(stamp, str) or not LOG_TIME.fullmatch(stamp):
        raise LogEntryError(f"{what}.timestamp: expected a YYYY-MM-DDTHH:MM:SSZ time")
    kid = data["key_id"]
    if not isinstance(kid, str):
        raise LogEntryError(f"{what}.key_id: expected a string")
    return TreeHead(size, root, stamp, kid)


__all__ = ["TREE_HEAD_FORMAT", "TreeHead", "check_tree_head", "sign_tree_head", "signed_part"]
