"""Checking the transparency log (docs/receipts.md, "What verify checks in the log").

Given a signed tree head and the log's entries up to it (from a service or an exported file),
and optionally an older tree head the auditor kept, a receipt and the folder of a revealed
pack, ``audit_log`` makes these checks, in order, each named with what failed:

- ``tree head``: the head's Ed25519 signature (by a trusted key, when given);
- ``log entries``: there are exactly ``tree_size`` entries and each is well formed;
- ``log root``: the entries hash to the signed root (an edited, removed, added or reordered
  entry changes it);
- ``log order``: times never decrease along the log; a window is opened once and revealed at
  most once, with its own commitment; a run signed in a window is logged after the window opened,
  before it was revealed, at a time inside it;
- ``old head`` and ``consistency``: the older head's signature, and a consistency proof that the
  log it signed is a prefix of this one (nothing before it was changed or removed);
- ``receipt in log``: the receipt's ``run_signed`` entry (found by its manifest hash), its
  inclusion proof under the signed root, and that the entry says what the receipt says
  (composite, seed source; in a window: the window's pack and a receipt made inside it);
- ``window pack``: the pack given is the receipt's window's commitment, and the window's reveal
  names the same hash.

Proofs a service served are checked as served; with none, they are computed from the entries.
Pure: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dittobench.receipts.checks import Checklist, listing
from dittobench.receipts.keys import TrustedKeys
from dittobench.receipts.logentries import (
    RUN_SIGNED,
    WINDOW_OPENED,
    WINDOW_REVEALED,
    LogEntryError,
    entry_bytes,
    entry_time,
    manifest_sha256,
    parse_entry,
)
from dittobench.receipts.logtree import (
    consistency_proof,
    entry_hash,
    inclusion_proof,
    tree_root,
    verify_consistency,
    verify_inclusion,
)
from dittobench.receipts.treehead import TreeHead, check_tree_head


@dataclass(frozen=True, slots=True)
class LogEvidence:
    """What the auditor holds: the head, the entries up to it (as objects), and optionally the
    head it kept from before and the proofs a service served."""

    head: Any
    entries: Sequence[Any]
    old_head: Any = None
    inclusion: Sequence[str] | None = None
    """The served inclusion proof of the receipt's entry; None: computed from the entries."""
    consistency: Sequence[str] | None = None
    """The served consistency proof from the old head; None: computed from the entries."""


def audit_log(
    evidence: LogEvidence,
    trusted: TrustedKeys | None,
    receipt: Any = None,
    pack_sha256: str = "",
) -> Checklist:
    """Every check of the module docstring that applies; see there."""
    checks = Checklist()
    head, problem = check_tree_head(evidence.head, trusted)
    checks.add("tree head", head is not None, problem or _head_text(head))
    if head is None:
        return checks
    entries = _entries(checks, evidence.entries, head.tree_size)
    if entries is None:
        return checks
    hashes = [entry_hash(entry_bytes(e)) for e in entries]
    root = tree_root(hashes)
    checks.add(
        "log root",
        root == head.root_hash,
        f"{len(entries)} entries hash to the signed root"
        if root == head.root_hash
        else f"the entries hash to {root}, not the signed root {head.root_hash}: an entry was "
        "edited, removed, added or reordered",
    )
    problems = order_problems(entries)
    checks.add("log order", not problems, listing(problems) or "times never decrease; windows hold")
    if evidence.old_head is not None:
        _check_consistency(checks, evidence, trusted, head, hashes)
    if receipt is not None:
        found = _check_receipt(checks, receipt, entries, hashes, head, evidence.inclusion)
        if pack_sha256:
            _check_pack(checks, found, entries, pack_sha256)
    return checks


def _head_text(head: TreeHead | None) -> str:
    assert head is not None
    return f"size {head.tree_size}, root {head.root_hash}, {head.timestamp}, key {head.key_id}"


def _entries(checks: Checklist, raw: Sequence[Any], size: int) -> list[dict[str, Any]] | None:
    if len(raw) != size:
        checks.add(
            "log entries",
            False,
            f"the head signs {size} entries but {len(raw)} were given: "
            f"{'entries were removed' if len(raw) < size else 'entries were added'}",
        )
        return None
    try:
        entries = [parse_entry(item, index) for index, item in enumerate(raw)]
    except LogEntryError as exc:
        checks.add("log entries", False, str(exc))
        return None
    checks.add("log entries", True, f"{size} well-formed entries")
    return entries


def order_problems(entries: Sequence[dict[str, Any]]) -> list[str]:
    """What breaks the log's order rules (module docstring), each naming its entry."""
    problems: list[str] = []
    opened: dict[str, dict[str, Any]] = {}
    revealed: dict[str, dict[str, Any]] = {}
    last = ""
    for index, entry in enumerate(entries):
        at, kind, window = entry_time(entry), entry["kind"], entry["window_id"]
        if at < last:
            problems.append(
                f"entry {index} ({kind}) is dated {at}, before an earlier entry's {last}: "
                "back-dated"
            )
        last = max(last, at)
        if kind == WINDOW_OPENED:
            if window in opened:
                problems.append(f"entry {index} opens window {window} a second time")
            opened.setdefault(window, entry)
        elif kind == WINDOW_REVEALED:
            problems += _reveal_problems(index, entry, opened.get(window), window in revealed)
            revealed.setdefault(window, entry)
        elif kind == RUN_SIGNED and window:
            problems += _run_problems(index, entry, opened.get(window), revealed.get(window))
    return problems


def _reveal_problems(
    index: int, entry: dict[str, Any], opened: dict[str, Any] | None, again: bool
) -> list[str]:
    window = entry["window_id"]
    if opened is None:
        return [f"entry {index} reveals window {window}, which no earlier entry opened"]
    out = [f"entry {index} reveals window {window} a second time"] if again else []
    if entry["pack_sha256"] != opened["pack_sha256"]:
        out.append(
            f"entry {index} reveals window {window} with pack sha256 {entry['pack_sha256']}, "
            f"not its commitment {opened['pack_sha256']}"
        )
    return out


def _run_problems(
    index: int, entry: dict[str, Any], opened: dict[str, Any] | None, revealed: Any
) -> list[str]:
    window, at = entry["window_id"], entry["signed_at"]
    if opened is None:
        return [
            f"entry {index} logs run {entry['run_id']} in window {window}, not opened before it"
        ]
    if revealed is not None:
        return [
            f"entry {index} logs run {entry['run_id']} in window {window} after the window was "
            f"revealed ({revealed['revealed_at']})"
        ]
    if at < opened["opened_at"]:
        return [f"entry {index}: run {entry['run_id']} signed {at}, before window {window} opened"]
    return []


def _check_consistency(
    checks: Checklist,
    evidence: LogEvidence,
    trusted: TrustedKeys | None,
    head: TreeHead,
    hashes: list[str],
) -> None:
    old, problem = check_tree_head(evidence.old_head, trusted, "old tree head")
    checks.add("old head", old is not None, problem or _head_text(old))
    if old is None:
        return
    if old.tree_size > head.tree_size:
        checks.add(
            "consistency",
            False,
            f"the log shrank: the kept head has {old.tree_size} entries, this one {head.tree_size}",
        )
        return
    proof = evidence.consistency
    if proof is None:
        proof = consistency_proof(hashes, old.tree_size, head.tree_size)
    ok = verify_consistency(old.tree_size, head.tree_size, old.root_hash, head.root_hash, proof)
    checks.add(
        "consistency",
        ok,
        f"the log of {head.tree_size} entries extends the kept one of {old.tree_size}"
        if ok
        else f"the log of {head.tree_size} entries is not an extension of the kept head (size "
        f"{old.tree_size}, root {old.root_hash}): entries before {old.tree_size} were changed or "
        "removed",
    )


def _check_receipt(
    checks: Checklist,
    receipt: Any,
    entries: list[dict[str, Any]],
    hashes: list[str],
    head: TreeHead,
    served: Sequence[str] | None,
) -> dict[str, Any] | None:
    try:
        wanted = manifest_sha256(receipt if isinstance(receipt, dict) else {})
    except LogEntryError as exc:
        checks.add("receipt in log", False, str(exc))
        return None
    index = next(
        (
            i
            for i, e in enumerate(entries)
            if e["kind"] == RUN_SIGNED and e["manifest_sha256"] == wanted
        ),
        -1,
    )
    if index < 0:
        checks.add("receipt in log", False, f"no run_signed entry has manifest sha256 {wanted}")
        return None
    entry = entries[index]
    proof = served if served is not None else inclusion_proof(hashes, index, head.tree_size)
    problems = []
    if not verify_inclusion(hashes[index], index, head.tree_size, proof, head.root_hash):
        problems.append(f"the inclusion proof of entry {index} does not lead to the signed root")
    problems += _receipt_mismatches(receipt["manifest"], entry, entries)
    detail = f"entry {index}: run {entry['run_id']}" + (
        f" in window {entry['window_id']}" if entry["window_id"] else ""
    )
    checks.add(
        "receipt in log",
        not problems,
        f"{detail}: {listing(problems)}"
        if problems
        else f"{detail}, proof of {len(proof) if isinstance(proof, list) else 0} hashes",
    )
    return entry


def _receipt_mismatches(
    manifest: dict[str, Any], entry: dict[str, Any], entries: list[dict[str, Any]]
) -> list[str]:
    if not isinstance(manifest, dict):
        return ["the receipt's manifest is not an object"]
    out = []
    scores = manifest.get("scores")
    composite = scores.get("composite") if isinstance(scores, dict) else None
    if composite != entry["composite"]:
        out.append(f"the entry says composite {entry['composite']}, the receipt {composite}")
    if manifest.get("seed_source", "") != entry["seed_source"]:
        out.append(
            f"the entry says seed source {entry['seed_source']!r}, the receipt "
            f"{manifest.get('seed_source')!r}"
        )
    window = entry["window_id"]
    if not window:
        return out
    opened = _window_entry(entries, WINDOW_OPENED, window)
    if opened is None:
        return [*out, f"window {window} has no window_opened entry"]
    if manifest.get("pack_sha256") != opened["pack_sha256"]:
        out.append(
            f"the receipt's pack sha256 {manifest.get('pack_sha256')} is not window {window}'s "
            f"commitment {opened['pack_sha256']}"
        )
    made = str(manifest.get("created_at", ""))
    revealed = _window_entry(entries, WINDOW_REVEALED, window)
    if made < opened["opened_at"] or (revealed is not None and made > revealed["revealed_at"]):
        out.append(f"the receipt was made at {made}, outside window {window}")
    return out


def _window_entry(entries: list[dict[str, Any]], kind: str, window: str) -> dict[str, Any] | None:
    return next((e for e in entries if e["kind"] == kind and e["window_id"] == window), None)


def _check_pack(
    checks: Checklist, found: dict[str, Any] | None, entries: list[dict[str, Any]], sha: str
) -> None:
    window = found["window_id"] if found else ""
    if not window:
        checks.add(
            "window pack", False, "the receipt's run is in no window to check a pack against"
        )
        return
    opened = _window_entry(entries, WINDOW_OPENED, window)
    revealed = _window_entry(entries, WINDOW_REVEALED, window)
    commitment = opened["pack_sha256"] if opened else ""
    problems = []
    if sha != commitment:
        problems.append(
            f"the pack given has sha256 {sha}, not window {window}'s commitment {commitment}"
        )
    if revealed is None:
        problems.append(f"window {window} is not revealed in this log")
    elif revealed["pack_sha256"] != commitment:
        problems.append(f"window {window} was revealed with sha256 {revealed['pack_sha256']}")
    checks.add(
        "window pack",
        not problems,
        listing(problems) or f"the pack is window {window}'s commitment {commitment}",
    )


__all__ = ["LogEvidence", "audit_log", "order_problems"]
