"""The board beside scoring windows: a public-pack run made while a window of its version and
size was open is practice (whoever drew its seed); the window's own runs, runs of other sizes or
versions, and runs before the window opened or after its reveal are ranked. The windows page
shows each window's commitment and state."""

from __future__ import annotations

from dataclasses import replace

from dittobench.store.listing import Listed
from dittobench.store.windows import OPEN, REVEALED, WindowRow
from dittobench.views.frame import Chrome
from dittobench.views.ranking import beside_window, leaderboard, practice_count
from dittobench.views.windows import windows_page

WINDOW = WindowRow(
    "w-1", "6.0.0", "small", "sealed", "ab" * 32, "/p", OPEN, "operator", "2026-12-01T10:00:00Z"
)
REVEALED_WINDOW = replace(WINDOW, state=REVEALED, revealed_at="2026-12-01T12:00:00Z")


def run(harness: str, at: str, window: str = "", size: str = "small") -> Listed:
    return Listed(
        f"r-{harness}-{at}", "done", 1, "6.0.0", size, harness, "public-3.0", "", at, at, 1, 1,
        0.5, 0.01, job=True, seed_source="operator", window_id=window,
    )  # fmt: skip


def test_public_pack_runs_while_a_window_is_open_are_practice() -> None:
    before = run("a", "2026-12-01T09:00:00Z")
    during = run("b", "2026-12-01T11:00:00Z")
    inside = run("c", "2026-12-01T11:00:00Z", "w-1")
    other_size = run("d", "2026-12-01T11:00:00Z", size="medium")
    after = run("e", "2026-12-01T13:00:00Z")
    items = [before, during, inside, other_size, after]
    assert [beside_window(i, [WINDOW]) for i in items] == [False, True, False, False, True]
    assert [beside_window(i, [REVEALED_WINDOW]) for i in items] == [
        False,
        True,
        False,
        False,
        False,
    ]
    ranked = {r.standing.harness for r in leaderboard(items, "6.0.0", "small", [REVEALED_WINDOW])}
    assert ranked == {"a", "c", "e"}
    assert practice_count(items, "6.0.0", "small", [REVEALED_WINDOW]) == 1
    assert practice_count(items, "6.0.0", "small") == 0  # no window: nothing is practice
    same_second = run("f", REVEALED_WINDOW.revealed_at)  # made as it was revealed: practice
    assert beside_window(same_second, [REVEALED_WINDOW])


def test_the_windows_page_shows_commitment_and_state() -> None:
    view = {
        "window_id": "w-1<x>", "state": "revealed", "bench_version": "6.0.0", "run_size": "small",
        "pack_sha256": "ab" * 32, "opened_at": "2026-12-01T10:00:00Z",
        "revealed_at": "2026-12-01T12:00:00Z", "pack_url": "/v1/windows/w-1/pack.tar.gz",
    }  # fmt: skip
    page = windows_page([view], 3, Chrome())
    assert "ab" * 32 in page and "w-1&lt;x&gt;" in page and "w-1<x>" not in page
    assert "revealed</span> 2026-12-01T12:00:00Z" in page and "pack.tar.gz</a>" in page
    assert "The log holds 3 entries" in page
    assert "No scoring window has been opened" in windows_page([], 0, Chrome())
