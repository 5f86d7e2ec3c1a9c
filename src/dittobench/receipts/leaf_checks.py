"""Checks on a receipt's leaves and the Merkle tree they rebuild.

Every leaf hash is recomputed from its JSON; the leaves must be sorted by case id with no case
twice, as many as the manifest says, and rebuild the manifest's root. A leaf has one of two
shapes: a graded case's (``LEAF_KEYS``) or, in a format-5 receipt only, an open question's
(``OPEN_LEAF_KEYS``, naming the manifest's judge protocol; as many as its nuance ``total``). A
malformed leaf is a failed check with a detail, never an exception.
"""

from __future__ import annotations

import re
from typing import Any

from dittobench.core.canonical import CanonicalJSONError
from dittobench.receipts.checks import Checklist, listing
from dittobench.receipts.judged import is_open_leaf, judged_problem
from dittobench.receipts.manifest import NUANCE_FIELD, RECEIPT_FORMAT_5
from dittobench.receipts.merkle import (
    LEAF_KEYS,
    OPEN_LEAF_KEYS,
    SCORE_TEXT,
    leaf_bytes,
    leaf_hash,
    merkle_root,
)

HEX64 = re.compile(r"[0-9a-f]{64}", re.ASCII)


ENTRY_KEYS = ("case_id", "leaf", "hash")
"""The fields of one ``leaves[]`` entry."""


def check_leaves(
    checks: Checklist, entries: list[Any], manifest: dict[str, Any] | None = None
) -> list[str | None]:
    """Recompute every leaf hash; return the hashes to build the root from (recomputed
    where the leaf could be hashed, else the stored one if well formed, else None). With the
    ``manifest`` an open question's leaf must belong to its format and name its judge."""
    problems: list[str] = []
    hashes: list[str | None] = []
    for position, entry in enumerate(entries):
        problem, recomputed = leaf_problem(position, entry)
        problem = problem or _manifest_problem(entry, manifest)
        if problem:
            problems.append(problem)
        stored = entry.get("hash") if isinstance(entry, dict) else None
        good_stored = stored if isinstance(stored, str) and HEX64.fullmatch(stored) else None
        hashes.append(recomputed or good_stored)
    if problems:
        checks.add("leaf hashes", False, listing(problems))
    else:
        checks.add("leaf hashes", True, f"{len(entries)} leaf hashes recomputed from their JSON")
    return hashes


def check_order(checks: Checklist, entries: list[Any]) -> None:
    ids = [e.get("case_id") if isinstance(e, dict) else None for e in entries]
    for position in range(1, len(ids)):
        before, after = ids[position - 1], ids[position]
        if not (isinstance(before, str) and isinstance(after, str)):
            continue  # already reported as a malformed leaf
        if after == before:
            checks.add("leaf order", False, f"case {after} has two leaves")
            return
        if after < before:
            checks.add(
                "leaf order", False, f"case {after} comes after {before}: not sorted by case id"
            )
            return
    if any(not isinstance(i, str) for i in ids):
        checks.add("leaf order", False, "some leaves have no case id")
        return
    checks.add("leaf order", True, "sorted by case id, no case twice")


def check_count(checks: Checklist, entries: list[Any], manifest: dict[str, Any]) -> None:
    count = manifest.get("leaf_count")
    nuance = manifest.get(NUANCE_FIELD)
    total = nuance.get("total") if isinstance(nuance, dict) else None
    opened = sum(1 for e in entries if isinstance(e, dict) and is_open_leaf(e.get("leaf")))
    if not (count == len(entries) and type(count) is int):
        checks.add(
            "leaf count",
            False,
            f"the receipt has {len(entries)} leaves, manifest says {count!r}",
        )
    elif isinstance(nuance, dict) and opened != total:
        checks.add(
            "leaf count",
            False,
            f"the receipt has {opened} open-question leaves, the manifest's nuance counts "
            f"{total!r:.20} open questions",
        )
    elif isinstance(nuance, dict):
        checks.add(
            "leaf count",
            True,
            f"{count} leaves ({opened} of them open questions), as the manifest says",
        )
    else:
        checks.add("leaf count", True, f"{count} leaves, as the manifest says")


def check_root(checks: Checklist, hashes: list[str | None], manifest: dict[str, Any]) -> None:
    claimed = manifest.get("merkle_root")
    if any(h is None for h in hashes):
        checks.add("merkle root", False, "cannot rebuild the tree: a leaf has no usable hash")
        return
    root = merkle_root([h for h in hashes if h is not None])
    if root == claimed:
        checks.add("merkle root", True, f"{root} rebuilt from {len(hashes)} leaves")
    else:
        checks.add(
            "merkle root",
            False,
            f"rebuilt {root} from the leaves, but the manifest says {claimed!r:.80}",
        )


def leaf_problem(position: int, entry: Any) -> tuple[str, str | None]:
    """(what is wrong with one leaf entry or "", its recomputed hash when it can be hashed)."""
    if not isinstance(entry, dict):
        return f"leaves[{position}]: not an object", None
    case_id = entry.get("case_id")
    label = f"case {case_id}" if isinstance(case_id, str) else f"leaves[{position}]"
    leaf, stored = entry.get("leaf"), entry.get("hash")
    if not isinstance(case_id, str):
        return f"{label}: no case_id", None
    extra = sorted(set(entry) - set(ENTRY_KEYS))
    if extra:  # the entry is not signed: nothing may ride along beside the leaf
        return f"{label}: unknown field(s) {', '.join(map(str, extra))[:80]}", None
    if not isinstance(leaf, dict):
        return f"{label}: leaf is not an object", None
    if set(leaf) not in (set(LEAF_KEYS), set(OPEN_LEAF_KEYS)):
        return (
            f"{label}: leaf must have exactly {', '.join(LEAF_KEYS)} (a graded case) or "
            f"{', '.join(OPEN_LEAF_KEYS)} (an open question)",
            None,
        )
    try:
        recomputed = leaf_hash(leaf_bytes(leaf))
    except CanonicalJSONError as exc:
        return f"{label}: leaf has no canonical form ({exc})", None
    problem = _field_problem(case_id, leaf) or _stored_hash_problem(stored, recomputed)
    return (f"{label}: {problem}" if problem else ""), recomputed


def _field_problem(case_id: str, leaf: dict[str, Any]) -> str:
    """What is wrong with a hashable leaf's fields, or "" (an open question's leaf says so)."""
    if leaf["case_id"] != case_id:
        return f"leaf names case {leaf['case_id']!r:.40}"
    if not (isinstance(leaf["prompt_sha256"], str) and HEX64.fullmatch(leaf["prompt_sha256"])):
        return "prompt_sha256 is not a hex SHA-256"
    if not (leaf["response"] is None or isinstance(leaf["response"], dict)):
        return "response is neither an object nor null"
    if is_open_leaf(leaf):
        problem = judged_problem(leaf["judged"])
        return f"open-question leaf: {problem}" if problem else ""
    if not (isinstance(leaf["score"], str) and SCORE_TEXT.fullmatch(leaf["score"])):
        return "score is not a six-decimal string"
    if not isinstance(leaf["observed"], list):
        return "observed is not a list"
    return ""


def _manifest_problem(entry: Any, manifest: dict[str, Any] | None) -> str:
    """An open question's leaf in a receipt whose format has none, or naming another judge
    protocol than the manifest's nuance ("" when fine, or not an open question's leaf)."""
    leaf = entry.get("leaf") if isinstance(entry, dict) else None
    if manifest is None or not is_open_leaf(leaf):
        return ""
    label = f"case {entry.get('case_id')}"
    if manifest.get("format") != RECEIPT_FORMAT_5:
        return (
            f"{label}: an open question's leaf, but a {manifest.get('format')!r:.40} receipt "
            f"has none (only {RECEIPT_FORMAT_5})"
        )
    judged, nuance = leaf["judged"], manifest.get(NUANCE_FIELD)
    signed = nuance.get("protocol_sha256") if isinstance(nuance, dict) else None
    if isinstance(judged, dict) and judged.get("protocol_sha256") != signed:
        return f"{label}: judged.protocol_sha256 is not the manifest's nuance protocol_sha256"
    return ""


def _stored_hash_problem(stored: Any, recomputed: str) -> str:
    if stored == recomputed:
        return ""
    shown = f"{stored[:16]}…" if isinstance(stored, str) else repr(stored)[:24]
    return f"leaf hashes to {recomputed[:16]}…, stored hash is {shown}"
