"""The signed receipt of an external suite's run, and its checks (docs/external.md, "Receipt").

The receipt is ``{"manifest", "signature", "public_key", "key_id"}``, signed with the same
Ed25519 keys as a dittobench receipt (``receipts.keys``): the signature covers the manifest's RFC
8785 bytes. The manifest says what the run is (an external suite, never a dittobench score), the
source file's and the suite's SHA-256, the known release the file matched or that an unknown
file was allowed, the transcript's and the report's SHA-256, the harness and what it declared it
is, and the headline figures (the rules-graded mean and the judged mean, six-decimal strings).
Anyone holding the transcript and the report checks them against it; anyone holding the source
file too regrades (``dittobench external verify --source``).
"""

from __future__ import annotations

import re
from typing import Any, Final

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import dittobench
from dittobench.core.canonical import CanonicalJSONError, canonical_bytes
from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import canonical_sha256
from dittobench.receipts.checks import Checklist
from dittobench.receipts.keys import (
    KeyFileError,
    TrustedKeys,
    b64decode_strict,
    b64encode,
    key_id,
    public_key_from_raw,
    raw_public_key,
)
from dittobench.receipts.manifest import ManifestError, parse_rfc3339
from dittobench.receipts.merkle import format_score
from dittobench.receipts.signature_checks import check_key_id, check_signature
from dittobench.receipts.verify import Verification, unchecked
from dittobench.spec.external import FORMATS, SUITE_BENCHMARK
from dittobench.spec.external_report import LABEL, ExternalReport, Part
from dittobench.spec.external_transcript import ExternalTranscript

EXTERNAL_RECEIPT_FORMAT: Final = "dittobench-external-receipt-1"
RECEIPT_KEYS: Final = ("key_id", "manifest", "public_key", "signature")
MANIFEST_KEYS: Final = (
    "format",
    "benchmark",
    "label",
    "package_version",
    "suite_format",
    "release",
    "allow_unknown",
    "selection",
    "source_sha256",
    "suite_sha256",
    "transcript_sha256",
    "report_sha256",
    "grading",
    "harness",
    "identity",
    "questions",
    "rules",
    "judged",
    "created_at",
    "key_id",
)
_HEX64 = re.compile(r"[0-9a-f]{64}", re.ASCII)
_SCORE = re.compile(r"[0-9]\.[0-9]{6}", re.ASCII)


def _figure(part: Part) -> dict[str, Any]:
    mean = None if part.mean is None else format_score(part.mean)
    return {"n": part.n, "scored": part.scored, "mean": mean}


def external_manifest(
    report: ExternalReport, transcript: ExternalTranscript, created_at: str, kid: str
) -> dict[str, Any]:
    """The manifest signed for a graded external run."""
    return {
        "format": EXTERNAL_RECEIPT_FORMAT,
        "benchmark": SUITE_BENCHMARK,
        "label": LABEL,
        "package_version": dittobench.__version__,
        "suite_format": report.format,
        "release": report.release,
        "allow_unknown": report.allow_unknown,
        "selection": report.selection.to_json(),
        "source_sha256": report.source_sha256,
        "suite_sha256": report.suite_sha256,
        "transcript_sha256": transcript.sha256,
        "report_sha256": report.sha256,
        "grading": report.grading,
        "harness": transcript.harness,
        "identity": dict(sorted(transcript.identity.items())),
        "questions": len(report.per_question),
        "rules": _figure(report.rules),
        "judged": {
            **_figure(report.judged),
            "judge": report.nuance.judge_id,
            "judge_model": report.nuance.judge_model,
            "official": report.nuance.official,
        },
        "created_at": created_at,
        "key_id": kid,
    }


class ExternalReceiptError(DittobenchError, ValueError):
    """The report and the transcript do not describe one run."""

    http_status = 422


def build_external_receipt(
    report: ExternalReport,
    transcript: ExternalTranscript,
    private_key: Ed25519PrivateKey,
    created_at: str,
) -> dict[str, Any]:
    """Sign a graded external run; ``created_at`` is an RFC 3339 time."""
    if report.transcript_sha256 != transcript.sha256:
        raise ExternalReceiptError("the report was graded from a different transcript")
    if report.suite_sha256 != transcript.suite_sha256:
        raise ExternalReceiptError("the report and the transcript name different suites")
    parse_rfc3339(created_at, "created_at")
    kid = key_id(private_key)
    manifest = external_manifest(report, transcript, created_at, kid)
    signature = private_key.sign(canonical_bytes(manifest))
    return {
        "manifest": manifest,
        "signature": b64encode(signature),
        "public_key": b64encode(raw_public_key(private_key)),
        "key_id": kid,
    }


def is_external_receipt(receipt: Any) -> bool:
    """Whether a parsed receipt says it is an external suite's (``dittobench verify`` then
    points at ``dittobench external verify``)."""
    manifest = receipt.get("manifest") if isinstance(receipt, dict) else None
    return isinstance(manifest, dict) and manifest.get("format") == EXTERNAL_RECEIPT_FORMAT


def verify_external_receipt(
    receipt: Any,
    trusted: TrustedKeys | None = None,
    transcript: Any | None = None,
    report: Any | None = None,
) -> Verification:
    """Check a parsed external receipt; never raises on a malformed one. With ``trusted`` the
    signer must be one of them, valid at ``created_at``; with ``transcript`` or ``report``
    (parsed JSON) their hashes, and the figures of the report, must be the signed ones."""
    try:
        return _verify(receipt, trusted, transcript, report)
    except Exception as exc:  # a last guard: a malformed receipt must never raise
        return unchecked(exc)


def _verify(
    receipt: Any, trusted: TrustedKeys | None, transcript: Any | None, report: Any | None
) -> Verification:
    checks = Checklist()
    if not isinstance(receipt, dict):
        checks.add("receipt shape", False, "a receipt is a JSON object")
        return Verification(tuple(checks.checks), "none")
    problems = [f"missing {k}" for k in RECEIPT_KEYS if k not in receipt]
    problems += [f"unknown field {k}" for k in sorted(set(receipt) - set(RECEIPT_KEYS))]
    checks.add("receipt shape", not problems, "; ".join(problems) or "manifest, signature, key")
    raw = receipt.get("manifest")
    manifest: dict[str, Any] = raw if isinstance(raw, dict) else {}
    problem = _manifest_problem(manifest)
    checks.add(
        "manifest fields",
        not problem,
        problem
        or f"{manifest['suite_format']} · {manifest['release'] or 'unknown file, allowed'} · "
        f"{manifest['questions']} questions · {manifest['created_at']}",
    )
    public = check_key_id(checks, receipt, manifest)
    key_used = check_signature(checks, receipt, raw, public) or "none"
    if trusted is not None:
        key_used = _check_trusted(checks, trusted, receipt, manifest)
    if transcript is not None:
        _check_hash(checks, "transcript", transcript, manifest.get("transcript_sha256"))
    if report is not None:
        _check_hash(checks, "report", report, manifest.get("report_sha256"))
        _check_figures(checks, report, manifest)
    return Verification(tuple(checks.checks), key_used, None, manifest)


def _manifest_problem(manifest: dict[str, Any]) -> str:
    """What is wrong with the manifest's fields ("" when nothing is)."""
    missing = [k for k in MANIFEST_KEYS if k not in manifest]
    if missing:
        return f"missing {', '.join(missing)}"
    extra = sorted(set(manifest) - set(MANIFEST_KEYS))
    if extra:
        return f"unknown field(s) {', '.join(extra)}"
    if manifest["format"] != EXTERNAL_RECEIPT_FORMAT:
        return f"format is {manifest['format']!r:.60}, not {EXTERNAL_RECEIPT_FORMAT}"
    if manifest["benchmark"] != SUITE_BENCHMARK or manifest["label"] != LABEL:
        return "benchmark and label must say it is an external suite, not a dittobench score"
    if manifest["suite_format"] not in FORMATS:
        return f"suite_format {manifest['suite_format']!r:.40} is not one of {FORMATS}"
    for name in ("source_sha256", "suite_sha256", "transcript_sha256", "report_sha256"):
        if not isinstance(manifest[name], str) or not _HEX64.fullmatch(manifest[name]):
            return f"{name}: expected 64 lowercase hex digits"
    if not isinstance(manifest["allow_unknown"], bool):
        return "allow_unknown: expected true or false"
    if not manifest["release"] and not manifest["allow_unknown"]:
        return "no known release and no allow_unknown: such a file is never run"
    selection = manifest["selection"]
    if not (
        isinstance(selection, dict)
        and isinstance(selection.get("types"), list)
        and all(isinstance(t, str) for t in selection["types"])
        and isinstance(selection.get("limit"), int)
        and not isinstance(selection["limit"], bool)
    ):
        return 'selection: expected {"types": [strings], "limit": a number}'
    for name in ("rules", "judged"):
        part = manifest[name]
        if not isinstance(part, dict) or not (
            part.get("mean") is None
            or (isinstance(part.get("mean"), str) and _SCORE.fullmatch(part["mean"]))
        ):
            return f"{name}.mean: expected a six-decimal string or null"
    try:
        parse_rfc3339(manifest["created_at"], "created_at")
    except ManifestError as exc:
        return str(exc)
    return ""


def _check_trusted(
    checks: Checklist, trusted: TrustedKeys, receipt: dict[str, Any], manifest: dict[str, Any]
) -> str:
    wanted = receipt.get("key_id")
    entry = trusted.lookup(wanted) if isinstance(wanted, str) else None
    if entry is None:
        known = ", ".join(k.key_id for k in trusted.keys) or "none"
        checks.add("trusted key", False, f"key id {wanted!r:.40} is not trusted (trusted: {known})")
        return "no trusted key: the signer is not in the trusted keys"
    try:
        signature = b64decode_strict(receipt.get("signature"), "signature")
        public_key_from_raw(entry.public_key).verify(signature, canonical_bytes(manifest))
        checks.add("trusted key", True, f"the trusted key {entry.key_id} verifies it")
    except (KeyFileError, InvalidSignature, CanonicalJSONError):
        checks.add("trusted key", False, f"the trusted key {entry.key_id} does not verify it")
    try:
        problem = entry.window_problem(parse_rfc3339(manifest.get("created_at"), "created_at"))
    except ManifestError as exc:
        problem = str(exc)
    checks.add(
        "key validity", not problem, problem or f"created_at is within {entry.key_id}'s window"
    )
    return f"trusted key {entry.key_id} ({entry.origin})"


def _check_hash(checks: Checklist, name: str, data: Any, signed: Any) -> None:
    try:
        digest = canonical_sha256(data)
    except CanonicalJSONError as exc:
        checks.add(name, False, f"has no canonical form: {exc}")
        return
    if digest == signed:
        checks.add(name, True, f"SHA-256 {digest} is the signed one")
    else:
        checks.add(name, False, f"SHA-256 {digest}, but the receipt signs {signed!r:.70}")


def _check_figures(checks: Checklist, report: Any, manifest: dict[str, Any]) -> None:
    """The report's headline figures are the signed ones (a report whose hash matches always
    agrees; this names which figure differs when it does not)."""
    if not isinstance(report, dict):
        checks.add("report figures", False, "the report is not a JSON object")
        return
    differ = []
    for name in ("rules", "judged"):
        mean = _member(report, name).get("mean")
        shown = format_score(mean) if isinstance(mean, (int, float)) else mean
        signed = _member(manifest, name).get("mean")
        if shown != signed:
            differ.append(f"{name} mean {shown} (signed {signed})")
    for name in ("suite_sha256", "source_sha256", "transcript_sha256"):
        if report.get(name) != manifest.get(name):
            differ.append(f"{name}")
    checks.add("report figures", not differ, "; ".join(differ) or "the signed means and hashes")


def _member(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name)
    return value if isinstance(value, dict) else {}


__all__ = [
    "EXTERNAL_RECEIPT_FORMAT",
    "ExternalReceiptError",
    "build_external_receipt",
    "external_manifest",
    "is_external_receipt",
    "verify_external_receipt",
]
