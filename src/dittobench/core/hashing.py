"""SHA-256 helpers over canonical bytes."""

from __future__ import annotations

import hashlib
from typing import Any

from dittobench.core.canonical import canonical_bytes


def sha256_hex(data: bytes) -> str:
    """Lowercase hex SHA-256 of raw bytes."""
    return hashlib.sha256(data).hexdigest()


def canonical_sha256(value: Any) -> str:
    """Lowercase hex SHA-256 of a value's RFC 8785 bytes (``dataset_sha256`` and friends)."""
    return sha256_hex(canonical_bytes(value))


def text_sha256(text: str) -> str:
    """Lowercase hex SHA-256 of a string's UTF-8 bytes."""
    return sha256_hex(text.encode("utf-8"))
