"""The leaderboard page of a bench version: one board per run size, each harness ranked by the
mean composite of its operator-seeded finished runs with the standard error of that mean
(``views.ranking``). Practice runs (a seed the submitter chose) are counted under each board and
never ranked: whoever picks the seed can build the answer key before the run."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from dittobench.spec.judging import NuanceScore
from dittobench.store.listing import Listed
from dittobench.views.frame import Chrome, page
from dittobench.views.html import esc, plus_minus, table
from dittobench.views.identity import DECLARED, identity_text
from dittobench.views.nuance import unofficial_mark
from dittobench.views.pages import run_link
from dittobench.views.ranking import NuanceStanding, Ranked, nuance_standing
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


def _interval(row: BoardRow) -> str:
    standing = row.ranked.standing
    if standing.between_runs:
        return f"between {len(standing.runs)} runs"
    return "the run's own (1 run)"


def _receipts(row: BoardRow) -> str:
    count = len(row.ranked.standing.runs)
    css = "ok" if row.verified == count else "bad"
    text = f"<span class={css}>{row.verified} of {count} verify</span>"
    if row.problem:
        text += f" <span class=muted>{esc(row.problem)}</span>"
    return text


def _windows(row: BoardRow) -> str:
    """Where the row's runs come from: each scoring window (linked) and the public pack."""
    counts: dict[str, int] = {}
    for run in row.ranked.standing.runs:
        counts[run.window_id] = counts.get(run.window_id, 0) + 1
    parts = [
        f'<a href="/windows#{esc(w)}">{esc(w)}</a> ×{n}' if w else f"public pack ×{n}"
        for w, n in sorted(counts.items())
    ]
    return ", ".join(parts)


def _nuance(row: BoardRow) -> str:
    """The row's nuance cell: blank when none of its runs was judged, marked when one was
    judged unofficially, with how many of its runs were judged when not all."""
    found = row.nuance
    if found is None:
        return ""
    cell = plus_minus(found.mean, found.stderr, 4)
    if found.judged < found.runs:
        cell += f" <span class=muted>({found.judged} of {found.runs} runs judged)</span>"
    if not found.official:
        cell += unofficial_mark("judged by another model or prompt than the version's locked judge")
    return cell


def _harness(name: str, measured: str) -> str:
    if not measured:
        return esc(name)
    return f"{esc(name)}<br><span class=muted>{esc(measured)} ({DECLARED})</span>"


def _runs_link(version: str, size: str, harness: str, count: int) -> str:
    query = urlencode(
        {"bench_version": version, "run_size": size, "harness": harness, "status": "done"}
    )
    return f'<a href="/?{esc(query)}">{count}</a>'


def _table(version: str, board: Board) -> str:
    judged = board.judged or any(row.nuance is not None for row in board.rows)
    rows, attrs = [], []
    for row in board.rows:
        entry, standing = row.ranked, row.ranked.standing
        newest = standing.runs[0]
        rows.append(
            [
                str(entry.rank),
                _harness(standing.harness, row.measured),
                plus_minus(standing.mean, standing.stderr, 4),
                *([_nuance(row)] if judged else []),
                _interval(row),
                f"{entry.gap:.4f}" if entry.gap else "–",
                "<span class=warn>tied with the row above</span>" if entry.tied_with_above else "",
                esc(row.tier),
                _runs_link(version, board.run_size, standing.harness, len(standing.runs)),
                _windows(row),
                f'<a href="{run_link(newest.run_id)}">{esc(newest.run_id)}</a>',
                _receipts(row),
            ]
        )
        attrs.append(" class=tied" if entry.tied_with_above else "")
    headers = [
        "Rank",
        "Harness",
        "Mean composite ± SE",
        *(["Nuance ± SE (judged, not ranked)"] if judged else []),
        "SE from",
        "Gap",
        "Tie",
        "Trust tier",
        "Ranked runs",
        "From",
        "Newest run",
        "Receipts",
    ]
    made = table(
        headers,
        rows,
        numeric=frozenset({0, 2, 3, 5, 8} if judged else {0, 2, 4, 7}),
        row_attrs=attrs,
        table_id=f"leaderboard-{board.run_size}",
    )
    if not board.rows:
        made = "<p>No harness has a finished run on a seed the operator drew at this size.</p>"
    note = ""
    if board.practice:
        note = (
            f"<p class=muted>{board.practice} practice run{'s' if board.practice != 1 else ''} "
            "(a seed the submitter chose, or the public pack while a scoring window was open) "
            "left off this board; the runs page lists them, "
            "marked practice.</p>"
        )
    return f"<h2>Run size {esc(board.run_size)}</h2>{made}{note}"


_NUANCE_NOTE = (
    "<p>The <strong>nuance score</strong> (bench 8.0's open questions, read by a locked judge "
    "model after each run) stands in its own column: the mean over a harness's ranked runs that "
    "were judged, with its standard error. It never enters the composite and never changes a "
    "rank; a blank cell is a harness none of whose runs was judged, and "
    "<span class=warn>unofficial</span> marks a score judged by another model or prompt.</p>"
)


def leaderboard_page(
    version: str, versions: Sequence[str], boards: Sequence[Board], chrome: Chrome
) -> str:
    options = "".join(
        f"<option{' selected' if v == version else ''}>{esc(v)}</option>" for v in versions
    )
    form = (
        '<form class=filters method=get action="/leaderboard" aria-label="Choose a version">'
        f"<label for=l-version>Bench version<select id=l-version name=bench_version>{options}"
        "</select></label><button type=submit>Show</button></form>"
    )
    body = (
        f"<h1>Leaderboard · bench {esc(version)}</h1>{form}"
        "<p>One board per run size. A harness is ranked by the <strong>mean composite of its "
        "finished runs on seeds this service drew</strong>, never its best run, with the "
        "standard error of that mean (between its runs; with one run, that run's own). Runs on "
        "a seed the submitter chose are <strong>practice</strong>: the generator is public, so "
        "whoever picks the seed can build the answer key first; they are never ranked. While a "
        '<a href="/windows">scoring window</a> is open, official scores come from its sealed '
        "pack: runs on the public pack of its version and size are practice too; "
        "<em>From</em> says which window each row's runs ran in. A row is "
        "tied with the row above when their gap is within the standard error of the gap, "
        "√(SE₁² + SE₂²); tied rows share a rank. Trust tiers (the weakest of a harness's "
        "runs): <strong>receipt-verified</strong> (run by this service, receipt checked against "
        "the operator's key), <strong>operator-run</strong> (run by this service, no receipt "
        "that verifies), <strong>self-reported</strong> (a run this service did not drive).</p>"
        + (_NUANCE_NOTE if any(b.judged or any(r.nuance for r in b.rows) for b in boards) else "")
        + "".join(_table(version, board) for board in boards)
    )
    if not boards:
        body += "<p>No finished runs under this version yet.</p>"
    return page(f"Leaderboard {version}", body, chrome)


__all__ = ["Board", "BoardRow", "board_row", "leaderboard_page", "weakest_tier"]
