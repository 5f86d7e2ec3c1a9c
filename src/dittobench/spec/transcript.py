"""The transcript: the canonical record of one run, everything the grader reads from a harness.

Per case: the ``RunResponse`` as graded (``null`` when nothing usable came back), the calls the
tool endpoint observed in arrival order, and how the request went (attempts, durations, outcome).
Cases are sorted by ``case_id``, the dataset's ids (``wire_nonce`` maps them to the ids the harness
was shown, ``spec.wireids``); ``transcript_sha256`` is the SHA-256 of the RFC 8785 bytes of
``to_json()``. A score is a pure function of (dataset, transcript). docs/transcript.md.

Every vocabulary field (a case's ``kind``, an attempt's ``outcome``, the run size) is a
``spec.vocab`` type, so ``decode`` refuses a record, read from a file or from the run store, that
holds a value outside it, naming the field and the value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from json.encoder import encode_basestring
from typing import Any

from dittobench.core.canonical import MAX_SAFE_INTEGER, CanonicalJSONError, canonical_str
from dittobench.core.hashing import sha256_hex
from dittobench.core.prng import SeedError, parse_seed, seed_text
from dittobench.spec import vocab
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.dataset import PackRef
from dittobench.spec.identity import identity_of
from dittobench.spec.judging import JudgeRecord
from dittobench.spec.vocab import AttemptOutcome, CaseKind, RunSizeName
from dittobench.spec.wire import RunResponse, ToolCall, to_wire
from dittobench.spec.wireids import WireIdError, check_nonce

CASE_KINDS = vocab.RUN_CASE_KINDS
"""The kinds of a run's cases (an ``external`` record belongs to ``spec.external_transcript``)."""


@dataclass(frozen=True, slots=True)
class Attempt:
    """One HTTP attempt at ``POST /run``. ``outcome`` is one of ``spec.vocab.AttemptOutcome``
    (``ok``, ``timeout``, ``connection_error``, ``http_error``, ``bad_json``, ``too_large``,
    ``cancelled``, ``restarted``)."""

    attempt: int
    duration_ms: int
    outcome: AttemptOutcome
    http_status: int = 0
    detail: str | None = None
    """Why it failed, when there is more to say than the outcome (the field a reply broke, a
    connection error's reason); absent (None) otherwise, so such records keep their bytes."""


@dataclass(frozen=True, slots=True)
class Execution:
    attempts: tuple[Attempt, ...] = ()
    total_duration_ms: int = 0
    outcome: AttemptOutcome = "ok"
    """The terminal outcome: ``ok`` when a response was graded, else the last failure."""
    tool_calls_dropped: int | None = None
    """Reported tool calls beyond the number kept per case (``spec.repair.CALLS_KEPT``); absent
    (None) when nothing was dropped, so such records keep their bytes."""


@dataclass(frozen=True, slots=True)
class CaseRecord:
    case_id: str
    kind: CaseKind
    user_id: str
    response: RunResponse | None
    observed: tuple[ToolCall, ...] = ()
    execution: Execution = Execution()

    def to_json(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "kind": self.kind,
            "user_id": self.user_id,
            "response": None if self.response is None else response_json(self.response),
            "observed": [call_json(call) for call in self.observed],
            "execution": to_wire(self.execution),
        }


@dataclass(frozen=True, slots=True)
class Transcript:
    benchmark: str
    bench_version: str
    seed: int
    run_size: RunSizeName
    dataset_sha256: str
    harness: str
    cases: tuple[CaseRecord, ...]
    pack: PackRef | None = None
    """The content pack whose words the harness saw (system prompt, catalog, prompts); absent
    in transcripts made before packs (the version's own pack)."""
    wire_nonce: str = ""
    """The run's wire nonce, lowercase hex: the harness was shown ids keyed by it
    (``spec.wireids``), and its outputs are graded through that mapping. Empty (and absent from
    the JSON) in transcripts made before nonces: the harness was shown the dataset's own ids."""
    judge: JudgeRecord | None = None
    """How the run's open cases were judged (``spec.judging``); absent when nobody judged them."""
    identity: dict[str, str] = field(default_factory=dict)
    """What the harness declared it is in ``/health`` (``spec.identity``): unchecked, and absent
    from the JSON when it declared nothing."""

    def to_json(self) -> dict[str, Any]:
        return self.json_with_cases([c.to_json() for c in self.sorted_cases()])

    def sorted_cases(self) -> list[CaseRecord]:
        return sorted(self.cases, key=lambda c: c.case_id)

    def json_with_cases(self, cases: Any) -> dict[str, Any]:
        """``to_json`` with ``cases`` as given (``transcript_bytes`` writes the cases itself)."""
        return {
            "benchmark": self.benchmark,
            "bench_version": self.bench_version,
            "seed": seed_text(self.seed),
            "run_size": self.run_size,
            "dataset_sha256": self.dataset_sha256,
            "harness": self.harness,
            "cases": cases,
            **({"pack": self.pack.to_json()} if self.pack else {}),
            **({"wire_nonce": self.wire_nonce} if self.wire_nonce else {}),
            **({"judge": self.judge.to_json()} if self.judge else {}),
            **({"identity": dict(sorted(self.identity.items()))} if self.identity else {}),
        }

    @property
    def sha256(self) -> str:
        """``transcript_sha256``: the SHA-256 of ``transcript_bytes``."""
        return sha256_hex(transcript_bytes(self))

    @classmethod
    def from_json(cls, data: Any) -> Transcript:
        if not isinstance(data, dict):
            raise DecodeError("$: a transcript is a JSON object")
        try:
            seed = parse_seed(data.get("seed"))
        except SeedError as exc:
            raise DecodeError(f"$.seed: {exc}") from None
        transcript = decode(cls, {**data, "seed": seed})
        try:
            check_nonce(transcript.wire_nonce, "$.wire_nonce")
        except WireIdError as exc:
            raise DecodeError(str(exc)) from None
        for index, case in enumerate(transcript.cases):
            if case.kind not in CASE_KINDS:
                raise DecodeError(
                    f"$.cases[{index}].kind: {case.kind!r} is not tool, memory or open"
                )
        if identity_of({"identity": transcript.identity}) != transcript.identity:
            raise DecodeError("$.identity: not a harness identity (spec.identity)")
        ids = [c.case_id for c in transcript.cases]
        if len(set(ids)) != len(ids):
            raise DecodeError("$.cases: a case id appears twice")
        return transcript


def response_json(response: RunResponse) -> dict[str, Any]:
    """Every field, defaults included, so two equal responses always hash equal; ``retrieved``
    only when the harness reported one (records made without it keep their bytes)."""
    out: dict[str, Any] = {
        "final_text": response.final_text,
        "tool_calls": [call_json(call) for call in response.tool_calls],
        "prompt_tokens": response.prompt_tokens,
        "output_tokens": response.output_tokens,
        "latency_ms": response.latency_ms,
        "answer": response.answer,
        "abstain": response.abstain,
        "confidence": response.confidence,
    }
    if response.retrieved:
        out["retrieved"] = [safe_text(pair_id) for pair_id in response.retrieved]
    return out


def call_json(call: ToolCall) -> dict[str, Any]:
    # A hop is clamped, not turned into text: a record stored by an older build with a hop
    # beyond 2**53 must still hash, and read back as the integer the shape promises.
    hop = min(max(call.hop, -MAX_SAFE_INTEGER), MAX_SAFE_INTEGER)
    return {"name": json_safe(call.name), "args": json_safe(call.args), "hop": hop}


def transcript_bytes(transcript: Transcript) -> bytes:
    """``canonical_bytes(transcript.to_json())``, written straight from the fields: a full run's
    record is thousands of small objects, and building them as dicts, checking them for
    values the standard encoder would write wrongly and encoding them takes three times as
    long. Canonical JSON is written member by member (an object's text is its members' texts,
    sorted by key), so each member is written as ``canonical_bytes`` would write it: the
    objects below spell their members in sorted key order, leaves go through ``_leaf``, and
    any other value (a call's arguments, the pack, the judge) through ``canonical_str``."""
    cases = "[" + ",".join(map(_case_text, transcript.sorted_cases())) + "]"
    members = {k: canonical_str(v) for k, v in transcript.json_with_cases(None).items()}
    members["cases"] = cases  # the keys are the literals above: plain ASCII, sorted as text
    text = "{" + ",".join(f'"{k}":{members[k]}' for k in sorted(members)) + "}"
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as exc:  # as canonical_bytes refuses it
        raise CanonicalJSONError(f"string contains a lone surrogate: {exc}") from exc


def _leaf(value: Any) -> str:
    """A member's canonical JSON text: text, safe integers, flags and null written as the
    standard encoder writes them (RFC 8785's form for these; a lone surrogate is refused when
    the whole is encoded), anything else (a float, a subclass) through ``canonical_str``."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if value is None:
        return "null"
    if kind is int and -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER:
        return str(value)
    if kind is bool:
        return "true" if value else "false"
    return canonical_str(value)


def _case_text(case: CaseRecord) -> str:
    """``CaseRecord.to_json``, members in sorted key order."""
    response = "null" if case.response is None else _response_text(case.response)
    return (
        f'{{"case_id":{_leaf(case.case_id)},"execution":{_execution_text(case.execution)}'
        f',"kind":{_leaf(case.kind)},"observed":[{",".join(map(_call_text, case.observed))}]'
        f',"response":{response},"user_id":{_leaf(case.user_id)}}}'
    )


def _response_text(response: RunResponse) -> str:
    """``response_json``, members in sorted key order."""
    retrieved = (
        f',"retrieved":[{",".join(_leaf(safe_text(i)) for i in response.retrieved)}]'
        if response.retrieved
        else ""
    )
    return (
        f'{{"abstain":{_leaf(response.abstain)},"answer":{_leaf(response.answer)}'
        f',"confidence":{_leaf(response.confidence)},"final_text":{_leaf(response.final_text)}'
        f',"latency_ms":{_leaf(response.latency_ms)}'
        f',"output_tokens":{_leaf(response.output_tokens)}'
        f',"prompt_tokens":{_leaf(response.prompt_tokens)}{retrieved}'
        f',"tool_calls":[{",".join(map(_call_text, response.tool_calls))}]}}'
    )


def _call_text(call: ToolCall) -> str:
    """``call_json``, members in sorted key order."""
    hop = min(max(call.hop, -MAX_SAFE_INTEGER), MAX_SAFE_INTEGER)
    args, name = json_safe(call.args), json_safe(call.name)
    return f'{{"args":{_leaf(args)},"hop":{_leaf(hop)},"name":{_leaf(name)}}}'


def _execution_text(execution: Execution) -> str:
    """``to_wire(execution)`` (a None member left out), members in sorted key order."""
    dropped = execution.tool_calls_dropped
    return (
        f'{{"attempts":[{",".join(map(_attempt_text, execution.attempts))}]'
        f',"outcome":{_leaf(execution.outcome)}'
        + ("" if dropped is None else f',"tool_calls_dropped":{_leaf(dropped)}')
        + f',"total_duration_ms":{_leaf(execution.total_duration_ms)}}}'
    )


def _attempt_text(attempt: Attempt) -> str:
    """``to_wire(attempt)`` (a None member left out), members in sorted key order."""
    detail = "" if attempt.detail is None else f',"detail":{_leaf(attempt.detail)}'
    return (
        f'{{"attempt":{_leaf(attempt.attempt)}{detail}'
        f',"duration_ms":{_leaf(attempt.duration_ms)}'
        f',"http_status":{_leaf(attempt.http_status)},"outcome":{_leaf(attempt.outcome)}}}'
    )


def safe_text(value: str) -> str:
    """``value``, with any lone surrogate (which UTF-8 cannot carry) replaced by "?"."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return value.encode("utf-8", "replace").decode("utf-8")
    return value


def json_safe(value: Any) -> Any:
    """A JSON value with nothing RFC 8785 rejects: integers beyond +-2**53 and non-finite
    numbers become strings, and lone surrogates in text and in object keys become "?", so any
    harness output can be stored and hashed."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, int):
        return value if abs(value) <= MAX_SAFE_INTEGER else str(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, dict):
        return {safe_text(str(k)): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    return str(value)
