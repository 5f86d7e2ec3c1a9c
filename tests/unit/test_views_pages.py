"""The runs page as HTML: everything from a run is escaped, the pager keeps the filters, practice
runs are marked; the leaderboard page shows means and leaves practice runs off."""

from __future__ import annotations

import re
from dataclasses import replace

from dittobench.store.listing import Listed
from dittobench.views.board import Board, board_row, leaderboard_page
from dittobench.views.frame import Chrome
from dittobench.views.pages import ListedRow, runs_page
from dittobench.views.ranking import RunFilter, leaderboard
from dittobench.views.runs_list import SuiteLine, fold_suites

CHOICES = {"status": ["done"], "bench_version": ["2.0.0"], "run_size": ["small"]}


def row(harness: str) -> ListedRow:
    run = Listed(
        "r-20261201-000000-aaaaaa", "done", 1, "2.0.0", "small", harness, "public-1.1", "",
        "2026-12-01T00:00:00Z", "2026-12-01T00:01:05Z", 12, 12, 0.5, 0.1, job=False,
    )  # fmt: skip
    return ListedRow(run, "self-reported", 0.25, 0.75)


def test_a_hostile_harness_name_is_text() -> None:
    page = runs_page([row('<script>alert("x")</script>')], RunFilter(), CHOICES, Chrome(), 1)
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "1 min 05 s" in page and "0.5000 ± 0.1000" in page


def test_the_pager_keeps_the_filters() -> None:
    chosen = RunFilter(status="done", harness="a&b", sort="composite", descending=False)
    page = runs_page([row("h")] * 3, chosen, CHOICES, Chrome(), 120, offset=50, page_size=50)
    assert "51–53 of 120 rows" in page
    assert 'href="/?status=done&amp;bench_version=&amp;run_size=&amp;harness=a%26b&amp;' in page
    assert "sort=composite&amp;order=asc&amp;offset=0" in page  # previous
    assert "sort=composite&amp;order=asc&amp;offset=100" in page  # next
    first = runs_page([row("h")], RunFilter(), CHOICES, Chrome(), 1)
    assert "rel=prev" not in first and "rel=next" not in first


def test_practice_runs_are_marked_on_the_runs_page() -> None:
    ranked, practice = row("a"), row("b")
    ranked = ListedRow(replace(ranked.run, seed_source="operator"), "self-reported", 0.2, 0.7)
    page = runs_page([ranked, practice], RunFilter(), CHOICES, Chrome(), 2)
    cells = re.findall(r"<tr><td>.*?</tr>", page)
    assert len(cells) == 2
    assert "operator's" in cells[0]
    assert ">practice</span>" in cells[1] and ">practice</span>" not in cells[0]


def test_the_board_page_ranks_means_and_counts_practice() -> None:
    def listed(n: int, harness: str, composite: float, source: str) -> Listed:
        return replace(
            row(harness).run,
            run_id=f"r-20261201-00000{n}-aaaaaa",
            composite=composite,
            seed_source=source,
            created_at=f"2026-12-01T00:00:0{n}Z",
            job=True,
        )

    items = [
        listed(1, "steady", 0.6, "operator"),
        listed(2, "steady", 0.4, "operator"),
        listed(3, "cheat", 0.99, "submitter"),
    ]
    rows = tuple(
        board_row(r, lambda _i: "receipt-verified", lambda _i: None)
        for r in leaderboard(items, "2.0.0", "small")
    )
    page = leaderboard_page("2.0.0", ["2.0.0"], [Board("small", rows, 1)], Chrome())
    assert "cheat" not in page and items[2].run_id not in page
    assert "0.5000 ± 0.1000" in page and "between 2 runs" in page  # mean, SE between runs
    assert items[1].run_id in page  # the newest run is linked
    assert "0 of 2 verify" in page
    assert (
        "1 practice run (a seed the submitter chose, or the public pack while a scoring "
        "window was open) left off this board" in page
    )


def test_a_suite_folds_into_one_row_with_its_count_and_mean() -> None:
    def run(n: int, composite: float | None) -> Listed:
        return replace(
            row("h").run,
            run_id=f"r-20261201-00000{n}-aaaaaa",
            created_at=f"2026-12-01T00:00:0{n}Z",
            composite=composite,
            status="done" if composite is not None else "running",
            submitter="alice",
            job=True,
        )

    items = [run(5, None), run(4, 0.5), run(3, 0.9), run(2, 0.25)]
    places = {i.run_id: ("", "s-20261201-000000-abcdef") for i in items if i.run_id[-8] != "3"}
    places[items[2].run_id] = ("worker-1:42", "")
    folded = fold_suites(items, places)
    assert len(folded) == 2
    suite, alone = folded
    assert isinstance(suite, SuiteLine) and alone == items[2]
    assert len(suite.runs) == 3 and suite.done == 2 and suite.newest == items[0]
    assert suite.mean == 0.375  # the mean of the runs that have a composite
    only = fold_suites(items, places, "s-20261201-000000-abcdef")
    assert only == [items[0], items[1], items[3]]
    rows: list[ListedRow | SuiteLine] = [
        suite,
        ListedRow(items[2], "self-reported", 0.2, 0.7, worker="worker-1:42"),
    ]
    page = runs_page(rows, RunFilter(), CHOICES, Chrome(), 2)
    assert "suite s-20261201-000000-abcdef" in page and "3 runs, 2 done" in page
    assert "mean 0.3750" in page and 'href="/?suite=s-20261201-000000-abcdef"' in page
    assert "<td>worker-1:42</td>" in page and page.count("<td>alice</td>") == 2
    assert '<th scope="col">Submitter</th>' in page and '<th scope="col">Worker</th>' in page
    cells = re.findall(r"<tr[^>]*>(.*?)</tr>", page.split("<tbody>", 1)[1])
    assert {c.count("<td") for c in cells} == {
        len(page.split("<thead>")[1].split("</thead>")[0].split("<th ")) - 1
    }
    listed_only = runs_page(rows[1:], RunFilter(suite="s-1"), CHOICES, Chrome(), 1)
    assert 'name=suite value="s-1"' in listed_only and "id=suite-note" in listed_only
