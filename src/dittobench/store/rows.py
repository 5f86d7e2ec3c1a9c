"""A run as the store keeps it (``RunRow``), and the checks that what a row or a stored JSON
value holds is what the store writes: SQLite keeps any value in any column, so a hand-edited file
can hold anything, and every message names the run and the column."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any, Literal

import sqlalchemy as sa

from dittobench.core.prng import MAX_SEED, SeedError, parse_seed
from dittobench.spec.seeds import SEED_SOURCES, SUBMITTER
from dittobench.spec.vocab import (
    RUN_SIZES,
    RUN_STAGES,
    RUN_STATUSES,
    SCHEDULES,
    RunSizeName,
    RunStage,
    RunStatus,
    Schedule,
    SeedSource,
)
from dittobench.spec.wireids import WireIdError, check_nonce
from dittobench.store.errors import BadContentError, StoreError
from dittobench.store.schema import runs_table

STATUSES: frozenset[RunStatus] = frozenset(RUN_STATUSES)
STAGES: frozenset[RunStage] = frozenset(RUN_STAGES)

RowSchedule = Literal[Schedule, ""]
"""A run's ``schedule`` as stored: ``safe`` or ``overlap`` once the run has decided, ``""``
before (``engine.orchestrate`` decides from what the harness declares)."""

# The shape of the run ids the command line makes (r-YYYYMMDD-HHMMSS-6 hex digits). Run ids name
# files and folders (the run's output folder, the built-in harness's memory), so a caller checks
# an id given by a user against it before touching anything.
RUN_ID_PATTERN = re.compile(r"r-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}")
RUN_ID_EXAMPLE = "r-20261201-142714-a1b2c3"


def is_run_id(text: str) -> bool:
    """True when ``text`` has the shape of a run id the command line makes."""
    return RUN_ID_PATTERN.fullmatch(text) is not None


@dataclass(frozen=True, slots=True)
class RunRow:
    """One run as the store keeps it. ``waves_seeded`` is the highest wave seeded so far plus one
    (0 = none), so a resumed run can skip the seeding it already did."""

    run_id: str
    seed: int
    bench_version: str
    run_size: RunSizeName
    dataset_sha256: str
    harness: str
    status: RunStatus
    stage: RunStage
    error: str
    created_at: str
    updated_at: str
    cases_done: int
    cases_total: int
    composite: float | None
    composite_stderr: float | None
    transcript_sha256: str
    waves_seeded: int
    schedule: RowSchedule = ""
    """``safe`` or ``overlap`` once the run has decided (engine.md); empty before."""
    lease_owner: str = ""
    """Who is driving the run now (``claim_run``); empty when nobody is."""
    lease_until: str = ""
    pack_id: str = ""
    """The content pack the run's dataset came from (empty in stores made before packs: the
    version's own pack)."""
    pack_sha256: str = ""
    pack_path: str = ""
    """Where a pack other than a shipped one was read from, so a resume can read it again."""
    wire_nonce: str = ""
    """The run's wire nonce, 64 lowercase hex digits (``spec.wireids``): a resume shows the
    harness the same ids. Empty in stores made before nonces: such a run resumes on the dataset's
    own ids, as it began."""
    seed_source: SeedSource = SUBMITTER
    """Who chose the seed (``spec.seeds``): ``operator`` (drawn fresh by the engine or the
    service) or ``submitter`` (given by whoever asked for the run: practice, never ranked)."""
    resumes: int = 0
    """How many times the run was resumed (``engine.runner.resume_run``); 0 for a run that
    never was, and for one stored before the count was kept."""


@dataclass(frozen=True, slots=True)
class UnreadableRun:
    """A stored run whose row holds a value the store never writes; ``problem`` names the
    column. Listed beside the good runs so one bad row hides nothing else."""

    run_id: str
    problem: str


def dumps(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def loads_object(text: object, what: str) -> dict[str, Any]:
    """A stored JSON object, or BadContentError naming ``what`` (run, column, case)."""
    if not isinstance(text, str):
        raise BadContentError(f"{what} is {_kind(text)}, not JSON text")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise BadContentError(f"{what} is not valid JSON ({one_line(str(exc))})") from None
    if not isinstance(value, dict):
        raise BadContentError(f"{what} is not a JSON object")
    return value


def _kind(value: object) -> str:
    return "empty (NULL)" if value is None else f"{type(value).__name__} {shown(value)}"


def shown(value: object) -> str:
    text = repr(value)  # repr escapes newlines and control characters: the message stays one line
    return text if len(text) <= 40 else text[:37] + "..."


def one_line(text: str) -> str:
    return " ".join(text.split())


def check_status(status: str) -> None:
    if status not in STATUSES:
        raise StoreError(f"unknown run status {status!r}; expected one of {sorted(STATUSES)}")


def check_source(seed_source: str) -> None:
    if seed_source not in SEED_SOURCES:
        raise StoreError(
            f"unknown seed source {seed_source!r}; expected one of {', '.join(SEED_SOURCES)}"
        )


def check_stage(stage: str) -> None:
    if stage not in STAGES:
        raise StoreError(f"unknown run stage {stage!r}; expected one of {sorted(STAGES)}")


_TEXT_COLUMNS = tuple(
    c.name for c in runs_table.columns if isinstance(c.type, sa.Text) and c.name != "seed"
)
_COUNT_COLUMNS = ("cases_done", "cases_total", "waves_seeded", "resumes")


def row_to_run(row: sa.Row[Any], where: str) -> RunRow:
    """Check every column holds what the store writes (SQLite keeps any value in any column,
    so a hand-edited file can hold anything): BadContentError names the run and the column."""
    values = dict(row._mapping)
    run_id = values["run_id"]
    name = run_id if isinstance(run_id, str) else shown(run_id)

    def bad(column: str, expected: str) -> BadContentError:
        return BadContentError(
            f"run {name!r} in {where}: column {column} holds {_kind(values[column])}, "
            f"not {expected}"
        )

    seed = values["seed"]
    try:
        values["seed"] = parse_seed(seed)
    except SeedError:
        raise bad("seed", f"a seed (a decimal integer from 0 to {MAX_SEED})") from None
    for column in _TEXT_COLUMNS:
        if not isinstance(values[column], str):
            raise bad(column, "text")
    if values["status"] not in STATUSES:
        raise bad("status", f"one of {', '.join(sorted(STATUSES))}")
    if values["stage"] not in STAGES:
        raise bad("stage", f"one of {', '.join(sorted(STAGES))}")
    if values["run_size"] not in RUN_SIZES:
        raise bad("run_size", f"one of {', '.join(RUN_SIZES)}")
    if values["schedule"] not in ("", *SCHEDULES):
        raise bad("schedule", f"one of {', '.join(SCHEDULES)} or nothing")
    try:
        check_nonce(values["wire_nonce"])
    except WireIdError:
        raise bad("wire_nonce", "64 lowercase hex digits or nothing") from None
    if values["seed_source"] not in SEED_SOURCES:
        raise bad("seed_source", f"one of {', '.join(SEED_SOURCES)}")
    for column in _COUNT_COLUMNS:
        count = values[column]
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise bad(column, "a whole number of 0 or more")
    for column in ("composite", "composite_stderr"):
        score = values[column]
        if score is not None and (
            isinstance(score, bool)
            or not isinstance(score, int | float)
            or not math.isfinite(score)
        ):
            raise bad(column, "a number or empty")
    return RunRow(**values)
