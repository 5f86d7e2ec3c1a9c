"""The blind folder shows what a harness sees and no key; answers files are read strictly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dittobench.catalog.shown import shown_by
from dittobench.engine.blind import (
    AnswersError,
    BlindLabels,
    fill_placeholders,
    read_answers,
    tool_results,
    write_blind,
)
from dittobench.engine.packs import run_pack
from dittobench.generate.assemble import build_dataset


def test_the_folder_holds_every_message_and_no_key(tmp_path: Path) -> None:
    dataset = build_dataset(123456789, "4.0.0", "medium")
    write_blind(dataset, shown_by(run_pack("4.0.0", None)), tmp_path)
    cases = json.loads((tmp_path / "cases.json").read_text())
    assert len(cases) == len(dataset.memory_cases) + len(dataset.tool_cases)
    shown = "".join(p.read_text() for p in tmp_path.iterdir())
    for case in dataset.memory_cases:
        assert case.id not in shown and case.question in shown
    for tool_case in dataset.tool_cases:
        assert tool_case.id not in shown and tool_case.expected_behavior not in shown
    assert all(p.pair_id not in shown for w in dataset.memory_waves for p in w.pairs)
    assert str(dataset.seed) not in shown


def test_tool_calls_are_served_offline_as_the_endpoint_serves_them(tmp_path: Path) -> None:
    dataset = build_dataset(11, "4.0.0", "medium")
    labels = BlindLabels.of(dataset)
    case = next(c for c in dataset.tool_cases if c.expected_tools)
    call = {"name": case.expected_tools[0].name, "args": dict(case.expected_tools[0].required_args)}
    answers = tmp_path / "a.jsonl"
    answers.write_text(json.dumps({"id": labels.case[case.id], "calls": [call]}) + "\n")
    rows = tool_results(dataset, read_answers(answers, labels.case.values()))
    assert [r["id"] for r in rows] == [labels.case[case.id]]
    assert "result" in rows[0] or "error" in rows[0]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("not json", "not JSON"),
        ('{"id": "X999"}', "no case"),
        ('{"id": "M001", "final_text": 3}', "final_text"),
        ('{"id": "M001", "abstain": "yes"}', "abstain"),
        ('{"id": "M001", "calls": [{"args": {}}]}', "calls[0]"),
    ],
)
def test_a_bad_answers_line_is_named(tmp_path: Path, line: str, says: str) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(AnswersError, match=r"a\.jsonl:1") as caught:
        read_answers(path, ["M001"])
    assert says in str(caught.value)


def test_placeholders_take_the_run_ids() -> None:
    filled = fill_placeholders({"pair_id": "{{P0012}}", "x": ["{{P9999}}"]}, {"P0012": "p-abc"})
    assert filled == {"pair_id": "p-abc", "x": ["{{P9999}}"]}
