"""The judge client against a real HTTP judge (the scripted one): every attempt recorded, replies
that never parse left as judge errors, flaky replies asked again; and `audit --judge-url`."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from dittobench.core.canonical import canonical_bytes
from dittobench.core.hashing import canonical_sha256
from dittobench.engine.judging import JudgeEndpoint, judge_cases
from dittobench.generate.assemble import build_dataset
from dittobench.grade.judging import judge_request, judged_case, nuance_score, request_sha256
from dittobench.spec.judging import JUDGE_1, JudgeRecord
from dittobench.spec.transcript import CaseRecord, Transcript
from dittobench.spec.wire import RunResponse
from tests.helpers.cli import dittobench
from tests.helpers.judge_server import scripted_judge

DATA = build_dataset(31, "8.0.0", "medium")


def _answers() -> list[tuple[object, str]]:
    """Each open case answered with its facts to state, and one left unanswered."""
    pairs: list[tuple[object, str]] = [
        (c, "; ".join(i.value for i in c.must_state)) for c in DATA.open_cases
    ]
    pairs[-1] = (DATA.open_cases[-1], "")
    return pairs


def _judge(mode: str, timeout_s: float = 120.0) -> tuple[JudgeRecord, int]:
    with scripted_judge(mode) as (url, script):
        endpoint = JudgeEndpoint(url, timeout_s=timeout_s)
        record = asyncio.run(judge_cases(endpoint, JUDGE_1, _answers()))  # type: ignore[arg-type]
        return record, len(script.requests)


def test_a_working_judge_is_asked_once_per_panel_call_and_recorded() -> None:
    record, sent = _judge("contains")
    answered = len(DATA.open_cases) - 1  # an empty answer is not sent
    assert sent == answered * JUDGE_1.panel
    assert len(record.judgements) == answered
    by_case = {j.case_id: j for j in record.judgements}
    for case, answer in _answers()[:-1]:
        judgement = by_case[case.id]  # type: ignore[attr-defined]
        assert [c.panel_call for c in judgement.calls] == [0, 1, 2]
        for call in judgement.calls:
            body = judge_request(JUDGE_1, case, answer, call.panel_call)  # type: ignore[arg-type]
            assert call.request_sha256 == request_sha256(body)
            assert (call.outcome, call.model) == ("ok", JUDGE_1.model)
        verdict = judged_case(case, judgement, True, JUDGE_1.panel)  # type: ignore[arg-type]
        assert verdict.status == "judged"
        assert all(verdict.verdicts[i.id] == "YES" for i in case.must_state)  # type: ignore[attr-defined,index]


def test_replies_that_never_parse_are_retried_then_left_as_judge_errors() -> None:
    record, sent = _judge("garbage")
    tries = JUDGE_1.retries + 1
    assert sent == (len(DATA.open_cases) - 1) * JUDGE_1.panel * tries
    for judgement in record.judgements:
        assert [c.outcome for c in judgement.calls] == ["unparsed"] * (JUDGE_1.panel * tries)
        case = next(c for c in DATA.open_cases if c.id == judgement.case_id)
        assert judged_case(case, judgement, True, JUDGE_1.panel).status == "judge_error"


def test_a_flaky_reply_is_asked_again_and_both_attempts_kept() -> None:
    record, _sent = _judge("flaky")
    for judgement in record.judgements:
        assert [(c.attempt, c.outcome) for c in judgement.calls[:2]] == [
            (1, "unparsed"),
            (2, "ok"),
        ]
        case = next(c for c in DATA.open_cases if c.id == judgement.case_id)
        assert judged_case(case, judgement, True, JUDGE_1.panel).status == "judged"


def test_an_endpoint_that_refuses_is_recorded_as_http_errors() -> None:
    record, _sent = _judge("refuse")
    outcomes = {c.outcome for j in record.judgements for c in j.calls}
    assert outcomes == {"http_error"}


def test_a_hostile_judge_leaves_a_record_that_hashes_and_grades() -> None:
    """Replies nested past any parser, a model name no UTF-8 can carry, a reply dripped past
    the deadline: each call is recorded with an outcome, the record hashes, and the grader makes
    judge errors or scores of it, never an exception."""
    for mode, outcome in (("deep", "unparsed"), ("surrogate", "ok")):
        record, _sent = _judge(mode)
        assert {c.outcome for j in record.judgements for c in j.calls} == {outcome}
        canonical_sha256(record.to_json())
        answers = {c.id: a for c, a in _answers()}  # type: ignore[attr-defined]
        nuance = nuance_score(DATA.open_cases, answers, record, JUDGE_1)
        assert not nuance.official
    with scripted_judge("drip") as (url, _script):
        dripped = asyncio.run(
            judge_cases(JudgeEndpoint(url, timeout_s=1.0), JUDGE_1, _answers()[:1])  # type: ignore[arg-type]
        )
    assert {c.outcome for j in dripped.judgements for c in j.calls} == {"timeout"}


def test_audit_with_a_judge_lists_where_judge_and_rules_disagree(tmp_path: Path) -> None:
    """Every memory answer says its key's expected value: the rules pass the values they find
    and the containment judge agrees; an answer that names the value only in other words is
    passed by neither; a blank answer is failed by both. No score is changed."""
    data = build_dataset(31, "8.0.0", "small")
    records = tuple(
        CaseRecord(c.id, "memory", c.user_id, RunResponse(final_text=f"It is {c.expected_answer}."))
        for c in data.memory_cases
    )
    transcript = Transcript(
        data.benchmark,
        data.bench_version,
        data.seed,
        data.run_size,
        canonical_sha256(data.to_json()),
        "t",
        records,
    )
    (tmp_path / "dataset.json").write_bytes(canonical_bytes(data.to_json()))
    (tmp_path / "transcript.json").write_bytes(canonical_bytes(transcript.to_json()))
    with scripted_judge("contains") as (url, script):
        done = dittobench("audit", str(tmp_path), "--judge-url", url, "--format", "jsonl")
        asked = len(script.requests)
    assert done.returncode == 0, done.stderr
    assert "agrees with the rules on" in done.stderr
    assert asked > 0
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    for row in rows:
        assert row["disagreement"] in ("rules_fail_judge_pass", "rules_pass_judge_fail")
    with scripted_judge("garbage") as (url, _script):
        broken = dittobench("audit", str(tmp_path), "--judge-url", url, "--format", "jsonl")
    assert broken.returncode == 0, broken.stderr
    statuses = {json.loads(line)["judge_status"] for line in broken.stdout.splitlines()}
    assert statuses == {"judge_error"}
