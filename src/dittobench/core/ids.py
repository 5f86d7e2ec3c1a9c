"""Opaque ids. A dataset's ids (``case_id``, ``opaque_id``) name a case, pair, session, subject
or family without telling what it is, but anyone holding the seed recomputes them; the ids a
harness is shown are keyed by a per-run secret instead (``wire_id``, docs/determinism.md §4)."""

from __future__ import annotations

import hashlib
import hmac


def case_id(seed: int, content_version: str, kind: str, ordinal: int) -> str:
    """``"c"`` + the first 16 hex characters of
    SHA-256(UTF-8("dittobench-case|<seed>|<content_version>|<kind>|<ordinal>")).

    Anyone with the seed can recompute every id; a harness cannot read the kind or position.
    """
    material = f"dittobench-case|{seed}|{content_version}|{kind}|{ordinal}".encode()
    return "c" + hashlib.sha256(material).hexdigest()[:16]


def opaque_id(prefix: str, *parts: object) -> str:
    """``prefix + "-"`` + the first 12 hex characters of
    SHA-256(UTF-8("dittobench-id|" + "|".join(str(part) for part in parts))).

    Used for pair, session, subject and family ids: stable per seed, telling nothing.
    """
    material = "dittobench-id|" + "|".join(str(part) for part in parts)
    return f"{prefix}-{hashlib.sha256(material.encode()).hexdigest()[:12]}"


WIRE_NONCE_BYTES = 32
"""The length of a run's wire nonce (drawn by the engine with ``os.urandom``)."""

WIRE_SHAPES: dict[str, tuple[str, int]] = {
    "case": ("c", 16),
    "pair": ("p-", 12),
    "session": ("s-", 12),
    "subject": ("subj-", 12),
    "user": ("u-", 12),
}
"""Per kind of id: the wire id's prefix and how many hex characters follow it (a dataset id's
own shape: ``c`` + 16 hex, ``p-``/``s-``/``subj-`` + 12 hex; user ids become ``u-`` + 12 hex)."""


def wire_id(nonce: bytes, kind: str, dataset_id: str) -> str:
    """The id a harness is shown for ``dataset_id`` in a run keyed by ``nonce``: the kind's prefix
    + the first hex characters of HMAC-SHA256(key=nonce,
    msg=UTF-8("dittobench-wire|<kind>|<dataset_id>")) (``WIRE_SHAPES``, docs/determinism.md §4).

    Without the nonce nobody can tell which dataset id (hence which seed) a wire id stands for;
    with it (the transcript records it once the run is over) anyone recomputes the mapping.
    """
    prefix, length = WIRE_SHAPES[kind]
    material = f"dittobench-wire|{kind}|{dataset_id}".encode()
    return prefix + hmac.new(nonce, material, hashlib.sha256).hexdigest()[:length]
