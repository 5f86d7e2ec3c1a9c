"""Harnesses that answer from the question alone, scored through a real `dittobench run`:
echoes, declines around echoes or public value lists, hedges, a public attribute's values and a
dump of everything stored must all stay at memory mean <= 0.02."""

from __future__ import annotations

import json
import subprocess
import sys
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from dittobench.spec.versions import CURRENT_VERSION, get_policy
from tests.helpers.harness_process import script_harness
from tests.helpers.strategy_harness import STRATEGIES

SCRIPT = Path(__file__).resolve().parent.parent / "helpers" / "strategy_harness.py"


def strategy_harness(strategy: str) -> AbstractContextManager[str]:
    return script_harness(SCRIPT, "--strategy", strategy)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_answers_from_the_question_alone_score_nothing(strategy: str, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    with strategy_harness(strategy) as url:
        result = subprocess.run(
            [
                *(sys.executable, "-m", "dittobench", "run", "--harness", url),
                *("--run-size", "medium", "--seed", "424242", "--db", str(tmp_path / "runs.db")),
                *("--out-dir", str(tmp_path / "out"), "--json", str(report)),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    assert result.returncode == 0, result.stderr[-2000:]
    scores = json.loads(report.read_text(encoding="utf-8"))
    assert scores["grading_policy"] == get_policy(CURRENT_VERSION).grading.id
    assert scores["memory_mean"] <= 0.02, strategy
