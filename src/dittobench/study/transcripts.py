"""Transcripts built straight from a dataset, without HTTP: each case answered by a strategy.

``build`` records what a harness answering every case with the given strategies would leave in
a real run's transcript: the reply of each case and, for tool cases, the calls the tool endpoint
observed. Grading it with ``grade_run`` gives the score the strategy earns. The study
(``study.run``), the red-team tests and ``benchmarks/grade_speed.py`` build their transcripts
here.
"""

from __future__ import annotations

from collections.abc import Callable

from dittobench.core.hashing import canonical_sha256
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.memory import MemoryCase
from dittobench.spec.transcript import Attempt, CaseRecord, Execution, Transcript
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.study.oracle import oracle_memory, oracle_tool

MemoryAnswer = Callable[[MemoryCase, Dataset], RunResponse]
"""How a strategy answers one memory question."""
ToolAnswer = Callable[[ToolCase, ToolFixture], tuple[RunResponse, tuple[ToolCall, ...]]]
"""How a strategy answers one tool case: its reply and the calls the endpoint observed. The
fixture is what the mock tool endpoint serves for the case; strategies that stand for a harness
read it only through ``dittobench.mocktools.execute``, as a harness would over HTTP."""

_EXECUTION = Execution((Attempt(1, 40, "ok", 200),), 40, "ok")


def build(
    dataset: Dataset,
    memory: MemoryAnswer = oracle_memory,
    tool: ToolAnswer = oracle_tool,
    observe: bool = True,
    harness: str = "oracle",
) -> Transcript:
    """A transcript answering every case with the given strategies (the oracle by default).
    With ``observe`` False the tool calls are only self-reported (nothing reached the tool
    endpoint)."""
    fixtures = {f.case_id: f for f in dataset.tool_fixtures}
    records = []
    for case in dataset.tool_cases:
        response, calls = tool(case, fixtures[case.id])
        if not observe:
            response = RunResponse(final_text=response.final_text, tool_calls=calls)
            calls = ()
        records.append(CaseRecord(case.id, "tool", "", response, calls, _EXECUTION))
    for mcase in dataset.memory_cases:
        records.append(
            CaseRecord(mcase.id, "memory", mcase.user_id, memory(mcase, dataset), (), _EXECUTION)
        )
    return Transcript(
        dataset.benchmark,
        dataset.bench_version,
        dataset.seed,
        dataset.run_size,
        canonical_sha256(dataset.to_json()),
        harness,
        tuple(records),
    )
