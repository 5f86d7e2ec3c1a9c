"""The transparency log's Merkle tree (docs/receipts.md, "The transparency log"): RFC 6962's
tree over a list of entries, and its two proofs, with their verifiers (RFC 9162, 2.1).

- leaf hash = SHA-256(0x00 || entry bytes); node hash = SHA-256(0x01 || left || right);
- the root of n > 1 leaves is node(root of the first k, root of the rest), k the largest power
  of two below n; of one leaf, its leaf hash; of none, SHA-256 of the empty string;
- an **inclusion proof** of leaf i in the tree of size n: the sibling roots from the leaf up;
- a **consistency proof** of size m to size n: the roots that show the tree of m leaves is a
  prefix of the tree of n leaves (nothing in the first m was changed, removed or reordered).

Unlike the receipt's tree (``receipts.merkle``, which promotes an odd node), this shape lets a
tree of n leaves be proved an extension of any smaller one. Hashes cross this API as lowercase
hex. Pure: no clock, no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Final

from dittobench.receipts.merkle import LEAF_PREFIX, NODE_PREFIX, MerkleError, digest_bytes

EMPTY_ROOT: Final = hashlib.sha256(b"").hexdigest()


def entry_hash(data: bytes) -> str:
    """SHA-256(0x00 || entry bytes), hex: a leaf of the log."""
    return hashlib.sha256(LEAF_PREFIX + data).hexdigest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (n > 1)."""
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def _raw_all(hashes: Sequence[str]) -> list[bytes]:
    return [digest_bytes(h) for h in hashes]


def _root(leaves: Sequence[bytes]) -> bytes:
    if not leaves:
        return bytes.fromhex(EMPTY_ROOT)
    if len(leaves) == 1:
        return leaves[0]
    k = _split(len(leaves))
    return _node(_root(leaves[:k]), _root(leaves[k:]))


def tree_root(leaf_hashes: Sequence[str]) -> str:
    """The root of the tree over ``leaf_hashes`` (in log order)."""
    return _root(_raw_all(leaf_hashes)).hex()


def inclusion_proof(leaf_hashes: Sequence[str], index: int, tree_size: int) -> list[str]:
    """The audit path of leaf ``index`` in the tree of the first ``tree_size`` leaves."""
    if not 0 < tree_size <= len(leaf_hashes):
        raise MerkleError(f"tree size {tree_size} is not between 1 and {len(leaf_hashes)}")
    if not 0 <= index < tree_size:
        raise MerkleError(f"entry {index} is outside a tree of {tree_size} entries")
    return [h.hex() for h in _path(index, _raw_all(leaf_hashes[:tree_size]))]


def _path(m: int, leaves: Sequence[bytes]) -> list[bytes]:
    if len(leaves) <= 1:
        return []
    k = _split(len(leaves))
    if m < k:
        return [*_path(m, leaves[:k]), _root(leaves[k:])]
    return [*_path(m - k, leaves[k:]), _root(leaves[:k])]


def consistency_proof(leaf_hashes: Sequence[str], first: int, second: int) -> list[str]:
    """The proof that the tree of ``first`` leaves is a prefix of the tree of ``second``."""
    if not 0 <= first <= second <= len(leaf_hashes):
        raise MerkleError(
            f"no consistency proof from size {first} to size {second} in a log of "
            f"{len(leaf_hashes)} entries"
        )
    if first == 0 or first == second:
        return []
    return [h.hex() for h in _subproof(first, _raw_all(leaf_hashes[:second]), True)]


def _subproof(m: int, leaves: Sequence[bytes], whole: bool) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if whole else [_root(leaves)]
    k = _split(n)
    if m <= k:
        return [*_subproof(m, leaves[:k], whole), _root(leaves[k:])]
    return [*_subproof(m - k, leaves[k:], False), _root(leaves[:k])]


def verify_inclusion(
    leaf_hash: str, index: int, tree_size: int, proof: Sequence[str], root: str
) -> bool:
    """True when ``proof`` places ``leaf_hash`` at ``index`` of the tree of ``tree_size`` leaves
    whose root is ``root`` (RFC 9162, 2.1.3.2). Malformed input is False."""
    try:
        if not 0 <= index < tree_size:
            return False
        fn, sn, r = index, tree_size - 1, digest_bytes(leaf_hash)
        for step in list(proof):
            p = digest_bytes(step)
            if sn == 0:
                return False
            if fn & 1 or fn == sn:
                r = _node(p, r)
                while not fn & 1 and fn != 0:
                    fn, sn = fn >> 1, sn >> 1
            else:
                r = _node(r, p)
            fn, sn = fn >> 1, sn >> 1
        return sn == 0 and r == digest_bytes(root)
    except (MerkleError, TypeError):  # a proof that is no list of hex digests proves nothing
        return False


def verify_consistency(
    first: int, second: int, first_root: str, second_root: str, proof: Sequence[str]
) -> bool:
    """True when ``proof`` shows the tree of ``first`` leaves with root ``first_root`` is a
    prefix of the tree of ``second`` leaves with root ``second_root`` (RFC 9162, 2.1.4.2).
    Malformed input is False."""
    try:
        old, new = digest_bytes(first_root), digest_bytes(second_root)
        steps = [digest_bytes(step) for step in proof]
    except (MerkleError, TypeError):  # a proof that is no list of hex digests proves nothing
        return False
    if not 0 <= first <= second:
        return False
    if first == second:
        return not steps and old == new
    if first == 0:
        return not steps and old == bytes.fromhex(EMPTY_ROOT)
    if first & (first - 1) == 0:  # a power of two: the old root is a node of the new tree
        steps = [old, *steps]
    if not steps:
        return False
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = steps[0]
    for c in steps[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = _node(c, fr), _node(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = _node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == old and sr == new


__all__ = [
    "EMPTY_ROOT",
    "consistency_proof",
    "entry_hash",
    "inclusion_proof",
    "tree_root",
    "verify_consistency",
    "verify_inclusion",
]
