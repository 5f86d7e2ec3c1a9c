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
from typing import Any, Final, Literal

from dittobench.core.canonical import MAX_SAFE_INTEGER, canonical_bytes
from dittobench.core.errors import DittobenchError
from dittobench.core.prng import SeedError, parse_seed
from dittobench.packs import PACK_ID_PATTERN
from dittobench.receipts.merkle import SCORE_TEXT, format_score
from dittobench.spec import vocab
from dittobench.spec.judging import NuanceScore
from dittobench.spec.seeds import SEED_SOURCES
from dittobench.spec.vocab import SeedSource, TrustTier, VocabularyError, member

RECEIPT_FORMAT_5: Final = "dittobench-receipt-5"
"""Format 4 plus ``nuance``: the judged score of the run's open questions (bench 8.0) and the
judge that gave it (protocol hash, id, model, official or not), kept apart from ``scores``, and
one leaf per open question beside the graded cases' (``merkle.make_open_leaf``). Receipts of a
run whose dataset has open questions are built in this format, judged or not."""

RECEIPT_FORMAT_4: Final = "dittobench-receipt-4"
"""Format 3 plus ``seed_source``: who chose the seed (``operator`` or ``submitter``,
``spec.seeds``), so a board that ranks only operator-seeded runs can be audited from the
receipt. Receipts of a run that records its seed source and a wire nonce are built in this
format."""

RECEIPT_FORMAT_3: Final = "dittobench-receipt-3"
"""Format 2 plus ``wire_nonce``: the nonce that keyed the ids the harness was shown
(``spec.wireids``), which a regrade from the leaves alone needs to read the ids a harness quoted.
Receipts of a transcript that records a nonce are built in this format."""

RECEIPT_FORMAT: Final = "dittobench-receipt-2"
"""Names the receipt layout and these rules; a change to either gets a new name. Format 1 plus
the run's content pack (``pack_id``, ``pack_sha256``). Receipts of a transcript without a wire
nonce (the harness was shown the dataset's own ids) are still built in this format, byte for byte
as before."""

RECEIPT_FORMAT_1: Final = "dittobench-receipt-1"
"""The layout before content packs: no pack fields, the bench version's own public pack is
implied. Still verified and regraded; never built."""

RECEIPT_FORMATS: Final = (
    RECEIPT_FORMAT_1,
    RECEIPT_FORMAT,
    RECEIPT_FORMAT_3,
    RECEIPT_FORMAT_4,
    RECEIPT_FORMAT_5,
)
"""The formats this build verifies."""

NONCE_FORMATS: Final = (RECEIPT_FORMAT_3, RECEIPT_FORMAT_4, RECEIPT_FORMAT_5)
"""The formats that sign a wire nonce."""

SEED_SOURCE_FORMATS: Final = (RECEIPT_FORMAT_4, RECEIPT_FORMAT_5)
"""The formats that sign who chose the seed."""

PACK_FIELDS: Final = ("pack_id", "pack_sha256")
"""The manifest fields format 2 adds."""

NONCE_FIELD: Final = "wire_nonce"
"""The manifest field format 3 adds: 64 lowercase hex digits."""

SEED_SOURCE_FIELD: Final = "seed_source"
"""The manifest field format 4 adds: ``operator`` or ``submitter``."""

NUANCE_FIELD: Final = "nuance"
"""The manifest field format 5 adds: the ``Nuance`` object."""

TRUST_TIERS: Final = vocab.TRUST_TIERS
"""``self-reported``: signed with the submitter's own key. ``verified``: the operator's engine
ran the harness and signed with the operator's key."""

SCORE_KEYS: Final = ("composite", "composite_stderr", "tool_mean", "memory_mean")

NUANCE_KEYS: Final = (
    "judge_errors",
    "judge_id",
    "judge_model",
    "official",
    "protocol_sha256",
    "score",
    "scored",
    "stderr",
    "total",
)
"""The fields of a format-5 manifest's ``nuance`` object."""

_RFC3339 = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})", re.ASCII
)
_HEX64 = re.compile(r"[0-9a-f]{64}", re.ASCII)
_KEY_ID = re.compile(r"[0-9a-f]{16}", re.ASCII)


class ManifestError(DittobenchError, ValueError):
    """A manifest (or a value meant for one) that breaks the rules; the message names the field."""

    http_status = 400


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
class Nuance:
    """The judged score as signed (``spec.judging.NuanceScore`` without its per-case verdicts,
    which are the open leaves): ``score`` a six-decimal string, or None when no open question was
    judged; ``stderr`` six decimals; ``scored``, ``judge_errors``, ``total`` counts of open
    questions; the judge's protocol hash, id and model ("" for a run nobody judged) and whether
    it is the bench version's own locked judge (``official``)."""

    score: str | None
    stderr: str
    scored: int
    judge_errors: int
    total: int
    official: bool
    judge_id: str = ""
    judge_model: str = ""
    protocol_sha256: str = ""

    @property
    def judged(self) -> bool:
        """A judge was asked (the run names a protocol)."""
        return bool(self.protocol_sha256)

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "stderr": self.stderr,
            "scored": self.scored,
            "judge_errors": self.judge_errors,
            "total": self.total,
            "official": self.official,
            "judge_id": self.judge_id,
            "judge_model": self.judge_model,
            "protocol_sha256": self.protocol_sha256,
        }

    @classmethod
    def of(cls, nuance: NuanceScore) -> Nuance:
        """The signed form of a graded nuance score."""
        return cls(
            score=None if nuance.score is None else format_score(nuance.score),
            stderr=format_score(nuance.stderr),
            scored=nuance.scored,
            judge_errors=nuance.judge_errors,
            total=nuance.total,
            official=nuance.official,
            judge_id=nuance.judge_id,
            judge_model=nuance.judge_model,
            protocol_sha256=nuance.protocol_sha256,
        )


@dataclass(frozen=True, slots=True)
class Manifest:
    """The signed object. ``pack_id`` and ``pack_sha256`` are empty in a format-1 manifest (the
    bench version's own public pack is implied) and left out of its JSON, so its bytes are the
    ones that were signed; ``wire_nonce`` likewise in formats 1 and 2 (no nonce: the identity),
    ``seed_source`` in formats 1 to 3 (who chose the seed was not signed), and ``nuance`` (None)
    in formats 1 to 4 (no open questions)."""

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
    trust_tier: TrustTier
    scores: Scores
    grading_policy: str
    created_at: str
    key_id: str
    pack_id: str
    pack_sha256: str
    format: str = RECEIPT_FORMAT
    wire_nonce: str = ""
    seed_source: SeedSource | Literal[""] = ""
    nuance: Nuance | None = None

    def to_json(self) -> dict[str, Any]:
        pack = {"pack_id": self.pack_id, "pack_sha256": self.pack_sha256}
        if (self.format == RECEIPT_FORMAT_5) != (self.nuance is not None):
            raise ManifestError(f"manifest: {NUANCE_FIELD} belongs in {RECEIPT_FORMAT_5} only")
        return {
            "format": self.format,
            "benchmark": self.benchmark,
            "bench_version": self.bench_version,
            "package_version": self.package_version,
            "seed": self.seed,
            "run_size": self.run_size,
            **({} if self.format == RECEIPT_FORMAT_1 else pack),
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
            **({NONCE_FIELD: self.wire_nonce} if self.format in NONCE_FORMATS else {}),
            **({SEED_SOURCE_FIELD: self.seed_source} if self.format in SEED_SOURCE_FORMATS else {}),
            **({NUANCE_FIELD: self.nuance.to_json()} if self.nuance is not None else {}),
        }

    @classmethod
    def from_json(cls, data: Any) -> Manifest:
        """Parse and check a manifest object of any format this build verifies;
        ``ManifestError`` names the first bad field."""
        _check_fields(data)
        return cls(
            benchmark=data["benchmark"],
            bench_version=data["bench_version"],
            package_version=data["package_version"],
            seed=data["seed"],
            run_size=data["run_size"],
            dataset_sha256=data["dataset_sha256"],
            transcript_sha256=data["transcript_sha256"],
            merkle_root=data["merkle_root"],
            leaf_count=data["leaf_count"],
            harness=data["harness"],
            trust_tier=check_trust_tier(data["trust_tier"]),
            scores=_scores(data["scores"]),
            grading_policy=data["grading_policy"],
            created_at=data["created_at"],
            key_id=data["key_id"],
            pack_id=data.get("pack_id", ""),
            pack_sha256=data.get("pack_sha256", ""),
            format=data["format"],
            wire_nonce=data.get(NONCE_FIELD, ""),
            seed_source=data.get(SEED_SOURCE_FIELD, ""),
            nuance=_nuance(data[NUANCE_FIELD]) if NUANCE_FIELD in data else None,
        )


def _check_fields(data: Any) -> None:
    """Every field of the manifest's format present, none other, each well formed."""
    if not isinstance(data, dict):
        raise ManifestError("manifest: expected an object")
    if "format" in data and data["format"] not in RECEIPT_FORMATS:
        raise ManifestError(
            f"manifest.format: {data['format']!r:.60} is not one of "
            f"{', '.join(RECEIPT_FORMATS)}; this build verifies only those formats"
        )
    expected = _fields_of(data.get("format"))
    missing = sorted(expected - set(data))
    if missing:
        raise ManifestError(f"manifest: missing {', '.join(missing)}")
    extra = sorted(set(data) - expected)
    if extra:
        raise ManifestError(f"manifest: unknown field(s) {', '.join(extra)}")
    objects = ("leaf_count", "scores", NUANCE_FIELD)
    text = {name: data[name] for name in expected if name not in objects}
    for name, value in sorted(text.items()):
        if not isinstance(value, str):
            raise ManifestError(f"manifest.{name}: expected a string")
    count = data["leaf_count"]
    if type(count) is not int or not 0 <= count <= MAX_SAFE_INTEGER:
        raise ManifestError("manifest.leaf_count: expected a non-negative integer")
    try:
        parse_seed(data["seed"])
    except SeedError as exc:
        raise ManifestError(f"manifest.seed: {exc}") from None
    hashes = ("dataset_sha256", "transcript_sha256", "merkle_root", "pack_sha256", NONCE_FIELD)
    for name in (h for h in hashes if h in expected):
        if not _HEX64.fullmatch(data[name]):
            raise ManifestError(f"manifest.{name}: expected 64 lowercase hex digits")
    if "pack_id" in expected and not PACK_ID_PATTERN.fullmatch(data["pack_id"]):
        raise ManifestError("manifest.pack_id: expected 1-64 of a-z, 0-9, '.', '-'")
    if not _KEY_ID.fullmatch(data["key_id"]):
        raise ManifestError("manifest.key_id: expected 16 lowercase hex digits")
    if SEED_SOURCE_FIELD in expected and data[SEED_SOURCE_FIELD] not in SEED_SOURCES:
        raise ManifestError(f"manifest.seed_source: expected one of {', '.join(SEED_SOURCES)}")
    check_trust_tier(data["trust_tier"])
    parse_rfc3339(data["created_at"], "manifest.created_at")


def _fields_of(format_name: Any) -> set[str]:
    """The fields a manifest of ``format_name`` has: each format adds to the one before."""
    expected = set(Manifest.__dataclass_fields__)
    if format_name not in NONCE_FORMATS:
        expected -= {NONCE_FIELD}
    if format_name not in SEED_SOURCE_FORMATS:
        expected -= {SEED_SOURCE_FIELD}
    if format_name != RECEIPT_FORMAT_5:
        expected -= {NUANCE_FIELD}
    if format_name == RECEIPT_FORMAT_1:
        expected -= set(PACK_FIELDS)
    return expected


def manifest_bytes(manifest: Manifest) -> bytes:
    """The exact bytes the signature covers: RFC 8785 of ``manifest.to_json()``."""
    return canonical_bytes(manifest.to_json())


def check_trust_tier(tier: Any) -> TrustTier:
    try:
        return member(TRUST_TIERS, tier, "trust tier")
    except VocabularyError:
        raise ManifestError(
            f"trust tier {tier!r} is not one of: {', '.join(TRUST_TIERS)}"
        ) from None


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


def _nuance(data: Any) -> Nuance:
    """A format-5 manifest's ``nuance`` object, checked: exactly ``NUANCE_KEYS``, counts that add
    up, a score exactly when some open question was judged, and a judge named in full or not at
    all (an unjudged run: no score, no judge errors, not official)."""
    what = f"manifest.{NUANCE_FIELD}"
    if not isinstance(data, dict):
        raise ManifestError(f"{what}: expected an object")
    if set(data) != set(NUANCE_KEYS):
        raise ManifestError(f"{what}: expected exactly {', '.join(NUANCE_KEYS)}")
    for name in ("scored", "judge_errors", "total"):
        count = data[name]
        if type(count) is not int or not 0 <= count <= MAX_SAFE_INTEGER:
            raise ManifestError(f"{what}.{name}: expected a non-negative integer")
    if data["scored"] + data["judge_errors"] > data["total"]:
        raise ManifestError(f"{what}: scored and judge_errors add up to more than total")
    if type(data["official"]) is not bool:
        raise ManifestError(f"{what}.official: expected true or false")
    if data["score"] is not None:
        _check_score(data["score"], f"{what}.score")
    _check_score(data["stderr"], f"{what}.stderr")
    if (data["score"] is None) != (data["scored"] == 0):
        raise ManifestError(f"{what}.score: null exactly when no open question was scored")
    judge = ("judge_id", "judge_model", "protocol_sha256")
    for name in judge:
        if not isinstance(data[name], str):
            raise ManifestError(f"{what}.{name}: expected a string")
    if data["protocol_sha256"] and not _HEX64.fullmatch(data["protocol_sha256"]):
        raise ManifestError(f"{what}.protocol_sha256: expected 64 lowercase hex digits or ''")
    named = [bool(data[name]) for name in judge]
    if any(named) and not all(named):
        raise ManifestError(f"{what}: judge_id, judge_model and protocol_sha256 go together")
    if not all(named) and (data["official"] or data["score"] is not None or data["judge_errors"]):
        raise ManifestError(f"{what}: a run nobody judged has no score, judge errors or official")
    return Nuance(**data)


def _check_score(value: Any, what: str) -> None:
    if not isinstance(value, str) or not SCORE_TEXT.fullmatch(value):
        raise ManifestError(f"{what}: expected a decimal string with six decimals")
