"""Retrieval diagnostics: ``RunResponse.retrieved`` read liberally and kept out of old bytes,
recall@k and hit@k on hand-made rankings, and the report's ``retrieval`` block beside the
composite, never in it."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from dittobench import study as T
from dittobench.cli.summary import report_lines, retrieval_lines
from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset
from dittobench.grade.retrieval import case_retrieval, hit_at, recall_at, retrieval_report
from dittobench.grade.run import grade_run
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.repair import RETRIEVED_KEPT, run_response
from dittobench.spec.report import ScoreReport
from dittobench.spec.transcript import CaseRecord, Transcript, response_json
from dittobench.spec.wire import RunResponse, to_wire
from dittobench.spec.wireids import WireIds
from dittobench.views.report import summary_cards

NONCE = "5a" * 32


@cache
def dataset() -> Dataset:
    return build_dataset(3, run_size="small")


def case(evidence: tuple[str, ...], question_type: Any = "single_session_recall") -> MemoryCase:
    return MemoryCase(
        id=f"m-{len(evidence)}-{question_type}",
        question_type=question_type,
        question="What is it?",
        answer_kind="value",
        expected_answer="x",
        user_id="miner",
        run_after_wave=0,
        evidence_pair_ids=evidence,
    )


def same(text: str) -> str:
    return text


# Repair: liberal, never bad_json ------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "read"),
    [
        (None, ()),
        ("p-1", ()),
        ({"p-1": 1}, ()),
        (7, ()),
        ([], ()),
        (["p-1", 2, None, {"a": 1}, ["p-2"], True, "p-3"], ("p-1", "p-3")),
        (["p-2", "p-1", "p-2", "p-1"], ("p-2", "p-1")),
        (["", "p-1", "x" * 10_000], ("p-1",)),
        (["p-\ud800"], ("p-?",)),
    ],
)
def test_retrieved_is_read_liberally(value: Any, read: tuple[str, ...]) -> None:
    response, dropped = run_response({"final_text": "ok", "retrieved": value})
    assert response.retrieved == read
    assert response.final_text == "ok" and dropped == 0


def test_at_most_the_first_hundred_distinct_ids_are_kept() -> None:
    listed = [f"p-{i}" for i in range(RETRIEVED_KEPT + 50)]
    response, _ = run_response({"retrieved": ["p-0", *listed]})
    assert response.retrieved == tuple(listed[:RETRIEVED_KEPT])


def test_an_empty_list_leaves_every_byte_as_before() -> None:
    plain = RunResponse(final_text="ok", answer="x")
    assert "retrieved" not in to_wire(plain) and "retrieved" not in response_json(plain)
    listed = replace(plain, retrieved=("p-2", "p-1"))
    assert to_wire(listed)["retrieved"] == ["p-2", "p-1"]
    assert response_json(listed) == {**response_json(plain), "retrieved": ["p-2", "p-1"]}


def test_a_transcript_keeps_the_list_through_json() -> None:
    record = CaseRecord("m-1", "memory", "miner", RunResponse("ok", retrieved=("b", "a")))
    transcript = Transcript("dittobench", "8.0.0", 1, "small", "0" * 64, "h", (record,))
    read = Transcript.from_json(json.loads(canonical_bytes(transcript.to_json())))
    assert read == transcript and read.sha256 == transcript.sha256
    assert read.cases[0].response is not None and read.cases[0].response.retrieved == ("b", "a")


# Recall@k and hit@k -------------------------------------------------------------------------


def test_recall_and_hit_count_exactly_the_first_k() -> None:
    evidence = frozenset({"e1", "e2"})
    ranked = ["x1", "e1", "x2", "x3", "x4", "e2"]  # e1 at rank 2, e2 at rank 6
    assert [recall_at(ranked, evidence, k) for k in (1, 2, 5, 6, 10)] == [0, 0.5, 0.5, 1, 1]
    assert [hit_at(ranked, evidence, k) for k in (1, 2, 5)] == [False, True, True]


def test_evidence_at_rank_five_counts_at_five_and_rank_six_does_not() -> None:
    fifth = ["x1", "x2", "x3", "x4", "e", "x5"]
    sixth = ["x1", "x2", "x3", "x4", "x5", "e"]
    fifth_case = case_retrieval(case(("e",)), fifth, same)
    sixth_case = case_retrieval(case(("e",)), sixth, same)
    assert fifth_case is not None and sixth_case is not None
    assert fifth_case.recall == (0.0, 1.0, 1.0) and fifth_case.hit == (False, True, True)
    assert sixth_case.recall == (0.0, 0.0, 1.0) and sixth_case.hit == (False, False, True)
    top = case_retrieval(case(("e",)), ["e"], same)
    assert top is not None and top.recall == (1.0, 1.0, 1.0)
    eleventh = case_retrieval(case(("e",)), [f"x{i}" for i in range(10)] + ["e"], same)
    assert eleventh is not None and eleventh.recall == (0.0, 0.0, 0.0)


def test_ids_compare_normalised_and_unknown_ids_are_misses() -> None:
    found = case_retrieval(case(("P-1", "p-2")), ["nope", " p-1 ", "P-2"], same)
    assert found is not None and found.recall == (0.0, 1.0, 1.0)
    assert case_retrieval(case(()), ["p-1"], same) is None  # no evidence: not scored
    assert case_retrieval(case(("p-1",)), [], same) is None  # nothing listed


def test_the_block_counts_who_reported_and_means_over_them() -> None:
    a, b, c = case(("a",)), case(("b1", "b2"), "knowledge_update"), case(("c",), "isolation")
    none = case((), "abstention_unknown")
    responses: dict[str, RunResponse | None] = {
        a.id: RunResponse(retrieved=("a",)),
        b.id: RunResponse(retrieved=("x", "b1")),
        c.id: None,
        none.id: RunResponse(retrieved=("a",)),
    }
    block = retrieval_report([a, b, c, none], responses, same)
    assert block is not None
    assert (block.reported, block.unreported) == (2, 1)
    assert block.recall_at_1 == 0.5 and block.recall_at_5 == 0.75 and block.hit_at_1 == 0.5
    assert block.hit_at_5 == 1.0
    kinds = {s.question_type: s for s in block.per_type}
    assert list(kinds) == ["single_session_recall", "isolation", "knowledge_update"]
    assert kinds["isolation"].reported == 0 and kinds["isolation"].recall_at_5 is None
    assert kinds["knowledge_update"].recall_at_5 == 0.5 and kinds["knowledge_update"].hit_at_5 == 1
    assert retrieval_report([a, b, none], {none.id: RunResponse(retrieved=("a",))}, same) is None


# Whole runs ---------------------------------------------------------------------------------


def listing(transcript: Transcript, pick: Any) -> Transcript:
    """``transcript`` with every memory response listing ``pick(case)`` as retrieved."""
    by_id = {c.id: c for c in dataset().memory_cases}
    cases = tuple(
        replace(r, response=replace(r.response, retrieved=pick(by_id[r.case_id])))
        if r.case_id in by_id and r.response is not None
        else r
        for r in transcript.cases
    )
    return replace(transcript, cases=cases)


def test_perfect_retrieval_under_a_nonce_scores_one_and_never_moves_the_composite() -> None:
    data = dataset()
    plain = replace(T.build(data), wire_nonce=NONCE)
    shown = WireIds.of(data, NONCE)
    perfect = listing(plain, lambda c: tuple(shown.wire("pair", p) for p in c.evidence_pair_ids))
    graded, before = grade_run(data, perfect).report, grade_run(data, plain).report
    block = graded.retrieval
    assert block is not None and before.retrieval is None
    with_evidence = sum(1 for c in data.memory_cases if c.evidence_pair_ids)
    assert (block.reported, block.unreported) == (with_evidence, 0)
    assert block.recall_at_10 == 1.0 and block.hit_at_10 == 1.0 and block.hit_at_1 == 1.0
    assert "retrieval" not in before.to_json()
    same_scores = {**graded.to_json(), "transcript_sha256": before.transcript_sha256}
    del same_scores["retrieval"]
    assert same_scores == before.to_json()
    read = ScoreReport.from_json(json.loads(canonical_bytes(graded.to_json())))
    assert read.retrieval == block and read.to_json() == graded.to_json()


def test_dataset_ids_the_harness_was_never_shown_are_misses() -> None:
    data = dataset()
    plain = replace(T.build(data), wire_nonce=NONCE)
    computed = listing(plain, lambda c: c.evidence_pair_ids)  # the dataset's own ids
    block = grade_run(data, computed).report.retrieval
    assert block is not None and block.reported > 0
    assert block.recall_at_10 == 0.0 and block.hit_at_10 == 0.0


def test_the_summary_and_the_run_page_show_it_beside_the_composite() -> None:
    data = dataset()
    shown = WireIds.of(data, NONCE)
    half = listing(
        replace(T.build(data), wire_nonce=NONCE),
        lambda c: ("unknown", *(shown.wire("pair", p) for p in c.evidence_pair_ids)),
    )
    report = grade_run(data, half).report
    block = report.retrieval
    assert block is not None
    lines = retrieval_lines(report)
    assert lines == [line for line in report_lines(report) if line.startswith("retrieval")]
    assert f"hit@1 {block.hit_at_1:.2f}" in lines[0] and "never in it" in lines[0]
    assert f"n={block.reported} of {block.reported + block.unreported}" in lines[0]
    cards = summary_cards(report)
    assert 'id="retrieval"' in cards and f"{block.recall_at_5:.3f}" in cards
    plain = grade_run(data, T.build(data)).report
    assert retrieval_lines(plain) == [] and 'id="retrieval"' not in summary_cards(plain)
