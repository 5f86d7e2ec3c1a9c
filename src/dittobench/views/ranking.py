"""Which runs the lists show and in what order: the runs page's filters and sorts, and the
leaderboard (per bench version, the best finished run of each harness, ranked by composite,
a row tied with the one above when their gap is inside the standard error of the gap).

Pure: lists of ``store.listing.Listed`` in, lists out."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from dittobench.store.listing import Listed

SORTS: dict[str, str] = {
    "created": "started",
    "composite": "composite",
    "harness": "harness",
    "status": "status",
    "duration": "duration",
    "bench_version": "bench version",
}


@dataclass(frozen=True, slots=True)
class RunFilter:
    status: str = ""
    bench_version: str = ""
    run_size: str = ""
    harness: str = ""
    """A substring of the harness."""
    sort: str = "created"
    descending: bool = True


def seconds_between(start: str, end: str) -> int | None:
    """Seconds from one ``YYYY-MM-DDTHH:MM:SSZ`` stamp to another (None when unreadable)."""
    from datetime import datetime

    try:
        a = datetime.strptime(start, "%Y-%m-%dT%H:%M:%SZ")  # noqa: DTZ007 - both UTC stamps
        b = datetime.strptime(end, "%Y-%m-%dT%H:%M:%SZ")  # noqa: DTZ007
    except ValueError:
        return None
    return int((b - a).total_seconds())


def _key(item: Listed, sort: str) -> tuple[int, object]:
    """Missing values sort last whichever the direction (the flag comes first)."""
    if sort == "composite":
        return (item.composite is None, item.composite or 0.0)
    if sort == "duration":
        took = seconds_between(item.created_at, item.updated_at)
        return (took is None, took or 0)
    if sort in ("harness", "status", "bench_version"):
        return (False, getattr(item, sort))
    return (False, (item.created_at, item.run_id))


def filtered(items: Sequence[Listed], chosen: RunFilter) -> list[Listed]:
    kept = [
        item
        for item in items
        if (not chosen.status or item.status == chosen.status)
        and (not chosen.bench_version or item.bench_version == chosen.bench_version)
        and (not chosen.run_size or item.run_size == chosen.run_size)
        and (not chosen.harness or chosen.harness.lower() in item.harness.lower())
    ]
    sort = chosen.sort if chosen.sort in SORTS else "created"
    present = [i for i in kept if not _key(i, sort)[0]]
    absent = [i for i in kept if _key(i, sort)[0]]
    present.sort(key=lambda i: _key(i, sort)[1], reverse=chosen.descending)  # type: ignore[arg-type,return-value]
    return present + absent


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    run: Listed
    tied_with_above: bool
    gap: float
    """Composite gap to the row above (0 for the first)."""
    runs_of_harness: int


def gap_stderr(a: float | None, b: float | None) -> float:
    return math.sqrt((a or 0.0) ** 2 + (b or 0.0) ** 2)


def leaderboard(items: Sequence[Listed], bench_version: str) -> list[Ranked]:
    """The best finished run of each harness under ``bench_version``, best first. Ranks are
    shared down a chain of ties: a row whose gap to the row above is within the standard error
    of that gap, sqrt(SE_above^2 + SE^2), keeps the rank above it."""
    best: dict[str, Listed] = {}
    counts: dict[str, int] = {}
    for item in items:
        if item.bench_version != bench_version or item.status != "done":
            continue
        if item.composite is None:
            continue
        counts[item.harness] = counts.get(item.harness, 0) + 1
        held = best.get(item.harness)
        if held is None or (item.composite, item.created_at) > (
            held.composite or 0.0,
            held.created_at,
        ):
            best[item.harness] = item
    ordered = sorted(best.values(), key=lambda i: (-(i.composite or 0.0), i.harness))
    ranked: list[Ranked] = []
    for index, item in enumerate(ordered):
        if index == 0:
            ranked.append(Ranked(1, item, False, 0.0, counts[item.harness]))
            continue
        above = ranked[-1]
        gap = (above.run.composite or 0.0) - (item.composite or 0.0)
        tied = gap <= gap_stderr(above.run.composite_stderr, item.composite_stderr)
        rank = above.rank if tied else index + 1
        ranked.append(Ranked(rank, item, tied, gap, counts[item.harness]))
    return ranked


__all__ = [
    "SORTS",
    "Ranked",
    "RunFilter",
    "filtered",
    "gap_stderr",
    "leaderboard",
    "seconds_between",
]
