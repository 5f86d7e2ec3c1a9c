"""Checks that a receipt belongs to a given transcript.

The transcript's canonical hash must be the manifest's ``transcript_sha256``, it must describe
the same run (benchmark, version, seed, size, dataset, content pack: a missing pack on either side
stands for the bench version's own; wire nonce: missing on both sides, or the same), and each
leaf must carry exactly the transcript's response and observed calls for its case (an open
question's leaf: its response), with no transcript case left without a leaf. For a receipt of
open questions (format 5) the transcript's judge record must be the one the receipt binds
(``transcript judge``): the manifest's protocol, every judge call of each open question (its
request hash, the hash of its raw reply, the model named, the outcome) and each question's
verdicts, the panel's majority of the verdicts recorded for each reply (that those are what the
reply says is the regrade's check, ``receipts.regrade``).
"""

from __future__ import annotations

from typing import Any

from dittobench.core.canonical import CanonicalJSONError, canonical_bytes
from dittobench.core.hashing import sha256_hex
from dittobench.receipts.checks import Checklist, listing
from dittobench.receipts.judged import call_leaf, is_open_leaf, panel_verdicts
from dittobench.receipts.manifest import NONCE_FIELD, NUANCE_FIELD
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
    opened = [e["leaf"] for e in entries if isinstance(e, dict) and is_open_leaf(e.get("leaf"))]
    if opened or NUANCE_FIELD in manifest or "judge" in transcript:
        _check_judge(checks, transcript.get("judge"), opened, manifest.get(NUANCE_FIELD))


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
    """Where one leaf's response and observed calls differ from its transcript record (an open
    question's leaf carries no observed calls: nothing is graded from them)."""
    response = record.get("response") if record else None
    observed = record.get("observed", []) if record else []
    fields = [("response", response)] + ([] if is_open_leaf(leaf) else [("observed", observed)])
    return [
        f"case {leaf['case_id']}: {name} differs from the transcript"
        for name, want in fields
        if not _same_json(leaf.get(name), want)
    ]


def _check_judge(checks: Checklist, judge: Any, opened: list[dict[str, Any]], nuance: Any) -> None:
    """The transcript's judge record is the one the open leaves and the manifest bind."""
    signed = nuance.get("protocol_sha256") if isinstance(nuance, dict) else None
    if judge is None:
        problems = [] if signed == "" else [_unlike(signed)]
        problems += [
            f"case {leaf['case_id']}: judged by the receipt, but the transcript has no judge record"
            for leaf in opened
            if not _unjudged(leaf.get("judged"))
        ]
        detail = "no judge record, and the receipt binds none: the nuance score is unjudged"
        checks.add("transcript judge", not problems, listing(problems) if problems else detail)
        return
    problems, protocol = _protocol_problems(judge, signed)
    judgements = judge.get("judgements") if isinstance(judge, dict) else None
    if not isinstance(judgements, list):
        checks.add("transcript judge", False, "the judge record has no judgements list")
        return
    calls = _calls_by_case(judgements)
    panel = protocol.get("panel") if isinstance(protocol, dict) else None
    for leaf in opened:
        problems += _judged_differences(leaf, calls.pop(str(leaf.get("case_id")), None), panel)
    problems += [f"case {c}: judged in the transcript but has no open leaf" for c in sorted(calls)]
    if problems:
        checks.add("transcript judge", False, listing(problems))
        return
    total = sum(len(_calls_of(leaf)) for leaf in opened)
    checks.add(
        "transcript judge",
        True,
        f"protocol {str(signed)[:16]}… as signed; {len(opened)} open leaves carry its {total} "
        "judge calls (reply hashes recomputed) and the panel's verdicts",
    )


def _unlike(signed: Any) -> str:
    """Why a transcript without a judge record is not what the manifest signs."""
    if signed is None:
        return "the manifest binds no nuance score"
    return f"the manifest names judge protocol {str(signed)[:16]}…, the transcript has no judge"


def _protocol_problems(judge: Any, signed: Any) -> tuple[list[str], Any]:
    """The judge record's protocol must hash to its ``protocol_sha256`` and be the manifest's."""
    if not isinstance(judge, dict):
        return ["the judge record is not an object"], None
    protocol = judge.get("protocol")
    try:
        digest = sha256_hex(canonical_bytes(protocol))
    except CanonicalJSONError:
        return ["the judge record's protocol has no canonical form"], None
    problems = []
    if digest != judge.get("protocol_sha256"):
        problems.append("the judge record's protocol does not hash to its protocol_sha256")
    if digest != signed:
        problems.append(
            f"the transcript was judged under protocol {digest[:16]}…, the manifest names "
            f"{signed!r:.24}"
        )
    return problems, protocol


def _calls_by_case(judgements: list[Any]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for judgement in judgements:
        if isinstance(judgement, dict) and isinstance(judgement.get("case_id"), str):
            calls = judgement.get("calls")
            out[judgement["case_id"]] = calls if isinstance(calls, list) else []
    return out


def _judged_differences(leaf: dict[str, Any], calls: list[Any] | None, panel: Any) -> list[str]:
    """Where an open leaf's judge calls and verdicts differ from the transcript's judgement."""
    judged = leaf.get("judged")
    if not isinstance(judged, dict):
        return []  # reported under leaf hashes
    case = f"case {leaf['case_id']}"
    bound = [call_leaf(c) if isinstance(c, dict) else c for c in calls or []]
    if not _same_json(judged.get("calls"), bound):
        return [f"{case}: the judge calls (request, reply hash, model, outcome) differ"]
    if calls is None:  # the judge was not asked: the harness gave no answer
        ok = judged.get("status") == "no_answer"
        return [] if ok else [f"{case}: status {judged.get('status')!r}, but no judge was asked"]
    said = panel_verdicts(calls, panel) if type(panel) is int else None
    status = "judged" if said is not None else "judge_error"
    if judged.get("status") != status or not _same_json(judged.get("verdicts"), said or {}):
        return [f"{case}: the verdicts are not the panel's majority of the judge's replies"]
    return []


def _calls_of(leaf: dict[str, Any]) -> list[Any]:
    judged = leaf.get("judged")
    calls = judged.get("calls") if isinstance(judged, dict) else None
    return calls if isinstance(calls, list) else []


def _unjudged(judged: Any) -> bool:
    return isinstance(judged, dict) and judged.get("status") in ("no_answer", "not_judged")


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values (same canonical bytes): ``true`` and ``1`` differ, ``1`` and ``1.0``
    do not (JSON has one number type)."""
    try:
        return canonical_bytes(a) == canonical_bytes(b)
    except CanonicalJSONError:
        return False
