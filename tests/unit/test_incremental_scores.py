"""Provisional per-case scores graded as cases are recorded (grade.run.RunGrader, the service's
PartialScores): each look grades only the cases recorded since the previous one, and every score
equals the row a whole regrade (``grade_run``) gives that case over the records so far, for real
runs' records (the honest corpus) and for the oracle's, whose write instructions are confirmed
by their read-backs whichever arrives first."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dittobench.core.prng import Stream
from dittobench.generate.assemble import build_dataset
from dittobench.grade import run as graderun
from dittobench.grade.run import GradeInputError, RunGrader, grade_run
from dittobench.service.events import ProgressHub
from dittobench.service.jobview import PartialScores, job_object
from dittobench.spec.codec import loads
from dittobench.spec.dataset import Dataset
from dittobench.spec.transcript import CaseRecord, Transcript
from dittobench.store import RunRow, RunStore
from dittobench.store.jobs import JobRow, ServiceStore
from dittobench.study.transcripts import build

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "honest"
REAL = ["chatty-101-medium", "chatty-1212-medium", "chatty-303-full"]
T0 = "2026-12-07T09:00:00Z"


def corpus_run(name: str) -> tuple[Dataset, Transcript]:
    meta = json.loads((CORPUS / name / "run.json").read_text(encoding="utf-8"))
    dataset = build_dataset(meta["seed"], meta["bench_version"], meta["run_size"])
    data = (CORPUS / name / "transcript.json").read_bytes()
    return dataset, Transcript.from_json(loads(data, "transcript"))


def oracle_run(seed: int, version: str) -> tuple[Dataset, Transcript]:
    dataset = build_dataset(seed, version, "medium")
    return dataset, build(dataset)


def shuffled(cases: tuple[CaseRecord, ...], seed: int) -> list[CaseRecord]:
    """The records in an order a run with cases in flight could record them."""
    order = list(cases)
    stream = Stream(seed, "test", "recording order")
    for i in range(len(order) - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def batches(cases: list[CaseRecord], size: int) -> Iterator[list[CaseRecord]]:
    for start in range(0, len(cases), size):
        yield cases[start : start + size]


def regraded(dataset: Dataset, transcript: Transcript, records: dict[str, CaseRecord]) -> Any:
    """What a whole regrade over ``records`` lists: the recorded cases' rows of ``per_case``."""
    part = replace(transcript, cases=tuple(records.values()))
    return [c.to_json() for c in grade_run(dataset, part).report.per_case if c.case_id in records]


def check_incremental(dataset: Dataset, transcript: Transcript, seed: int) -> None:
    grader = RunGrader(dataset, transcript.wire_nonce)
    records: dict[str, CaseRecord] = {}
    kept: dict[str, Any] = {}
    for batch in batches(shuffled(transcript.cases, seed), 7):
        records |= {c.case_id: c for c in batch}
        changed = grader.affected(c.case_id for c in batch) & records.keys()
        kept |= {k: s.to_json() for k, s in grader.scores(records, changed).items()}
        listed = [kept[k] for k in sorted(kept, key=grader.order.__getitem__)]
        assert listed == regraded(dataset, transcript, records)


@pytest.mark.parametrize("name", REAL)
def test_real_runs_graded_a_batch_at_a_time_match_a_whole_regrade(name: str) -> None:
    dataset, transcript = corpus_run(name)
    check_incremental(dataset, transcript, 7)


@pytest.mark.parametrize(("seed", "version"), [(3, "8.0.0"), (4, "4.0.0"), (5, "1.1.0")])
def test_confirmed_writes_graded_in_any_order_match_a_whole_regrade(
    seed: int, version: str
) -> None:
    dataset, transcript = oracle_run(seed, version)
    confirmed = [c for c in dataset.memory_cases if c.confirmed_by]
    report = grade_run(dataset, transcript).report
    credited = {c.case_id for c in report.per_case if c.score == 1}
    if version != "1.1.0":  # the oracle's writes are confirmed: the dependency is exercised
        assert confirmed and {c.id for c in confirmed} <= credited
    for order_seed in range(3):
        check_incremental(dataset, transcript, order_seed)


def test_a_read_back_recorded_late_regrades_its_instruction() -> None:
    dataset, transcript = oracle_run(4, "4.0.0")
    grader = RunGrader(dataset, transcript.wire_nonce)
    instruction = next(c for c in dataset.memory_cases if c.confirmed_by)
    records = {c.case_id: c for c in transcript.cases if c.case_id != instruction.confirmed_by}
    before = grader.scores(records, [instruction.id])[instruction.id]
    assert grader.affected([instruction.confirmed_by]) >= {instruction.id}
    records |= {c.case_id: c for c in transcript.cases if c.case_id == instruction.confirmed_by}
    after = grader.scores(records, [instruction.id])[instruction.id]
    assert (before.score, after.score) == (0.0, 1.0)


def test_a_record_of_a_case_the_dataset_lacks_is_refused() -> None:
    dataset, transcript = oracle_run(4, "4.0.0")
    grader = RunGrader(dataset, transcript.wire_nonce)
    stray = replace(transcript.cases[0], case_id="c-not-in-the-dataset")
    with pytest.raises(GradeInputError, match="c-not-in-the-dataset"):
        grader.scores({stray.case_id: stray}, [])


# -- the service's PartialScores over a real store --------------------------------------------


class Counted:
    """Counts the cases graded (tool and memory verdicts) while it is installed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.graded = 0
        for name in ("grade_tool", "grade_memory"):
            real = getattr(graderun, name)
            monkeypatch.setattr(graderun, name, self._counting(real))

    def _counting(self, real: Any) -> Any:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.graded += 1
            return real(*args, **kwargs)

        return counted


def stored_run(store: ServiceStore, dataset: Dataset, transcript: Transcript) -> JobRow:
    run_id = "r-20261207-090000-abcdef"
    row = RunRow(
        run_id, dataset.seed, dataset.bench_version, dataset.run_size,
        transcript.dataset_sha256, "oracle", "running", "running", "", T0, T0, 0,
        len(transcript.cases), None, None, "", 0, wire_nonce=transcript.wire_nonce,
    )  # fmt: skip
    store.create_run(row)
    job = JobRow(
        run_id, 0, "alice", "submit", "http://127.0.0.1:1", dataset.seed, dataset.run_size,
        dataset.bench_version, "", "running", "", False, "", "", T0, T0, "",
    )  # fmt: skip
    return store.create_job(job)


def test_each_poll_grades_only_the_cases_recorded_since_the_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dataset, transcript = corpus_run("chatty-101-medium")
    counted = Counted(monkeypatch)
    partials = PartialScores()
    graded_per_poll = []
    with ServiceStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
        job = stored_run(store, dataset, transcript)
        records: dict[str, CaseRecord] = {}
        for batch in batches(shuffled(transcript.cases, 3), 10):
            for record in batch:
                store.record_case(
                    job.run_id, record.case_id, record.kind, record.to_json(), updated_at=T0
                )
                records[record.case_id] = record
            row = store.get_run(job.run_id)
            counted.graded = 0
            got = partials.of(store, job, row)
            graded_per_poll.append(counted.graded)
            assert got == regraded(dataset, transcript, records)
            counted.graded = 0
            assert partials.of(store, job, row) == got  # nothing new: nothing graded
            assert counted.graded == 0
    instructions = [c for c in dataset.memory_cases if c.confirmed_by]
    polled = list(batches(shuffled(transcript.cases, 3), 10))
    for graded, batch in zip(graded_per_poll, polled, strict=True):
        new = {c.case_id for c in batch if c.kind != "open"}
        # an instruction is graded again when its read-back comes, its read-back's verdict
        # looked up for it: at most two more gradings each
        touched = sum(1 for c in instructions if c.id in new or c.confirmed_by in new)
        assert len(new) <= graded <= len(new) + 2 * touched
    assert sum(graded_per_poll) < 2 * len(transcript.cases)  # a whole regrade a poll: ~n²/20


def test_a_finished_runs_scores_are_let_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dataset, transcript = corpus_run("chatty-101-medium")
    partials = PartialScores()
    with ServiceStore(RunStore.sqlite_url(tmp_path / "runs.db")) as store:
        job = stored_run(store, dataset, transcript)
        for record in transcript.cases[:20]:
            store.record_case(
                job.run_id, record.case_id, record.kind, record.to_json(), updated_at=T0
            )
        row = store.get_run(job.run_id)
        first = partials.of(store, job, row)
        counted = Counted(monkeypatch)
        assert partials.of(store, job, row) == first and counted.graded == 0  # kept
        job_object(store, replace(job, status="failed"), ProgressHub(), partials)
        assert partials.of(store, job, row) == first
        assert counted.graded == len(first)  # let go when the job ended: graded afresh
