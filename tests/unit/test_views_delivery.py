"""The summary says how many cases got no answer, and why (``views.delivery``): counted from
the transcript's execution records, by outcome, and only when some case got none."""

from __future__ import annotations

from dataclasses import replace

from dittobench import study as T
from dittobench.cli.summary import report_lines
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.spec.transcript import Attempt, Execution, Transcript
from dittobench.spec.vocab import AttemptOutcome
from dittobench.views.delivery import undelivered, undelivered_text


def _failed(outcome: AttemptOutcome, status: int = 0) -> Execution:
    return Execution((Attempt(1, 1000, outcome, status),), 1000, outcome)


def _transcript(failures: list[Execution]) -> Transcript:
    """The oracle's transcript of a small run whose first cases got no answer, one per
    execution in ``failures``."""
    full = T.build(build_dataset(5, "1.1.0", "small"))
    cases = list(full.cases)
    for i, execution in enumerate(failures):
        cases[i] = replace(cases[i], response=None, observed=(), execution=execution)
    return replace(full, cases=tuple(cases))


def test_the_summary_counts_undelivered_cases_by_outcome() -> None:
    failures = [_failed("timeout")] * 3 + [_failed("http_error", 503), _failed("too_large", 200)]
    transcript = _transcript(failures)
    report = grade_run(build_dataset(5, "1.1.0", "small"), transcript).report
    assert report.details.undelivered_cases == 5
    lines = report_lines(report, transcript.to_json())
    assert "undelivered  5 of 12 cases (3 timeout, 1 http_error, 1 too_large)" in lines
    memory = next(i for i, line in enumerate(lines) if line.startswith("memory mean"))
    assert lines[memory + 1].startswith("undelivered")
    assert not any(line.startswith("undelivered") for line in report_lines(report))


def test_nothing_is_said_when_every_case_was_answered() -> None:
    answered = _transcript([])
    report = grade_run(build_dataset(5, "1.1.0", "small"), answered).report
    assert not any(
        line.startswith("undelivered") for line in report_lines(report, answered.to_json())
    )
    assert undelivered_text(answered.to_json()) == "" and undelivered_text(None) == ""


def test_outcomes_are_listed_in_a_fixed_order_and_odd_records_are_left_out() -> None:
    records = [
        {"response": None, "execution": {"outcome": "cancelled"}},
        {"response": None, "execution": {"outcome": "bad_json"}},
        {"response": None, "execution": {"outcome": "connection_error"}},
        {"response": None, "execution": {"outcome": "bad_json"}},
        {"response": None},  # a record without its execution: still undelivered
        {"response": {"final_text": "ok"}, "execution": {"outcome": "ok"}},
        "not a record",
    ]
    assert undelivered(records)[0] == 6
    assert undelivered_text({"cases": records}) == (
        "5 of 6 cases (1 connection_error, 2 bad_json, 1 cancelled, 1 unknown)"
    )
    assert undelivered_text({"cases": "not a list"}) == ""
