"""The served pages about runs: the runs list (filters and sorts as a plain GET form), one run
(live progress while it runs, then the summary, the chart, the weakest categories and the
per-case table with its filters and search) and one case (what was asked, the evidence, the
answer as graded, the calls, the rule and why): ``templates/runs.html``, ``run.html``,
``case.html``. While a run goes its page also lists the cases recorded so far with their
provisional scores. Links and forms only: the live progress bar and the provisional table's
refresh are the one thing a script adds (``static/live.js``), and the page reads without it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final
from urllib.parse import parse_qsl, quote, urlencode

from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.judging import NuanceScore
from dittobench.spec.report import CaseScore, CategoryStat, ScoreReport
from dittobench.spec.seeds import FINISHED
from dittobench.spec.vocab import JOB_STATUSES, JobStatus
from dittobench.store import RunRow
from dittobench.store.listing import Listed
from dittobench.views.chart import Chart
from dittobench.views.frame import Chrome
from dittobench.views.model import CaseDetail
from dittobench.views.nuance import OpenText
from dittobench.views.paging import PER, Pager, Sort, SortLink, pager, paging, sort_cases, sort_link
from dittobench.views.ranking import SORTS, RunFilter, seconds_between
from dittobench.views.report import CaseLine, CaseText, case_lines, chart, measured, weakest
from dittobench.views.runs_list import SuiteLine
from dittobench.views.templating import render

RUNNING: Final[frozenset[JobStatus]] = frozenset(s for s in JOB_STATUSES if s not in FINISHED)
"""The job statuses of a run that is not over yet (queued or on its way)."""

Select = tuple[str, str, tuple[tuple[str, str], ...], str]
"""A select of a filter form: name, label, (value, text) options, the chosen value."""


def run_link(run_id: str) -> str:
    return f"/runs/{quote(run_id)}"


def case_link(run_id: str, case_id: str, back: str = "") -> str:
    """A case's page; ``back``: the run page's query it was reached from (``back_query``), so
    its link back returns to the same filters, sort and page."""
    made = f"/runs/{quote(run_id)}/cases/{quote(case_id)}"
    return f"{made}?{urlencode({'back': back})}" if back else made


BACK_KEYS = ("kind", "category", "passed", "rule", "q", "sort", "page", "per")
"""What a case page's link back to its run page may carry."""


def back_query(text: str) -> str:
    """``text`` (a run page's query) with only the run page's own parameters kept, at most 200
    characters each, re-encoded: what a case page's link back may carry."""
    kept = [(k, v[:200]) for k, v in parse_qsl(text[:2000]) if k in BACK_KEYS and v]
    return urlencode(kept)


def _any(values: Sequence[str]) -> tuple[tuple[str, str], ...]:
    return (("", "any"), *((v, v) for v in values))


def _duration(item: Listed) -> str:
    took = seconds_between(item.created_at, item.updated_at)
    if took is None:
        return "–"
    return f"{took // 60} min {took % 60:02d} s" if took >= 60 else f"{took} s"


@dataclass(frozen=True, slots=True)
class ListedRow:
    run: Listed
    tier: str
    tool_mean: float | None
    memory_mean: float | None
    nuance: NuanceScore | None = None
    """The judged score of its open questions, shown beside the composite (never in it)."""
    worker: str = ""
    """The worker that drives (or drove) it, when a job has one."""

    @property
    def duration(self) -> str:
        return _duration(self.run)


RUN_HEADERS = (
    "Run", "Status", "Composite ± SE", "Tool", "Memory", "Bench", "Pack", "Size", "Harness",
    "Seed", "Trust tier", "Started", "Duration", "Submitter", "Worker",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class RunsPage:
    """The runs list: its rows, the filter form's selects and text, the pager's queries."""

    rows: tuple[ListedRow | SuiteLine, ...]
    """A run, or a suite's runs folded into one row."""
    selects: tuple[Select, ...]
    harness: str
    judged: bool
    """A run shown has open questions (bench 8.0): a column for the nuance score."""
    headers: tuple[str, ...]
    numeric: frozenset[int]
    caption: str
    previous: str
    next: str
    page_size: int
    suite: str = ""
    """The suite whose runs alone are listed, or ""."""


def _run_selects(chosen: RunFilter, choices: Mapping[str, Sequence[str]]) -> tuple[Select, ...]:
    return (
        ("status", "Status", _any(choices["status"]), chosen.status),
        ("bench_version", "Bench version", _any(choices["bench_version"]), chosen.bench_version),
        ("run_size", "Run size", _any(choices["run_size"]), chosen.run_size),
        ("sort", "Sort by", tuple(SORTS.items()), chosen.sort),
        ("order", "Order", (("desc", "descending"), ("asc", "ascending")),
         "desc" if chosen.descending else "asc"),
    )  # fmt: skip


def _pages(chosen: RunFilter, offset: int, size: int, total: int) -> tuple[str, str]:
    """The queries of the previous and next pages ("" for none), keeping the filters."""
    query = {
        "status": chosen.status, "bench_version": chosen.bench_version,
        "run_size": chosen.run_size, "harness": chosen.harness, "sort": chosen.sort,
        "order": "desc" if chosen.descending else "asc",
        **({"suite": chosen.suite} if chosen.suite else {}),
    }  # fmt: skip
    back = urlencode({**query, "offset": max(0, offset - size)}) if offset > 0 else ""
    forward = urlencode({**query, "offset": offset + size}) if offset + size < total else ""
    return back, forward


def runs_page(
    rows: Sequence[ListedRow | SuiteLine],
    chosen: RunFilter,
    choices: Mapping[str, Sequence[str]],
    chrome: Chrome,
    total: int,
    offset: int = 0,
    page_size: int = 50,
) -> str:
    """The runs list from ``offset`` of ``total``; ``choices`` are the values the filters offer
    (statuses, versions, sizes)."""
    judged = any(isinstance(row, ListedRow) and row.nuance is not None for row in rows)
    headers = (*RUN_HEADERS[:3], *(["Nuance ± SE (judged)"] if judged else []), *RUN_HEADERS[3:])
    previous, following = _pages(chosen, offset, page_size, total)
    made = RunsPage(
        tuple(rows),
        _run_selects(chosen, choices),
        chosen.harness,
        judged,
        headers,
        frozenset({2, 3, 4, 5} if judged else {2, 3, 4}),
        f"{offset + 1}–{offset + len(rows)} of {total} rows" if rows else "no runs",
        previous,
        following,
        page_size,
        chosen.suite,
    )
    return render("runs.html", page=made, chrome=chrome)


@dataclass(frozen=True, slots=True)
class CaseFilter:
    kind: str = ""
    category: str = ""
    passed: str = ""
    rule: str = ""
    q: str = ""

    def keeps(self, case: CaseScore, text: CaseText | None) -> bool:
        if self.kind and case.kind != self.kind:
            return False
        if self.category and case.category != self.category:
            return False
        if self.passed and (case.correct != (self.passed == "yes")):
            return False
        if self.rule and (case.reason or "ok") != self.rule:
            return False
        if self.q:
            hay = " ".join(
                [
                    case.case_id,
                    case.category,
                    case.reason,
                    text.asked if text else "",
                    text.answered if text else "",
                ]
            )
            return self.q.lower() in hay.lower()
        return True


def _case_selects(report: ScoreReport, chosen: CaseFilter) -> tuple[Select, ...]:
    categories = sorted({c.category for c in report.per_case})
    rules = sorted({c.reason or "ok" for c in report.per_case})
    return (
        ("kind", "Kind", _any(("tool", "memory")), chosen.kind),
        ("category", "Category", _any(categories), chosen.category),
        ("passed", "Result", (("", "any"), ("yes", "passed"), ("no", "failed")), chosen.passed),
        ("rule", "Rule that decided", _any(rules), chosen.rule),
    )


@dataclass(frozen=True, slots=True)
class RunPage:
    """One run. ``row`` and ``report`` are None until the run is stored and graded; ``live``:
    it is running (the progress bar and its script); ``sealed``: why its cases' words are not
    shown; ``receipt_note``: what its receipt's check says, ``receipt_href`` its download."""

    listed: Listed
    row: RunRow | None
    report: ScoreReport | None
    tier: str
    measured: str
    live: bool
    stage: str
    sealed: str
    receipt_note: str
    receipt_href: str
    chart: Chart | None = None
    weakest: tuple[CategoryStat, ...] = ()
    cases: tuple[CaseLine, ...] = ()
    selects: tuple[Select, ...] = ()
    q: str = ""
    opens: Mapping[str, OpenText] = field(default_factory=dict)
    kept: int = 0
    """How many cases the filters keep (``cases`` is one page of them)."""
    pager: Pager | None = None
    headers: tuple[str | SortLink, ...] = ()
    """The cases' table's headers; a column that sorts is a ``SortLink``."""
    hidden: tuple[tuple[str, str], ...] = ()
    """What the filter form carries along unseen: the sort and the page size."""
    provisional: tuple[ProvisionalRow, ...] = ()
    """While it runs: the cases recorded so far, with their provisional scores."""


@dataclass(frozen=True, slots=True)
class ProvisionalRow:
    """A case of a running run recorded so far, graded as of now: its score is provisional (a
    write instruction is credited only once its read-back has run)."""

    case_id: str
    kind: str
    category: str
    score: str
    """The provisional score, three decimals."""
    passed: bool
    outcome: str
    """"pass", or "fail" and the rule that decided it."""

    def to_json(self) -> dict[str, str | bool]:
        return {
            "case_id": self.case_id, "kind": self.kind, "category": self.category,
            "score": self.score, "passed": self.passed, "outcome": self.outcome,
        }  # fmt: skip


def provisional_rows(partial: Iterable[Mapping[str, Any]]) -> tuple[ProvisionalRow, ...]:
    """The rows of the provisional table, by case id, from the provisional per-case scores
    (``CaseScore`` objects as JSON, as ``GET /v1/runs/{id}`` gives them); one that does not
    read as a case score is left out."""
    rows = []
    for data in partial:
        try:
            case = decode(CaseScore, dict(data))
        except DecodeError:
            continue
        outcome = "pass" if case.correct else f"fail: {case.reason}" if case.reason else "fail"
        rows.append(
            ProvisionalRow(
                case.case_id, case.kind, case.category, f"{case.score:.3f}", case.correct, outcome
            )
        )
    return tuple(sorted(rows, key=lambda row: row.case_id))


def provisional_data(status: str, rows: Sequence[ProvisionalRow]) -> dict[str, Any]:
    """What the live page's script reads to refresh its provisional table."""
    return {"status": status, "provisional": True, "cases": [row.to_json() for row in rows]}


CASE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("Case", "case"), ("Kind", "kind"), ("Category", "category"), ("Score", "score"),
    ("Latency", "latency"), ("Result", ""), ("Rule that decided it", ""),
    ("Question or prompt", ""), ("Answer as graded", ""),
)  # fmt: skip
"""The cases' table's columns and the sort each header links ("": none)."""


@dataclass(frozen=True, slots=True)
class CaseView:
    """How the run page's cases are shown: which ones, in what order, which page of them."""

    chosen: CaseFilter = field(default_factory=lambda: CaseFilter())
    sort: Sort = field(default_factory=Sort)
    page: int = 1
    per: int = PER

    def query(self) -> dict[str, str]:
        """The filters and the page size, for the links the table prints."""
        c = self.chosen
        return {
            "kind": c.kind, "category": c.category, "passed": c.passed, "rule": c.rule,
            "q": c.q, "per": str(self.per) if self.per != PER else "",
        }  # fmt: skip


def case_headers(view: CaseView) -> tuple[str | SortLink, ...]:
    query = view.query()
    return tuple(
        sort_link(label, column, view.sort, query) if column else label
        for label, column in CASE_COLUMNS
    )


def run_page(
    row: RunRow | None,
    listed: Listed,
    report: ScoreReport | None,
    texts: Mapping[str, CaseText],
    view: CaseView | CaseFilter,
    chrome: Chrome,
    *,
    tier: str,
    receipt_note: str,
    stage: str,
    sealed: str = "",
    opens: Mapping[str, OpenText] | None = None,
    receipt_href: str = "",
    provisional: Sequence[ProvisionalRow] = (),
) -> str:
    """A run's page with one page of its cases (``view``: filters, sort, page; filters alone:
    the first page in the report's order). ``sealed``: why
    its cases' words are not shown (a scoring window's run before the reveal); the scores are.
    ``opens``: the open questions' words, for the nuance score's table. ``provisional``: while
    it runs, the cases recorded so far (``provisional_rows``)."""
    live = listed.status in RUNNING
    made = RunPage(
        listed, row, report, tier, measured(report), live, stage, sealed, receipt_note,
        receipt_href, opens=opens or {}, provisional=tuple(provisional) if live else (),
    )  # fmt: skip
    if isinstance(view, CaseFilter):
        view = CaseView(view)
    if report is not None:
        chosen = view.chosen
        kept = [c for c in report.per_case if chosen.keeps(c, texts.get(c.case_id))]
        ordered = sort_cases(kept, view.sort)
        cut = paging(view.page, view.per, len(ordered))
        query = {**view.query(), "sort": view.sort.text}
        back = back_query(urlencode({**query, "page": str(cut.page) if cut.page > 1 else ""}))
        lines = case_lines(
            cut.rows(ordered), texts, lambda cid: case_link(listed.run_id, cid, back)
        )
        hidden = tuple((k, v) for k, v in (("sort", view.sort.text), ("per", query["per"])) if v)
        made = replace(
            made, chart=chart(report), weakest=weakest(report), cases=lines,
            selects=_case_selects(report, chosen), q=chosen.q, kept=len(kept),
            pager=pager(cut, query), headers=case_headers(view), hidden=hidden,
        )  # fmt: skip
    return render("run.html", page=made, chrome=chrome)


@dataclass(frozen=True, slots=True)
class CasePage:
    run_id: str
    detail: CaseDetail
    back: str = ""
    """The run page's query the link back carries (filters, sort, page), or ""."""


def case_page(run_id: str, detail: CaseDetail, chrome: Chrome, back: str = "") -> str:
    """One case; ``back``: the run page's query it was reached from (cleaned here)."""
    page = CasePage(run_id, detail, back_query(back))
    return render("case.html", page=page, chrome=chrome)


__all__ = [
    "BACK_KEYS",
    "CASE_COLUMNS",
    "RUNNING",
    "CaseFilter",
    "CasePage",
    "CaseView",
    "ListedRow",
    "ProvisionalRow",
    "RunPage",
    "RunsPage",
    "back_query",
    "case_headers",
    "case_link",
    "case_page",
    "provisional_data",
    "provisional_rows",
    "run_link",
    "run_page",
    "runs_page",
]
