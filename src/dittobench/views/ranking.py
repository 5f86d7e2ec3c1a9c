"""Which runs the lists show and in what order: the runs page's filters and sorts, and the
leaderboard: per bench version and run size (never mixed), each harness ranked by the mean
composite of its finished runs on seeds the operator drew (never its best run; runs on a seed a
submitter chose, or on the public pack while a scoring window of the same version and size was
open, are practice and never count), a row tied with the one above when their gap is
inside the standard error of the gap.

Pure: lists of ``store.listing.Listed`` in, lists out."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from dittobench.spec.judging import NuanceScore
from dittobench.spec.seeds import OPERATOR
from dittobench.store.listing import Listed
from dittobench.store.windows import WindowRow

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
    suite: str = ""
    """Only the runs of this multi-seed suite, one row each (``views.runs_list``)."""


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


RUN_SIZES = ("long", "full", "medium", "small")
"""The order the leaderboard shows its boards in, one per run size."""


def beside_window(item: Listed, windows: Sequence[WindowRow]) -> bool:
    """A run outside any window made while a window of its version and size was open: on the
    public pack while official scores come from a sealed one."""
    return not item.window_id and any(
        w.covers(item.bench_version, item.run_size, item.created_at) for w in windows
    )


def ranked_run(item: Listed, windows: Sequence[WindowRow] = ()) -> bool:
    """A run that counts on the board: finished, scored, on a seed the operator drew, and not
    on the public pack while a window of its version and size was open."""
    return (
        item.status == "done"
        and item.job  # the service drove it: a command-line run's operator holds its seed
        and item.composite is not None
        and item.seed_source == OPERATOR
        and not beside_window(item, windows)
    )


def practice(item: Listed, windows: Sequence[WindowRow] = ()) -> bool:
    """A run on a seed someone other than the operator chose, or on the public pack while a
    window was open (``beside_window``): listed, never ranked."""
    return item.seed_source != OPERATOR or beside_window(item, windows)


_DEFAULT_PORTS = {"http": 80, "https": 443}


def harness_key(harness: str) -> str:
    """One harness under every spelling of its address, so aliases share a row: scheme and host
    in lower case, the scheme's default port and trailing slashes dropped ("HTTP://H.example:80/"
    is "http://h.example"); anything not an http(s) address stays as it is."""
    try:
        parts = urlsplit(harness.strip())
        scheme, host, port = parts.scheme.lower(), parts.hostname, parts.port
    except ValueError:
        return harness
    if scheme not in _DEFAULT_PORTS or not host:
        return harness
    host = f"[{host}]" if ":" in host else host  # an IPv6 literal keeps its brackets
    netloc = host if port in (None, _DEFAULT_PORTS[scheme]) else f"{host}:{port}"
    return urlunsplit((scheme, netloc, parts.path.rstrip("/"), parts.query, ""))


@dataclass(frozen=True, slots=True)
class Standing:
    """One harness on one board (a bench version and a run size): its operator-seeded
    finished runs, newest first, and their mean composite with its standard error."""

    harness: str
    runs: tuple[Listed, ...]
    mean: float
    stderr: float
    between_runs: bool
    """True: ``stderr`` is the standard error of the mean between the runs (sd / sqrt(n));
    False: it is the runs' own ``composite_stderr`` carried to their mean (sqrt(sum se^2) / n),
    which is larger when the runs happen to agree (two equal runs are not a certain mean) or
    when there is one run."""


@dataclass(frozen=True, slots=True)
class Ranked:
    rank: int
    standing: Standing
    tied_with_above: bool
    gap: float
    """Gap in mean composite to the row above (0 for the first)."""


def gap_stderr(a: float | None, b: float | None) -> float:
    return math.sqrt((a or 0.0) ** 2 + (b or 0.0) ** 2)


def mean_of_runs(values: Sequence[float], errors: Sequence[float]) -> tuple[float, float, bool]:
    """The mean of runs' scores (one or more), its standard error and whether that error is
    the spread between the runs: the larger of sd / sqrt(n) and the runs' own errors carried to
    the mean, sqrt(sum se^2) / n (with one run, its own)."""
    mean = math.fsum(values) / len(values)
    within = math.sqrt(math.fsum(err**2 for err in errors)) / len(values)
    if len(values) == 1:
        return mean, within, False
    spread = math.fsum((value - mean) ** 2 for value in values) / (len(values) - 1)
    between = math.sqrt(spread / len(values))
    return mean, max(between, within), between >= within


def standing(harness: str, runs: Sequence[Listed]) -> Standing:
    """The mean of ``runs``' composites (one or more) and its standard error."""
    mean, stderr, between = mean_of_runs(
        [item.composite or 0.0 for item in runs], [item.composite_stderr or 0.0 for item in runs]
    )
    return Standing(harness, tuple(runs), mean, stderr, between)


@dataclass(frozen=True, slots=True)
class NuanceStanding:
    """A harness's nuance score on a board, beside its mean composite and never in it (the
    board ranks by the composite alone): the mean over its ranked runs that have a nuance score,
    with its standard error (``mean_of_runs``)."""

    mean: float
    stderr: float
    judged: int
    """How many of its ranked runs have a nuance score."""
    runs: int
    """How many ranked runs it has."""
    official: bool
    """Every judged run was judged by its version's locked judge."""


def nuance_standing(
    runs: Sequence[Listed], nuances: Mapping[str, NuanceScore]
) -> NuanceStanding | None:
    """The nuance score of a row's ranked ``runs`` (``nuances``: run id -> its report's nuance
    score); None when none of them was judged."""
    scored = [
        found
        for item in runs
        if (found := nuances.get(item.run_id)) is not None and found.score is not None
    ]
    if not scored:
        return None
    mean, stderr, _ = mean_of_runs([n.score or 0.0 for n in scored], [n.stderr for n in scored])
    return NuanceStanding(mean, stderr, len(scored), len(runs), all(n.official for n in scored))


def leaderboard(
    items: Sequence[Listed],
    bench_version: str,
    run_size: str,
    windows: Sequence[WindowRow] = (),
) -> list[Ranked]:
    """Each harness's standing on the board of ``bench_version`` and ``run_size`` (its address
    read as ``harness_key``), by mean
    composite over its operator-seeded finished runs (``ranked_run``), best first; practice
    runs, other versions and other sizes never count. Ranks are shared down a chain of ties: a
    row whose gap to the row above is within the standard error of that gap,
    sqrt(SE_above^2 + SE^2), keeps the rank above it."""
    runs: dict[str, list[Listed]] = {}
    for item in items:
        if (
            item.bench_version == bench_version
            and item.run_size == run_size
            and ranked_run(item, windows)
        ):
            runs.setdefault(harness_key(item.harness), []).append(item)
    standings = [
        standing(harness, sorted(found, key=lambda i: (i.created_at, i.run_id), reverse=True))
        for harness, found in runs.items()
    ]
    standings.sort(key=lambda s: (-s.mean, s.harness))
    ranked: list[Ranked] = []
    for index, row in enumerate(standings):
        if index == 0:
            ranked.append(Ranked(1, row, False, 0.0))
            continue
        above = ranked[-1]
        gap = above.standing.mean - row.mean
        tied = gap <= gap_stderr(above.standing.stderr, row.stderr)
        ranked.append(Ranked(above.rank if tied else index + 1, row, tied, gap))
    return ranked


def practice_count(
    items: Sequence[Listed],
    bench_version: str,
    run_size: str,
    windows: Sequence[WindowRow] = (),
) -> int:
    """Finished runs of the board's version and size left off it: a submitter chose the seed,
    or they ran on the public pack while a window was open."""
    return sum(
        1
        for item in items
        if item.bench_version == bench_version
        and item.run_size == run_size
        and item.status == "done"
        and practice(item, windows)
    )


def board_sizes(items: Sequence[Listed], bench_version: str) -> list[str]:
    """The run sizes of ``bench_version`` with a finished run (ranked or practice), largest
    first: one board each, never mixed."""
    found = {i.run_size for i in items if i.bench_version == bench_version and i.status == "done"}
    return [size for size in RUN_SIZES if size in found] + sorted(found - set(RUN_SIZES))


__all__ = [
    "RUN_SIZES",
    "SORTS",
    "NuanceStanding",
    "Ranked",
    "RunFilter",
    "Standing",
    "beside_window",
    "board_sizes",
    "filtered",
    "gap_stderr",
    "leaderboard",
    "mean_of_runs",
    "nuance_standing",
    "practice",
    "practice_count",
    "ranked_run",
    "seconds_between",
    "standing",
]
