"""The transparency log's entries (docs/receipts.md, "The transparency log"): three kinds, each
an object whose RFC 8785 bytes are one leaf of the log (``receipts.logtree``).

- ``window_opened``: ``window_id, bench_version, run_size, pack_id, pack_sha256`` (the
  commitment), ``opened_at``;
- ``run_signed``: ``window_id`` (``""`` outside a window), ``run_id``, ``manifest_sha256``
  (SHA-256 of the receipt's RFC 8785 manifest bytes), ``composite`` (six decimals),
  ``seed_source``, ``signed_at``;
- ``window_revealed``: ``window_id, pack_sha256, revealed_at, pack_url`` (where the pack is
  published).

Every entry also has ``kind``. Times are ``YYYY-MM-DDTHH:MM:SSZ`` (UTC), so their text order
is their time order. Pure: the caller passes every time in.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final

from dittobench.core.canonical import CanonicalJSONError, canonical_bytes
from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import sha256_hex
from dittobench.receipts.merkle import SCORE_TEXT, format_score
from dittobench.spec.seeds import SEED_SOURCES

WINDOW_OPENED: Final = "window_opened"
RUN_SIGNED: Final = "run_signed"
WINDOW_REVEALED: Final = "window_revealed"

FIELDS: Final[dict[str, tuple[str, ...]]] = {
    WINDOW_OPENED: (
        "window_id", "bench_version", "run_size", "pack_id", "pack_sha256", "opened_at",
    ),
    RUN_SIGNED: (
        "window_id", "run_id", "manifest_sha256", "composite", "seed_source", "signed_at",
    ),
    WINDOW_REVEALED: ("window_id", "pack_sha256", "revealed_at", "pack_url"),
}  # fmt: skip
"""Each kind's fields besides ``kind``, exactly."""
TIME_FIELD: Final = {
    WINDOW_OPENED: "opened_at",
    RUN_SIGNED: "signed_at",
    WINDOW_REVEALED: "revealed_at",
}

LOG_TIME: Final = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", re.ASCII)
WINDOW_ID: Final = re.compile(r"w-[0-9a-z-]{1,60}", re.ASCII)
_HEX64: Final = re.compile(r"[0-9a-f]{64}", re.ASCII)


class LogEntryError(DittobenchError, ValueError):
    """An entry that breaks the rules; the message names the entry and the field."""

    exit_code = 1
    http_status = 422


def window_opened(
    window_id: str, bench_version: str, run_size: str, pack_id: str, pack_sha256: str, at: str
) -> dict[str, Any]:
    return _checked(
        {
            "kind": WINDOW_OPENED,
            "window_id": window_id,
            "bench_version": bench_version,
            "run_size": run_size,
            "pack_id": pack_id,
            "pack_sha256": pack_sha256,
            "opened_at": at,
        }
    )


def run_signed(window_id: str, run_id: str, receipt: Mapping[str, Any], at: str) -> dict[str, Any]:
    """The entry of a signed receipt: its manifest's hash, composite and seed source."""
    manifest = receipt.get("manifest")
    if not isinstance(manifest, Mapping):
        raise LogEntryError("run_signed: the receipt has no manifest")
    scores = manifest.get("scores")
    if not isinstance(scores, Mapping):
        scores = {}
    return _checked(
        {
            "kind": RUN_SIGNED,
            "window_id": window_id,
            "run_id": run_id,
            "manifest_sha256": manifest_sha256(receipt),
            "composite": str(scores.get("composite", format_score(0.0))),
            "seed_source": str(manifest.get("seed_source", "")),
            "signed_at": at,
        }
    )


def window_revealed(window_id: str, pack_sha256: str, pack_url: str, at: str) -> dict[str, Any]:
    return _checked(
        {
            "kind": WINDOW_REVEALED,
            "window_id": window_id,
            "pack_sha256": pack_sha256,
            "revealed_at": at,
            "pack_url": pack_url,
        }
    )


def manifest_sha256(receipt: Mapping[str, Any]) -> str:
    """SHA-256 of the RFC 8785 bytes of a receipt's manifest: what names a receipt in the log."""
    try:
        return sha256_hex(canonical_bytes(receipt.get("manifest")))
    except CanonicalJSONError as exc:
        raise LogEntryError(f"the receipt's manifest has no canonical form: {exc}") from None


def entry_bytes(entry: Mapping[str, Any]) -> bytes:
    """The RFC 8785 bytes of an entry: what its leaf hash covers."""
    return canonical_bytes(dict(entry))


def parse_entry(data: bytes | str | Mapping[str, Any], index: int) -> dict[str, Any]:
    """Entry ``index`` of a log, from its bytes or its parsed object, checked
    (``LogEntryError`` naming the entry and the field)."""
    if isinstance(data, bytes | str):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise LogEntryError(f"log entry {index}: not JSON") from None
    if not isinstance(data, Mapping):
        raise LogEntryError(f"log entry {index}: expected an object")
    return _checked(dict(data), f"log entry {index}")


def entry_time(entry: Mapping[str, Any]) -> str:
    """When the entry was logged (its kind's time field)."""
    return str(entry[TIME_FIELD[str(entry["kind"])]])


def _checked(entry: dict[str, Any], where: str = "") -> dict[str, Any]:
    kind = entry.get("kind")
    where = where or f"{kind!r:.40} entry"
    if not isinstance(kind, str) or kind not in FIELDS:
        raise LogEntryError(f"{where}: kind {kind!r:.40} is not one of {', '.join(FIELDS)}")
    want = {"kind", *FIELDS[kind]}
    extra, missing = sorted(set(entry) - want), sorted(want - set(entry))
    if extra or missing:
        raise LogEntryError(f"{where}: fields missing {missing}, unexpected {extra}")
    for name in FIELDS[kind]:
        problem = _field_problem(name, entry[name])
        if problem:
            raise LogEntryError(f"{where}.{name}: {problem}")
    if kind != RUN_SIGNED and not entry["window_id"]:
        raise LogEntryError(f"{where}.window_id: empty")
    return entry


def _field_problem(name: str, value: Any) -> str:
    if not isinstance(value, str):
        return "expected a string"
    if name in TIME_FIELD.values() and not LOG_TIME.fullmatch(value):
        return f"{value!r:.40} is not a YYYY-MM-DDTHH:MM:SSZ time"
    if name in ("pack_sha256", "manifest_sha256") and not _HEX64.fullmatch(value):
        return "expected 64 lowercase hex digits"
    if name == "composite" and not SCORE_TEXT.fullmatch(value):
        return f"{value!r:.40} is not a six-decimal score"
    if name == "seed_source" and value not in (*SEED_SOURCES, ""):
        return f"{value!r:.40} is not one of {', '.join(SEED_SOURCES)}"
    if name == "window_id" and value and not WINDOW_ID.fullmatch(value):
        return f"{value!r:.70} is not a window id (w- and 1-60 of a-z 0-9 -)"
    if name in ("run_id", "bench_version", "run_size", "pack_id") and not value:
        return "empty"
    return ""


__all__ = [
    "FIELDS",
    "LOG_TIME",
    "RUN_SIGNED",
    "TIME_FIELD",
    "WINDOW_ID",
    "WINDOW_OPENED",
    "WINDOW_REVEALED",
    "LogEntryError",
    "entry_bytes",
    "entry_time",
    "manifest_sha256",
    "parse_entry",
    "run_signed",
    "window_opened",
    "window_revealed",
]
