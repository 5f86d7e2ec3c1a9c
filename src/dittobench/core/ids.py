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
