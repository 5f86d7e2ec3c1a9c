"""The locked judge: its protocol (fixed per bench version), what a run records of every judging,
and the nuance score that comes of it (docs/judge.md).

The verified score is rules only. Open questions (``spec.open``) are judged by a model whose whole
configuration is the ``JudgeProtocol`` of the bench version: model id, temperature, seed, token
limit, the prompt file with its SHA-256, the rubric format and the panel (how many calls, and how
their verdicts combine). A run judged any other way is recorded with the configuration it used and
marked unofficial. The transcript keeps every request's hash and every raw reply
(``JudgeRecord``); the nuance score is recomputed from those replies by the grader, never taken
from a judge.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Final

from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import canonical_sha256
from dittobench.spec import vocab
from dittobench.spec.locked_files import LockedFileError, locked_json
from dittobench.spec.vocab import JudgedStatus, JudgeOutcome

JUDGE_OUTCOMES: Final = vocab.JUDGE_OUTCOMES
"""How one judge call went: a reply that parsed, one that did not, or a transport failure."""

CASE_STATUSES: Final = vocab.JUDGED_STATUSES
"""Per open case: judged (every panel call parsed), judge_error (a call never parsed after its
retries: counted neither as pass nor fail), no_answer (the harness gave none: scores 0, no judge
asked), not_judged (the run had no judge)."""


class JudgeConfigError(DittobenchError, ValueError):
    """A judge prompt file that is missing, malformed or not the one the protocol names."""


@dataclass(frozen=True, slots=True)
class JudgeProtocol:
    """Everything that decides a judge's verdicts. ``temperature`` is in thousandths (no floats
    in hashed bytes); ``panel`` calls are made per open case, call ``k`` with ``seed + k``, and an
    item's verdict is the majority of the panel's (``combine``: ``majority``; an odd panel never
    ties). ``retries`` is how many more times a call whose reply does not parse is sent.
    ``constrained``: each request asks for a JSON object of exactly the rubric's item ids, each
    YES or NO (``response_format`` ``{"type": "json_object", "schema": …}``, the dialect of
    llama.cpp's OpenAI-compatible servers), so even a small model replies in form."""

    id: str
    model: str
    prompt_file: str
    prompt_sha256: str
    temperature_permille: int = 0
    seed: int = 7
    max_tokens: int = 160
    rubric_format: str = "dittobench-rubric-1"
    panel: int = 3
    combine: str = "majority"
    retries: int = 2
    constrained: bool = True
    answer_chars: int = 6000
    """The most of an answer the judge reads (more is cut, marked "[…]"): an answer padded past
    the judge's context cannot turn its case into a judge error."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "model": self.model,
            "prompt_file": self.prompt_file,
            "prompt_sha256": self.prompt_sha256,
            "temperature_permille": self.temperature_permille,
            "seed": self.seed,
            "max_tokens": self.max_tokens,
            "rubric_format": self.rubric_format,
            "panel": self.panel,
            "combine": self.combine,
            "retries": self.retries,
            "constrained": self.constrained,
            "answer_chars": self.answer_chars,
        }

    @property
    def sha256(self) -> str:
        """The configuration hash a manifest binds (RFC 8785 bytes of ``to_json``)."""
        return canonical_sha256(self.to_json())

    def with_model(self, model: str) -> JudgeProtocol:
        """This protocol judged by another model (an unofficial run)."""
        return replace(self, model=model)


JUDGE_1: Final = JudgeProtocol(
    id="dittobench-judge-1",
    model="qwen2.5-7b-instruct-q4_k_m",
    prompt_file="judge-prompt-1.json",
    prompt_sha256="86f8badf733c6b8a9937c7e84112986188e6d12afcc914549609e744545a504f",
)
"""Bench 8.0's judge: Qwen2.5-7B-Instruct, GGUF Q4_K_M, served under that id by any
OpenAI-compatible llama.cpp server (docs/judge.md: how to serve it, what a smaller model did)."""


@dataclass(frozen=True, slots=True)
class JudgePrompt:
    """The words of a judge prompt file (``spec/judge_prompts``): the system message, the user
    message template and the pieces a rubric item is rendered from."""

    system: str
    user: str
    item: str
    also: str
    day: str
    current: str
    reasons: dict[str, str]
    none: str
    period: str
    period_open: str
    answer: str
    """What an audit rubric's item is about (``grade.audit``: a typed key read as a rubric)."""
    in_order: str


@cache
def prompt_of(protocol: JudgeProtocol) -> JudgePrompt:
    """The prompt file ``protocol`` names, checked against its SHA-256."""
    owner = f"protocol {protocol.id}"
    try:
        data = locked_json("judge_prompts", protocol.prompt_file, protocol.prompt_sha256, owner)
        return JudgePrompt(**data)
    except (LockedFileError, TypeError) as exc:
        raise JudgeConfigError(f"judge prompt {exc}") from None


@dataclass(frozen=True, slots=True)
class JudgeCall:
    """One request to the judge and what came back. ``request_sha256`` hashes the request body's
    RFC 8785 bytes (the rendered prompt, the answer and the sampling settings), ``model`` is the
    model the endpoint said answered, ``reply`` the raw text and ``verdicts`` what the rubric
    parser read from it (item id -> ``YES``/``NO``; empty unless ``outcome`` is ``ok``)."""

    panel_call: int
    attempt: int
    request_sha256: str
    outcome: JudgeOutcome
    model: str = ""
    reply: str = ""
    verdicts: dict[str, str] | None = None
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "panel_call": self.panel_call,
            "attempt": self.attempt,
            "request_sha256": self.request_sha256,
            "outcome": self.outcome,
            "model": self.model,
            "reply": self.reply,
            "verdicts": dict(sorted((self.verdicts or {}).items())),
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class CaseJudgement:
    """Every call made to judge one open case's answer, in the order made."""

    case_id: str
    calls: tuple[JudgeCall, ...]

    def to_json(self) -> dict[str, Any]:
        return {"case_id": self.case_id, "calls": [c.to_json() for c in self.calls]}


@dataclass(frozen=True, slots=True)
class JudgeRecord:
    """A run's judging: the protocol it used (the version's own, or another: unofficial) and the
    judgements of its open cases, sorted by case id."""

    protocol: JudgeProtocol
    judgements: tuple[CaseJudgement, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": self.protocol.to_json(),
            "protocol_sha256": self.protocol.sha256,
            "judgements": [j.to_json() for j in sorted(self.judgements, key=lambda j: j.case_id)],
        }


@dataclass(frozen=True, slots=True)
class OpenVerdict:
    """One open case as graded: its rubric score (None unless ``status`` is judged or no_answer),
    the combined verdict per item and how many judge calls were made."""

    case_id: str
    open_kind: str
    status: JudgedStatus
    score: float | None = None
    verdicts: dict[str, str] | None = None
    calls: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "open_kind": self.open_kind,
            "status": self.status,
            "score": self.score,
            "verdicts": dict(sorted((self.verdicts or {}).items())),
            "calls": self.calls,
        }


@dataclass(frozen=True, slots=True)
class NuanceScore:
    """The judged score, beside the verified one and never added to it: the mean rubric score of
    the open cases that were judged or went unanswered, its standard error, how many were
    scored, how many ended in ``judge_error``, and the judge that scored them. ``official`` is
    true only when the protocol is the bench version's own and every reply named its model."""

    score: float | None
    stderr: float
    scored: int
    judge_errors: int
    total: int
    official: bool
    judge_id: str = ""
    judge_model: str = ""
    protocol_sha256: str = ""
    per_case: tuple[OpenVerdict, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "stderr": self.stderr,
            "scored": self.scored,
            "judge_errors": self.judge_errors,
            "total": self.total,
            "official": self.official,
            "judge_id": self.judge_id,
            "judge_model": self.judge_model,
            "protocol_sha256": self.protocol_sha256,
            "per_case": [v.to_json() for v in self.per_case],
        }
