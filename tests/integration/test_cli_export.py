"""A run from a notebook (``dittobench.score``), its cases exported (``dittobench export``, CSV
and JSON lines) and one case shown in full (``dittobench show RUN --case ID``): a real small run
against the built-in harness, read back from its store. CSV cells a spreadsheet would read as a
formula are guarded."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import dittobench
from dittobench.cli.exporting import safe_cell, to_csv
from dittobench.spec.report import ScoreReport
from dittobench.store import RunRow, RunStore
from tests.helpers.cli import dittobench as cli

SEEDS = range(1, 9)
"""Tried in turn until the baseline calls a right tool in one of its cases (so the tool score
parts are shown); which seed does depends on the version's wording."""


@dataclass(frozen=True)
class Scored:
    report: ScoreReport
    db: Path
    run_id: str
    seed: int


def calls_a_right_tool(report: ScoreReport) -> bool:
    return any(c.kind == "tool" and c.called and c.reason != "wrong_tools" for c in report.per_case)


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Scored]:
    for seed in SEEDS:
        folder = tmp_path_factory.mktemp("score")
        report = dittobench.score("builtin", run_size="small", seed=seed, out_dir=folder)
        if calls_a_right_tool(report):
            break
    assert calls_a_right_tool(report), f"the baseline calls no right tool on seeds {SEEDS}"
    with RunStore(RunStore.sqlite_url(folder / "runs.db"), create=False) as store:
        (row,) = store.list_runs(5)
    assert isinstance(row, RunRow)
    yield Scored(report, folder / "runs.db", row.run_id, seed)


def test_score_returns_the_report_of_a_finished_run(scored: Scored) -> None:
    assert isinstance(scored.report, dittobench.ScoreReport)
    assert (scored.report.seed, scored.report.run_size) == (scored.seed, "small")
    with RunStore(RunStore.sqlite_url(scored.db), create=False) as store:
        assert store.get_run(scored.run_id).status == "done"
        stored = ScoreReport.from_json(store.report(scored.run_id))
    assert stored.composite == scored.report.composite
    assert stored.per_case == scored.report.per_case


def test_csv_export_is_the_reports_rows_with_the_run_and_the_answers(scored: Scored) -> None:
    result = cli("export", scored.run_id, "--db", str(scored.db))
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    expected = scored.report.to_rows()
    assert len(rows) == len(expected)
    assert list(rows[0]) == ["run_id", *expected[0], "answer"]
    for got, want in zip(rows, expected, strict=True):
        assert got["run_id"] == scored.run_id
        assert got["case_id"] == want["case_id"] and float(got["score"]) == want["score"]
        assert got["called"] == want["called"]
    assert sum(1 for r in rows if r["answer"]) >= len(rows) - 1  # the harness answers


def test_jsonl_export_to_a_file(scored: Scored, tmp_path: Path) -> None:
    out = tmp_path / "cases.jsonl"
    result = cli(
        "export", scored.run_id, "--format", "jsonl", "--out", str(out), "--db", str(scored.db)
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    rows = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert [{k: v for k, v in r.items() if k not in ("run_id", "answer")} for r in rows] == (
        scored.report.to_rows()
    )
    assert {r["run_id"] for r in rows} == {scored.run_id}


def test_an_unknown_format_is_refused(scored: Scored) -> None:
    result = cli("export", scored.run_id, "--format", "xlsx", "--db", str(scored.db))
    assert result.returncode == 2 and "--format must be csv or jsonl" in result.stderr


def test_show_case_prints_question_answer_key_score_and_rule(scored: Scored) -> None:
    memory = next(c for c in scored.report.per_case if c.kind == "memory")
    result = cli("show", scored.run_id, "--case", memory.case_id, "--db", str(scored.db))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    heads = [line.split(" ", 1)[0] for line in lines if not line.startswith(" ")]
    assert heads[:4] == ["case", "question", "answer", "expected"]
    assert f"score      {memory.score:.3f}" in result.stdout
    assert lines[-1].startswith(f"rule       {memory.reason or 'ok'}: ")
    tool = next(c for c in scored.report.per_case if c.kind == "tool" and c.expected)
    shown = cli("show", scored.run_id, "--case", tool.case_id, "--db", str(scored.db)).stdout
    assert "\nprompt " in shown and f"expected   {tool.expected[0]}(" in shown
    # A call of the wrong tools scores 0 with no parts to show; the parts are shown otherwise.
    called = next(
        c
        for c in scored.report.per_case
        if c.kind == "tool" and c.called and c.reason != "wrong_tools"
    )
    shown = cli("show", scored.run_id, "--case", called.case_id, "--db", str(scored.db)).stdout
    assert f"tool score {called.tool_score:.3f} (selection " in shown
    assert " · arguments " in shown and " · order " in shown
    missing = cli("show", scored.run_id, "--case", "nope", "--db", str(scored.db))
    assert missing.returncode == 2 and "has no case 'nope'" in missing.stderr


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("plain = text", "plain = text"),
        ("", ""),
        (-1.5, -1.5),
        (True, True),
    ],
)
def test_a_cell_read_as_a_formula_is_guarded(value: object, written: object) -> None:
    assert safe_cell(value) == written


def test_csv_quotes_and_guards_every_text_cell() -> None:
    rows = [{"case_id": "c1", "answer": '=cmd|"/c calc"!A1, then "quotes"\nand a line'}]
    text = to_csv(rows, ["case_id", "answer"])
    (back,) = list(csv.DictReader(io.StringIO(text)))
    assert back == {"case_id": "c1", "answer": "'" + rows[0]["answer"]}
    assert text.startswith("case_id,answer\n")


def test_the_html_report_names_integrity_and_marks_disqualified_categories(
    scored: Scored, tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    result = cli("report", scored.run_id, "--html", str(out), "--db", str(scored.db))
    assert result.returncode == 0, result.stderr
    page = out.read_text("utf-8")
    assert f"× integrity {scored.report.details.token_factor:.2f}" in page
    assert "× token" not in page
    ruled = ("forbidden", "distractor", "dump_guard", "wrongful_decline")
    out_cases = [c for c in scored.report.per_case if c.kind == "memory" and c.reason in ruled]
    assert out_cases  # the built-in harness declines some answerable questions
    weakest = sorted(scored.report.per_category, key=lambda c: (c.mean, c.category))[:8]
    shown = {c.category for c in weakest}
    for category in {c.category for c in out_cases} & shown:
        n = sum(1 for c in out_cases if c.category == category)
        assert f"<td>{category} <span class=warn>({n} disqualified)</span>" in page
    assert page.count("disqualified)</span>") == len({c.category for c in out_cases} & shown)
