"""`dittobench grade` and `dittobench audit` as a user runs them, on real files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dittobench import study as T
from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset
from tests.helpers.cli import dittobench


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("grade")
    dataset = build_dataset(21, run_size="medium")
    paths = {
        "dataset": root / "dataset.json",
        "oracle": root / "oracle.json",
        "canned": root / "canned.json",
        "other": root / "other.json",
    }
    paths["dataset"].write_bytes(canonical_bytes(dataset.to_json()))
    paths["oracle"].write_bytes(canonical_bytes(T.build(dataset).to_json()))
    canned = T.build(dataset, memory=T.canned("Something about three weeks, I think."))
    paths["canned"].write_bytes(canonical_bytes(canned.to_json()))
    other = build_dataset(22, run_size="medium")
    paths["other"].write_bytes(canonical_bytes(T.build(other).to_json()))
    return paths


def test_grade_prints_a_readable_summary(files: dict[str, Path]) -> None:
    result = dittobench("grade", str(files["dataset"]), str(files["oracle"]))
    assert result.returncode == 0, result.stderr
    assert "composite    1.0000 ± 0.0000" in result.stdout
    assert "tool mean    1.0000" in result.stdout
    assert "dimensions" in result.stdout


def test_grade_json_is_the_full_report(files: dict[str, Path]) -> None:
    result = dittobench("grade", str(files["dataset"]), str(files["canned"]), "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["tool_mean"] == 1.0 and report["memory_mean"] < 0.1
    assert len(report["per_case"]) == report["n"] == 40 + 56
    assert {"composite", "composite_stderr", "per_category", "details", "dimensions"} <= set(report)


def test_transcript_of_another_dataset_exits_2(files: dict[str, Path]) -> None:
    result = dittobench("grade", str(files["dataset"]), str(files["other"]))
    assert result.returncode == 2
    assert "transcript is for dataset" in result.stderr


def test_malformed_files_exit_2_naming_the_file(files: dict[str, Path], tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"seed": "1", "cases": [', encoding="utf-8")
    result = dittobench("grade", str(files["dataset"]), str(broken))
    assert (
        result.returncode == 2
        and "broken.json" in result.stderr
        and "not valid JSON" in result.stderr
    )
    result = dittobench("grade", str(tmp_path / "absent.json"), str(files["oracle"]))
    assert result.returncode == 2 and "cannot read" in result.stderr


def test_audit_lists_typed_failures_for_labelling(files: dict[str, Path], tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.tsv"
    result = dittobench("audit", str(files["dataset"]), str(files["canned"]), "--out", str(sheet))
    assert result.returncode == 0, result.stderr
    lines = sheet.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t")[:3] == ["label", "case_id", "question_type"]
    assert len(lines) > 10 and "case(s) to label" in result.stderr
    assert all(len(line.split("\t")) == 10 for line in lines)
    clean = dittobench("audit", str(files["dataset"]), str(files["oracle"]), "--format", "jsonl")
    assert clean.returncode == 0 and clean.stdout == ""
