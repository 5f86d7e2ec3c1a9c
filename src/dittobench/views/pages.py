"""The served pages about runs: the runs list (filters and sorts as a plain GET form), one run
(live progress while it runs, then the summary, the chart, the weakest categories and the
per-case table with its filters and search) and one case (what was asked, the evidence, the
answer as graded, the calls, the rule and why). Links and forms only: the live progress bar is
the one thing a script adds (``static/live.js``), and the page reads without it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote, urlencode

from dittobench.spec.judging import NuanceScore
from dittobench.spec.report import CaseScore, ScoreReport
from dittobench.spec.seeds import OPERATOR, seed_shown
from dittobench.store import RunRow
from dittobench.store.listing import Listed
from dittobench.views.frame import Chrome, page
from dittobench.views.html import esc, facts, plus_minus, score, table
from dittobench.views.model import CaseDetail
from dittobench.views.nuance import OpenText, nuance_cell, open_section
from dittobench.views.ranking import SORTS, RunFilter, seconds_between
from dittobench.views.report import (
    CASE_HEADERS,
    CaseText,
    case_rows,
    chart,
    run_facts,
    seed_mark,
    summary_cards,
    weakest,
)

RUNNING = frozenset({"queued", "building", "generating", "seeding", "running", "scoring"})
LIVE_SCRIPT = '<script src="/static/live.js" defer></script>'


def run_link(run_id: str) -> str:
    return f"/runs/{quote(run_id)}"


def case_link(run_id: str, case_id: str) -> str:
    return f"/runs/{quote(run_id)}/cases/{quote(case_id)}"


def _select(name: str, label: str, options: Sequence[tuple[str, str]], chosen: str) -> str:
    opts = "".join(
        f'<option value="{esc(v)}"{" selected" if v == chosen else ""}>{esc(t)}</option>'
        for v, t in options
    )
    return (
        f'<label for="f-{name}">{label}<select id="f-{name}" name="{name}">{opts}</select></label>'
    )


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


def runs_page(
    rows: Sequence[ListedRow],
    chosen: RunFilter,
    choices: Mapping[str, Sequence[str]],
    chrome: Chrome,
    total: int,
    offset: int = 0,
    page_size: int = 50,
) -> str:
    """The runs list from ``offset`` of ``total``; ``choices`` are the values the filters offer
    (statuses, versions, sizes)."""
    form = (
        '<form class=filters method=get action="/" aria-label="Filter and sort runs">'
        + _select(
            "status", "Status", [("", "any")] + [(s, s) for s in choices["status"]], chosen.status
        )
        + _select(
            "bench_version",
            "Bench version",
            [("", "any")] + [(v, v) for v in choices["bench_version"]],
            chosen.bench_version,
        )
        + _select(
            "run_size",
            "Run size",
            [("", "any")] + [(s, s) for s in choices["run_size"]],
            chosen.run_size,
        )
        + f"<label for=f-harness>Harness contains<input id=f-harness name=harness "
        f'value="{esc(chosen.harness)}"></label>'
        + _select("sort", "Sort by", list(SORTS.items()), chosen.sort)
        + _select(
            "order",
            "Order",
            [("desc", "descending"), ("asc", "ascending")],
            "desc" if chosen.descending else "asc",
        )
        + "<button type=submit>Apply</button></form>"
    )
    # A column for the nuance score only when a run shown has open questions (bench 8.0).
    judged = any(row.nuance is not None for row in rows)
    headers = [*RUN_HEADERS[:3], *(["Nuance ± SE (judged)"] if judged else []), *RUN_HEADERS[3:]]
    body_rows = [_run_cells(row, judged) for row in rows]
    shown = f"{offset + 1}–{offset + len(rows)} of {total} runs" if rows else "no runs"
    numeric = frozenset({2, 3, 4, 5} if judged else {2, 3, 4})
    listing = table(headers, body_rows, numeric=numeric, caption=shown, table_id="runs")
    return page("Runs", f"<h1>Runs</h1>{form}{listing}{_pager(chosen, offset, page_size, total)}",
                chrome)  # fmt: skip


RUN_HEADERS = (
    "Run", "Status", "Composite ± SE", "Tool", "Memory", "Bench", "Pack", "Size", "Harness",
    "Seed", "Trust tier", "Started", "Duration",
)  # fmt: skip


def _run_cells(row: ListedRow, judged: bool) -> list[str]:
    """One run's cells; ``judged``: with its nuance score beside the composite."""
    item = row.run
    return [
        f'<a href="{run_link(item.run_id)}">{esc(item.run_id)}</a>',
        _status(item.status),
        plus_minus(item.composite, item.composite_stderr, 4),
        *([nuance_cell(row.nuance, item.bench_version)] if judged else []),
        score(row.tool_mean),
        score(row.memory_mean),
        esc(item.bench_version),
        esc(item.pack_id or "–"),
        esc(item.run_size),
        esc(item.harness),
        _seed_cell(item),
        esc(row.tier),
        esc(item.created_at),
        _duration(item),
    ]


def _pager(chosen: RunFilter, offset: int, size: int, total: int) -> str:
    """Links to the previous and next pages, keeping the filters."""
    query = {
        "status": chosen.status, "bench_version": chosen.bench_version,
        "run_size": chosen.run_size, "harness": chosen.harness, "sort": chosen.sort,
        "order": "desc" if chosen.descending else "asc",
    }  # fmt: skip
    links = []
    if offset > 0:
        back = urlencode({**query, "offset": max(0, offset - size)})
        links.append(f'<a href="/?{esc(back)}" rel=prev>← previous {size}</a>')
    if offset + size < total:
        forward = urlencode({**query, "offset": offset + size})
        links.append(f'<a href="/?{esc(forward)}" rel=next>next {size} →</a>')
    return f'<nav aria-label="Pages of runs"><p>{" · ".join(links)}</p></nav>' if links else ""


def _seed_cell(item: Listed) -> str:
    """Practice runs (a seed the submitter chose) are marked in words: they are never ranked."""
    if item.seed_source == OPERATOR:
        return "operator's"
    return '<span class=warn title="the submitter chose the seed: never ranked">practice</span>'


def _status(status: str) -> str:
    css = {"done": "ok", "failed": "bad", "cancelled": "bad"}.get(status, "warn")
    return f"<span class={css}>{esc(status)}</span>"


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


def _case_filters(report: ScoreReport, chosen: CaseFilter, run_id: str) -> str:
    categories = sorted({c.category for c in report.per_case})
    rules = sorted({c.reason or "ok" for c in report.per_case})
    return (
        f'<form class=filters method=get action="{run_link(run_id)}#cases" '
        'aria-label="Filter cases">'
        + _select(
            "kind", "Kind", [("", "any"), ("tool", "tool"), ("memory", "memory")], chosen.kind
        )
        + _select(
            "category", "Category", [("", "any")] + [(c, c) for c in categories], chosen.category
        )
        + _select(
            "passed", "Result", [("", "any"), ("yes", "passed"), ("no", "failed")], chosen.passed
        )
        + _select("rule", "Rule that decided", [("", "any")] + [(r, r) for r in rules], chosen.rule)
        + f'<label for=f-q>Search<input id=f-q name=q type=search value="{esc(chosen.q)}">'
        "</label><button type=submit>Filter</button></form>"
    )


def progress_section(run_id: str, status: str, done: int, total: int, stage: str) -> str:
    """The live bar: ``live.js`` follows ``/runs/ID/events`` and moves it; without the script
    the page shows the state it was served with."""
    return (
        f'<section id=live data-events="{run_link(run_id)}/events" aria-live=polite>'
        "<h2>Progress</h2>"
        f"<p><span id=live-status>{esc(status)}</span> · stage <span id=live-stage>"
        f"{esc(stage)}</span> · <span id=live-count>{done} / {total}</span> cases</p>"
        f'<progress id=live-bar max="{max(total, 1)}" value="{done}" '
        f'aria-label="Cases done">{done} / {total}</progress></section>'
    )


def run_page(
    row: RunRow | None,
    listed: Listed,
    report: ScoreReport | None,
    texts: Mapping[str, CaseText],
    chosen: CaseFilter,
    chrome: Chrome,
    *,
    tier: str,
    receipt_note: str,
    stage: str,
    sealed: str = "",
    opens: Mapping[str, OpenText] | None = None,
) -> str:
    """A run's page. ``sealed``: why its cases' words are not shown (a scoring window's run
    before the reveal); the scores are. ``opens``: the open questions' words, for the nuance
    score's table."""
    run_id = listed.run_id
    parts = [f"<h1>Run {esc(run_id)}</h1>"]
    if listed.status in RUNNING:
        parts.append(
            progress_section(run_id, listed.status, listed.cases_done, listed.cases_total, stage)
        )
    if listed.failure:
        parts.append(f"<p class=bad role=alert>{esc(listed.status)}: {esc(listed.failure)}</p>")
    if report is not None:
        parts.append(summary_cards(report))
    if row is not None:
        parts.append(run_facts(row, report, tier))
    else:
        parts.append(
            facts(
                [
                    ("Harness", esc(listed.harness)),
                    ("Status", esc(listed.status)),
                    ("Seed", esc(seed_shown(str(listed.seed), listed.seed_source, listed.status))),
                    ("Seed chosen by", seed_mark(listed.seed_source)),
                    ("Run size", esc(listed.run_size)),
                ]
            )
        )
    if listed.window_id:
        link = f'<a href="/windows#{esc(listed.window_id)}">{esc(listed.window_id)}</a>'
        parts.append(f"<p>Scoring window: {link} (its sealed pack)</p>")
    if sealed:
        parts.append(f"<p role=status>Cases sealed: {esc(sealed)}.</p>")
    if receipt_note:
        parts.append(f"<p>Receipt: {receipt_note}</p>")
    if report is not None:
        cases = [c for c in report.per_case if chosen.keeps(c, texts.get(c.case_id))]
        rows, attrs = case_rows(tuple(cases), texts, lambda cid: case_link(run_id, cid))
        parts += [
            f"<h2>Per category</h2>{chart(report)}",
            f"<h2>Weakest categories</h2>{weakest(report)}",
            open_section(report.nuance, opens or {}),
            f"<h2 id=cases>Cases ({len(cases)} of {len(report.per_case)})</h2>",
            _case_filters(report, chosen, run_id),
            table(
                CASE_HEADERS, rows, numeric=frozenset({3}), row_attrs=attrs, table_id="case-table"
            ),
            f'<p><a href="/compare?{urlencode({"a": run_id})}">Compare this run with another</a>'
            "</p>",
        ]
    extra = LIVE_SCRIPT if listed.status in RUNNING else ""
    return page(f"Run {run_id}", "".join(parts), chrome, head_extra=extra)


def _calls(calls: Sequence[str]) -> str:
    if not calls:
        return "<span class=muted>none</span>"
    return "<ol>" + "".join(f"<li><code>{esc(c)}</code></li>" for c in calls) + "</ol>"


def case_page(run_id: str, detail: CaseDetail, chrome: Chrome) -> str:
    s = detail.score
    verdict = "<span class=ok>passed</span>" if s.correct else "<span class=bad>failed</span>"
    parts = [
        f'<p><a href="{run_link(run_id)}#cases">← Run {esc(run_id)}</a></p>',
        f"<h1>Case {esc(s.case_id)}</h1>",
        facts(
            [
                ("Kind", esc(s.kind)),
                ("Category", esc(s.category)),
                ("Score", f"{s.score:.3f} ({verdict})"),
                ("Rule that decided it", f"<code>{esc(detail.why.rule or 'ok')}</code>"),
                ("Why", f"<span id=why>{esc(detail.why.line())}</span>"),
                ("Latency", f"{s.latency_ms} ms"),
                ("Outcome", esc(detail.outcome or "–")),
                ("Attempts", "<br>".join(esc(a) for a in detail.attempts) or "–"),
            ]
        ),
        f"<h2>{'Question' if detail.memory else 'Prompt'}</h2><blockquote>{esc(detail.text)}"
        "</blockquote>",
    ]
    if detail.memory is not None:
        m = detail.memory
        parts.append(
            facts(
                [
                    ("Expected", esc(m.expected_answer or "–")),
                    ("Also accepted", esc(", ".join(m.accepted) or "–")),
                    ("Items", esc(", ".join(m.answer_items) or "–")),
                    ("Distractors", esc(", ".join(m.distractors) or "–")),
                    ("Forbidden", esc(", ".join(m.forbidden) or "–")),
                    ("Answer kind", esc(m.answer_kind)),
                    ("Question type", esc(m.question_type)),
                    ("Asked after wave", esc(m.run_after_wave)),
                    ("User", esc(m.user_id)),
                ]
            )
        )
        rows = [
            [
                esc(e.pair_id),
                str(e.wave),
                esc(e.user_id),
                esc(e.timestamp),
                esc(e.prompt),
                esc(e.response),
            ]
            for e in detail.evidence
        ]
        parts.append("<h2>Evidence from the history</h2>")
        parts.append(
            table(["Pair", "Wave", "User", "When", "User said", "Assistant said"], rows)
            if rows
            else "<p class=muted>This question has no evidence pairs (the answer is a "
            "decline, or the key is coined).</p>"
        )
    parts += [
        "<h2>Answer as graded</h2>",
        facts(
            [
                ("Answer slot", esc(detail.answer or "–")),
                ("Abstain", esc(detail.abstain if detail.abstain is not None else "–")),
            ]
        ),
        f"<blockquote>{esc(detail.prose or '(no text)')}</blockquote>",
        "<h2>Tool calls</h2>",
        facts(
            [
                ("Observed by the endpoint", _calls(detail.observed)),
                ("Reported by the harness", _calls(detail.reported)),
                ("Expected", _calls(detail.expected)),
            ]
        ),
    ]
    return page(f"Case {s.case_id}", "".join(parts), chrome)


__all__ = [
    "RUNNING",
    "CaseFilter",
    "ListedRow",
    "case_link",
    "case_page",
    "progress_section",
    "run_link",
    "run_page",
    "runs_page",
]
