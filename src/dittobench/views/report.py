"""A run rendered: the summary (with the nuance score beside the composite when the run has open
questions, never in it), the per-category chart, the weakest categories, the open questions as
judged, and the per-case table with the rule that decided each case. ``standalone_report`` is
the whole file of ``dittobench report RUN_ID --html``: inline CSS and SVG, no script, no external
reference, so it opens from disk and can be attached to an issue. The service's run page reuses
the parts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from dittobench.spec.dataset import Dataset
from dittobench.spec.report import CaseScore, ScoreReport
from dittobench.spec.seeds import OPERATOR, seed_shown
from dittobench.store import RunRow
from dittobench.views.chart import category_chart
from dittobench.views.explain import Why, explain
from dittobench.views.html import document, esc, facts, plus_minus, score, table
from dittobench.views.identity import DECLARED, identity_text
from dittobench.views.nuance import OpenText, nuance_card, open_section

WEAKEST = 8


@dataclass(frozen=True, slots=True)
class CaseText:
    """What a case asked and what came back, for the table."""

    asked: str
    answered: str
    why: Why


def case_texts(
    dataset: Dataset | None, records: Mapping[str, dict[str, object]], report: ScoreReport
) -> dict[str, CaseText]:
    """case id -> question or prompt, the graded answer, and the rule in words with the values
    that decided it."""
    asked: dict[str, str] = {}
    memory = {}
    if dataset is not None:
        asked = {t.id: t.prompt for t in dataset.tool_cases}
        for question in dataset.memory_cases:
            asked[question.id] = question.question
            memory[question.id] = question
    out = {}
    for case in report.per_case:
        record = records.get(case.case_id) or {}
        response = record.get("response")
        answer = ""
        if isinstance(response, dict):
            slot = response.get("answer") or ""
            prose = response.get("final_text") or ""
            answer = f"{slot}\n{prose}".strip() if slot else str(prose)
        why = explain(case.reason, memory.get(case.case_id), answer)
        out[case.case_id] = CaseText(asked.get(case.case_id, ""), answer, why)
    return out


def summary_cards(report: ScoreReport) -> str:
    d = report.details
    cards = [
        ("Composite", plus_minus(report.composite, report.composite_stderr, 4)),
        ("Tool mean", score(report.tool_mean, 4)),
        ("Memory mean", score(report.memory_mean, 4)),
        ("Median latency", f"{report.median_ms} ms"),
    ]
    body = "".join(
        f"<div class=card><div class=muted>{label}</div><div class=big>{esc(value)}</div></div>"
        for label, value in cards
    )
    # The judged score stands beside the verified one in its own card, never added to it.
    body += nuance_card(report.nuance, report.bench_version)
    factors = (
        f"base {d.base:.4f} × efficiency {d.efficiency:.3f} × consistency "
        f"{d.consistency:.3f} × token {d.token_factor:.2f}"
    )
    return f"<div class=cards>{body}</div><p class=muted>composite = {esc(factors)}</p>"


def seed_mark(seed_source: str) -> str:
    """Who chose the seed, in words: a run on a seed the submitter chose is practice (its
    answer key could be built before the run) and is never ranked."""
    if seed_source == OPERATOR:
        return "the operator (drawn fresh: ranked once finished)"
    return "<span class=warn>practice</span> (the submitter chose it: never ranked)"


def run_facts(row: RunRow, report: ScoreReport | None, tier: str) -> str:
    pack = row.pack_id or (report.pack.id if report and report.pack else "")
    return facts(
        [
            ("Run", f"<code>{esc(row.run_id)}</code>"),
            ("Status", esc(row.status)),
            ("Harness", esc(row.harness)),
            *_declared(report),
            ("Bench version", esc(row.bench_version)),
            ("Pack", esc(pack or "the version's own")),
            ("Run size", esc(row.run_size)),
            ("Seed", esc(seed_shown(str(row.seed), row.seed_source, row.status))),
            ("Seed chosen by", seed_mark(row.seed_source)),
            ("Trust tier", esc(tier)),
            ("Started", esc(row.created_at)),
            ("Updated", esc(row.updated_at)),
            ("Cases", f"{row.cases_done} of {row.cases_total}"),
            ("Dataset", f"<code>{esc(row.dataset_sha256)}</code>"),
            ("Transcript", f"<code>{esc(row.transcript_sha256 or '–')}</code>"),
        ],
        two=True,
    )


def _declared(report: ScoreReport | None) -> list[tuple[str, str]]:
    if report is None or not report.identity:
        return []
    return [
        ("Measured", f"{esc(identity_text(report.identity))} <span class=muted>({DECLARED})</span>")
    ]


def weakest(report: ScoreReport, count: int = WEAKEST) -> str:
    worst = sorted(report.per_category, key=lambda c: (c.mean, c.category))[:count]
    rows = [
        (esc(c.category), esc(c.kind), str(c.count), plus_minus(c.mean, c.std_err)) for c in worst
    ]
    return table(["Category", "Kind", "Cases", "Mean ± SE"], rows, numeric=frozenset({2, 3}))


def chart(report: ScoreReport) -> str:
    ordered = sorted(report.per_category, key=lambda c: (c.kind, c.category))
    legend = (
        '<p class=muted><span style="color:#6b4fa3">■</span> memory categories, '
        '<span style="color:#2f6fb3">■</span> tool categories; whiskers: ± one standard error '
        "of the category's mean.</p>"
    )
    title = f"Mean score per category, with standard errors ({len(ordered)})"
    return legend + category_chart(ordered, title)


def case_rows(
    cases: tuple[CaseScore, ...],
    texts: Mapping[str, CaseText],
    link: Callable[[str], str] | None = None,
) -> tuple[list[list[str]], list[str]]:
    """Table rows of the cases and each row's attributes (``data-*`` for filtering)."""
    rows, attrs = [], []
    for case in cases:
        text = texts.get(case.case_id)
        ident = esc(case.case_id)
        name = (
            f'<a href="{esc(link(case.case_id))}">{ident}</a>' if link else f"<code>{ident}</code>"
        )
        verdict = "<span class=ok>pass</span>" if case.correct else "<span class=bad>fail</span>"
        why = text.why if text else explain(case.reason)
        asked = esc(text.asked) if text else ""
        answered = esc(_clip(text.answered)) if text else ""
        rows.append(
            [
                name,
                esc(case.kind),
                esc(case.category),
                f"{case.score:.3f}",
                verdict,
                f"<code>{esc(why.rule or 'ok')}</code> {esc(why.line().split(': ', 1)[1])}",
                asked,
                answered,
            ]
        )
        attrs.append(
            f' data-kind="{esc(case.kind)}" data-category="{esc(case.category)}"'
            f' data-passed="{"yes" if case.correct else "no"}"'
            f' data-rule="{esc(case.reason or "ok")}"'
        )
    return rows, attrs


CASE_HEADERS = [
    "Case",
    "Kind",
    "Category",
    "Score",
    "Result",
    "Rule that decided it",
    "Question or prompt",
    "Answer as graded",
]


def _clip(text: str, limit: int = 400) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def standalone_report(
    row: RunRow,
    report: ScoreReport,
    texts: Mapping[str, CaseText],
    tier: str,
    opens: Mapping[str, OpenText] | None = None,
) -> str:
    """The whole standalone HTML file of a run; ``opens``: its open questions' words, for the
    nuance score's table."""
    rows, attrs = case_rows(report.per_case, texts)
    failed = sum(1 for c in report.per_case if not c.correct)
    body = (
        f"<h1>dittobench run {esc(row.run_id)}</h1>"
        f"{summary_cards(report)}{run_facts(row, report, tier)}"
        f"<h2>Per category</h2>{chart(report)}"
        f"<h2>Weakest categories</h2>{weakest(report)}"
        f"{open_section(report.nuance, opens or {})}"
        f"<h2 id=cases>Every case ({len(report.per_case)}, {failed} not fully credited)</h2>"
        + table(CASE_HEADERS, rows, numeric=frozenset({3}), row_attrs=attrs, table_id="case-table")
        + "<p class=muted>Rules: docs/grading.md of dittobench. Scores are a pure function of "
        "the dataset and the transcript: <code>dittobench grade DATASET TRANSCRIPT</code>.</p>"
    )
    return document(f"dittobench run {row.run_id}", body)


__all__ = [
    "CASE_HEADERS",
    "CaseText",
    "case_rows",
    "case_texts",
    "chart",
    "run_facts",
    "seed_mark",
    "standalone_report",
    "summary_cards",
    "weakest",
]
