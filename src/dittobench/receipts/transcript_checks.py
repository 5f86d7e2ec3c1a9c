"""Checks that a receipt belongs to a given transcript.

The transcript's canonical hash must be the manifest's ``transcript_sha256``, it must describe
the same run (benchmark, version, seed, size, dataset, content pack: a missing pack on either side
stands for the bench version's own; wire nonce: missing on both sides, or the same), and each
leaf must carry exactly the transcript's response and observed calls for its case, with no
transcript case left without a leaf.
"""

from __future__ import annotations

from typing import Any

from dittobench.core.canonical import CanonicalJSONError, canonical_bytes
from dittobench.core.hashing import sha256_hex
from dittobench.receipts.checks import Checklist, listing
from dittobench.receipts.manifest import NONCE_FIELD
from dittobench.receipts.packs import packs_differ

_RUN_FIELDS = ("benchmark", "bench_version", "seed", "run_size", "dataset_sha256")


def check_transcript(
    checks: Checklist, transcript: Any, entries: list[Any], manifest: dict[str, Any]
) -> None:
    _check_hash(checks, transcript, manifest)
    if not isinstance(transcript, dict) or not isinstance(transcript.get("cases"), list):
        checks.add("transcript cases", False, "the transcript has no cases list")
        return
    _check_run(checks, transcript, manifest)
    _check_cases(checks, transcript["cases"], entries)


def _check_hash(checks: Checklist, transcript: Any, manifest: dict[str, Any]) -> None:
    try:
        digest = sha256_hex(canonical_bytes(transcript))
    except CanonicalJSONError as exc:
        checks.add("transcript hash", False, f"the transcript has no canonical form: {exc}")
        return
    claimed = manifest.get("transcript_sha256")
    if digest == claimed:
        checks.add("transcript hash", True, f"{digest} matches the manifest")
    else:
        checks.add(
            "transcript hash",
            False,
            f"the transcript hashes to {digest}, the manifest says {claimed!r:.80}",
        )


def _check_run(checks: Checklist, transcript: dict[str, Any], manifest: dict[str, Any]) -> None:
    header = [name for name in _RUN_FIELDS if transcript.get(name) != manifest.get(name)]
    if packs_differ(transcript, manifest):
        header.append("pack")
    if transcript.get(NONCE_FIELD, "") != manifest.get(NONCE_FIELD, ""):
        header.append(NONCE_FIELD)
    if header:
        checks.add(
            "transcript run", False, f"transcript and manifest differ in: {', '.join(header)}"
        )
    else:
        checks.add(
            "transcript run", True, "same benchmark, version, seed, size, dataset, pack and nonce"
        )


def _check_cases(checks: Checklist, cases: list[Any], entries: list[Any]) -> None:
    records: dict[str, Any] = {}
    for case in cases:
        if isinstance(case, dict) and isinstance(case.get("case_id"), str):
            records[case["case_id"]] = case
    problems: list[str] = []
    seen: set[str] = set()
    for entry in entries:
        leaf = entry.get("leaf") if isinstance(entry, dict) else None
        if not isinstance(leaf, dict) or not isinstance(leaf.get("case_id"), str):
            continue  # reported under leaf hashes
        seen.add(leaf["case_id"])
        problems += _leaf_differences(leaf, records.get(leaf["case_id"]))
    unleafed = sorted(set(records) - seen)
    problems += [f"case {c}: in the transcript but has no leaf" for c in unleafed]
    if problems:
        checks.add("transcript cases", False, listing(problems))
    else:
        checks.add("transcript cases", True, f"{len(seen)} leaves carry the transcript's responses")


def _leaf_differences(leaf: dict[str, Any], record: Any) -> list[str]:
    """Where one leaf's response and observed calls differ from its transcript record."""
    response = record.get("response") if record else None
    observed = record.get("observed", []) if record else []
    return [
        f"case {leaf['case_id']}: {name} differs from the transcript"
        for name, want in (("response", response), ("observed", observed))
        if not _same_json(leaf.get(name), want)
    ]


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values (same canonical bytes): ``true`` and ``1`` differ, ``1`` and ``1.0``
    do not (JSON has one number type)."""
    try:
        return canonical_bytes(a) == canonical_bytes(b)
    except CanonicalJSONError:
        return False
