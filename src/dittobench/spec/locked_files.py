"""Reading a file the spec locks by its SHA-256: the judge's and the reader's prompts.

A locked prompt decides scores, so a file that is not byte for byte the one a protocol names is
refused, never used: changing a prompt makes a new protocol.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import sha256_hex


class LockedFileError(DittobenchError, ValueError):
    """A locked file is missing, not JSON, or not the one its protocol locks."""


def locked_json(folder: str, name: str, sha256: str, owner: str) -> Any:
    """The JSON of ``spec/<folder>/<name>``, whose SHA-256 must be ``sha256`` (``owner`` names
    the protocol that locks it, for the error)."""
    try:
        data = resources.files("dittobench.spec").joinpath(folder, name).read_bytes()
    except OSError as exc:
        raise LockedFileError(f"{name}: {exc}") from None
    digest = sha256_hex(data)
    if digest != sha256:
        raise LockedFileError(
            f"{name} has SHA-256 {digest[:12]}…, but {owner} locks {sha256[:12]}…: "
            "a changed prompt is a new version"
        )
    try:
        return json.loads(data)
    except ValueError as exc:
        raise LockedFileError(f"{name}: {exc}") from None


__all__ = ["LockedFileError", "locked_json"]
