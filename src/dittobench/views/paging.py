"""Long tables cut into pages on the server, and sorted by a column: ``?page=N&per=50`` (at most
``MAX_PER`` rows a page) and ``?sort=score`` (``-score`` for descending). A page past the last
shows the last; the links a page prints keep its filters, its sort and its page size. Pure:
numbers and queries in, numbers and queries out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar
from urllib.parse import urlencode

from dittobench.spec.report import CaseScore

PER: Final = 50
"""Rows a page shows unless ``per`` says otherwise."""
MAX_PER: Final = 200

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Paging:
    """Page ``page`` (from 1) of ``pages`` with ``per`` rows each, over ``total`` rows."""

    page: int
    per: int
    total: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per))

    @property
    def start(self) -> int:
        """The index of the page's first row."""
        return (self.page - 1) * self.per

    @property
    def end(self) -> int:
        return min(self.total, self.start + self.per)

    def rows(self, items: Sequence[T]) -> tuple[T, ...]:
        return tuple(items[self.start : self.end])

    @property
    def caption(self) -> str:
        """``rows 51–100 of 230, page 2 of 5`` (``no rows`` when there is none)."""
        if self.total == 0:
            return "no rows"
        return f"rows {self.start + 1}–{self.end} of {self.total}, page {self.page} of {self.pages}"


def paging(page: int, per: int, total: int) -> Paging:
    """``page`` of ``total`` rows, ``per`` a page: ``per`` held to 1..``MAX_PER``, ``page`` to
    1..the last page."""
    size = min(max(per, 1), MAX_PER)
    made = Paging(1, size, max(total, 0))
    return Paging(min(max(page, 1), made.pages), size, made.total)


@dataclass(frozen=True, slots=True)
class Pager:
    """The "page N of M" navigation: the query of each page it links ("" for none)."""

    paging: Paging
    first: str
    previous: str
    next: str
    last: str


def pager(made: Paging, query: Mapping[str, str]) -> Pager:
    """The navigation of ``made``; every link keeps ``query`` (filters, sort, size)."""

    def at(page: int) -> str:
        return urlencode({**_kept(query), "page": page, "per": made.per})

    back, forward = made.page > 1, made.page < made.pages
    return Pager(
        made,
        at(1) if back else "",
        at(made.page - 1) if back else "",
        at(made.page + 1) if forward else "",
        at(made.pages) if forward else "",
    )


def _kept(query: Mapping[str, str]) -> dict[str, str]:
    """The query's parameters that say something (an empty filter is left out)."""
    return {name: value for name, value in query.items() if value}


CASE_SORTS: Final[Mapping[str, Callable[[CaseScore], tuple[Any, ...]]]] = {
    "case": lambda c: (c.case_id,),
    "score": lambda c: (c.score, c.case_id),
    "category": lambda c: (c.category, c.case_id),
    "kind": lambda c: (c.kind, c.case_id),
    "latency": lambda c: (c.latency_ms, c.case_id),
}
"""The columns the cases' table sorts by, each with its key (ties by case id)."""


@dataclass(frozen=True, slots=True)
class Sort:
    """A chosen sort: the column (``""``: the report's order) and its direction."""

    column: str = ""
    descending: bool = False

    @property
    def text(self) -> str:
        """As the query writes it: ``score``, ``-score``, or ``""``."""
        return f"{'-' if self.descending else ''}{self.column}" if self.column else ""


def parse_sort(text: str, columns: Mapping[str, object] = CASE_SORTS) -> Sort:
    """``score`` or ``-score``; an unknown column is the report's order (``Sort()``)."""
    name = text.removeprefix("-")
    if name not in columns:
        return Sort()
    return Sort(name, text.startswith("-"))


def sort_cases(cases: Sequence[CaseScore], chosen: Sort) -> tuple[CaseScore, ...]:
    if not chosen.column:
        return tuple(cases)
    return tuple(sorted(cases, key=CASE_SORTS[chosen.column], reverse=chosen.descending))


@dataclass(frozen=True, slots=True)
class SortLink:
    """A table header that sorts: its text, the query of its link, and how the table is sorted
    by it now (``ascending``, ``descending`` or ``none``, for ``aria-sort``)."""

    label: str
    query: str
    state: str


def sort_link(label: str, column: str, chosen: Sort, query: Mapping[str, str]) -> SortLink:
    """The header of ``column``: a link that sorts by it ascending, or descending when it is
    the ascending sort now; back to page 1, keeping ``query`` (filters, page size)."""
    flip = chosen.column == column and not chosen.descending
    wanted = Sort(column, flip)
    state = "none"
    if chosen.column == column:
        state = "descending" if chosen.descending else "ascending"
    return SortLink(label, urlencode({**_kept(query), "sort": wanted.text}), state)


__all__ = [
    "CASE_SORTS",
    "MAX_PER",
    "PER",
    "Pager",
    "Paging",
    "Sort",
    "SortLink",
    "pager",
    "paging",
    "parse_sort",
    "sort_cases",
    "sort_link",
]
