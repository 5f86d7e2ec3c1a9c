"""``spec.transcript.transcript_bytes`` writes a transcript's canonical JSON straight from its
fields, beside the generic ``canonical_bytes(to_json())``: the two must give the same bytes for
every transcript (the hash of one is in every report and receipt), and a field added to a record
must be added to both."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.core.canonical import CanonicalJSONError, canonical_bytes
from dittobench.spec.dataset import PackRef
from dittobench.spec.transcript import (
    Attempt,
    CaseRecord,
    Execution,
    Transcript,
    transcript_bytes,
)
from dittobench.spec.wire import RunResponse, ToolCall

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "honest"

WRITTEN = {
    Transcript: {"benchmark", "bench_version", "seed", "run_size", "dataset_sha256", "harness",
                 "cases", "pack", "wire_nonce", "judge", "identity"},
    CaseRecord: {"case_id", "kind", "user_id", "response", "observed", "execution"},
    RunResponse: {"final_text", "tool_calls", "prompt_tokens", "output_tokens", "latency_ms",
                  "answer", "abstain", "confidence", "retrieved"},
    ToolCall: {"name", "args", "hop"},
    Execution: {"attempts", "total_duration_ms", "outcome", "tool_calls_dropped"},
    Attempt: {"attempt", "duration_ms", "outcome", "http_status", "detail"},
}  # fmt: skip
"""The fields ``transcript_bytes`` writes, record by record."""


def test_every_field_of_a_record_is_one_transcript_bytes_writes() -> None:
    for record, written in WRITTEN.items():
        fields = {f.name for f in dataclasses.fields(record)}
        assert fields == written, f"{record.__name__}: write the new field in transcript_bytes"


def test_the_honest_corpus_transcripts_encode_alike() -> None:
    paths = sorted(CORPUS.glob("*/transcript.json"))
    assert len(paths) >= 30
    for path in paths:
        transcript = Transcript.from_json(json.loads(path.read_bytes()))
        assert transcript_bytes(transcript) == canonical_bytes(transcript.to_json()), path.name


_text = st.text(max_size=12)
_ints = st.integers(min_value=-1000, max_value=10**6) | st.integers(-(2**53) - 1, 2**53 + 1)
_json: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | _ints | st.floats(allow_nan=False, allow_infinity=False) | _text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=8,
)
_calls = st.lists(st.builds(ToolCall, name=_text, args=_json, hop=_ints), max_size=2)
_responses = st.builds(
    RunResponse,
    final_text=_text,
    tool_calls=_calls.map(tuple),
    prompt_tokens=_ints,
    output_tokens=_ints,
    latency_ms=_ints,
    answer=st.none() | _text,
    abstain=st.none() | st.booleans(),
    confidence=st.none() | st.floats(min_value=0, max_value=1),
    retrieved=st.lists(_text, max_size=3).map(tuple),
)
_attempts = st.builds(
    Attempt,
    attempt=_ints,
    duration_ms=_ints,
    outcome=st.sampled_from(["ok", "timeout", "too_large"]),
    http_status=_ints,
    detail=st.none() | _text,
)
_executions = st.builds(
    Execution,
    attempts=st.lists(_attempts, max_size=2).map(tuple),
    total_duration_ms=_ints,
    outcome=st.sampled_from(["ok", "bad_json"]),
    tool_calls_dropped=st.none() | _ints,
)
_cases = st.builds(
    CaseRecord,
    case_id=_text,
    kind=st.sampled_from(["tool", "memory", "open"]),
    user_id=_text,
    response=st.none() | _responses,
    observed=_calls.map(tuple),
    execution=_executions,
)


@settings(max_examples=300, deadline=None)
@given(
    cases=st.lists(_cases, max_size=4, unique_by=lambda c: c.case_id),
    pack=st.none() | st.builds(PackRef, id=_text, sha256=_text),
    nonce=st.sampled_from(["", "ab" * 32]),
    identity=st.dictionaries(_text, _text, max_size=2),
)
def test_any_transcript_encodes_alike(
    cases: list[CaseRecord], pack: PackRef | None, nonce: str, identity: dict[str, str]
) -> None:
    transcript = Transcript(
        "dittobench", "8.1.0", 7, "small", "0" * 64, "h", tuple(cases), pack, nonce, None, identity
    )
    try:
        expected = canonical_bytes(transcript.to_json())
    except CanonicalJSONError:  # an integer beyond 2**53 (repair clamps a harness's): refused alike
        with pytest.raises(CanonicalJSONError):
            transcript_bytes(transcript)
        return
    assert transcript_bytes(transcript) == expected
