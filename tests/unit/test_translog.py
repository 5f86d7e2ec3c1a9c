"""The transparency log: RFC 6962 tree shapes against a reference written here, inclusion and
consistency proofs, signed tree heads, and every tamper ``audit_log`` must catch."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.receipts.keys import TrustedKeys, trusted_entry
from dittobench.receipts.logaudit import LogEvidence, audit_log
from dittobench.receipts.logentries import (
    LogEntryError,
    entry_bytes,
    manifest_sha256,
    parse_entry,
    run_signed,
    window_opened,
    window_revealed,
)
from dittobench.receipts.logtree import (
    consistency_proof,
    entry_hash,
    inclusion_proof,
    tree_root,
    verify_consistency,
    verify_inclusion,
)
from dittobench.receipts.treehead import check_tree_head, sign_tree_head

SIZES = range(1, 34)


def reference_root(items: list[bytes]) -> bytes:
    """RFC 6962, 2.1, read literally: MTH({}) = SHA-256(); MTH({d0}) = SHA-256(0x00 || d0);
    MTH(D[n]) = SHA-256(0x01 || MTH(D[0:k]) || MTH(D[k:n])), k the largest power of 2 < n."""
    if not items:
        return hashlib.sha256(b"").digest()
    if len(items) == 1:
        return hashlib.sha256(b"\x00" + items[0]).digest()
    k = 1
    while k << 1 < len(items):
        k <<= 1
    return hashlib.sha256(b"\x01" + reference_root(items[:k]) + reference_root(items[k:])).digest()


def data(count: int) -> list[bytes]:
    return [f"entry {i}".encode() * (i % 3 + 1) for i in range(count)]


def hashes(count: int) -> list[str]:
    return [entry_hash(item) for item in data(count)]


@pytest.mark.parametrize("size", SIZES)
def test_tree_shape_is_rfc_6962(size: int) -> None:
    assert tree_root(hashes(size)) == reference_root(data(size)).hex()


def test_rfc_6962_test_vectors() -> None:
    """The certificate-transparency project's eight-leaf test tree, roots of sizes 1 to 8."""
    leaves = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243",
              "5051525354555657", "606162636465666768696a6b6c6d6e6f")]  # fmt: skip
    roots = [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    ]
    leaf_hashes = [entry_hash(leaf) for leaf in leaves]
    assert [tree_root(leaf_hashes[:n]) for n in range(1, 9)] == roots
    assert tree_root([]) == hashlib.sha256(b"").hexdigest()


@pytest.mark.parametrize("size", SIZES)
def test_every_inclusion_proof_verifies_and_a_wrong_one_does_not(size: int) -> None:
    leaves = hashes(size)
    root = tree_root(leaves)
    other = entry_hash(b"not in the log")
    for index in range(size):
        proof = inclusion_proof(leaves, index, size)
        assert verify_inclusion(leaves[index], index, size, proof, root)
        assert not verify_inclusion(other, index, size, proof, root)
        assert not verify_inclusion(leaves[index], index, size, proof, other)
        if size > 1:
            assert not verify_inclusion(leaves[index], (index + 1) % size, size, proof, root)
            bent = [other, *proof[1:]]
            assert not verify_inclusion(leaves[index], index, size, bent, root)
            assert not verify_inclusion(leaves[index], index, size, proof[:-1], root)


@pytest.mark.parametrize("second", SIZES)
def test_every_consistency_proof_verifies_and_a_rewritten_prefix_does_not(second: int) -> None:
    leaves = hashes(second)
    new_root = tree_root(leaves)
    for first in range(0, second + 1):
        old_root = tree_root(leaves[:first])
        proof = consistency_proof(leaves, first, second)
        assert verify_consistency(first, second, old_root, new_root, proof), (first, second)
        if 0 < first < second:
            # The same sizes, but the old tree had another entry somewhere in its prefix.
            edited = [*leaves[: first - 1], entry_hash(b"edited"), *leaves[first:]]
            edited_old = tree_root(edited[:first])
            assert not verify_consistency(first, second, edited_old, new_root, proof)
            assert not verify_consistency(first, second, old_root, tree_root(edited), proof)
            if proof:
                bent = [entry_hash(b"x"), *proof[1:]]
                assert not verify_consistency(first, second, old_root, new_root, bent)


# -- entries, heads and the audit -------------------------------------------------------------

KEY = Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
TRUSTED = TrustedKeys((trusted_entry(KEY, "2026-01-01T00:00:00Z"),))
SEALED = "ab" * 32
OTHER = "cd" * 32


def receipt(composite: str = "0.412345", made: str = "2026-03-01T10:05:00Z") -> dict[str, Any]:
    return {
        "manifest": {
            "scores": {"composite": composite},
            "seed_source": "operator",
            "pack_sha256": SEALED,
            "created_at": made,
        }
    }


def log() -> list[dict[str, Any]]:
    return [
        window_opened("w-1", "6.0.0", "small", "sealed-1", SEALED, "2026-03-01T10:00:00Z"),
        run_signed("", "r-20260301-100100-aaaaaa", receipt("0.100000"), "2026-03-01T10:01:00Z"),
        run_signed("w-1", "r-20260301-100200-bbbbbb", receipt(), "2026-03-01T10:06:00Z"),
        window_revealed("w-1", SEALED, "/v1/windows/w-1/pack.tar.gz", "2026-03-02T09:00:00Z"),
    ]


def head_of(entries: list[dict[str, Any]], when: str = "2026-03-02T09:00:01Z") -> dict[str, Any]:
    leaves = [entry_hash(entry_bytes(e)) for e in entries]
    return sign_tree_head(len(entries), tree_root(leaves), when, KEY)


def failed(entries: list[Any], **kw: Any) -> dict[str, str]:
    head = kw.pop("head", None) or head_of(entries)
    evidence = LogEvidence(head, entries, kw.pop("old_head", None))
    checks = audit_log(evidence, kw.pop("trusted", TRUSTED), kw.pop("receipt", None), **kw)
    return {c.name: c.detail for c in checks.checks if not c.ok}


def test_an_honest_log_passes_every_check() -> None:
    entries = log()
    old = head_of(entries[:2], "2026-03-01T10:02:00Z")
    checks = audit_log(LogEvidence(head_of(entries), entries, old), TRUSTED, receipt(), SEALED)
    assert [(c.name, c.ok) for c in checks.checks] == [
        ("tree head", True),
        ("log entries", True),
        ("log root", True),
        ("log order", True),
        ("old head", True),
        ("consistency", True),
        ("receipt in log", True),
        ("window pack", True),
    ]


def test_an_edited_entry_breaks_the_signed_root() -> None:
    entries = log()
    head = head_of(entries)
    entries[2] = {**entries[2], "composite": "0.912345"}
    assert "edited, removed, added or reordered" in failed(entries, head=head)["log root"]


def test_a_removed_entry_is_caught_by_the_count_and_by_consistency() -> None:
    entries = log()
    head = head_of(entries)
    gone = entries[:1] + entries[2:]
    assert "entries were removed" in failed(gone, head=head)["log entries"]
    # The operator re-signs the shortened log: the head the auditor kept says otherwise.
    problems = failed(gone, old_head=head_of(entries[:3], "2026-03-01T10:07:00Z"))
    assert "entries before 3 were changed or removed" in problems["consistency"]


def test_a_back_dated_entry_is_caught_even_when_the_head_is_re_signed() -> None:
    entries = log()
    late = run_signed("", "r-20260302-100000-cccccc", receipt(), "2026-03-01T09:00:00Z")
    problems = failed([*entries, late])
    assert "entry 4 (run_signed) is dated 2026-03-01T09:00:00Z" in problems["log order"]
    assert "back-dated" in problems["log order"]


def test_a_run_logged_in_a_window_after_its_reveal_or_before_it_opened_is_caught() -> None:
    entries = log()
    after = run_signed("w-1", "r-20260302-100000-dddddd", receipt(), "2026-03-02T10:00:00Z")
    assert "after the window was revealed" in failed([*entries, after])["log order"]
    early = [
        entries[0],
        run_signed("w-1", "r-1", receipt(made="2026-03-01T09:00:00Z"), "2026-03-01T10:00:00Z"),
    ]
    problems = failed(early, receipt=receipt(made="2026-03-01T09:00:00Z"))
    assert "outside window w-1" in problems["receipt in log"]


def test_a_swapped_pack_is_caught() -> None:
    entries = log()
    assert (
        "not window w-1's commitment"
        in failed(entries, receipt=receipt(), pack_sha256=OTHER)["window pack"]
    )
    swapped = [*entries[:3], {**entries[3], "pack_sha256": OTHER}]
    assert "not its commitment" in failed(swapped)["log order"]


def test_the_receipt_must_be_in_the_log_and_say_what_its_entry_says() -> None:
    entries = log()
    assert "no run_signed entry" in failed(entries, receipt=receipt("0.999999"))["receipt in log"]
    entries[2] = {**entries[2], "composite": "0.999999"}  # an entry re-signed with another score
    problems = failed(entries, receipt=receipt())
    assert "the entry says composite 0.999999, the receipt 0.412345" in problems["receipt in log"]


def test_a_tree_head_from_an_untrusted_key_or_edited_is_refused() -> None:
    entries = log()
    stranger = Ed25519PrivateKey.from_private_bytes(bytes(range(1, 33)))
    leaves = [entry_hash(entry_bytes(e)) for e in entries]
    foreign = sign_tree_head(4, tree_root(leaves), "2026-03-02T09:00:01Z", stranger)
    assert "not a trusted key" in failed(entries, head=foreign)["tree head"]
    edited = {**head_of(entries), "tree_size": 3}
    assert "signature does not match" in check_tree_head(edited, TRUSTED)[1]
    assert check_tree_head(head_of(entries), None)[1] == ""


def test_entries_are_checked_field_by_field() -> None:
    good = entry_bytes(log()[2])
    assert parse_entry(good, 2)["run_id"] == "r-20260301-100200-bbbbbb"
    with pytest.raises(LogEntryError, match=r"log entry 7\.signed_at"):
        parse_entry({**log()[2], "signed_at": "yesterday"}, 7)
    with pytest.raises(LogEntryError, match=r"log entry 0: fields missing \['pack_sha256'\]"):
        parse_entry({k: v for k, v in log()[0].items() if k != "pack_sha256"}, 0)
    with pytest.raises(LogEntryError, match="kind"):
        parse_entry({"kind": "window_closed"}, 0)
    assert len(manifest_sha256(receipt())) == 64


def test_hostile_log_input_fails_a_named_check_and_never_raises() -> None:
    entries = log()
    with pytest.raises(LogEntryError, match="kind"):
        parse_entry({"kind": []}, 0)
    leaves = [entry_hash(entry_bytes(e)) for e in entries]
    assert not verify_inclusion(leaves[1], 1, 4, 5, tree_root(leaves))  # type: ignore[arg-type]
    assert not verify_consistency(2, 4, tree_root(leaves[:2]), tree_root(leaves), {"a": 1})  # type: ignore[arg-type]
    odd = {**head_of(entries), "timestamp": "2026-13-45T99:99:99Z"}
    assert "tree head" in failed(entries, head=odd)
    assert "receipt in log" in failed(entries, receipt={"manifest": []})
