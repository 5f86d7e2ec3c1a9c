"""What a harness declared it measured, on the summary, the run page and the board: always the
harness's word, a reader called locked only when all its settings are."""

from __future__ import annotations

import re
from dataclasses import replace

from dittobench.cli.summary import report_lines
from dittobench.spec.reading import EXTRACTIVE_1, READER_1
from dittobench.views.board import Board, board_row, leaderboard_page
from dittobench.views.frame import Chrome
from dittobench.views.identity import DECLARED, identity_text
from dittobench.views.ranking import leaderboard
from dittobench.views.report import run_facts
from tests.helpers.judged_reports import VERSION, reports
from tests.unit.test_views_nuance import board_items, run_row

MEM0 = {
    "adapter": "mem0",
    "adapter_version": "1",
    "system": "mem0ai",
    "system_version": "2.2.1",
    **READER_1.declared(),
}


def test_the_words_name_adapter_system_and_reader() -> None:
    assert identity_text(MEM0) == (
        "adapter mem0 1 · system mem0ai 2.2.1 · "
        "reader dittobench-reader-1 (qwen2.5-7b-instruct-q4_k_m), locked"
    )
    hotter = {**MEM0, "reader_temperature_permille": "700"}
    assert identity_text(hotter).endswith("not a locked reader")
    assert "locked" in identity_text({"reader": EXTRACTIVE_1.id, **EXTRACTIVE_1.declared()})
    assert identity_text({"name": "my-harness", "build": "7"}) == "build 7 · name my-harness"
    assert identity_text({}) == ""


def test_the_summary_and_the_run_page_say_it_is_declared() -> None:
    report = replace(reports()["none"], identity=MEM0)
    lines = report_lines(report)
    assert any(
        line.startswith("measured     adapter mem0 1") and DECLARED in line for line in lines
    )
    assert not any(line.startswith("measured") for line in report_lines(reports()["none"]))
    row = run_row(report)
    facts = run_facts(row, report, "self-reported")
    assert "Measured" in facts and "adapter mem0 1" in facts and DECLARED in facts
    assert "Measured" not in run_facts(row, reports()["none"], "self-reported")


def test_the_board_names_what_the_newest_run_measured() -> None:
    items = board_items()
    newest_high = items[1].run_id  # runs are listed newest first within a harness
    rows = tuple(
        board_row(r, lambda _i: "operator-run", lambda _i: None, {}, {newest_high: MEM0})
        for r in leaderboard(items, VERSION, "medium")
    )
    page = leaderboard_page(VERSION, [VERSION], [Board("medium", rows, 0, False)], Chrome())
    cells = re.findall(r"<tr(?: class=tied)?><td class=num>.*?</tr>", page)
    assert "adapter mem0 1" in cells[0] and DECLARED in cells[0]
    assert not any("adapter" in cell for cell in cells[1:])
