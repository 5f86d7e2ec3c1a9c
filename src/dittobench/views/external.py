"""The page of an external suite's run (``report.html`` beside its report;
``templates/external.html``): what was run, the rules-graded and the judged parts per source
type, and every question's verdict. It says on its face that it is an external suite, never a
dittobench score."""

from __future__ import annotations

from dataclasses import dataclass

from dittobench.spec.external_report import LABEL, ExternalReport, Part
from dittobench.views.html import plus_minus
from dittobench.views.templating import render

NAMES = {"longmemeval": "LongMemEval", "locomo": "LoCoMo"}


def part(part: Part) -> str:
    """A part's score in words: ``0.500 ± 0.100 (8 of 9)``, ``unjudged (9)`` or ``–``."""
    if part.n == 0:
        return "–"
    if part.scored == 0:
        return f"unjudged ({part.n})"
    return f"{plus_minus(part.mean, part.stderr)} ({part.scored} of {part.n})"


@dataclass(frozen=True, slots=True)
class ExternalPage:
    report: ExternalReport
    name: str
    release: str
    identity: str
    """What the harness declared, ``key=value, …`` ("" when nothing)."""


def external_page(report: ExternalReport) -> str:
    """The whole page, every value from the report escaped."""
    page = ExternalPage(
        report,
        NAMES.get(report.format, report.format),
        report.release or "an unknown file, run with --allow-unknown-file",
        ", ".join(f"{k}={v}" for k, v in sorted((report.identity or {}).items())),
    )
    return render("external.html", page=page, LABEL=LABEL, part=part)


__all__ = ["ExternalPage", "external_page", "part"]
