"""Read a content pack from a folder, check its files and compute its identity."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any, Final

from dittobench.core.canonical import CanonicalJSONError
from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import canonical_sha256
from dittobench.packs.replies import Replies, RepliesError, format_replies
from dittobench.spec.dataset import PackRef
from dittobench.spec.versions import get_policy

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
"""The pack of the bench versions whose policy names no other (1.0.0 to 2.0.0): ``own_pack``
gives any version's."""

PACK_ID_PATTERN: Final = re.compile(r"[a-z0-9][a-z0-9.-]{0,63}", re.ASCII)
"""What a ``pack_id`` may be (``pack.json``, receipts' ``pack_id``)."""
_SHIPPED = Path(__file__).parent


class PackError(DittobenchError, ValueError):
    """A pack that cannot be used; the message names the file and the key at fault."""


class Pack:
    """A pack in a folder. Each file is read and parsed on first use, and the SHA-256 over all of
    them is computed on first use, so a reader of one file (the catalog) pays for that file only.
    """

    def __init__(self, pack_id: str, path: Path) -> None:
        self.pack_id = pack_id
        self.path = path
        self._files: dict[str, Any] = {}
        self._sha256 = ""

    def file(self, name: str) -> Any:
        """The parsed ``<name>.json`` (callers must not change it)."""
        if name not in PACK_FILES:
            raise PackError(f"{self.path}: no pack file {name!r}")
        if name not in self._files:
            self._files[name] = _read_object(self.path / f"{name}.json")
        return self._files[name]

    @property
    def sha256(self) -> str:
        """SHA-256 of the RFC 8785 bytes of ``{file name: parsed file}`` over every file."""
        if not self._sha256:
            files = {name: self.file(name) for name in PACK_FILES}
            try:
                self._sha256 = canonical_sha256(files)
            except CanonicalJSONError as exc:
                raise PackError(f"{self.path}: {exc}") from None
        return self._sha256

    @property
    def replies(self) -> Replies:
        """The words of the mock tools' replies this pack serves: its format's
        (``packs/replies.py``), which ``pack.json`` names and ``sha256`` therefore commits to."""
        try:
            return format_replies(str(self.file("pack").get("format", PACK_FORMAT)))
        except RepliesError as exc:
            raise PackError(str(exc)) from None

    def ref(self) -> PackRef:
        """How a dataset, transcript or report names this pack."""
        return PackRef(self.pack_id, self.sha256)

    def describe(self) -> dict[str, str]:
        """``{"id", "sha256"}``: how datasets, reports and receipts name the pack."""
        return {"id": self.pack_id, "sha256": self.sha256}


def load_pack(folder: Path | str) -> Pack:
    """Open the pack in ``folder``: every file must be there and ``pack.json`` must name the
    format and the pack id. Raises ``PackError`` naming the file at fault. The generator checks
    each file's contents when it first uses the pack; ``dittobench pack lint`` checks them all."""
    root = Path(folder)
    if not root.is_dir():
        raise PackError(f"{root}: not a folder holding a content pack")
    unknown = sorted(
        p.name for p in root.iterdir() if p.suffix == ".json" and p.stem not in PACK_FILES
    )
    if unknown:
        raise PackError(f"{root}: unknown pack files {', '.join(unknown)}")
    missing = [name for name in PACK_FILES if not (root / f"{name}.json").is_file()]
    if missing:
        raise PackError(f"{root}: missing {', '.join(f'{m}.json' for m in missing)}")
    pack = Pack("", root)
    head = pack.file("pack")
    if head.get("format") != PACK_FORMAT:
        raise PackError(f"{root / 'pack.json'}: key 'format' must be {PACK_FORMAT!r}")
    pack_id = head.get("pack_id")
    if not isinstance(pack_id, str) or not PACK_ID_PATTERN.fullmatch(pack_id):
        raise PackError(f"{root / 'pack.json'}: key 'pack_id' must be 1-64 of a-z, 0-9, '.', '-'")
    pack.pack_id = pack_id
    return pack


def _read_object(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise PackError(f"{path}: missing (a pack holds {', '.join(PACK_FILES)})")

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        value = dict(pairs)
        if len(value) != len(pairs):  # a key given twice (only then are the keys counted)
            keys = [key for key, _ in pairs]
            repeated = sorted({key for key in keys if keys.count(key) > 1})
            raise PackError(f"{path}: key {repeated[0]!r} given twice")
        return value

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


def own_pack(bench_version: str) -> Pack:
    """The shipped pack ``bench_version`` generates from unless another is given. Raises
    ``UnknownVersionError`` for a version this build lacks."""
    return public_pack(get_policy(bench_version).pack_id)


def shipped_pack(pack_id: str, sha256: str) -> Pack | None:
    """The pack this build ships under ``pack_id`` if its SHA-256 is ``sha256``, else None."""
    if pack_id not in public_pack_ids():
        return None
    pack = public_pack(pack_id)
    return pack if pack.sha256 == sha256 else None
