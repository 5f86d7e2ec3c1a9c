"""A multi-seed suite's summary and its receipt (docs/deploy.md, "Suites").

A suite is N runs of one harness on fresh seeds. Its summary is the mean composite with a 95%
confidence interval from the spread between the seeds (Student's t with N - 1 degrees of
freedom over the runs' composites), shown beside each run's own composite and standard error:
the runs' own errors measure the cases inside one dataset; the between-seed spread measures how
much the score moves with the dataset, which is what a comparison of harnesses must beat.

The suite receipt binds the runs' receipts: each run's receipt (its canonical RFC 8785 bytes)
is a leaf of a Merkle tree built as a run receipt's tree is (``receipts.merkle``), and an
Ed25519 signature covers the canonical bytes of a manifest naming the suite, every run (id,
seed, composite, receipt hash), the root and the summary. Numbers in it are decimal strings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from dittobench.core.canonical import canonical_bytes
from dittobench.core.errors import DittobenchError
from dittobench.receipts.keys import (
    TrustedKey,
    b64decode_strict,
    b64encode,
    key_id,
    raw_public_key,
)
from dittobench.receipts.manifest import ManifestError, parse_rfc3339
from dittobench.receipts.merkle import SCORE_TEXT, format_score, leaf_hash, merkle_root

SUITE_FORMAT = "dittobench-suite-receipt/1"
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
"""Two-sided 95% quantiles of Student's t for 1-30 degrees of freedom."""
_T95_BEYOND = ((40, 2.021), (60, 2.000), (120, 1.980))


class SuiteError(DittobenchError, ValueError):
    """A suite that cannot be summarised or signed (no runs, a run without a receipt)."""

    http_status = 409


def t95(df: int) -> float:
    """The two-sided 95% t quantile for ``df`` degrees of freedom; between table rows the row
    with fewer degrees (the wider interval) is used."""
    if df < 1:
        raise SuiteError("a confidence interval needs at least two runs")
    if df <= len(_T95):
        return _T95[df - 1]
    value = _T95[-1]
    for degrees, quantile in _T95_BEYOND:
        if df >= degrees:
            value = quantile
    return 1.960 if df > 1000 else value


@dataclass(frozen=True, slots=True)
class SuiteRun:
    run_id: str
    seed: int
    composite: float
    composite_stderr: float


@dataclass(frozen=True, slots=True)
class SuiteSummary:
    """The mean composite over the runs; ``low``/``high`` the 95% interval (equal to the mean
    when there is one run: no spread can be measured)."""

    runs: int
    mean: float
    stdev: float
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "mean_composite": round(self.mean, 6),
            "between_seed_sd": round(self.stdev, 6),
            "ci95": [round(self.low, 6), round(self.high, 6)],
        }


def summarise(runs: Sequence[SuiteRun]) -> SuiteSummary:
    if not runs:
        raise SuiteError("a suite needs at least one run")
    values = [run.composite for run in runs]
    mean = math.fsum(values) / len(values)
    if len(values) == 1:
        return SuiteSummary(1, mean, 0.0, mean, mean)
    stdev = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (len(values) - 1))
    half = t95(len(values) - 1) * stdev / math.sqrt(len(values))
    return SuiteSummary(len(values), mean, stdev, mean - half, mean + half)


def receipt_leaf(receipt: dict[str, Any]) -> str:
    """The leaf hash of one run's receipt: SHA-256(0x00 || its canonical bytes)."""
    return leaf_hash(canonical_bytes(receipt))


def build_suite_receipt(
    suite_id: str,
    runs: Sequence[tuple[SuiteRun, dict[str, Any]]],
    key: Ed25519PrivateKey,
    created_at: str,
) -> dict[str, Any]:
    """Sign the suite: ``runs`` are each run with its receipt, in the suite's order."""
    summary = summarise([run for run, _ in runs])
    entries = [
        {
            "run_id": run.run_id,
            "seed": str(run.seed),
            "composite": format_score(run.composite),
            "receipt_leaf": receipt_leaf(receipt),
        }
        for run, receipt in runs
    ]
    manifest = {
        "format": SUITE_FORMAT,
        "suite_id": suite_id,
        "runs": entries,
        "merkle_root": merkle_root([entry["receipt_leaf"] for entry in entries]),
        "mean_composite": format_score(summary.mean),
        "ci95": [format_score(summary.low), format_score(summary.high)],
        "created_at": created_at,
        "key_id": key_id(key),
    }
    return {
        "manifest": manifest,
        "signature": b64encode(key.sign(canonical_bytes(manifest))),
        "public_key": b64encode(raw_public_key(key)),
    }


SUITE_KEYS = (
    "format",
    "suite_id",
    "runs",
    "merkle_root",
    "mean_composite",
    "ci95",
    "created_at",
    "key_id",
)
ENTRY_KEYS = ("run_id", "seed", "composite", "receipt_leaf")
SUMMARY_TOLERANCE = 1e-5
"""How far a signed mean or interval bound may lie from the one recomputed from the runs' signed
composites: the suite was summarised from unrounded composites, the receipts carry them to six
decimals."""


def check_suite_receipt(
    receipt: Any,
    key: Ed25519PublicKey,
    run_receipts: Sequence[Any],
    trusted: TrustedKey | None = None,
) -> list[str]:
    """What is wrong with a suite receipt against a key and the runs' receipts (in order);
    empty when it holds. The manifest must be well formed, signed by ``key``, bind exactly these
    receipts, and carry each run's seed and composite and the summary as they recompute from
    them; with ``trusted`` (the trusted entry of ``key``) its ``created_at`` must lie in that
    key's validity window."""
    manifest = receipt.get("manifest") if isinstance(receipt, dict) else None
    if not isinstance(manifest, dict) or manifest.get("format") != SUITE_FORMAT:
        return [f"not a suite receipt of format {SUITE_FORMAT}"]
    shape = _shape_problems(manifest)
    if shape:
        return shape
    problems = []
    try:
        key.verify(
            b64decode_strict(receipt.get("signature"), "signature"), canonical_bytes(manifest)
        )
    except (InvalidSignature, DittobenchError):
        problems.append("the signature does not verify with the trusted key")
    if trusted is not None:
        window = trusted.window_problem(parse_rfc3339(manifest["created_at"]))
        if window:
            problems.append(f"created_at {manifest['created_at']}: {window}")
    entries = manifest["runs"]
    odd = [index for index, run in enumerate(run_receipts) if not isinstance(run, dict)]
    if odd:
        return [*problems, f"run receipt(s) {', '.join(map(str, odd))}: not a JSON object"]
    leaves = [receipt_leaf(run) for run in run_receipts]
    if [entry["receipt_leaf"] for entry in entries] != leaves:
        problems.append("the runs' receipts are not the ones the suite names, in its order")
    if leaves and manifest["merkle_root"] != merkle_root(leaves):
        problems.append("the Merkle root is not the root over the runs' receipts")
    if len(entries) == len(run_receipts):
        problems += _figure_problems(manifest, run_receipts)
    return problems


def _shape_problems(manifest: dict[str, Any]) -> list[str]:
    """The manifest's fields: exactly ``SUITE_KEYS``, runs a non-empty list of entries with
    exactly ``ENTRY_KEYS`` as strings, ci95 two strings, created_at RFC 3339."""
    keys = sorted(set(manifest) ^ set(SUITE_KEYS))
    if keys:
        return [
            f"manifest: must have exactly {', '.join(SUITE_KEYS)} (differs in {', '.join(keys)})"
        ]
    runs, ci95 = manifest["runs"], manifest["ci95"]
    if not isinstance(runs, list) or not runs:
        return ["manifest.runs: expected a non-empty list"]
    problems = [
        f"manifest.runs[{index}]: expected an object of strings {', '.join(ENTRY_KEYS)}"
        for index, entry in enumerate(runs)
        if not isinstance(entry, dict)
        or set(entry) != set(ENTRY_KEYS)
        or not all(isinstance(value, str) for value in entry.values())
    ]
    text = [name for name in SUITE_KEYS if name not in ("runs", "ci95")]
    problems += [
        f"manifest.{name}: expected a string"
        for name in text
        if not isinstance(manifest[name], str)
    ]
    if not (isinstance(ci95, list) and len(ci95) == 2 and all(isinstance(v, str) for v in ci95)):
        problems.append("manifest.ci95: expected two decimal strings")
    if not problems:
        try:
            parse_rfc3339(manifest["created_at"], "manifest.created_at")
        except ManifestError as exc:
            problems.append(str(exc))
    return problems


def _figure_problems(manifest: dict[str, Any], run_receipts: Sequence[Any]) -> list[str]:
    """Each entry's seed and composite against its run receipt's signed ones, and the signed
    summary against the one recomputed from those composites."""
    problems = []
    composites = []
    for index, (entry, run) in enumerate(zip(manifest["runs"], run_receipts, strict=True)):
        signed = run.get("manifest")
        scores = signed.get("scores") if isinstance(signed, dict) else None
        seed = signed.get("seed") if isinstance(signed, dict) else None
        composite = scores.get("composite") if isinstance(scores, dict) else None
        if entry["seed"] != seed:
            problems.append(
                f"runs[{index}]: seed {entry['seed']!r:.30}, its receipt says {seed!r:.30}"
            )
        if entry["composite"] != composite:
            problems.append(
                f"runs[{index}]: composite {entry['composite']!r:.30}, "
                f"its receipt says {composite!r:.30}"
            )
        composites.append(_decimal(composite))
    if problems or None in composites:
        return problems
    summary = summarise([SuiteRun("", 0, value, 0.0) for value in composites if value is not None])
    claimed = [manifest["mean_composite"], *manifest["ci95"]]
    recomputed = [summary.mean, summary.low, summary.high]
    for name, text, value in zip(
        ("mean_composite", "ci95[0]", "ci95[1]"), claimed, recomputed, strict=True
    ):
        number = _decimal(text)
        if number is None or abs(number - value) > SUMMARY_TOLERANCE:
            problems.append(
                f"{name} is {text!r:.30}; the runs' composites give {format_score(value)}"
            )
    return problems


def _decimal(text: Any) -> float | None:
    """A six-decimal score string as a number; None for anything else."""
    if not (isinstance(text, str) and SCORE_TEXT.fullmatch(text)):
        return None
    return float(text)


__all__ = [
    "ENTRY_KEYS",
    "SUITE_FORMAT",
    "SUITE_KEYS",
    "SUMMARY_TOLERANCE",
    "SuiteError",
    "SuiteRun",
    "SuiteSummary",
    "build_suite_receipt",
    "check_suite_receipt",
    "receipt_leaf",
    "summarise",
    "t95",
]
