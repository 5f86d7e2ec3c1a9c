"""What a report says in words and rows: the integrity factor named so, the rules that
disqualified cases counted, a wrongful decline's phrase quoted, a partial tool score's parts, and
``ScoreReport.to_rows`` (one flat, plain dict per case)."""

from __future__ import annotations

import json
from functools import cache

from dittobench import study as T
from dittobench.cli.summary import disqualified_text, report_lines
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.report import ScoreReport
from dittobench.spec.transcript import Transcript
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.views.explain import ABSTAINED, explain
from dittobench.views.report import case_texts
from tests.helpers import redteam as R

VERSION = "1.1.0"


def no_arguments(case: ToolCase, fixture: ToolFixture) -> tuple[RunResponse, tuple[ToolCall, ...]]:
    """The expected tools, in order, with no arguments at all."""
    return RunResponse(final_text="Done."), tuple(ToolCall(t.name) for t in case.expected_tools)


@cache
def made(name: str) -> tuple[Dataset, Transcript, ScoreReport]:
    version, size = (VERSION, "small") if name == "decoy" else (CURRENT_VERSION, "medium")
    dataset = build_dataset(3, version, size)
    transcript = {
        "decoy": lambda: T.build(dataset, memory=R.repeat_decoy),
        "unsure": lambda: T.build(dataset, memory=T.canned("Honestly, I don't know.")),
        "no_args": lambda: T.build(dataset, tool=no_arguments),
    }[name]()
    return dataset, transcript, grade_run(dataset, transcript).report


def records(transcript: Transcript) -> dict[str, dict[str, object]]:
    return {c.case_id: json.loads(json.dumps(c.to_json())) for c in transcript.cases}


def test_the_summary_names_the_integrity_factor_and_the_rules_that_disqualified() -> None:
    report = made("decoy")[2]
    lines = report_lines(report)
    composite = next(line for line in lines if line.startswith("composite"))
    assert composite.endswith("× integrity 0.50)") and "token" not in composite
    assert "disqualified 1 case: 1 forbidden (1 leaked)" in lines
    marked = [line for line in lines if line.endswith("(1 disqualified)")]
    assert [line.split()[0] for line in marked] == ["integrity_token"]


def test_many_disqualified_cases_are_counted_by_rule() -> None:
    report = made("unsure")[2]
    ruled = disqualified_text(report)
    count = sum(1 for c in report.per_case if c.reason == "wrongful_decline")
    assert count > 1
    assert ruled.startswith(f"{report.details.disqualified_memory_cases} cases: ")
    assert f"{count} wrongful_decline" in ruled


def test_a_wrongful_decline_quotes_the_phrase_it_said() -> None:
    dataset, transcript, report = made("unsure")
    texts = case_texts(dataset, records(transcript), report)
    declined = [c for c in report.per_case if c.reason == "wrongful_decline"]
    assert declined
    for case in declined:
        line = texts[case.case_id].why.line()
        assert line.startswith("wrongful_decline: declined a question that has an answer")
        assert 'said "don\'t know"' in line, line


def test_the_abstain_flag_is_named_when_no_phrase_was_said() -> None:
    dataset = made("unsure")[0]
    case = next(c for c in dataset.memory_cases if c.answer_kind == "value")
    why = explain("wrongful_decline", case, "Paris", abstain=True)
    assert why.declined == ABSTAINED and ABSTAINED in why.line()
    assert explain("wrongful_decline", case, "Paris").declined == ""


def test_a_partial_tool_score_shows_its_parts() -> None:
    dataset, transcript, report = made("no_args")
    texts = case_texts(dataset, records(transcript), report)
    wrong = [c for c in report.per_case if c.kind == "tool" and c.reason == "arguments"]
    assert wrong
    for case in wrong:
        parts = texts[case.case_id].why.parts
        assert parts is not None
        assert parts.selection == 1.0 and parts.arguments < 1.0
        assert f"arguments {parts.arguments:.2f}" in texts[case.case_id].why.line()
    full = next(c for c in report.per_case if c.kind == "tool" and c.reason == "")
    assert "selection" not in texts[full.case_id].why.line()


def test_rows_are_flat_plain_and_one_per_case() -> None:
    report = made("decoy")[2]
    rows = report.to_rows()
    assert len(rows) == len(report.per_case)
    assert list(rows[0]) == [
        "seed", "bench_version", "run_size", "dataset_sha256", "case_id", "kind", "category",
        "score", "correct", "reason", "tool_score", "latency_ms", "called", "expected",
        "observed", "capped",
    ]  # fmt: skip
    for row, case in zip(rows, report.per_case, strict=True):
        assert row["case_id"] == case.case_id and row["score"] == case.score
        assert row["seed"] == report.seed and row["dataset_sha256"] == report.dataset_sha256
        assert row["called"] == ";".join(case.called)
        assert row["expected"] == ";".join(case.expected)
        assert all(isinstance(v, str | int | float | bool) for v in row.values())
    assert any(";" in str(r["expected"]) for r in rows)
    assert json.loads(json.dumps(rows)) == rows
