"""Scoring windows on sealed packs, and the transparency log they are recorded in
(docs/service.md, "Scoring windows").

An operator opens a window with a sealed pack's folder on this server: the pack is checked (it
loads, the harness can be shown it, a dataset of the window's size can be made from it, it is
not a pack this build ships), copied into ``data_dir/windows/<id>/pack`` (so later edits of the
operator's folder change nothing), and its SHA-256, the commitment, is logged at once
(``window_opened``). Every run of the window uses that copy. Revealing the window logs
``window_revealed`` and publishes the pack as a tarball whose files load to the committed
hash. The log's signed tree heads and proofs are computed here from the stored entries.
"""

from __future__ import annotations

import gzip
import io
import os
import shutil
import tarfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.catalog.shown import shown_by
from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import sha256_hex
from dittobench.generate.assemble import build_dataset
from dittobench.packs import Pack, PackError, load_pack, own_pack, shipped_pack
from dittobench.packs.distance import pack_distance
from dittobench.receipts.logentries import entry_bytes, window_opened, window_revealed
from dittobench.receipts.logtree import (
    consistency_proof,
    entry_hash,
    inclusion_proof,
    tree_root,
)
from dittobench.receipts.merkle import MerkleError
from dittobench.receipts.treehead import sign_tree_head
from dittobench.store.jobs import ServiceStore
from dittobench.store.windows import OPEN, REVEALED, WindowRow

ARCHIVE_NAME = "pack.tar.gz"

MOST_SHARED = 0.25
"""The most of its wording a window's pack may share with the version's public pack
(``pack distance`` public sealed: the summary, and the statement and look-alike families). Set
from the measurements in docs/study.md: a rule-reworded copy sharing 0.71 (statements 0.53) let
the grammar attack built on the public pack keep memory 0.54; an independently authored pack
sharing 0.06 left it 0.00."""

FLOORED_FAMILIES = ("statements", "lookalikes")


class WindowError(DittobenchError, ValueError):
    """A window that cannot be opened or revealed; the message says why."""

    http_status = 400


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_window_id() -> str:
    return "w-" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + "-" + os.urandom(3).hex()


def open_window(
    store: ServiceStore,
    windows_dir: Path,
    source: Path,
    bench_version: str,
    run_size: str,
    opened_by: str,
) -> WindowRow:
    """Check the sealed pack at ``source``, keep a copy, and open the window (logged)."""
    window_id = new_window_id()
    pack = _checked_pack(source, bench_version, run_size)
    folder = windows_dir / window_id / "pack"
    folder.mkdir(parents=True)
    for name in pack.files:
        shutil.copyfile(pack.path / f"{name}.json", folder / f"{name}.json")
    kept = load_pack(folder)
    if kept.sha256 != pack.sha256:
        raise WindowError(f"{source} changed while it was copied; open the window again")
    stamp = now()
    row = WindowRow(
        window_id, bench_version, run_size, kept.pack_id, kept.sha256, str(folder), OPEN,
        opened_by, stamp,
    )  # fmt: skip
    store.open_window(
        row,
        lambda at: entry_bytes(
            window_opened(window_id, bench_version, run_size, kept.pack_id, kept.sha256, at)
        ),
        stamp,
    )
    return row


def _checked_pack(source: Path, bench_version: str, run_size: str) -> Pack:
    try:
        pack = load_pack(source)
        sha = pack.sha256
        if shipped_pack(pack.pack_id, sha) is not None:
            raise WindowError(
                f"{source} is the public pack {pack.pack_id}: a window needs a sealed one"
            )
        shown_by(pack)
        build_dataset(0, bench_version, run_size, pack)
        near = pack_distance(own_pack(bench_version), pack)
    except PackError as exc:
        raise WindowError(f"sealed pack: {exc}") from None
    shares = {f.family: f.figure for f in near.families if f.family in FLOORED_FAMILIES}
    if near.summary > MOST_SHARED or max(shares.values()) > MOST_SHARED:
        said = ", ".join(f"{family} {share:.2f}" for family, share in shares.items())
        raise WindowError(
            f"sealed pack {source} shares {near.summary:.2f} of its wording with the public pack "
            f"{near.a} ({said}); a window's pack may share at most {MOST_SHARED}: a parser of the "
            "public pack would read it. Write its wording anew (docs/packs.md, 'Distance')"
        )
    return pack


def reveal_window(store: ServiceStore, window: WindowRow, windows_dir: Path) -> WindowRow:
    """Publish the window's pack as a tarball and log its reveal; the window as it now is.
    ``store.jobs.WindowStateError`` while a run of it is unfinished or it is not open."""
    pack = load_pack(Path(window.pack_path))
    if pack.sha256 != window.pack_sha256:
        raise WindowError(
            f"window {window.window_id}'s kept pack hashes to {pack.sha256}, not its commitment "
            f"{window.pack_sha256}; it cannot be revealed"
        )
    archive = windows_dir / window.window_id / ARCHIVE_NAME
    archive.write_bytes(pack_archive(pack))
    url = pack_url(window.window_id)
    stamp = now()
    store.reveal_window(
        window.window_id,
        lambda at: entry_bytes(window_revealed(window.window_id, window.pack_sha256, url, at)),
        stamp,
    )
    found = store.get_window(window.window_id)
    assert found is not None
    return found


def sealed_until(store: ServiceStore, window_id: str, owner: bool) -> str:
    """Why a window run's cases are not shown to this viewer, or "": they hold the sealed pack's
    words, which only its harness has seen until the window is revealed (the run's submitter,
    whose harness answered them, may read them)."""
    if not window_id or owner:
        return ""
    window = store.get_window(window_id)
    if window is None or window.state == REVEALED:
        return ""
    return (
        f"this run is part of scoring window {window_id}, whose pack stays sealed until the "
        "window is revealed: its cases are shown then"
    )


def pack_url(window_id: str) -> str:
    return f"/v1/windows/{window_id}/{ARCHIVE_NAME}"


def pack_archive(pack: Pack) -> bytes:
    """The pack's files as a tar.gz, byte for byte the same for the same files: names sorted,
    times, owners and modes fixed."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in sorted(pack.files):
            data = (pack.path / f"{name}.json").read_bytes()
            info = tarfile.TarInfo(f"{name}.json")
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(raw.getvalue(), mtime=0)


def window_view(window: WindowRow, windows_dir: Path) -> dict[str, Any]:
    """A window as the API and the pages show it (never the server's folder)."""
    view: dict[str, Any] = {
        "window_id": window.window_id,
        "state": window.state,
        "bench_version": window.bench_version,
        "run_size": window.run_size,
        "pack_id": window.pack_id,
        "pack_sha256": window.pack_sha256,
        "opened_at": window.opened_at,
        "revealed_at": window.revealed_at,
        "pack_url": "",
        "pack_archive_sha256": "",
    }
    archive = windows_dir / window.window_id / ARCHIVE_NAME
    if window.state == REVEALED and archive.is_file():
        view["pack_url"] = pack_url(window.window_id)
        view["pack_archive_sha256"] = sha256_hex(archive.read_bytes())
    return view


def leaf_hashes(store: ServiceStore, size: int) -> list[str]:
    return [entry_hash(data) for data in store.log_entries(0, size)]


def tree_head(store: ServiceStore, key: Ed25519PrivateKey) -> dict[str, Any]:
    """A signed tree head over every entry the log holds now."""
    size = store.log_size()
    return sign_tree_head(size, tree_root(leaf_hashes(store, size)), now(), key)


def inclusion(store: ServiceStore, index: int, size: int) -> dict[str, Any]:
    hashes = leaf_hashes(store, size)
    try:
        proof = inclusion_proof(hashes, index, size)
    except MerkleError as exc:
        raise WindowError(str(exc)) from None
    return {"index": index, "tree_size": size, "leaf_hash": hashes[index], "proof": proof}


def consistency(store: ServiceStore, first: int, second: int) -> dict[str, Any]:
    try:
        proof = consistency_proof(leaf_hashes(store, second), first, second)
    except MerkleError as exc:
        raise WindowError(str(exc)) from None
    return {"first": first, "second": second, "proof": proof}


__all__ = [
    "ARCHIVE_NAME",
    "WindowError",
    "consistency",
    "inclusion",
    "leaf_hashes",
    "open_window",
    "pack_archive",
    "pack_url",
    "reveal_window",
    "tree_head",
    "window_view",
]
