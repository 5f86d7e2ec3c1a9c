"""``dittobench report RUN_ID --html`` and ``dittobench compare`` on runs made by a real
``dittobench run`` against the built-in harness."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.helpers.cli import dittobench

RUN_ID = re.compile(r"run id\s+(r-\S+)")


def _run(folder: Path, seed: int) -> str:
    made = dittobench(
        "run", "--seed", str(seed), "--run-size", "small", "--db", str(folder / "runs.db"),
        "--out-dir", str(folder / "out"), cwd=folder,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    found = RUN_ID.search(made.stdout)
    assert found, made.stdout
    return found.group(1)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str, str]:
    folder = tmp_path_factory.mktemp("views")
    return folder, _run(folder, 5), _run(folder, 5), _run(folder, 6)


class _Refs(HTMLParser):
    """Every tag, every attribute value, and the case ids the case table shows."""

    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.tags: set[str] = set()
        self.case_ids: list[str] = []
        self._in_case = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.refs += [value for _, value in attrs if value]
        self._in_case = tag == "code"

    def handle_data(self, data: str) -> None:
        if self._in_case and re.fullmatch(r"[ct][0-9a-f]{16}", data):
            self.case_ids.append(data)
        self._in_case = False


def test_report_html_is_standalone_and_holds_every_case(runs: tuple[Path, str, str, str]) -> None:
    folder, first, _, _ = runs
    out = folder / "report.html"
    made = dittobench("report", first, "--html", str(out), "--db", str(folder / "runs.db"))
    assert made.returncode == 0, made.stderr
    page = out.read_text(encoding="utf-8")
    report = json.loads((folder / "out" / first / "report.json").read_text(encoding="utf-8"))
    parser = _Refs()
    parser.feed(page)
    assert "script" not in parser.tags and "link" not in parser.tags and "img" not in parser.tags
    # Prompts may mention URLs as text; no attribute may point anywhere (only #fragments).
    assert [r for r in parser.refs if "//" in r or r.startswith(("http", "data:", "/"))] == []
    style = page[page.index("<style>") : page.index("</style>")]
    assert "url(" not in style and "@import" not in style
    expected = [c["case_id"] for c in report["per_case"]]
    expected += [c["case_id"] for c in report["nuance"]["per_case"]]  # the open questions' table
    assert sorted(set(parser.case_ids)) == sorted(expected)
    assert "<svg" in page and f"{report['composite']:.4f}" in page
    for case in report["per_case"]:
        if case["reason"]:
            assert f"<code>{case['reason']}</code>" in page


def test_compare_pairs_runs_of_one_dataset(runs: tuple[Path, str, str, str]) -> None:
    folder, first, second, _ = runs
    made = dittobench("compare", first, second, "--json", "--db", str(folder / "runs.db"))
    assert made.returncode == 0, made.stderr
    result = json.loads(made.stdout)
    report_a = json.loads((folder / "out" / first / "report.json").read_text(encoding="utf-8"))
    report_b = json.loads((folder / "out" / second / "report.json").read_text(encoding="utf-8"))
    assert result["paired"] is True
    assert result["wins"] + result["losses"] + result["ties"] == len(report_a["per_case"])
    delta = result["composite_delta"]
    assert delta["value"] == pytest.approx(report_b["composite"] - report_a["composite"], abs=1e-6)
    assert delta["ci95_low"] <= delta["value"] <= delta["ci95_high"]
    text = dittobench("compare", first, second, "--db", str(folder / "runs.db"))
    assert text.returncode == 0 and "Paired" in text.stdout and "95% CI" in text.stdout


def test_compare_across_seeds_says_it_is_unpaired(runs: tuple[Path, str, str, str]) -> None:
    folder, first, _, other = runs
    made = dittobench("compare", first, other, "--json", "--db", str(folder / "runs.db"))
    assert made.returncode == 0, made.stderr
    result = json.loads(made.stdout)
    assert result["paired"] is False and "seed 5 vs 6" in result["why"]
    assert result["wins"] == result["losses"] == result["ties"] == 0
    a, b = result["a"], result["b"]
    se = (a["composite_stderr"] ** 2 + b["composite_stderr"] ** 2) ** 0.5
    assert result["composite_delta"]["std_err"] == pytest.approx(se, abs=1e-6)


def test_unknown_runs_are_named(runs: tuple[Path, str, str, str]) -> None:
    folder, first, _, _ = runs
    missing = "r-20200101-000000-abcdef"
    made = dittobench("compare", first, missing, "--db", str(folder / "runs.db"))
    assert made.returncode == 2 and missing in made.stderr
    out = folder / "missing.html"
    made = dittobench("report", missing, "--html", str(out), "--db", str(folder / "runs.db"))
    assert made.returncode == 2 and missing in made.stderr and not out.exists()
    made = dittobench("report", "nonsense", "--html", str(out), "--db", str(folder / "runs.db"))
    assert made.returncode == 2 and "nonsense" in made.stderr
