"""Read a content pack from a folder, check its files and compute its identity."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from dittobench.core.canonical import CanonicalJSONError
from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import canonical_sha256

PACK_FORMAT: Final = "dittobench-pack-1"
"""Names the pack layout (``docs/packs.md``); a change to the layout gets a new name."""

PACK_FILES: Final = (
    "pack",
    "attributes",
    "people",
    "chatter",
    "questions",
    "tools",
    "values",
    "system",
    "catalog",
)
"""The files of a pack, each ``<name>.json`` holding one JSON object."""

DEFAULT_PACK_ID: Final = "public-1.1"
"""The pack of every bench version this build implements unless ``--pack`` names another."""

_PACK_ID = re.compile(r"[a-z0-9][a-z0-9.-]{0,63}", re.ASCII)
_SHIPPED = Path(__file__).parent


class PackError(DittobenchError, ValueError):
    """A pack that cannot be used; the message names the file and the key at fault."""


@dataclass(frozen=True, slots=True)
class Pack:
    """A loaded pack: its files as parsed JSON (read-only), its id and its SHA-256."""

    pack_id: str
    sha256: str
    files: MappingProxyType[str, Any]
    path: Path

    def file(self, name: str) -> Any:
        return self.files[name]

    def describe(self) -> dict[str, str]:
        """``{"id", "sha256"}``: how datasets, reports and receipts name the pack."""
        return {"id": self.pack_id, "sha256": self.sha256}


def load_pack(folder: Path | str) -> Pack:
    """Read every file of the pack in ``folder``. Raises ``PackError`` naming the file at fault;
    the generator checks each file's contents when it first uses the pack."""
    root = Path(folder)
    if not root.is_dir():
        raise PackError(f"{root}: not a folder holding a content pack")
    unknown = sorted(
        p.name for p in root.iterdir() if p.suffix == ".json" and p.stem not in PACK_FILES
    )
    if unknown:
        raise PackError(f"{root}: unknown pack files {', '.join(unknown)}")
    files = {name: _read_object(root / f"{name}.json") for name in PACK_FILES}
    head = files["pack"]
    if head.get("format") != PACK_FORMAT:
        raise PackError(f"{root / 'pack.json'}: key 'format' must be {PACK_FORMAT!r}")
    pack_id = head.get("pack_id")
    if not isinstance(pack_id, str) or not _PACK_ID.fullmatch(pack_id):
        raise PackError(f"{root / 'pack.json'}: key 'pack_id' must be 1-64 of a-z, 0-9, '.', '-'")
    try:
        digest = canonical_sha256(files)
    except CanonicalJSONError as exc:
        raise PackError(f"{root}: {exc}") from None
    return Pack(pack_id, digest, MappingProxyType(files), root)


def _read_object(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise PackError(f"{path}: missing (a pack holds {', '.join(PACK_FILES)})")

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        repeated = sorted({key for key in keys if keys.count(key) > 1})
        if repeated:
            raise PackError(f"{path}: key {repeated[0]!r} given twice")
        return dict(pairs)

    def no_constants(name: str) -> Any:
        raise PackError(f"{path}: {name} is not JSON")

    try:
        value = json.loads(
            path.read_text(encoding="utf-8"),
            object_pairs_hook=no_duplicates,
            parse_constant=no_constants,
        )
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PackError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise PackError(f"{path}: must hold one JSON object")
    return value


def public_pack_ids() -> tuple[str, ...]:
    """The packs shipped in this package."""
    return tuple(sorted(p.parent.name for p in _SHIPPED.glob("*/pack.json")))


@cache
def public_pack(pack_id: str = DEFAULT_PACK_ID) -> Pack:
    """A pack shipped in this package, loaded once per process."""
    if pack_id not in public_pack_ids():
        known = ", ".join(public_pack_ids())
        raise PackError(f"no shipped pack {pack_id!r}; this build ships: {known}")
    return load_pack(_SHIPPED / pack_id)
