"""Opaque case ids: they name a case without telling a harness anything about it."""

from __future__ import annotations

import hashlib


def case_id(seed: int, content_version: str, kind: str, ordinal: int) -> str:
    """``"c"`` + the first 16 hex characters of
    SHA-256(UTF-8("dittobench-case|<seed>|<content_version>|<kind>|<ordinal>")).

    Anyone with the seed can recompute every id; a harness cannot read the kind or position.
    """
    material = f"dittobench-case|{seed}|{content_version}|{kind}|{ordinal}".encode()
    return "c" + hashlib.sha256(material).hexdigest()[:16]


def opaque_id(prefix: str, *parts: object) -> str:
    """``prefix + "-"`` + the first 12 hex characters of
    SHA-256(UTF-8("dittobench-id|" + "|".join(str(part) for part in parts))).

    Used for pair, session, subject and family ids: stable per seed, telling nothing.
    """
    material = "dittobench-id|" + "|".join(str(part) for part in parts)
    return f"{prefix}-{hashlib.sha256(material.encode()).hexdigest()[:12]}"
