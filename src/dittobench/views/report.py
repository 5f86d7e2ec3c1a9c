"""A run rendered: the summary (with the nuance score beside the composite when the run has open
questions, never in it), the per-category chart, the weakest categories, the open questions as
judged, and the per-case table with the rule that decided each case (``templates/parts.html``).
``standalone_report`` is the whole file of ``dittobench report RUN_ID --html``
(``templates/report.html``): inline CSS and SVG, no script, no external reference, so it opens
from disk and can be attached to an issue. The service's run page reuses the parts."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from dittobench.spec.dataset import Dataset
from dittobench.spec.report import CaseScore, CategoryStat, ScoreReport
from dittobench.store import RunRow
from dittobench.views.chart import Chart, category_chart
from dittobench.views.explain import Why, explain, explain_tool, policy_of
from dittobench.views.identity import identity_text
from dittobench.views.nuance import OpenText
from dittobench.views.templating import macro, render

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
    tools = {}
    if dataset is not None:
        asked = {t.id: t.prompt for t in dataset.tool_cases}
        tools = {t.id: t for t in dataset.tool_cases}
        for question in dataset.memory_cases:
            asked[question.id] = question.question
            memory[question.id] = question
    policy = policy_of(report.grading_policy)
    out = {}
    for case in report.per_case:
        record = records.get(case.case_id) or {}
        response = record.get("response")
        answer, abstain = "", None
        if isinstance(response, dict):
            slot = response.get("answer") or ""
            prose = response.get("final_text") or ""
            answer = f"{slot}\n{prose}".strip() if slot else str(prose)
            abstain = response.get("abstain") is True
        if case.case_id in tools:
            why = explain_tool(case.reason, tools[case.case_id], record, report.grading_policy)
        else:
            why = explain(
                case.reason, memory.get(case.case_id), answer, abstain=abstain, policy=policy
            )
        out[case.case_id] = CaseText(asked.get(case.case_id, ""), answer, why)
    return out


@dataclass(frozen=True, slots=True)
class CaseLine:
    """One row of the cases' table: the case, its link ("" in the standalone report), the rule
    that decided it and why, what it asked and the answer as graded."""

    case: CaseScore
    href: str
    rule: str
    why: str
    asked: str
    answered: str


def case_lines(
    cases: tuple[CaseScore, ...],
    texts: Mapping[str, CaseText],
    link: Callable[[str], str] | None = None,
) -> tuple[CaseLine, ...]:
    lines = []
    for case in cases:
        text = texts.get(case.case_id)
        why = text.why if text else explain(case.reason)
        lines.append(
            CaseLine(
                case,
                link(case.case_id) if link else "",
                why.rule or "ok",
                why.line().split(": ", 1)[1],
                text.asked if text else "",
                text.answered if text else "",
            )
        )
    return tuple(lines)


def measured(report: ScoreReport | None) -> str:
    """What the run's harness declared it is, in words ("" when it declared nothing)."""
    return identity_text(report.identity) if report is not None and report.identity else ""


def weakest(report: ScoreReport, count: int = WEAKEST) -> tuple[CategoryStat, ...]:
    return tuple(sorted(report.per_category, key=lambda c: (c.mean, c.category))[:count])


def chart(report: ScoreReport) -> Chart:
    ordered = sorted(report.per_category, key=lambda c: (c.kind, c.category))
    title = f"Mean score per category, with standard errors ({len(ordered)})"
    return category_chart(ordered, title)


def summary_cards(report: ScoreReport) -> str:
    """The summary cards of a run, as markup (``parts.html`` ``summary_cards``)."""
    return str(macro("parts.html", "summary_cards")(report))


def run_facts(row: RunRow, report: ScoreReport | None, tier: str) -> str:
    """The facts of a run, as markup (``parts.html`` ``run_facts``)."""
    return str(macro("parts.html", "run_facts")(row, report, tier, measured(report)))


@dataclass(frozen=True, slots=True)
class ReportPage:
    """What the standalone report of a run shows."""

    row: RunRow
    report: ScoreReport
    tier: str
    measured: str
    chart: Chart
    weakest: tuple[CategoryStat, ...]
    cases: tuple[CaseLine, ...]
    failed: int
    opens: Mapping[str, OpenText] = field(default_factory=dict)


def standalone_report(
    row: RunRow,
    report: ScoreReport,
    texts: Mapping[str, CaseText],
    tier: str,
    opens: Mapping[str, OpenText] | None = None,
) -> str:
    """The whole standalone HTML file of a run; ``opens``: its open questions' words, for the
    nuance score's table."""
    made = ReportPage(
        row,
        report,
        tier,
        measured(report),
        chart(report),
        weakest(report),
        case_lines(report.per_case, texts),
        sum(1 for c in report.per_case if not c.correct),
        opens or {},
    )
    return render("report.html", page=made)


__all__ = [
    "CaseLine",
    "CaseText",
    "ReportPage",
    "case_lines",
    "case_texts",
    "chart",
    "measured",
    "run_facts",
    "standalone_report",
    "summary_cards",
    "weakest",
]
