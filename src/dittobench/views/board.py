"""The leaderboard page of a bench version: one board per run size, each harness ranked by the
mean composite of its operator-seeded finished runs with the standard error of that mean
(``views.ranking``). Practice runs (a seed the submitter chose) are counted under each board and
never ranked: whoever picks the seed can build the answer key before the run
(``templates/leaderboard.html``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from dittobench.spec.judging import NuanceScore
from dittobench.store.listing import Listed
from dittobench.views.frame import Chrome
from dittobench.views.identity import identity_text
from dittobench.views.ranking import NuanceStanding, Ranked, nuance_standing
from dittobench.views.templating import render
from dittobench.views.trust import OPERATOR, SELF, VERIFIED, ReceiptCheck

_TRUST_ORDER = (SELF, OPERATOR, VERIFIED)


def weakest_tier(tiers: Iterable[str]) -> str:
    """A mean is only as trusted as the least trusted of its runs."""
    return min(tiers, key=_TRUST_ORDER.index, default=SELF)


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One ranked harness with what its runs' receipts say."""

    ranked: Ranked
    tier: str
    """The weakest trust tier among its runs."""
    verified: int
    """How many of its runs have a receipt that verifies against the operator's key."""
    problem: str = ""
    """The first failed check of a receipt that does not verify, with its run."""
    nuance: NuanceStanding | None = None
    """The mean nuance score of its judged ranked runs, shown beside the mean composite and
    never in it (None: none was judged)."""
    measured: str = ""
    """What its newest run's harness declared it is (adapter, system, reader), in words."""


def board_row(
    ranked: Ranked,
    tier_of: Callable[[Listed], str],
    check_of: Callable[[Listed], ReceiptCheck | None],
    nuances: Mapping[str, NuanceScore] | None = None,
    identities: Mapping[str, Mapping[str, str]] | None = None,
) -> BoardRow:
    """``ranked`` with its runs' tiers and receipt checks gathered, the nuance score of its
    runs (``nuances``: run id -> its report's nuance score) and what its newest run's harness
    declared it is (``identities``: run id -> the report's identity)."""
    runs = ranked.standing.runs
    checks = [(run, check_of(run)) for run in runs]
    verified = sum(1 for _, check in checks if check is not None and check.ok)
    problem = next(
        (f"{run.run_id}: {check.summary}" for run, check in checks if check and not check.ok), ""
    )
    nuance = nuance_standing(runs, nuances or {})
    measured = identity_text((identities or {}).get(runs[0].run_id, {})) if runs else ""
    tier = weakest_tier(tier_of(run) for run in runs)
    return BoardRow(ranked, tier, verified, problem, nuance, measured)


@dataclass(frozen=True, slots=True)
class Board:
    """The board of one run size: its rows, best first, and the practice runs left off it."""

    run_size: str
    rows: tuple[BoardRow, ...]
    practice: int
    judged: bool = False
    """The board's version has open questions: a nuance column beside the composite."""


def sources(row: BoardRow) -> tuple[tuple[str, int], ...]:
    """Where the row's runs come from: (scoring window, or "" for the public pack; how many)."""
    counts: dict[str, int] = {}
    for run in row.ranked.standing.runs:
        counts[run.window_id] = counts.get(run.window_id, 0) + 1
    return tuple(sorted(counts.items()))


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One row of a board as shown: the row, where its runs come from, the runs page's query
    of its ranked runs."""

    row: BoardRow
    sources: tuple[tuple[str, int], ...]
    runs_query: str


@dataclass(frozen=True, slots=True)
class BoardView:
    """One board as shown; ``judged``: a column for the nuance score."""

    board: Board
    judged: bool
    lines: tuple[BoardLine, ...]


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    version: str
    versions: tuple[str, ...]
    boards: tuple[BoardView, ...]
    judged: bool
    """A board has a nuance column: the page says what the nuance score is."""


def _view(version: str, board: Board) -> BoardView:
    lines = tuple(
        BoardLine(
            row,
            sources(row),
            urlencode(
                {
                    "bench_version": version,
                    "run_size": board.run_size,
                    "harness": row.ranked.standing.harness,
                    "status": "done",
                }
            ),
        )
        for row in board.rows
    )
    judged = board.judged or any(row.nuance is not None for row in board.rows)
    return BoardView(board, judged, lines)


def leaderboard_page(
    version: str, versions: Sequence[str], boards: Sequence[Board], chrome: Chrome
) -> str:
    views = tuple(_view(version, board) for board in boards)
    judged = any(b.judged or any(r.nuance for r in b.rows) for b in boards)
    page = LeaderboardPage(version, tuple(versions), views, judged)
    return render("leaderboard.html", page=page, chrome=chrome)


__all__ = [
    "Board",
    "BoardLine",
    "BoardRow",
    "BoardView",
    "LeaderboardPage",
    "board_row",
    "leaderboard_page",
    "sources",
    "weakest_tier",
]
