"""Receipt leaves and the Merkle tree over them (docs/receipts.md, "Leaves" and "Tree").

A leaf is the RFC 8785 object ``{"case_id", "prompt_sha256", "response", "observed", "score"}``
for one graded case; ``score`` is a string with six decimals so no float reaches hashed bytes. An
open question (bench 8.0, receipt format 5) has a leaf of its own shape, ``{"case_id",
"prompt_sha256", "response", "judged"}``, where ``judged`` is what the judge said of the answer
(``receipts.judged``); both kinds share one tree, in one case-id order.

Hashes (SHA-256, domain-separated so a leaf can never pass for a node):

- leaf hash = SHA-256(0x00 || leaf bytes)
- node hash = SHA-256(0x01 || left || right)
- an odd node at the end of a level is promoted unchanged to the next level (never duplicated);
- the root of zero leaves is SHA-256 of the empty string; the root of one leaf is its leaf hash.

Leaves are ordered by case id (code-point order, which for the ASCII ids equals byte order).
Hashes cross this API as lowercase hex strings.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from typing import Any, Final, Literal

from dittobench.core.canonical import canonical_bytes
from dittobench.core.errors import DittobenchError

LEAF_PREFIX: Final = b"\x00"
NODE_PREFIX: Final = b"\x01"
EMPTY_ROOT: Final = hashlib.sha256(b"").hexdigest()
LEAF_KEYS: Final = ("case_id", "observed", "prompt_sha256", "response", "score")
"""The keys of a graded case's leaf (a tool or memory case: the verified score)."""
OPEN_LEAF_KEYS: Final = ("case_id", "judged", "prompt_sha256", "response")
"""The keys of an open question's leaf (the nuance score: judged, never in the composite)."""

Side = Literal["left", "right"]
"""Where the sibling sits: ``left`` means node = H(0x01 || sibling || current)."""

ProofStep = tuple[Side, str]


class MerkleError(DittobenchError, ValueError):
    """A malformed hash list or an index outside the tree."""

    http_status = 400


SCORE_TEXT: Final = re.compile(r"-?\d+\.\d{6}", re.ASCII)
"""A score as ``format_score`` writes it."""


def format_score(score: float) -> str:
    """A score as a decimal string with exactly six decimals ("0.812345"); -0 reads as 0."""
    if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
        raise MerkleError(f"a score must be a finite number, got {score!r}")
    text = f"{score:.6f}"
    return "0.000000" if text == "-0.000000" else text


def make_leaf(
    case_id: str, prompt_sha256: str, response: Any, observed: Any, score: float
) -> dict[str, Any]:
    """The leaf object of one graded case. ``response`` is the case record's response JSON as
    in the transcript (``None`` when nothing usable came back); ``observed`` its observed calls."""
    return {
        "case_id": case_id,
        "prompt_sha256": prompt_sha256,
        "response": response,
        "observed": observed,
        "score": format_score(score),
    }


def make_open_leaf(
    case_id: str, prompt_sha256: str, response: Any, judged: dict[str, Any]
) -> dict[str, Any]:
    """The leaf object of one open question: its question's hash, the harness's response JSON
    as in the transcript (``None`` when none came back) and ``judged``, the judge's verdicts and
    calls as ``receipts.judged.judged_object`` builds them."""
    return {
        "case_id": case_id,
        "prompt_sha256": prompt_sha256,
        "response": response,
        "judged": judged,
    }


def leaf_bytes(leaf: dict[str, Any]) -> bytes:
    """The RFC 8785 bytes of a leaf object (what ``leaf_hash`` hashes)."""
    return canonical_bytes(leaf)


def leaf_hash(data: bytes) -> str:
    """SHA-256(0x00 || leaf bytes), hex."""
    return hashlib.sha256(LEAF_PREFIX + data).hexdigest()


def node_hash(left: str, right: str) -> str:
    """SHA-256(0x01 || left || right) over the raw 32-byte digests, hex."""
    return hashlib.sha256(NODE_PREFIX + digest_bytes(left) + digest_bytes(right)).hexdigest()


def merkle_root(hashes: Sequence[Any]) -> str:
    """The root over leaf hashes in leaf order (see the module docstring for the rules).
    ``MerkleError`` when a hash is not 64 lowercase hex digits."""
    level = [digest_bytes(h).hex() for h in hashes]
    if not level:
        return EMPTY_ROOT
    while len(level) > 1:
        level = _next_level(level)
    return level[0]


def inclusion_proof(hashes: Sequence[Any], index: int) -> list[ProofStep]:
    """The siblings from leaf ``index`` up to the root, bottom first. A level where the node is
    promoted (odd, last) contributes no step."""
    level = [digest_bytes(h).hex() for h in hashes]
    if not 0 <= index < len(level):
        raise MerkleError(f"leaf index {index} is outside a tree of {len(level)} leaves")
    proof: list[ProofStep] = []
    while len(level) > 1:
        if index % 2 == 1:
            proof.append(("left", level[index - 1]))
        elif index + 1 < len(level):
            proof.append(("right", level[index + 1]))
        level = _next_level(level)
        index //= 2
    return proof


def verify_proof(leaf: str, proof: Sequence[Any], root: str) -> bool:
    """True when folding ``proof`` onto the leaf hash gives ``root``. Malformed input is False."""
    try:
        current = digest_bytes(leaf).hex()
        for step in proof:
            if not isinstance(step, (list, tuple)) or len(step) != 2:
                return False
            side, sibling = step
            if side == "left":
                current = node_hash(sibling, current)
            elif side == "right":
                current = node_hash(current, sibling)
            else:
                return False
        return current == digest_bytes(root).hex()
    except MerkleError:
        return False


def _next_level(level: list[str]) -> list[str]:
    out = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
    if len(level) % 2:
        out.append(level[-1])
    return out


def digest_bytes(digest: Any) -> bytes:
    """A 64-character lowercase hex digest as 32 bytes, or ``MerkleError``."""
    if (
        not isinstance(digest, str)
        or len(digest) != 64
        or any(ch not in "0123456789abcdef" for ch in digest)
    ):
        raise MerkleError(f"not a lowercase hex SHA-256 digest: {digest!r:.80}")
    return bytes.fromhex(digest)
