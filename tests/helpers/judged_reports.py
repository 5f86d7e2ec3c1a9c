"""Reports of one bench-8.0 run graded four ways, for tests of where the nuance score is shown:
the same answers unjudged, judged by the locked judge, judged by another model, and judged with
one open case's replies unparsed (a judge error). The judge's replies follow the scripted judge's
containment rule (``judge_server.verdict_lines``); the first open answer also asserts a value it
must not and carries a hostile tail, the second is missing."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from dittobench.generate.assemble import build_dataset
from dittobench.grade.judging import judge_request, parse_reply, request_sha256
from dittobench.grade.run import grade_run
from dittobench.spec.dataset import Dataset
from dittobench.spec.judging import (
    JUDGE_1,
    CaseJudgement,
    JudgeCall,
    JudgeProtocol,
    JudgeRecord,
    NuanceScore,
)
from dittobench.spec.report import ScoreReport
from dittobench.spec.transcript import Attempt, CaseRecord, Execution, Transcript
from dittobench.spec.wire import RunResponse
from dittobench.study.transcripts import build
from tests.helpers.judge_server import verdict_lines

VERSION = "8.0.0"
HOSTILE = '<script>alert("x")</script>'
_EXECUTION = Execution((Attempt(1, 40, "ok", 200),), 40, "ok")


@cache
def dataset() -> Dataset:
    return build_dataset(5, VERSION, "medium")


def answers(data: Dataset) -> dict[str, str]:
    """Per open case: the first states every fact and a value it must not assert, the second
    gives no answer, the others state every fact (the first with a hostile tail)."""
    out = {}
    for index, case in enumerate(data.open_cases):
        said = ", ".join(item.value for item in case.must_state)
        if index == 0:
            said += f", {case.must_not[0].value} {HOSTILE}" if case.must_not else HOSTILE
        out[case.id] = "" if index == 1 else said
    return out


@cache
def transcript() -> Transcript:
    data = dataset()
    records = [
        CaseRecord(case.id, "open", case.user_id, RunResponse(final_text=text), (), _EXECUTION)
        for case in data.open_cases
        if (text := answers(data)[case.id])
    ]
    made = build(data)
    return replace(made, cases=tuple(sorted((*made.cases, *records), key=lambda r: r.case_id)))


def judged(protocol: JudgeProtocol = JUDGE_1, garbage: frozenset[int] = frozenset()) -> Transcript:
    """The transcript judged by ``protocol`` with replies by the scripted judge's rule; the open
    cases at the indexes of ``garbage`` get replies that never parse (judge errors)."""
    data, said = dataset(), answers(dataset())
    judgements = []
    for index, case in enumerate(data.open_cases):
        if not said[case.id]:
            continue
        calls = []
        for k in range(protocol.panel):
            body = judge_request(protocol, case, said[case.id], k)
            if index in garbage:
                reply = "A fine answer."
                calls.append(JudgeCall(k, 1, request_sha256(body), "unparsed", "", reply))
                continue
            reply = verdict_lines(body["messages"][-1]["content"])
            verdicts = parse_reply(reply, case)
            calls.append(
                JudgeCall(k, 1, request_sha256(body), "ok", protocol.model, reply, verdicts)
            )
        judgements.append(CaseJudgement(case.id, tuple(calls)))
    return replace(transcript(), judge=JudgeRecord(protocol, tuple(judgements)))


@cache
def reports() -> dict[str, ScoreReport]:
    """The same answers graded unjudged, judged officially, judged by another model, and
    judged with one open case's replies unparsed."""
    data = dataset()
    return {
        "none": grade_run(data, transcript()).report,
        "official": grade_run(data, judged()).report,
        "other": grade_run(data, judged(JUDGE_1.with_model("other-model-7b"))).report,
        "errors": grade_run(data, judged(garbage=frozenset({2}))).report,
    }


def nuance(name: str) -> NuanceScore:
    found = reports()[name].nuance
    assert found is not None
    return found
