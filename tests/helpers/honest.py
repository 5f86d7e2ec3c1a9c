"""The honest-answer corpus (``tests/corpus/honest``): answers capable readers wrote from a blind
folder (``dittobench blind``), each run's transcript from ``dittobench replay``, and every memory
answer adjudicated right or wrong by a reader who saw the keys, with the reason."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from dittobench.engine.blind import BlindLabels
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import Graded, grade_run
from dittobench.spec.codec import loads
from dittobench.spec.dataset import Dataset
from dittobench.spec.report import ScoreReport
from dittobench.spec.transcript import Transcript
from dittobench.spec.versions import GradingPolicy

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "honest"


@dataclass(frozen=True, slots=True)
class Tally:
    """How one policy grades one corpus run against its verdicts."""

    run: str
    style: str
    run_size: str
    right: int
    right_passed: int
    wrong: int
    wrong_failed: int
    right_but_failed: tuple[str, ...]
    wrong_but_passed: tuple[str, ...]


def runs() -> list[Path]:
    return sorted(p for p in CORPUS.iterdir() if (p / "run.json").exists())


@cache
def _graded(folder: Path, policy: GradingPolicy) -> tuple[Dataset, Graded]:
    meta = json.loads((folder / "run.json").read_text())
    dataset = build_dataset(meta["seed"], meta["bench_version"], meta["run_size"])
    transcript = Transcript.from_json(loads((folder / "transcript.json").read_bytes(), "t"))
    return dataset, grade_run(dataset, transcript, policy)


def report(folder: Path, policy: GradingPolicy) -> ScoreReport:
    """The run's score report under ``policy``."""
    return _graded(folder, policy)[1].report


def tally(folder: Path, policy: GradingPolicy) -> Tally:
    """Grade ``folder``'s transcript under ``policy`` and hold each memory verdict to the
    adjudication."""
    meta = json.loads((folder / "run.json").read_text())
    dataset, graded = _graded(folder, policy)
    label = BlindLabels.of(dataset).case
    verdicts = dict(_verdicts(folder))
    right_failed, wrong_passed = [], []
    right = wrong = 0
    for case in dataset.memory_cases:
        passed = graded.memory[case.id].score >= 1
        if verdicts[label[case.id]] == "right":
            right += 1
            if not passed:
                right_failed.append(label[case.id])
        else:
            wrong += 1
            if passed:
                wrong_passed.append(label[case.id])
    return Tally(
        folder.name,
        meta["style"],
        meta["run_size"],
        right,
        right - len(right_failed),
        wrong,
        wrong - len(wrong_passed),
        tuple(right_failed),
        tuple(wrong_passed),
    )


def _verdicts(folder: Path) -> Iterator[tuple[str, str]]:
    for line in (folder / "verdicts.jsonl").read_text().splitlines():
        item = json.loads(line)
        yield item["id"], item["verdict"]
