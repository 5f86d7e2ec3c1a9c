"""Who chose a run's seed: its ``seed_source``.

The generator is public, so whoever picks the seed can build the dataset, answer key included,
before the run starts. A seed the operator's service or engine drew fresh (``operator``) is the
only kind a leaderboard ranks; a seed given by whoever asked for the run (``submitter``: a
``seed`` in a submission, ``POST /v2/score``, ``dittobench run --seed``, a replay of offline
answers) makes the run practice. The run store, the job object, the pages and the signed
receipt manifest (format 4) all carry it. docs/service.md, "Ranked and practice runs".
"""

from __future__ import annotations

from typing import Final

from dittobench.core.errors import DittobenchError
from dittobench.spec import vocab
from dittobench.spec.vocab import JobStatus, RunStatus, SeedSource

OPERATOR: Final = "operator"
SUBMITTER: Final = "submitter"
SEED_SOURCES: Final = vocab.SEED_SOURCES


class SeedSourceError(DittobenchError, ValueError):
    """A seed source that is neither ``operator`` nor ``submitter``."""


def check_seed_source(value: object) -> SeedSource:
    """``value`` when it is one of ``SEED_SOURCES``; ``SeedSourceError`` otherwise."""
    for source in SEED_SOURCES:
        if value == source:
            return source
    raise SeedSourceError(f"seed source {value!r:.40} is not one of: {', '.join(SEED_SOURCES)}")


def seed_source_of(given: int | None) -> SeedSource:
    """The source of a seed a caller may have given: ``submitter`` when it did, else the
    operator's fresh draw."""
    return OPERATOR if given is None else SUBMITTER


FINISHED: Final[frozenset[JobStatus]] = frozenset({"done", "failed", "cancelled"})

SEED_HIDDEN: Final = ""


def seed_shown(seed: str, seed_source: SeedSource, status: JobStatus | RunStatus) -> str:
    """The seed as a job or page may show it: an operator's seed only once the run is over
    (whoever knew it before could build the answer key and hand it to the harness);
    ``SEED_HIDDEN`` until then. A submitter's own seed is theirs to see."""
    if seed_source == OPERATOR and status not in FINISHED:
        return SEED_HIDDEN
    return seed


__all__ = [
    "FINISHED",
    "OPERATOR",
    "SEED_HIDDEN",
    "SEED_SOURCES",
    "SUBMITTER",
    "SeedSourceError",
    "check_seed_source",
    "seed_shown",
    "seed_source_of",
]
