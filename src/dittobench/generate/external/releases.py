"""The published releases an external suite may be read from, pinned by SHA-256.

A file is run only when its bytes are one of these releases (or when the caller allows an
unknown file on purpose, which the report and the receipt then say). Each hash below was either
computed here from a copy of the file fetched from its repository, or is one stated in public
sources, named beside it; none is made up. A release with no hash that could be checked is not
listed (docs/external.md says which).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Release:
    """One published file: its format, a name saying which file and revision it is, its
    SHA-256 and its size in bytes."""

    format: str
    name: str
    sha256: str
    bytes: int


KNOWN_RELEASES: Final = (
    # Computed here: `git show 3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376:data/locomo10.json` of
    # github.com/snap-research/locomo (main; the file as added by commit
    # cbfbc1dba6bc53d00625212a0f22d55ffee7c1fc, git blob d95b872480b413d935821fdc3c84f8a8f5f29e73).
    # Public harnesses pinned to that commit state the same hash.
    Release(
        "locomo",
        "locomo10.json (snap-research/locomo @ 3eb6f2c)",
        "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4",
        2_805_274,
    ),
    # Stated in github.com/solozerolabs/Memphant, benchmarks/manifests/longmemeval_s.lock.json
    # (commit 5f803356db4b4036daf817f4df8d8aad31f9a33e): the file longmemeval_s_cleaned.json of
    # huggingface.co/datasets/xiaowu0162/longmemeval-cleaned at revision
    # 98d7416c24c778c2fee6e6f3006e7a073259d48f; also in github.com/Sapientropic/AIppocampus,
    # benchmarks/aippocampus/benchmark_longmemeval.py
    # (commit 5d91ae18a99bf57cb94d7fa0509cef3568265d9e).
    Release(
        "longmemeval",
        "longmemeval_s_cleaned.json (xiaowu0162/longmemeval-cleaned @ 98d7416c)",
        "d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442",
        277_383_467,
    ),
    # Stated in the same two files: longmemeval_oracle.json of xiaowu0162/longmemeval-cleaned at
    # revision 98d7416c24c778c2fee6e6f3006e7a073259d48f.
    Release(
        "longmemeval",
        "longmemeval_oracle.json (xiaowu0162/longmemeval-cleaned @ 98d7416c)",
        "821a2034d219ab45846873dd14c14f12cfe7776e73527a483f9dac095d38620c",
        15_388_478,
    ),
    # Stated in github.com/Sapientropic/AIppocampus, benchmarks/aippocampus/benchmark_longmemeval.py
    # (commit 5d91ae18a99bf57cb94d7fa0509cef3568265d9e): longmemeval_m_cleaned.json of
    # xiaowu0162/longmemeval-cleaned (others state it from the Hugging Face LFS metadata at
    # revision 98d7416c24c778c2fee6e6f3006e7a073259d48f).
    Release(
        "longmemeval",
        "longmemeval_m_cleaned.json (xiaowu0162/longmemeval-cleaned @ 98d7416c)",
        "9d79e5524794a2e6900a3aa9cb7d9152c5a3e8319c9a87c25494ba1eacee495f",
        2_737_100_077,
    ),
    # Stated in github.com/solozerolabs/Memphant, benchmarks/manifests/longmemeval_s.lock.json
    # (commit 5f803356db4b4036daf817f4df8d8aad31f9a33e), "deprecated_split": the file
    # longmemeval_s of huggingface.co/datasets/xiaowu0162/longmemeval at revision
    # 2ec2a557f339b6c0369619b1ed5793734cc87533, the original release (saved as longmemeval_s.json).
    Release(
        "longmemeval",
        "longmemeval_s.json (xiaowu0162/longmemeval @ 2ec2a557)",
        "08d8dad4be43ee2049a22ff5674eb86725d0ce5ff434cde2627e5e8e7e117894",
        278_025_796,
    ),
)
"""Every pinned release. The original ``longmemeval_m.json`` and an original
``longmemeval_oracle.json`` distinct from the cleaned one have no hash stated anywhere checked,
so they are not listed: run them with ``allow_unknown``."""


def release_of(format: str, sha256: str) -> Release | None:
    """The known release of ``format`` whose SHA-256 is ``sha256``, or None."""
    for release in KNOWN_RELEASES:
        if release.format == format and release.sha256 == sha256:
            return release
    return None


__all__ = ["KNOWN_RELEASES", "Release", "release_of"]
