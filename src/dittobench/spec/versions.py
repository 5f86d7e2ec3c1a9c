"""Bench versions: each semantic version maps to one frozen policy.

A bench version is our contract, MAJOR.MINOR.PATCH (docs/bench-versions.md): MAJOR changes the
scoring model, MINOR changes content or wording, PATCH fixes what changes no score and no byte of
any dataset. MAJOR.MINOR (the *content version*) is folded into every PRNG stream and case id, so
wording rotates with each minor version. Code reads ``policy.<field>``, never compares versions.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

BENCHMARK_NAME: Final = "dittobench"


class UnknownVersionError(ValueError):
    """A bench version this build does not implement."""


class UnknownRunSizeError(ValueError):
    """A run size name other than small, medium or full."""


@dataclass(frozen=True, slots=True)
class RunSize:
    """How much one run contains. The raw-pairs share is in thousandths to keep floats out of
    hashed bytes."""

    name: str
    tool_cases: int
    memory_cases: int
    waves: int
    raw_pairs_permille: int
    isolation_cases: int


@dataclass(frozen=True, slots=True)
class BenchPolicy:
    """Everything a bench version fixes. Grading constants join this table as the grader lands."""

    version: str
    epoch: str
    """``generated_at`` of every dataset of this version; the clock is never read."""
    run_sizes: MappingProxyType[str, RunSize]

    @property
    def content_version(self) -> str:
        """MAJOR.MINOR: the part of the version folded into seeds and ids."""
        major, minor, _patch = self.version.split(".")
        return f"{major}.{minor}"

    def run_size(self, name: str) -> RunSize:
        try:
            return self.run_sizes[name]
        except KeyError:
            known = ", ".join(self.run_sizes)
            raise UnknownRunSizeError(
                f"unknown run size {name!r}; choose one of: {known}"
            ) from None


_SIZES_1 = MappingProxyType(
    {
        "small": RunSize(
            "small", tool_cases=6, memory_cases=6, waves=1, raw_pairs_permille=0, isolation_cases=0
        ),
        "medium": RunSize(
            "medium",
            tool_cases=40,
            memory_cases=52,
            waves=4,
            raw_pairs_permille=450,
            isolation_cases=4,
        ),
        "full": RunSize(
            "full",
            tool_cases=84,
            memory_cases=185,
            waves=5,
            raw_pairs_permille=500,
            isolation_cases=10,
        ),
    }
)

POLICIES: Final = MappingProxyType(
    {
        "1.0.0": BenchPolicy(version="1.0.0", epoch="2026-11-01T00:00:00Z", run_sizes=_SIZES_1),
    }
)

CURRENT_VERSION: Final = "1.0.0"
RUN_SIZE_NAMES: Final = ("small", "medium", "full")


def get_policy(version: str = CURRENT_VERSION) -> BenchPolicy:
    """The frozen policy of ``version``, or ``UnknownVersionError`` listing the known ones."""
    try:
        return POLICIES[version]
    except KeyError:
        known = ", ".join(POLICIES)
        raise UnknownVersionError(
            f"unknown bench version {version!r}; this build implements: {known}"
        ) from None
