"""A run's content pack: which one a run uses and how a stored run finds it again to resume."""

from __future__ import annotations

from pathlib import Path

from dittobench.packs import Pack, PackError, load_pack, own_pack, public_pack, shipped_pack


def run_pack(bench_version: str, pack: Pack | None) -> Pack:
    """The pack a run uses: the one given, else the version's own public pack."""
    return pack or own_pack(bench_version)


def stored_location(pack: Pack) -> str:
    """What the store keeps to find the pack again: empty for a shipped pack (found by id), else
    its folder."""
    return "" if shipped_pack(pack.pack_id, pack.sha256) else str(pack.path.resolve())


def reopen(bench_version: str, pack_id: str, pack_sha256: str, location: str) -> Pack:
    """The pack of a stored run (``pack_id`` empty: a run stored before packs, the version's own
    pack). ``PackError`` when the pack is gone or its files changed since the run started."""
    if location:
        pack = load_pack(Path(location))
    elif pack_id:
        pack = public_pack(pack_id)
    else:
        return run_pack(bench_version, None)
    if pack_sha256 and pack.sha256 != pack_sha256:
        raise PackError(
            f"the run's pack {pack_id!r} at {location or 'this build'} has changed since the run "
            f"started (sha256 {pack.sha256[:12]}…, the run has {pack_sha256[:12]}…)"
        )
    return pack
