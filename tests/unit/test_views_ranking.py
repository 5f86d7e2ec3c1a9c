"""The runs list's filters and sorts, and the leaderboard: per bench version and run size, each
harness ranked by the mean composite of its operator-seeded finished runs (never its best run;
practice runs on a submitter's seed never count), with the standard error between its runs (or
its one run's own), ties within the standard error of the gap."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from dittobench.store.listing import Listed
from dittobench.views.board import weakest_tier
from dittobench.views.ranking import (
    RunFilter,
    board_sizes,
    filtered,
    gap_stderr,
    harness_key,
    leaderboard,
    practice_count,
    standing,
)


def run(
    n: int,
    harness: str,
    composite: float | None,
    se: float = 0.01,
    status: str = "done",
    version: str = "2.0.0",
    size: str = "small",
    source: str = "operator",
) -> Listed:
    return Listed(
        f"r-20261201-00000{n}-aaaaaa", status, n, version, size, harness, "public-1.1", "",
        f"2026-12-01T00:00:0{n}Z", f"2026-12-01T00:0{n}:00Z", 1, 1, composite,
        None if composite is None else se, job=True, seed_source=source,
    )  # fmt: skip


def harnesses(items: list[Listed], version: str = "2.0.0", size: str = "small") -> list[str]:
    return [r.standing.harness for r in leaderboard(items, version, size)]


def test_one_run_each_ranked_with_ties() -> None:
    items = [
        run(1, "a", 0.60, 0.02),
        run(2, "b", 0.58, 0.02),  # gap 0.02 <= sqrt(2) x 0.02: tied with a
        run(3, "c", 0.40, 0.01),  # gap 0.18: not tied
        run(4, "d", 0.90, 0.01, status="failed"),  # not finished: never listed
        run(5, "e", 0.95, 0.01, version="1.1.0"),  # another version
    ]
    ranked = leaderboard(items, "2.0.0", "small")
    assert [r.standing.harness for r in ranked] == ["a", "b", "c"]
    assert [r.rank for r in ranked] == [1, 1, 3]
    assert [r.tied_with_above for r in ranked] == [False, True, False]
    # One run: the interval is the run's own standard error.
    assert ranked[0].standing.stderr == 0.02 and not ranked[0].standing.between_runs
    assert ranked[2].gap == pytest.approx(0.18)
    assert gap_stderr(0.03, 0.04) == pytest.approx(0.05)


def test_a_gap_just_beyond_the_error_is_not_a_tie() -> None:
    items = [run(1, "a", 0.60, 0.03), run(2, "b", 0.549, 0.04)]
    assert [r.rank for r in leaderboard(items, "2.0.0", "small")] == [1, 2]  # 0.051 > 0.05


def test_practice_runs_never_reach_the_board() -> None:
    """A submitter who pins the seed can build the answer key first: its runs are practice."""
    items = [
        run(1, "cheat", 0.99, source="submitter"),
        run(2, "cheat", 0.98, source="submitter"),
        run(3, "honest", 0.30),
    ]
    assert harnesses(items) == ["honest"]
    assert practice_count(items, "2.0.0", "small") == 2
    # The cheat's one operator-seeded run is what ranks it, at what it scored there.
    items.append(run(4, "cheat", 0.05))
    ranked = leaderboard(items, "2.0.0", "small")
    assert [r.standing.harness for r in ranked] == ["honest", "cheat"]
    assert ranked[1].standing.mean == pytest.approx(0.05)
    assert [i.run_id for i in ranked[1].standing.runs] == [items[3].run_id]
    assert [r.standing.harness for r in leaderboard(items[:2], "2.0.0", "small")] == []


def test_one_harness_under_several_spellings_of_its_address_is_one_row() -> None:
    """Otherwise aliases would let a submitter show its best-scoring spelling on top."""
    items = [
        run(1, "http://H.example:80/", 0.90),
        run(2, "http://h.example", 0.10),
        run(3, "http://h.example//", 0.20),
        run(4, "https://h.example", 0.50),  # another endpoint
        run(5, "http://h.example:8080", 0.30),  # another port
        run(6, "replay:sha256:ABC", 0.40),  # not an address: as it stands
    ]
    ranked = leaderboard(items, "2.0.0", "small")
    rows = {r.standing.harness: len(r.standing.runs) for r in ranked}
    assert rows == {
        "http://h.example": 3,
        "https://h.example": 1,
        "http://h.example:8080": 1,
        "replay:sha256:ABC": 1,
    }
    assert harness_key("http://[::1]:80/x/") == "http://[::1]/x"
    assert harness_key("http://h.example:99999") == "http://h.example:99999"  # unreadable port


def test_the_mean_ranks_not_the_best_run() -> None:
    items = [
        run(1, "lucky", 0.90, 0.01),  # lucky's best run beats steady's every run ...
        run(2, "lucky", 0.20, 0.01),
        run(3, "lucky", 0.22, 0.01),  # ... but its mean is 0.44
        run(4, "steady", 0.60, 0.01),
        run(5, "steady", 0.62, 0.01),
    ]
    ranked = leaderboard(items, "2.0.0", "small")
    assert [r.standing.harness for r in ranked] == ["steady", "lucky"]
    lucky = ranked[1].standing
    assert lucky.mean == pytest.approx(0.44) and lucky.between_runs
    sd = math.sqrt(((0.90 - 0.44) ** 2 + (0.20 - 0.44) ** 2 + (0.22 - 0.44) ** 2) / 2)
    assert lucky.stderr == pytest.approx(sd / math.sqrt(3))  # between runs, not within
    assert [i.seed for i in lucky.runs] == [3, 2, 1]  # newest first
    # The gap to steady (0.17) is inside sqrt(SE_steady^2 + SE_lucky^2) (about 0.23): a tie.
    assert ranked[1].tied_with_above and ranked[1].rank == 1


def test_sizes_and_versions_are_never_mixed() -> None:
    items = [
        run(1, "a", 0.80, size="small"),
        run(2, "a", 0.20, size="full"),
        run(3, "b", 0.50, size="full"),
        run(4, "b", 0.70, size="small", version="1.1.0"),
        run(5, "c", 0.40, size="medium", source="submitter"),
    ]
    full = leaderboard(items, "2.0.0", "full")
    assert [(r.standing.harness, r.standing.mean) for r in full] == [("b", 0.50), ("a", 0.20)]
    small = leaderboard(items, "2.0.0", "small")
    assert [(r.standing.harness, r.standing.mean) for r in small] == [("a", 0.80)]
    assert harnesses(items, "1.1.0", "small") == ["b"]
    assert harnesses(items, "2.0.0", "medium") == []
    # A board for every size with a finished run, largest first; practice alone makes one.
    assert board_sizes(items, "2.0.0") == ["full", "medium", "small"]
    assert board_sizes(items, "1.1.0") == ["small"]


def test_runs_that_agree_keep_their_own_uncertainty() -> None:
    """Two equal runs have no spread between them, but each is a sample of cases: the mean's
    standard error is theirs carried to it, never 0 (a 0 would break every tie above it)."""
    same = [run(1, "a", 0.5, 0.02), run(2, "a", 0.5, 0.03)]
    made = standing("a", same)
    assert made.mean == 0.5 and not made.between_runs
    assert made.stderr == pytest.approx(math.sqrt(0.02**2 + 0.03**2) / 2)
    assert standing("a", [replace(same[0], composite_stderr=None)]).stderr == 0.0


def test_a_harness_is_as_trusted_as_its_weakest_run() -> None:
    assert weakest_tier(["receipt-verified", "operator-run"]) == "operator-run"
    assert weakest_tier(["receipt-verified", "self-reported"]) == "self-reported"
    assert weakest_tier(["receipt-verified"]) == "receipt-verified"


def test_filters_and_sorts_keep_missing_values_last() -> None:
    items = [run(1, "alpha", 0.2), run(2, "beta", None, status="running"), run(3, "alpha", 0.7)]
    by_score = filtered(items, RunFilter(sort="composite", descending=True))
    assert [i.composite for i in by_score] == [0.7, 0.2, None]
    ascending = filtered(items, RunFilter(sort="composite", descending=False))
    assert [i.composite for i in ascending] == [0.2, 0.7, None]
    assert [i.harness for i in filtered(items, RunFilter(harness="ALP"))] == ["alpha", "alpha"]
    assert [i.status for i in filtered(items, RunFilter(status="running"))] == ["running"]
    newest = filtered(items, RunFilter())
    assert [i.seed for i in newest] == [3, 2, 1]
    by_duration = filtered(items, RunFilter(sort="duration", descending=False))
    assert [i.seed for i in by_duration] == [1, 2, 3]


def test_a_command_line_run_is_never_ranked() -> None:
    """Whoever runs the command holds its seed, drawn or not: only runs the service drove rank."""
    local = replace(run(1, "local", 0.99), job=False)
    assert harnesses([local, run(2, "served", 0.30)]) == ["served"]
