"""The page of an external suite's run (``report.html`` beside its report): what was run, the
rules-graded and the judged parts per source type, and every question's verdict. It says on its
face that it is an external suite, never a dittobench score."""

from __future__ import annotations

from dittobench.spec.external_report import LABEL, ExternalReport, Part
from dittobench.views.html import document, esc, facts, plus_minus, score, table

NAMES = {"longmemeval": "LongMemEval", "locomo": "LoCoMo"}


def _part(part: Part) -> str:
    if part.n == 0:
        return "–"
    if part.scored == 0:
        return f"unjudged ({part.n})"
    return f"{plus_minus(part.mean, part.stderr)} ({part.scored} of {part.n})"


def external_page(report: ExternalReport) -> str:
    """The whole page, every value from the report escaped."""
    name = NAMES.get(report.format, report.format)
    release = report.release or "an unknown file, run with --allow-unknown-file"
    nuance = report.nuance
    judge = (
        f"{esc(nuance.judge_id)} · {esc(nuance.judge_model)} · "
        f"{'official' if nuance.official else 'unofficial'}"
        if nuance.judge_id
        else "none (open questions recorded, unjudged)"
    )
    identity = ", ".join(f"{k}={v}" for k, v in sorted((report.identity or {}).items()))
    declared = f" (declared: {esc(identity)})" if identity else ""
    head = facts(
        [
            ("What", f"<strong>{esc(name)}: {esc(LABEL)}</strong>"),
            ("Source file", f"{esc(release)} <code>{esc(report.source_sha256)}</code>"),
            ("Suite", f"<code>{esc(report.suite_sha256)}</code>"),
            ("Transcript", f"<code>{esc(report.transcript_sha256)}</code>"),
            ("Harness", esc(report.harness) + declared),
            ("Grading", esc(report.grading)),
            ("Judge", judge),
        ]
    )
    cards = (
        "<div class=cards><div class=card><div class=muted>Rules (value, abstention)</div>"
        f"<div class=big>{esc(_part(report.rules))}</div></div>"
        "<div class=card id=nuance><div class=muted>Judged (open questions)</div>"
        f"<div class=big>{esc(_part(report.judged))}</div></div></div>"
    )
    types = table(
        ["Type", "Questions", "Rules", "Judged", "Judge errors", "Unjudged"],
        (
            [
                esc(t.source_type),
                str(t.n),
                esc(_part(t.rules)),
                esc(_part(t.judged)),
                str(t.judge_errors),
                str(t.not_judged),
            ]
            for t in report.per_type
        ),
        numeric=frozenset({1, 4, 5}),
    )
    questions = table(
        ["Question", "Type", "Graded by", "Status", "Score", "Why"],
        (
            [
                f"<code>{esc(v.question_id)}</code>",
                esc(v.source_type),
                esc(v.graded_by + (" (abstention)" if v.abstention else "")),
                esc(v.status),
                score(v.score),
                esc(v.reason),
            ]
            for v in report.per_question
        ),
        numeric=frozenset({4}),
    )
    body = (
        f"<h1>{esc(name)} · external suite</h1>"
        f"<p class=warn>{esc(LABEL)}: these figures are not comparable to a dittobench score "
        "and are never added to one.</p>"
        f"{head}{cards}<h2>Per type</h2>{types}<h2>Per question</h2>{questions}"
    )
    return document(f"{name} · external suite", body)


__all__ = ["external_page"]
