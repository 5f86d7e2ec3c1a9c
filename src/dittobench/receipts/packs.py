"""The content pack a receipt names, and the pack a regrade rebuilds its dataset with
(docs/receipts.md, "The manifest" and "Regrading").

A format-2 manifest names its pack (``pack_id``, ``pack_sha256``); a format-1 manifest names
none, and stands for the bench version's own public pack, as a transcript without ``pack`` does.
Reads only the packs shipped in this package and the pack a caller passes in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dittobench.core.errors import DittobenchError
from dittobench.packs import Pack, own_pack, public_pack, public_pack_ids, shipped_pack
from dittobench.receipts.manifest import Manifest
from dittobench.spec.dataset import PackRef


class PackMismatchError(DittobenchError):
    """The pack at hand is not the one a receipt names (or none is at hand)."""

    exit_code = 1  # the receipt cannot be regraded with it; the files were readable
    http_status = 422


def implied_pack(bench_version: str) -> PackRef:
    """The bench version's own public pack: what a format-1 manifest or a transcript without
    ``pack`` stands for. Raises ``UnknownVersionError`` for a version this build lacks."""
    return own_pack(bench_version).ref()


def manifest_pack(manifest: Manifest) -> PackRef:
    """The pack the manifest names, or the one its bench version implies (format 1)."""
    if manifest.pack_id:
        return PackRef(manifest.pack_id, manifest.pack_sha256)
    return implied_pack(manifest.bench_version)


def regrade_pack(manifest: Manifest, given: Pack | None) -> Pack:
    """The pack to rebuild the manifest's dataset with: ``given`` (``--pack DIR``) when its
    SHA-256 is the manifest's, else, with none given, the shipped pack of the manifest's id and
    SHA-256. ``PackMismatchError`` says which hashes differ, or that the auditor must pass the
    pack's published folder."""
    want = manifest_pack(manifest)
    if given is not None:
        if given.sha256 != want.sha256:
            raise PackMismatchError(
                f"--pack {given.path} is pack {given.pack_id!r} with sha256 {given.sha256}, but "
                f"the receipt was made with pack {want.id!r}, sha256 {want.sha256}; pass the "
                "folder of the pack the receipt names"
            )
        return given
    shipped = shipped_pack(want.id, want.sha256)
    if shipped is not None:
        return shipped
    if want.id in public_pack_ids():
        why = f"the pack {want.id!r} this build ships has sha256 {public_pack(want.id).sha256}"
    else:
        why = "this build does not ship it"
    raise PackMismatchError(
        f"the receipt was made with pack {want.id!r} (sha256 {want.sha256}) and {why}; pass "
        "--pack DIR with the pack's published folder to regrade it"
    )


def packs_differ(transcript: Mapping[str, Any], manifest: Mapping[str, Any]) -> bool:
    """Whether a transcript and a manifest (both as parsed JSON) name different packs, either
    side's missing pack standing for the bench version's own. Never raises."""
    claimed = transcript.get("pack")
    signed = None
    if "pack_id" in manifest:
        signed = {"id": manifest.get("pack_id"), "sha256": manifest.get("pack_sha256")}
    if claimed == signed:
        return False
    try:
        implied: Any = implied_pack(str(manifest.get("bench_version"))).to_json()
    except DittobenchError:
        implied = None
    mine = implied if claimed is None else claimed
    theirs = implied if signed is None else signed
    return bool(mine != theirs)


__all__ = [
    "PackMismatchError",
    "implied_pack",
    "manifest_pack",
    "packs_differ",
    "regrade_pack",
]
