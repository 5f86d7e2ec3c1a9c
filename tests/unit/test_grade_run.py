"""Grading whole runs: the oracle earns full marks, every red-team strategy earns ~0 on what it
attacks, generic answers earn almost nothing, and bad inputs are refused clearly."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import pytest

from dittobench import study as T
from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import GradeInputError, grade_run
from dittobench.spec.codec import DecodeError
from dittobench.spec.dataset import Dataset
from dittobench.spec.report import CaseScore
from dittobench.spec.transcript import Transcript
from tests.helpers import redteam as R

SEEDS = range(50)


@cache
def dataset(seed: int, run_size: str) -> Dataset:
    return build_dataset(seed, run_size=run_size)


def memory_scores(cases: tuple[CaseScore, ...]) -> list[float]:
    return [c.score for c in cases if c.kind == "memory"]


@pytest.mark.slow
@pytest.mark.parametrize("run_size", ["small", "medium", "full"])
def test_oracle_scores_every_case(run_size: str) -> None:
    for seed in SEEDS:
        report = grade_run(dataset(seed, run_size), T.build(dataset(seed, run_size))).report
        low = [(c.category, c.score, c.reason) for c in report.per_case if c.score < 0.99]
        assert not low, (seed, low)
        assert report.composite >= 0.99
        assert report.details.observed_tool_cases == sum(
            1 for c in report.per_case if c.kind == "tool" and c.expected
        )


RED_TEAMS = {
    "all_candidates": R.all_candidates,
    "always_decline": T.always_decline,
    "echo_question": R.echo_question,
    "dump_everything": T.dump_everything,
    "instruct_grader": R.instruct_grader,
}


@pytest.mark.slow
@pytest.mark.parametrize("strategy", sorted(RED_TEAMS))
def test_red_team_memory_strategies_score_near_zero(strategy: str) -> None:
    means = []
    # A dump of the whole history is read mention by mention: ten seeds of it are enough.
    for seed in SEEDS[:10] if strategy == "dump_everything" else SEEDS:
        ds = dataset(seed, "medium" if seed % 2 else "full")
        report = grade_run(ds, T.build(ds, memory=RED_TEAMS[strategy], tool=T.no_tools)).report
        means.append(sum(memory_scores(report.per_case)) / len(memory_scores(report.per_case)))
        assert report.composite <= 0.1, (strategy, seed, report.composite)
    assert sum(means) / len(means) <= 0.03, (strategy, max(means))


def test_listing_candidates_never_pays_where_there_are_candidates() -> None:
    for seed in range(20):
        ds = dataset(seed, "full")
        graded = grade_run(ds, T.build(ds, memory=R.all_candidates))
        for case in ds.memory_cases:
            if case.distractors or case.forbidden:
                assert graded.memory[case.id].score == 0, case


def test_self_reported_tool_calls_are_capped() -> None:
    for seed in range(20):
        ds = dataset(seed, "full")
        report = grade_run(ds, T.build(ds, observe=False)).report
        for score in report.per_case:
            if score.kind == "tool" and score.capped:
                assert score.score <= 0.5
        assert report.details.capped_tool_cases >= 60
        assert report.details.observed_tool_cases == 0


def test_repeating_the_decoy_token_cuts_the_run() -> None:
    ds = dataset(3, "full")
    honest = grade_run(ds, T.build(ds)).report
    cheat = grade_run(ds, T.build(ds, memory=R.repeat_decoy)).report
    assert cheat.details.token_factor == 0.5
    assert cheat.composite <= honest.composite * 0.5


@pytest.mark.slow
@pytest.mark.parametrize("text", ["I don't know", "yes", "it changed", "about a week", "no"])
def test_generic_answers_pass_under_five_percent(text: str) -> None:
    passed = total = 0
    for seed in SEEDS:
        ds = dataset(seed, "medium" if seed % 2 else "full")
        graded = grade_run(ds, T.build(ds, memory=T.canned(text)))
        passed += sum(1 for v in graded.memory.values() if v.score >= 0.5)
        total += len(graded.memory)
    assert passed / total < 0.05, (text, passed / total)


def test_paraphrase_split_costs_consistency() -> None:
    ds = dataset(5, "full")
    family_ids = sorted({c.family_id for c in ds.memory_cases if c.family_id})
    victim = next(c for c in ds.memory_cases if c.family_id == family_ids[0])

    def split(case, data):  # type: ignore[no-untyped-def]
        if case.id == victim.id:
            return T.canned("no idea")(case, data)
        return T.oracle_memory(case, data)

    report = grade_run(ds, T.build(ds, memory=split)).report
    assert report.details.split_families == 1
    assert report.details.consistency == pytest.approx(1 - 0.15 / len(family_ids))


def test_grading_is_deterministic_and_reports_round_trip() -> None:
    ds = dataset(9, "medium")
    transcript = T.build(ds, memory=T.canned("about three weeks"))
    first = grade_run(ds, transcript).report.to_json()
    again = Transcript.from_json(json.loads(canonical_bytes(transcript.to_json())))
    assert again.sha256 == transcript.sha256
    assert grade_run(ds, again).report.to_json() == first


def test_missing_cases_are_undelivered_not_errors() -> None:
    ds = dataset(2, "small")
    full = T.build(ds)
    partial = replace(full, cases=full.cases[:3])
    report = grade_run(ds, partial).report
    assert report.details.undelivered_cases == len(full.cases) - 3
    assert report.n == len(full.cases)


def test_transcript_for_another_dataset_is_refused() -> None:
    ds, other = dataset(2, "small"), dataset(3, "small")
    with pytest.raises(GradeInputError, match="transcript is for dataset"):
        grade_run(ds, T.build(other))
    stray = T.build(ds)
    stray = replace(
        stray, cases=(*stray.cases, replace(stray.cases[0], case_id="cffffffffffffffff"))
    )
    with pytest.raises(GradeInputError, match="cffffffffffffffff"):
        grade_run(ds, stray)


@pytest.mark.parametrize(
    ("mutate", "where"),
    [
        (lambda d: d.pop("seed"), r"\$\.seed"),
        (lambda d: d["cases"][0].update(kind="banana"), "kind"),
        (lambda d: d["cases"][0].update(response={"final_text": 5}), "final_text"),
        (
            lambda d: d["cases"][0]["execution"].update(total_duration_ms="slow"),
            "total_duration_ms",
        ),
        (lambda d: d["cases"].append(d["cases"][0]), "appears twice"),
    ],
)
def test_malformed_transcripts_name_the_problem(mutate, where: str) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(canonical_bytes(T.build(dataset(2, "small")).to_json()))
    mutate(data)
    with pytest.raises(DecodeError, match=where):
        Transcript.from_json(data)


def test_dimensions_sit_beside_the_composite() -> None:
    report = grade_run(dataset(4, "full"), T.build(dataset(4, "full"))).report
    assert set(report.dimensions) == {"recall", "temporal", "reasoning", "weighted"}
    assert report.dimensions["weighted"] == 1.0
    categories = {(c.kind, c.category) for c in report.per_category}
    assert ("memory", "isolation") in categories and ("tool", "no_tool") in categories
