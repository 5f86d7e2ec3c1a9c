"""The transcript of an external suite's run: every reply the harness gave, as graded.

It names the suite it ran (``suite_sha256``, ``spec.external``) and the source file's SHA-256, the
harness and what it declared it is (``spec.identity``), the run's wire nonce (the ids the harness
was shown are keyed by it, ``core.ids.wire_id``, so runs against one harness never share a user),
the system prompt's version, one ``CaseRecord`` per question (``spec.transcript``, kind
``external``, sorted by question id) and, when a judge was asked, its record. ``sha256`` is the
SHA-256 of the RFC 8785 bytes of ``to_json()``; the report and the receipt bind it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from dittobench.core.hashing import canonical_sha256
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.external import SUITE_BENCHMARK
from dittobench.spec.identity import identity_of
from dittobench.spec.judging import JudgeRecord
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.wireids import WireIdError, check_nonce

EXTERNAL_KIND: Final = "external"
"""The ``kind`` of every case record of an external run."""

PROMPT_ID: Final = "external-prompt-1"
"""The version of the system prompt sent with each question (``engine.external``)."""


@dataclass(frozen=True, slots=True)
class ExternalTranscript:
    format: str
    suite_sha256: str
    source_sha256: str
    harness: str
    records: tuple[CaseRecord, ...]
    wire_nonce: str = ""
    prompt: str = PROMPT_ID
    identity: dict[str, str] = field(default_factory=dict)
    judge: JudgeRecord | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "benchmark": SUITE_BENCHMARK,
            "format": self.format,
            "suite_sha256": self.suite_sha256,
            "source_sha256": self.source_sha256,
            "harness": self.harness,
            "wire_nonce": self.wire_nonce,
            "prompt": self.prompt,
            "identity": dict(sorted(self.identity.items())),
            "records": [r.to_json() for r in sorted(self.records, key=lambda r: r.case_id)],
            **({"judge": self.judge.to_json()} if self.judge else {}),
        }

    @property
    def sha256(self) -> str:
        return canonical_sha256(self.to_json())

    @classmethod
    def from_json(cls, data: Any) -> ExternalTranscript:
        """A transcript read back; ``DecodeError`` naming the path of the first problem."""
        if not isinstance(data, dict) or data.get("benchmark") != SUITE_BENCHMARK:
            raise DecodeError(f"$.benchmark: expected {SUITE_BENCHMARK!r}")
        transcript = decode(cls, data)
        try:
            check_nonce(transcript.wire_nonce, "$.wire_nonce")
        except WireIdError as exc:
            raise DecodeError(str(exc)) from None
        if identity_of({"identity": transcript.identity}) != transcript.identity:
            raise DecodeError("$.identity: not a harness identity (spec.identity)")
        ids = [r.case_id for r in transcript.records]
        if len(set(ids)) != len(ids):
            raise DecodeError("$.records: a question id appears twice")
        for index, record in enumerate(transcript.records):
            if record.kind != EXTERNAL_KIND:
                raise DecodeError(f"$.records[{index}].kind: expected {EXTERNAL_KIND!r}")
        return transcript


__all__ = ["EXTERNAL_KIND", "PROMPT_ID", "ExternalTranscript"]
