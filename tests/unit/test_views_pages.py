"""The runs page as HTML: everything from a run is escaped, and the pager keeps the filters."""

from __future__ import annotations

from dittobench.store.listing import Listed
from dittobench.views.frame import Chrome
from dittobench.views.pages import ListedRow, runs_page
from dittobench.views.ranking import RunFilter

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
    assert "51–53 of 120 runs" in page
    assert 'href="/?status=done&amp;bench_version=&amp;run_size=&amp;harness=a%26b&amp;' in page
    assert "sort=composite&amp;order=asc&amp;offset=0" in page  # previous
    assert "sort=composite&amp;order=asc&amp;offset=100" in page  # next
    first = runs_page([row("h")], RunFilter(), CHOICES, Chrome(), 1)
    assert "rel=prev" not in first and "rel=next" not in first
