"""The signed receipt of an external run: it verifies, names what it is, and any change to the
manifest, the transcript or the report is caught."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from dittobench.generate.external import TYPES, load_external
from dittobench.grade.external import grade_external
from dittobench.receipts.external import (
    EXTERNAL_RECEIPT_FORMAT,
    ExternalReceiptError,
    build_external_receipt,
    is_external_receipt,
    verify_external_receipt,
)
from dittobench.receipts.keys import TrustedKeys, generate_private_key, trusted_entry
from dittobench.spec.external_report import ExternalReport
from dittobench.spec.external_transcript import ExternalTranscript
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.wire import RunResponse

MINI = Path(__file__).resolve().parents[1] / "data" / "external" / "locomo-mini.json"
CREATED = "2026-01-02T03:04:05Z"


def _run() -> tuple[ExternalReport, ExternalTranscript]:
    suite = load_external(MINI, "locomo", allow_unknown=True)
    records = tuple(
        CaseRecord(q.id, "external", q.user_id, RunResponse(final_text=f"It was {q.gold}."))
        for q in suite.questions
    )
    transcript = ExternalTranscript(
        "locomo", suite.sha256, suite.source.sha256, "http://127.0.0.1:1", records,
        identity={"system": "test"},
    )  # fmt: skip
    return grade_external(suite, transcript, TYPES["locomo"]), transcript


@pytest.fixture(scope="module")
def signed() -> tuple[dict[str, Any], ExternalReport, ExternalTranscript, Any]:
    report, transcript = _run()
    key = generate_private_key()
    return build_external_receipt(report, transcript, key, CREATED), report, transcript, key


def _names_failed(result: Any) -> list[str]:
    return [c.name for c in result.failed]


def test_a_receipt_verifies_and_says_what_it_is(signed: Any) -> None:
    receipt, report, transcript, key = signed
    manifest = receipt["manifest"]
    assert manifest["format"] == EXTERNAL_RECEIPT_FORMAT and is_external_receipt(receipt)
    assert manifest["label"] == "external suite, not a dittobench score"
    assert manifest["allow_unknown"] is True and manifest["release"] == ""
    assert manifest["identity"] == {"system": "test"}
    assert manifest["rules"]["mean"] == f"{report.rules.mean:.6f}"
    trusted = TrustedKeys((trusted_entry(key, "2026-01-01T00:00:00Z"),))
    result = verify_external_receipt(
        json.loads(json.dumps(receipt)), trusted, transcript.to_json(), report.to_json()
    )
    assert result.ok, [(c.name, c.detail) for c in result.failed]
    assert [c.name for c in result.checks] == [
        "receipt shape",
        "manifest fields",
        "key id",
        "signature",
        "trusted key",
        "key validity",
        "transcript",
        "report",
        "report figures",
    ]


def test_an_altered_manifest_fails_the_signature(signed: Any) -> None:
    receipt = copy.deepcopy(signed[0])
    receipt["manifest"]["rules"]["mean"] = "1.000000"
    assert "signature" in _names_failed(verify_external_receipt(receipt))


def test_another_transcript_or_report_is_caught(signed: Any) -> None:
    receipt, report, transcript, _key = signed
    other = transcript.to_json()
    other["records"][0]["response"]["final_text"] = "Something else."
    assert _names_failed(verify_external_receipt(receipt, transcript=other)) == ["transcript"]
    changed = report.to_json()
    changed["rules"]["mean"] = 1.0
    assert _names_failed(verify_external_receipt(receipt, report=changed)) == [
        "report",
        "report figures",
    ]


def test_an_untrusted_or_expired_signer_fails(signed: Any) -> None:
    receipt, _report, _transcript, key = signed
    stranger = TrustedKeys((trusted_entry(generate_private_key(), "2026-01-01T00:00:00Z"),))
    assert _names_failed(verify_external_receipt(receipt, stranger)) == ["trusted key"]
    late = TrustedKeys((trusted_entry(key, "2026-06-01T00:00:00Z"),))
    assert _names_failed(verify_external_receipt(receipt, late)) == ["key validity"]


@pytest.mark.parametrize("bad", [None, [], {"manifest": "x"}, {"manifest": {}, "signature": 3}])
def test_a_malformed_receipt_fails_without_raising(bad: Any) -> None:
    result = verify_external_receipt(bad)
    assert not result.ok


def test_a_report_of_another_transcript_is_not_signed() -> None:
    report, transcript = _run()
    other = ExternalTranscript(
        transcript.format, transcript.suite_sha256, transcript.source_sha256, "other",
        transcript.records,
    )  # fmt: skip
    with pytest.raises(ExternalReceiptError, match="different transcript"):
        build_external_receipt(report, other, generate_private_key(), CREATED)


def test_the_transcript_round_trips() -> None:
    _report, transcript = _run()
    assert ExternalTranscript.from_json(json.loads(json.dumps(transcript.to_json()))) == transcript
