"""The receipt manifest: what the signature covers (docs/receipts.md, "Manifest").

Every number that is not a count is a decimal string (scores with six decimals, the seed in
full), so the signed bytes hold no floats and any RFC 8785 implementation reproduces them.
The signature is Ed25519 over exactly ``manifest_bytes(manifest)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from dittobench.core.canonical import MAX_SAFE_INTEGER, canonical_bytes
from dittobench.core.errors import DittobenchError
from dittobench.core.prng import SeedError, parse_seed
from dittobench.receipts.merkle import format_score

RECEIPT_FORMAT: Final = "dittobench-receipt-1"
"""Names the receipt layout and these rules; a change to either gets a new name."""

TRUST_TIERS: Final = ("self-reported", "verified")
"""``self-reported``: signed with the submitter's own key. ``verified``: the operator's engine
ran the harness and signed with the operator's key."""

SCORE_KEYS: Final = ("composite", "composite_stderr", "tool_mean", "memory_mean")

_RFC3339 = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})", re.ASCII
)
_SCORE = re.compile(r"-?\d+\.\d{6}", re.ASCII)
_HEX64 = re.compile(r"[0-9a-f]{64}", re.ASCII)
_KEY_ID = re.compile(r"[0-9a-f]{16}", re.ASCII)


class ManifestError(DittobenchError, ValueError):
    """A manifest (or a value meant for one) that breaks the rules; the message names the field."""


@dataclass(frozen=True, slots=True)
class Scores:
    """The report's headline numbers as six-decimal strings."""

    composite: str
    composite_stderr: str
    tool_mean: str
    memory_mean: str
    dimensions: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "composite": self.composite,
            "composite_stderr": self.composite_stderr,
            "tool_mean": self.tool_mean,
            "memory_mean": self.memory_mean,
            "dimensions": dict(self.dimensions),
        }

    @classmethod
    def from_numbers(
        cls,
        composite: float,
        composite_stderr: float,
        tool_mean: float,
        memory_mean: float,
        dimensions: Mapping[str, float],
    ) -> Scores:
        return cls(
            format_score(composite),
            format_score(composite_stderr),
            format_score(tool_mean),
            format_score(memory_mean),
            {name: format_score(value) for name, value in sorted(dimensions.items())},
        )


@dataclass(frozen=True, slots=True)
class Manifest:
    benchmark: str
    bench_version: str
    package_version: str
    seed: str
    run_size: str
    dataset_sha256: str
    transcript_sha256: str
    merkle_root: str
    leaf_count: int
    harness: str
    trust_tier: str
    scores: Scores
    grading_policy: str
    created_at: str
    key_id: str
    format: str = RECEIPT_FORMAT

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "benchmark": self.benchmark,
            "bench_version": self.bench_version,
            "package_version": self.package_version,
            "seed": self.seed,
            "run_size": self.run_size,
            "dataset_sha256": self.dataset_sha256,
            "transcript_sha256": self.transcript_sha256,
            "merkle_root": self.merkle_root,
            "leaf_count": self.leaf_count,
            "harness": self.harness,
            "trust_tier": self.trust_tier,
            "scores": self.scores.to_json(),
            "grading_policy": self.grading_policy,
            "created_at": self.created_at,
            "key_id": self.key_id,
        }

    @classmethod
    def from_json(cls, data: Any) -> Manifest:
        """Parse and check a manifest object; ``ManifestError`` names the first bad field."""
        if not isinstance(data, dict):
            raise ManifestError("manifest: expected an object")
        expected = set(cls.__dataclass_fields__)
        missing = sorted(expected - set(data))
        if missing:
            raise ManifestError(f"manifest: missing {', '.join(missing)}")
        extra = sorted(set(data) - expected)
        if extra:
            raise ManifestError(f"manifest: unknown field(s) {', '.join(extra)}")
        text = {name: data[name] for name in expected if name not in ("leaf_count", "scores")}
        for name, value in sorted(text.items()):
            if not isinstance(value, str):
                raise ManifestError(f"manifest.{name}: expected a string")
        if data["format"] != RECEIPT_FORMAT:
            raise ManifestError(
                f"manifest.format: {data['format']!r} is not {RECEIPT_FORMAT!r}; "
                "this build verifies only that format"
            )
        count = data["leaf_count"]
        if type(count) is not int or not 0 <= count <= MAX_SAFE_INTEGER:
            raise ManifestError("manifest.leaf_count: expected a non-negative integer")
        try:
            parse_seed(data["seed"])
        except SeedError as exc:
            raise ManifestError(f"manifest.seed: {exc}") from None
        for name in ("dataset_sha256", "transcript_sha256", "merkle_root"):
            if not _HEX64.fullmatch(data[name]):
                raise ManifestError(f"manifest.{name}: expected 64 lowercase hex digits")
        if not _KEY_ID.fullmatch(data["key_id"]):
            raise ManifestError("manifest.key_id: expected 16 lowercase hex digits")
        check_trust_tier(data["trust_tier"])
        parse_rfc3339(data["created_at"], "manifest.created_at")
        return cls(
            benchmark=data["benchmark"],
            bench_version=data["bench_version"],
            package_version=data["package_version"],
            seed=data["seed"],
            run_size=data["run_size"],
            dataset_sha256=data["dataset_sha256"],
            transcript_sha256=data["transcript_sha256"],
            merkle_root=data["merkle_root"],
            leaf_count=count,
            harness=data["harness"],
            trust_tier=data["trust_tier"],
            scores=_scores(data["scores"]),
            grading_policy=data["grading_policy"],
            created_at=data["created_at"],
            key_id=data["key_id"],
            format=data["format"],
        )


def manifest_bytes(manifest: Manifest) -> bytes:
    """The exact bytes the signature covers: RFC 8785 of ``manifest.to_json()``."""
    return canonical_bytes(manifest.to_json())


def check_trust_tier(tier: Any) -> str:
    if tier not in TRUST_TIERS:
        raise ManifestError(f"trust tier {tier!r} is not one of: {', '.join(TRUST_TIERS)}")
    return str(tier)


def parse_rfc3339(value: Any, what: str = "timestamp") -> datetime:
    """An RFC 3339 date-time with an explicit offset, as an aware datetime."""
    if not isinstance(value, str) or not _RFC3339.fullmatch(value):
        raise ManifestError(
            f"{what}: expected an RFC 3339 date-time with an offset "
            f"(e.g. 2026-12-01T09:30:00Z), got {value!r:.60}"
        )
    try:
        return datetime.fromisoformat(value.upper().replace("Z", "+00:00"))
    except ValueError as exc:
        raise ManifestError(f"{what}: {exc}") from None


def _scores(data: Any) -> Scores:
    if not isinstance(data, dict):
        raise ManifestError("manifest.scores: expected an object")
    expected = {*SCORE_KEYS, "dimensions"}
    if set(data) != expected:
        raise ManifestError(f"manifest.scores: expected exactly {', '.join(sorted(expected))}")
    for name in SCORE_KEYS:
        _check_score(data[name], f"manifest.scores.{name}")
    dims = data["dimensions"]
    if not isinstance(dims, dict):
        raise ManifestError("manifest.scores.dimensions: expected an object")
    for name, value in dims.items():
        _check_score(value, f"manifest.scores.dimensions.{name}")
    return Scores(
        data["composite"], data["composite_stderr"], data["tool_mean"], data["memory_mean"], dims
    )


def _check_score(value: Any, what: str) -> None:
    if not isinstance(value, str) or not _SCORE.fullmatch(value):
        raise ManifestError(f"{what}: expected a decimal string with six decimals")
