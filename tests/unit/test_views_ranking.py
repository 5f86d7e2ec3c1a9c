"""The runs list's filters and sorts, and the leaderboard: best run per harness, ties within the
standard error of the gap."""

from __future__ import annotations

import pytest

from dittobench.store.listing import Listed
from dittobench.views.ranking import RunFilter, filtered, gap_stderr, leaderboard


def run(
    n: int,
    harness: str,
    composite: float | None,
    se: float = 0.01,
    status: str = "done",
    version: str = "2.0.0",
) -> Listed:
    return Listed(
        f"r-20261201-00000{n}-aaaaaa", status, n, version, "small", harness, "public-1.1", "",
        f"2026-12-01T00:00:0{n}Z", f"2026-12-01T00:0{n}:00Z", 1, 1, composite,
        None if composite is None else se, job=True,
    )  # fmt: skip


def test_the_best_run_of_each_harness_ranked_with_ties() -> None:
    items = [
        run(1, "a", 0.50, 0.02),
        run(2, "a", 0.60, 0.02),  # a's best
        run(3, "b", 0.58, 0.02),  # gap 0.02 <= sqrt(2) x 0.02: tied with a
        run(4, "c", 0.40, 0.01),  # gap 0.18: not tied
        run(5, "d", 0.90, 0.01, status="failed"),  # not finished: never listed
        run(6, "e", 0.95, 0.01, version="1.1.0"),  # another version
    ]
    ranked = leaderboard(items, "2.0.0")
    assert [r.run.harness for r in ranked] == ["a", "b", "c"]
    assert [r.rank for r in ranked] == [1, 1, 3]
    assert [r.tied_with_above for r in ranked] == [False, True, False]
    assert ranked[0].run.run_id.endswith("2-aaaaaa") and ranked[0].runs_of_harness == 2
    assert ranked[2].gap == pytest.approx(0.18)
    assert gap_stderr(0.03, 0.04) == pytest.approx(0.05)


def test_a_gap_just_beyond_the_error_is_not_a_tie() -> None:
    ranked = leaderboard([run(1, "a", 0.60, 0.03), run(2, "b", 0.549, 0.04)], "2.0.0")
    assert [r.rank for r in ranked] == [1, 2]  # gap 0.051 > 0.05


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
