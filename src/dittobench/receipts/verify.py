"""Verify a receipt: every check named, each with what it found (docs/receipts.md, "Verify").

``verify_receipt`` never raises on a malformed receipt: whatever is missing, mistyped or
mis-encoded becomes a failed check with a detail. ``ok`` holds only when every check passes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dittobench.core.canonical import CanonicalJSONError, canonical_bytes
from dittobench.core.hashing import sha256_hex
from dittobench.receipts.keys import (
    KeyFileError,
    TrustedKeys,
    b64decode_strict,
    key_id,
    public_key_from_raw,
)
from dittobench.receipts.manifest import Manifest, ManifestError, parse_rfc3339
from dittobench.receipts.merkle import (
    LEAF_KEYS,
    MerkleError,
    inclusion_proof,
    leaf_bytes,
    leaf_hash,
    merkle_root,
    verify_proof,
)

RECEIPT_KEYS = ("key_id", "leaves", "manifest", "public_key", "signature")
_HEX64 = re.compile(r"[0-9a-f]{64}", re.ASCII)
_SCORE = re.compile(r"-?\d+\.\d{6}", re.ASCII)
_SHOWN = 5
"""How many offending cases a detail lists before summarising the rest."""


class ReceiptError(ValueError):
    """A receipt that cannot yield what was asked (e.g. a proof for a case it lacks)."""


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class ProofResult:
    """One case's inclusion proof, checked with only its leaf, the proof and the root."""

    case_id: str
    leaf_hash: str
    steps: tuple[tuple[str, str], ...]
    """(side of the sibling, sibling hash), bottom first."""
    root: str
    ok: bool


@dataclass(frozen=True, slots=True)
class Verification:
    checks: tuple[Check, ...]
    key_used: str
    """Which public key the signature was checked with, in words."""
    proof: ProofResult | None = None
    manifest: dict[str, Any] = field(default_factory=dict)
    """The manifest as carried (empty when there was none), for display."""

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if not c.ok)


def verify_receipt(
    receipt: Any,
    trusted_keys: TrustedKeys | None = None,
    transcript: Any | None = None,
    proof_case: str | None = None,
) -> Verification:
    """Check a parsed receipt. With ``trusted_keys`` the signer must be one of them, checked with
    the trusted copy of its key inside its validity window; with ``transcript`` (parsed JSON) the
    leaves must carry exactly its responses and observed calls; with ``proof_case`` that case's
    inclusion proof is built and checked on its own."""
    try:
        return _Verifier(receipt, trusted_keys, transcript, proof_case).run()
    except Exception as exc:  # a last guard: a malformed receipt must never raise
        return Verification(
            (Check("receipt", False, f"could not be checked: {type(exc).__name__}: {exc}"),),
            "none",
        )


def inclusion_proof_for(receipt: Any, case_id: str) -> dict[str, Any]:
    """A self-contained proof for one case: ``{"case_id", "leaf", "proof", "root",
    "leaf_count"}``. The siblings come from the receipt's stored hashes, so the other cases'
    content is not needed. ``ReceiptError`` when the receipt cannot give one."""
    if not isinstance(receipt, dict) or not isinstance(receipt.get("leaves"), list):
        raise ReceiptError("the receipt has no leaves list")
    manifest = receipt.get("manifest")
    root = manifest.get("merkle_root") if isinstance(manifest, dict) else None
    if not isinstance(root, str):
        raise ReceiptError("the receipt's manifest has no merkle_root")
    entries = receipt["leaves"]
    hashes, index = [], -1
    for position, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ReceiptError(f"leaves[{position}] is not an object")
        hashes.append(entry.get("hash"))
        if entry.get("case_id") == case_id:
            index = position
    if index < 0:
        raise ReceiptError(f"the receipt has no leaf for case {case_id!r}")
    try:
        steps = inclusion_proof(hashes, index)
    except MerkleError as exc:
        raise ReceiptError(f"cannot build the proof: {exc}") from None
    return {
        "case_id": case_id,
        "leaf": entries[index].get("leaf"),
        "proof": [list(step) for step in steps],
        "root": root,
        "leaf_count": len(entries),
    }


def check_inclusion(leaf: Any, proof: Sequence[Any], root: str) -> bool:
    """True when the leaf object, hashed afresh, folds through ``proof`` to ``root``."""
    try:
        return verify_proof(leaf_hash(leaf_bytes(leaf)), proof, root)
    except (CanonicalJSONError, TypeError, ValueError):
        return False


class _Verifier:
    def __init__(
        self,
        receipt: Any,
        trusted: TrustedKeys | None,
        transcript: Any | None,
        proof_case: str | None,
    ) -> None:
        self.receipt = receipt
        self.trusted = trusted
        self.transcript = transcript
        self.proof_case = proof_case
        self.checks: list[Check] = []
        self.key_used = "none"
        self.proof: ProofResult | None = None

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.checks.append(Check(name, ok, detail))

    def done(self, manifest: dict[str, Any]) -> Verification:
        return Verification(tuple(self.checks), self.key_used, self.proof, manifest)

    def run(self) -> Verification:
        receipt = self.receipt
        if not isinstance(receipt, dict):
            self.add("receipt shape", False, "a receipt is a JSON object")
            return self.done({})
        self.check_shape(receipt)
        raw_manifest = receipt.get("manifest")
        manifest_json: dict[str, Any] = raw_manifest if isinstance(raw_manifest, dict) else {}
        manifest = self.check_manifest(raw_manifest)
        entries = receipt.get("leaves")
        if not isinstance(entries, list):
            entries = []
        hashes = self.check_leaves(entries)
        self.check_order(entries)
        self.check_count(entries, manifest_json)
        self.check_root(hashes, manifest_json)
        if self.transcript is not None:
            self.check_transcript(entries, manifest_json)
        public = self.check_key_id(receipt, manifest_json)
        self.check_signature(receipt, raw_manifest, public)
        if self.trusted is not None:
            self.check_trusted(receipt, raw_manifest, manifest)
        if self.proof_case is not None:
            self.check_proof(receipt, self.proof_case)
        return self.done(manifest_json)

    # -- structure ------------------------------------------------------------------------

    def check_shape(self, receipt: dict[str, Any]) -> None:
        kinds = {
            "manifest": dict,
            "signature": str,
            "public_key": str,
            "key_id": str,
            "leaves": list,
        }
        problems = [f"missing {name}" for name in RECEIPT_KEYS if name not in receipt]
        problems += [
            f"{name} is not a{'n' if kind is dict else ''} {_KIND[kind]}"
            for name, kind in kinds.items()
            if name in receipt and not isinstance(receipt[name], kind)
        ]
        extra = sorted(set(receipt) - set(RECEIPT_KEYS))
        if extra:
            problems.append(f"unknown field(s) {', '.join(extra)}")
        if problems:
            self.add("receipt shape", False, "; ".join(problems))
        else:
            self.add("receipt shape", True, "manifest, signature, public key, key id, leaves")

    def check_manifest(self, raw: Any) -> Manifest | None:
        try:
            manifest = Manifest.from_json(raw)
        except ManifestError as exc:
            self.add("manifest fields", False, str(exc))
            return None
        self.add(
            "manifest fields",
            True,
            f"{manifest.benchmark} {manifest.bench_version} · seed {manifest.seed} · "
            f"{manifest.run_size} · {manifest.trust_tier} · {manifest.created_at}",
        )
        return manifest

    # -- leaves and tree ------------------------------------------------------------------

    def check_leaves(self, entries: list[Any]) -> list[str | None]:
        """Recompute every leaf hash; return the hashes to build the root from (recomputed
        where the leaf could be hashed, else the stored one if well formed, else None)."""
        problems: list[str] = []
        hashes: list[str | None] = []
        for position, entry in enumerate(entries):
            problem, recomputed = _leaf_problem(position, entry)
            if problem:
                problems.append(problem)
            stored = entry.get("hash") if isinstance(entry, dict) else None
            good_stored = stored if isinstance(stored, str) and _HEX64.fullmatch(stored) else None
            hashes.append(recomputed or good_stored)
        if problems:
            self.add("leaf hashes", False, _listing(problems))
        else:
            self.add("leaf hashes", True, f"{len(entries)} leaf hashes recomputed from their JSON")
        return hashes

    def check_order(self, entries: list[Any]) -> None:
        ids = [e.get("case_id") if isinstance(e, dict) else None for e in entries]
        for position in range(1, len(ids)):
            before, after = ids[position - 1], ids[position]
            if not (isinstance(before, str) and isinstance(after, str)):
                continue  # already reported as a malformed leaf
            if after == before:
                self.add("leaf order", False, f"case {after} has two leaves")
                return
            if after < before:
                self.add(
                    "leaf order", False, f"case {after} comes after {before}: not sorted by case id"
                )
                return
        if any(not isinstance(i, str) for i in ids):
            self.add("leaf order", False, "some leaves have no case id")
            return
        self.add("leaf order", True, "sorted by case id, no case twice")

    def check_count(self, entries: list[Any], manifest: dict[str, Any]) -> None:
        count = manifest.get("leaf_count")
        if count == len(entries) and type(count) is int:
            self.add("leaf count", True, f"{count} leaves, as the manifest says")
        else:
            self.add(
                "leaf count",
                False,
                f"the receipt has {len(entries)} leaves, manifest says {count!r}",
            )

    def check_root(self, hashes: list[str | None], manifest: dict[str, Any]) -> None:
        claimed = manifest.get("merkle_root")
        if any(h is None for h in hashes):
            self.add("merkle root", False, "cannot rebuild the tree: a leaf has no usable hash")
            return
        root = merkle_root([h for h in hashes if h is not None])
        if root == claimed:
            self.add("merkle root", True, f"{root} rebuilt from {len(hashes)} leaves")
        else:
            self.add(
                "merkle root",
                False,
                f"rebuilt {root} from the leaves, but the manifest says {claimed!r:.80}",
            )

    # -- transcript -----------------------------------------------------------------------

    def check_transcript(self, entries: list[Any], manifest: dict[str, Any]) -> None:
        transcript = self.transcript
        try:
            digest = sha256_hex(canonical_bytes(transcript))
        except CanonicalJSONError as exc:
            self.add("transcript hash", False, f"the transcript has no canonical form: {exc}")
            digest = ""
        if digest:
            claimed = manifest.get("transcript_sha256")
            if digest == claimed:
                self.add("transcript hash", True, f"{digest} matches the manifest")
            else:
                self.add(
                    "transcript hash",
                    False,
                    f"the transcript hashes to {digest}, the manifest says {claimed!r:.80}",
                )
        if not isinstance(transcript, dict) or not isinstance(transcript.get("cases"), list):
            self.add("transcript cases", False, "the transcript has no cases list")
            return
        header = [
            name
            for name in ("benchmark", "bench_version", "seed", "run_size", "dataset_sha256")
            if transcript.get(name) != manifest.get(name)
        ]
        if header:
            self.add(
                "transcript run", False, f"transcript and manifest differ in: {', '.join(header)}"
            )
        else:
            self.add("transcript run", True, "same benchmark, version, seed, size and dataset")
        records: dict[str, Any] = {}
        for case in transcript["cases"]:
            if isinstance(case, dict) and isinstance(case.get("case_id"), str):
                records[case["case_id"]] = case
        problems: list[str] = []
        seen: set[str] = set()
        for entry in entries:
            leaf = entry.get("leaf") if isinstance(entry, dict) else None
            if not isinstance(leaf, dict) or not isinstance(leaf.get("case_id"), str):
                continue  # reported under leaf hashes
            case_id = leaf["case_id"]
            seen.add(case_id)
            record = records.get(case_id)
            response = record.get("response") if record else None
            observed = record.get("observed", []) if record else []
            for name, want in (("response", response), ("observed", observed)):
                if not _same_json(leaf.get(name), want):
                    problems.append(f"case {case_id}: {name} differs from the transcript")
        unleafed = sorted(set(records) - seen)
        problems += [f"case {c}: in the transcript but has no leaf" for c in unleafed]
        if problems:
            self.add("transcript cases", False, _listing(problems))
        else:
            self.add(
                "transcript cases", True, f"{len(seen)} leaves carry the transcript's responses"
            )

    # -- keys and signature ---------------------------------------------------------------

    def check_key_id(
        self, receipt: dict[str, Any], manifest: dict[str, Any]
    ) -> Ed25519PublicKey | None:
        try:
            raw = b64decode_strict(receipt.get("public_key"), "public_key")
            public = public_key_from_raw(raw)
        except (KeyFileError, ValueError) as exc:
            self.add("key id", False, str(exc))
            return None
        derived = key_id(raw)
        carried, signed = receipt.get("key_id"), manifest.get("key_id")
        if derived == carried == signed:
            self.add("key id", True, f"{derived} is the id of the carried public key")
        else:
            self.add(
                "key id",
                False,
                f"the carried public key has id {derived}; receipt says {carried!r:.40}, "
                f"manifest says {signed!r:.40}",
            )
        return public

    def check_signature(
        self, receipt: dict[str, Any], raw_manifest: Any, public: Ed25519PublicKey | None
    ) -> None:
        signature, message = self._signature_inputs(receipt, raw_manifest)
        if signature is None or message is None:
            return
        if public is None:
            self.add("signature", False, "no usable public key in the receipt")
            return
        kid = key_id(public)
        self.key_used = f"carried key {kid} (not pinned: give trusted keys to check who signed)"
        try:
            public.verify(signature, message)
        except InvalidSignature:
            self.add(
                "signature",
                False,
                f"does not verify over the {len(message)} manifest bytes with carried key {kid}: "
                "the manifest or the signature was altered",
            )
            return
        self.add("signature", True, f"Ed25519 over the {len(message)} manifest bytes, key {kid}")

    def _signature_inputs(
        self, receipt: dict[str, Any], raw_manifest: Any
    ) -> tuple[bytes | None, bytes | None]:
        try:
            signature = b64decode_strict(receipt.get("signature"), "signature")
        except KeyFileError as exc:
            self.add("signature", False, str(exc))
            return None, None
        if len(signature) != 64:
            self.add("signature", False, f"an Ed25519 signature is 64 bytes, got {len(signature)}")
            return None, None
        if not isinstance(raw_manifest, dict):
            self.add("signature", False, "no manifest to check it over")
            return None, None
        try:
            return signature, canonical_bytes(raw_manifest)
        except CanonicalJSONError as exc:
            self.add("signature", False, f"the manifest has no canonical form: {exc}")
            return None, None

    def check_trusted(
        self, receipt: dict[str, Any], raw_manifest: Any, manifest: Manifest | None
    ) -> None:
        assert self.trusted is not None
        wanted = receipt.get("key_id")
        entry = self.trusted.lookup(wanted) if isinstance(wanted, str) else None
        if entry is None:
            known = ", ".join(k.key_id for k in self.trusted.keys) or "none"
            self.add(
                "trusted key", False, f"key id {wanted!r:.40} is not trusted (trusted: {known})"
            )
            self.key_used = "no trusted key: the signer is not in the trusted keys"
            return
        self.key_used = f"trusted key {entry.key_id} (from the trusted-keys file)"
        signature, message = self._trusted_inputs(receipt, raw_manifest)
        if signature is None or message is None:
            self.add("trusted key", False, "no signature or manifest to check")
        else:
            try:
                public_key_from_raw(entry.public_key).verify(signature, message)
            except InvalidSignature:
                self.add(
                    "trusted key",
                    False,
                    f"the trusted key {entry.key_id} does not verify the signature",
                )
            else:
                self.add("trusted key", True, f"the trusted key {entry.key_id} verifies it")
        if manifest is None:
            self.add("key validity", False, "no valid created_at to place in the key's window")
            return
        problem = entry.window_problem(parse_rfc3339(manifest.created_at))
        if problem:
            self.add("key validity", False, f"created_at {manifest.created_at}: {problem}")
        else:
            until = entry.valid_until or "no end"
            self.add(
                "key validity",
                True,
                f"created_at {manifest.created_at} is within {entry.valid_from} .. {until}",
            )

    def _trusted_inputs(
        self, receipt: dict[str, Any], raw_manifest: Any
    ) -> tuple[bytes | None, bytes | None]:
        try:
            signature = b64decode_strict(receipt.get("signature"), "signature")
            return signature, canonical_bytes(raw_manifest)
        except (KeyFileError, CanonicalJSONError):
            return None, None

    # -- proof ----------------------------------------------------------------------------

    def check_proof(self, receipt: dict[str, Any], case_id: str) -> None:
        try:
            bundle = inclusion_proof_for(receipt, case_id)
        except ReceiptError as exc:
            self.add("inclusion proof", False, str(exc))
            return
        steps = tuple((str(side), str(sibling)) for side, sibling in bundle["proof"])
        ok = check_inclusion(bundle["leaf"], bundle["proof"], bundle["root"])
        try:
            fresh = leaf_hash(leaf_bytes(bundle["leaf"]))
        except (CanonicalJSONError, TypeError, ValueError):
            fresh = "(leaf cannot be hashed)"
        self.proof = ProofResult(case_id, fresh, steps, bundle["root"], ok)
        if ok:
            self.add(
                "inclusion proof",
                True,
                f"case {case_id}: its leaf and {len(steps)} sibling hash(es) give the root",
            )
        else:
            self.add(
                "inclusion proof",
                False,
                f"case {case_id}: its leaf and proof do not give the manifest's root",
            )


_KIND = {dict: "object", str: "string", list: "list"}


def _leaf_problem(position: int, entry: Any) -> tuple[str, str | None]:
    """(what is wrong with one leaf entry or "", its recomputed hash when it can be hashed)."""
    if not isinstance(entry, dict):
        return f"leaves[{position}]: not an object", None
    case_id = entry.get("case_id")
    label = f"case {case_id}" if isinstance(case_id, str) else f"leaves[{position}]"
    leaf, stored = entry.get("leaf"), entry.get("hash")
    if not isinstance(case_id, str):
        return f"{label}: no case_id", None
    if not isinstance(leaf, dict):
        return f"{label}: leaf is not an object", None
    if set(leaf) != set(LEAF_KEYS):
        return f"{label}: leaf must have exactly {', '.join(LEAF_KEYS)}", None
    try:
        recomputed = leaf_hash(leaf_bytes(leaf))
    except CanonicalJSONError as exc:
        return f"{label}: leaf has no canonical form ({exc})", None
    if leaf["case_id"] != case_id:
        return f"{label}: leaf names case {leaf['case_id']!r:.40}", recomputed
    if not (isinstance(leaf["prompt_sha256"], str) and _HEX64.fullmatch(leaf["prompt_sha256"])):
        return f"{label}: prompt_sha256 is not a hex SHA-256", recomputed
    if not (isinstance(leaf["score"], str) and _SCORE.fullmatch(leaf["score"])):
        return f"{label}: score is not a six-decimal string", recomputed
    if not (leaf["response"] is None or isinstance(leaf["response"], dict)):
        return f"{label}: response is neither an object nor null", recomputed
    if not isinstance(leaf["observed"], list):
        return f"{label}: observed is not a list", recomputed
    if stored != recomputed:
        shown = f"{stored[:16]}…" if isinstance(stored, str) else repr(stored)[:24]
        return f"{label}: leaf hashes to {recomputed[:16]}…, stored hash is {shown}", recomputed
    return "", recomputed


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values (same canonical bytes): ``true`` and ``1`` differ, ``1`` and ``1.0``
    do not (JSON has one number type)."""
    try:
        return canonical_bytes(a) == canonical_bytes(b)
    except CanonicalJSONError:
        return False


def _listing(problems: list[str]) -> str:
    shown = "; ".join(problems[:_SHOWN])
    more = len(problems) - _SHOWN
    return shown + (f"; and {more} more" if more > 0 else "")
