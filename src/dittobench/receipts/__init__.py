"""Signed receipts: a Merkle tree over the graded cases, an Ed25519 signature over a canonical
manifest, trusted keys with validity windows, and a verifier. Pure: no clock (timestamps are
passed in) and no I/O beyond the paths a caller hands over. docs/receipts.md states every rule.
"""
