"""Read a content pack from a folder, check its files and compute its identity."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from dittobench.core.canonical import CanonicalJSONError
from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import canonical_sha256
from dittobench.packs.replies import Replies, RepliesError, format_replies, replies_from
from dittobench.spec.dataset import PackRef
from dittobench.spec.versions import CATALOG_1, get_policy

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
"""The files of a ``dittobench-pack-1`` pack, each ``<name>.json`` holding one JSON object."""

REPLIES_FORMAT: Final = "dittobench-pack-2"
"""The layout of a pack that words its own tool replies: ``PACK_FILES`` and ``replies.json``."""

PACK_FORMATS: Final = MappingProxyType(
    {PACK_FORMAT: PACK_FILES, REPLIES_FORMAT: (*PACK_FILES, "replies")}
)
"""Each pack format and its files; ``pack_sha256`` covers every file of the pack's format."""

_ANY_FILE: Final = frozenset(name for files in PACK_FORMATS.values() for name in files)

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
        self._replies: Replies | None = None

    @property
    def format(self) -> str:
        """``pack.json``'s ``format``: which files the pack holds (``PACK_FORMATS``)."""
        return str(self.file("pack").get("format", PACK_FORMAT))

    @property
    def catalog_id(self) -> str:
        """The catalog shape ``catalog.json`` describes: ``pack.json``'s ``catalog``, or
        ``catalog-1`` when it names none (every pack so far); a bench version using the pack
        must name the same (``BenchPolicy.catalog``)."""
        return str(self.file("pack").get("catalog", CATALOG_1))

    @property
    def files(self) -> tuple[str, ...]:
        """The pack's files (without ``.json``), the ones ``sha256`` covers and a copy keeps."""
        return PACK_FORMATS.get(self.format, PACK_FILES)

    def file(self, name: str) -> Any:
        """The parsed ``<name>.json`` (callers must not change it)."""
        if name not in _ANY_FILE or (name not in PACK_FILES and name not in self.files):
            raise PackError(f"{self.path}: no pack file {name!r}")
        if name not in self._files:
            self._files[name] = _read_object(self.path / f"{name}.json")
        return self._files[name]

    @property
    def sha256(self) -> str:
        """SHA-256 of the RFC 8785 bytes of ``{file name: parsed file}`` over every file of the
        pack's format."""
        if not self._sha256:
            files = {name: self.file(name) for name in self.files}
            try:
                self._sha256 = canonical_sha256(files)
            except CanonicalJSONError as exc:
                raise PackError(f"{self.path}: {exc}") from None
        return self._sha256

    @property
    def replies(self) -> Replies:
        """The words of the mock tools' replies this pack serves: its own ``replies.json``
        (``dittobench-pack-2``) or its format's (``packs/replies.py``); ``sha256`` commits to
        either (the file, or the format ``pack.json`` names)."""
        if self._replies is None:
            try:
                if "replies" in self.files:
                    where = str(self.path / "replies.json")
                    self._replies = replies_from(self.file("replies"), where)
                else:
                    self._replies = format_replies(self.format)
            except RepliesError as exc:
                raise PackError(str(exc)) from None
        return self._replies

    def ref(self) -> PackRef:
        """How a dataset, transcript or report names this pack."""
        return PackRef(self.pack_id, self.sha256)

    def describe(self) -> dict[str, str]:
        """``{"id", "sha256"}``: how datasets, reports and receipts name the pack."""
        return {"id": self.pack_id, "sha256": self.sha256}


def load_pack(folder: Path | str) -> Pack:
    """Open the pack in ``folder``: ``pack.json`` must name the format and the pack id, and every
    file of the format must be there, no other. Raises ``PackError`` naming the file at fault.
    The generator checks each file's contents when it first uses the pack; ``dittobench pack
    lint`` checks them all."""
    root = Path(folder)
    if not root.is_dir():
        raise PackError(f"{root}: not a folder holding a content pack")
    pack = Pack("", root)
    head = pack.file("pack")
    files = PACK_FORMATS.get(head.get("format", ""))
    if files is None:
        known = " or ".join(repr(f) for f in PACK_FORMATS)
        raise PackError(f"{root / 'pack.json'}: key 'format' must be {known}")
    unknown = sorted(p.name for p in root.iterdir() if p.suffix == ".json" and p.stem not in files)
    if unknown:
        raise PackError(
            f"{root}: unknown pack files {', '.join(unknown)} (a {head['format']} pack holds "
            f"{', '.join(files)})"
        )
    missing = [name for name in files if not (root / f"{name}.json").is_file()]
    if missing:
        raise PackError(f"{root}: missing {', '.join(f'{m}.json' for m in missing)}")
    pack_id = head.get("pack_id")
    if not isinstance(pack_id, str) or not PACK_ID_PATTERN.fullmatch(pack_id):
        raise PackError(f"{root / 'pack.json'}: key 'pack_id' must be 1-64 of a-z, 0-9, '.', '-'")
    if not isinstance(head.get("catalog", CATALOG_1), str):
        raise PackError(f"{root / 'pack.json'}: key 'catalog' must name a catalog shape")
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
