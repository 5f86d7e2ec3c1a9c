"""Receipt format 5: a run with open questions (bench 8.0). Each open question has a leaf of its
own shape beside the graded cases' (its response and what the judge said: status, rubric score,
verdicts, protocol hash, every call with the hash of its raw reply), and the manifest signs the
nuance score and its judge apart from the verified scores.

The judging is real: the engine's judge client asks the scripted judge (a real HTTP server,
``tests/helpers/judge_server.py``) about real answers, and the grader reads its replies. Pinned
here: the shapes; an edited verdict fails naming the case's leaf (its hash, then the root, then,
re-signed, the transcript and the regrade); an edited reply in the transcript fails; an
unofficial judge is signed as unofficial; an unjudged run verifies and says so; older formats
are untouched.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.core.canonical import canonical_bytes
from dittobench.core.hashing import canonical_sha256, text_sha256
from dittobench.engine.judging import JudgeEndpoint, judge_transcript
from dittobench.engine.runner import judge_protocol
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.receipts.judged import CALL_KEYS, JUDGED_KEYS
from dittobench.receipts.keys import TrustedKeys, trusted_entry
from dittobench.receipts.manifest import (
    NUANCE_KEYS,
    RECEIPT_FORMAT_4,
    RECEIPT_FORMAT_5,
    Manifest,
    ManifestError,
    Nuance,
    Scores,
    manifest_bytes,
)
from dittobench.receipts.merkle import LEAF_KEYS, OPEN_LEAF_KEYS, leaf_bytes, leaf_hash
from dittobench.receipts.nuance import score_lines
from dittobench.receipts.regrade import regrade_receipt
from dittobench.receipts.sign import ReceiptInputError, build_receipt, case_prompts
from dittobench.receipts.verify import Verification, verify_receipt
from dittobench.spec.dataset import Dataset
from dittobench.spec.judging import JudgeRecord
from dittobench.spec.report import ScoreReport
from dittobench.spec.transcript import CaseRecord, Transcript
from dittobench.spec.versions import get_policy
from dittobench.spec.wire import RunResponse
from tests.helpers.judge_server import scripted_judge
from tests.helpers.receipts import rehash, resign

VERSION = "8.0.0"
NONCE = "5e" * 32
CREATED = "2026-12-05T10:00:00Z"
OTHER_MODEL = "some-other-model-q8"


@dataclasses.dataclass(frozen=True)
class Signed:
    dataset: Dataset
    transcript: Transcript
    report: ScoreReport
    receipt: dict[str, Any]
    key: Ed25519PrivateKey

    @property
    def trusted(self) -> TrustedKeys:
        return TrustedKeys((trusted_entry(self.key, "2026-01-01T00:00:00Z"),))

    def open_leaves(self, receipt: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        entries = (receipt or self.receipt)["leaves"]
        return [e["leaf"] for e in entries if "judged" in e["leaf"]]

    def verify(self, receipt: dict[str, Any], transcript: Any = None) -> Verification:
        return verify_receipt(receipt, self.trusted, transcript)


def answered(dataset: Dataset) -> Transcript:
    """Every case answered but the second open question (no answer: scores 0, never judged);
    the first open question's answer names a fact it must state and a value it must not."""
    records = [
        CaseRecord(c.id, "tool", "", RunResponse(final_text="done")) for c in dataset.tool_cases
    ]
    records += [
        CaseRecord(c.id, "memory", c.user_id, RunResponse(final_text="I don't know."))
        for c in dataset.memory_cases
    ]
    for index, case in enumerate(dataset.open_cases):
        said = "I don't recall anything about that."
        if index == 0:
            wrong = case.must_not[0].value if case.must_not else ""
            said = f"You told me about {case.must_state[0].value}. Also {wrong}."
        response = None if index == 1 else RunResponse(final_text=said)
        records.append(CaseRecord(case.id, "open", case.user_id, response))
    sha = canonical_sha256(dataset.to_json())
    return Transcript(
        "dittobench", VERSION, dataset.seed, "medium", sha, "h", tuple(records), None, NONCE
    )


def judged(dataset: Dataset, transcript: Transcript, model: str = "") -> JudgeRecord:
    """The transcript's open answers judged by the scripted judge over HTTP (``model``: an
    unofficial judge, which the scripted server also names in its replies)."""
    protocol = judge_protocol(VERSION, model)
    with scripted_judge(model=protocol.model) as (url, _):
        return judge_transcript(JudgeEndpoint(url), protocol, dataset, transcript)


def signed_run(dataset: Dataset, record: JudgeRecord | None) -> Signed:
    transcript = dataclasses.replace(answered(dataset), judge=record)
    report = grade_run(dataset, transcript).report
    key = Ed25519PrivateKey.generate()
    receipt = build_receipt(
        report,
        transcript,
        case_prompts(dataset),
        key,
        "verified",
        CREATED,
        "h",
        seed_source="operator",
    )
    return Signed(dataset, transcript, report, receipt, key)


@pytest.fixture(scope="module")
def dataset() -> Dataset:
    made = build_dataset(11, VERSION, "medium")
    assert len(made.open_cases) >= 3
    return made


@pytest.fixture(scope="module")
def run(dataset: Dataset) -> Signed:
    return signed_run(dataset, judged(dataset, answered(dataset)))


def names(result: Verification) -> set[str]:
    return {c.name for c in result.failed}


def detail(result: Verification, name: str) -> str:
    return next(c.detail for c in result.checks if c.name == name)


def test_open_questions_get_leaves_of_their_own_and_the_receipt_verifies(run: Signed) -> None:
    receipt, dataset = run.receipt, run.dataset
    manifest = receipt["manifest"]
    assert manifest["format"] == RECEIPT_FORMAT_5 == "dittobench-receipt-5"
    graded = len(dataset.tool_cases) + len(dataset.memory_cases)
    assert manifest["leaf_count"] == len(receipt["leaves"]) == graded + len(dataset.open_cases)
    ids = [e["case_id"] for e in receipt["leaves"]]
    assert ids == sorted(ids)  # one case-id order for both kinds
    opened = {leaf["case_id"]: leaf for leaf in run.open_leaves()}
    assert set(opened) == {c.id for c in dataset.open_cases}
    for entry in receipt["leaves"]:
        keys = OPEN_LEAF_KEYS if entry["case_id"] in opened else LEAF_KEYS
        assert set(entry["leaf"]) == set(keys)
    first, unanswered = dataset.open_cases[0], dataset.open_cases[1]
    leaf = opened[first.id]
    assert leaf["prompt_sha256"] == text_sha256(first.question)
    assert set(leaf["judged"]) == set(JUDGED_KEYS)
    protocol = get_policy(VERSION).judge
    assert protocol is not None
    assert leaf["judged"]["status"] == "judged"
    assert leaf["judged"]["protocol_sha256"] == protocol.sha256
    assert leaf["judged"]["verdicts"][first.must_state[0].id] == "YES"
    assert run.transcript.judge is not None
    judgement = next(j for j in run.transcript.judge.judgements if j.case_id == first.id)
    calls = leaf["judged"]["calls"]
    assert len(calls) == len(judgement.calls) == protocol.panel
    assert all(set(call) == set(CALL_KEYS) for call in calls)
    assert [c["reply_sha256"] for c in calls] == [text_sha256(c.reply) for c in judgement.calls]
    assert opened[unanswered.id]["judged"] == {
        "status": "no_answer",
        "score": "0.000000",
        "verdicts": {},
        "protocol_sha256": protocol.sha256,
        "calls": [],
    }
    result = run.verify(receipt, run.transcript.to_json())
    assert result.ok, result.failed
    assert f"({len(dataset.open_cases)} of them open questions)" in detail(result, "leaf count")
    assert "as signed" in detail(result, "transcript judge")
    for regraded, how in (
        (regrade_receipt(receipt), "rules"),
        (regrade_receipt(receipt, run.transcript.to_json()), "recomputed"),
    ):
        assert regraded.ok, (regraded.blocked, regraded.disagreements)
        assert regraded.nuance == how


def test_the_manifest_signs_the_nuance_apart_from_the_verified_scores(run: Signed) -> None:
    manifest, report = run.receipt["manifest"], run.report
    assert report.nuance is not None and report.nuance.official
    assert manifest["nuance"] == Nuance.of(report.nuance).to_json()
    assert set(manifest["nuance"]) == set(NUANCE_KEYS)
    assert manifest["nuance"]["official"] is True
    locked = get_policy(VERSION).judge
    assert locked is not None and manifest["nuance"]["judge_model"] == locked.model
    assert manifest["nuance"]["total"] == len(run.dataset.open_cases)
    # The verified scores are the report's, which never include an open question.
    open_ids = {c.id for c in run.dataset.open_cases}
    assert not open_ids & {s.case_id for s in report.per_case}
    scores = Scores.from_numbers(
        report.composite,
        report.composite_stderr,
        report.tool_mean,
        report.memory_mean,
        report.dimensions,
    )
    assert manifest["scores"] == scores.to_json()
    parsed = Manifest.from_json(manifest)
    assert parsed.to_json() == manifest
    assert manifest_bytes(parsed) == canonical_bytes(manifest)
    lines = "\n".join(score_lines(parsed))
    assert "recomputed by rules" in lines and "bound but judged" in lines
    assert "(official)" in lines


def test_an_edited_verdict_fails_naming_its_leaf(run: Signed) -> None:
    # The answer asserted a value it must not: the forger clears that verdict.
    case = run.dataset.open_cases[0]
    item = case.must_not[0].id
    edited = copy.deepcopy(run.receipt)
    leaf = next(e["leaf"] for e in edited["leaves"] if e["case_id"] == case.id)
    assert leaf["judged"]["verdicts"][item] == "YES"
    leaf["judged"]["verdicts"][item] = "NO"
    result = run.verify(edited)
    assert names(result) == {"leaf hashes", "merkle root"}  # the root rebuilt from the leaf
    assert f"case {case.id}: leaf hashes to" in detail(result, "leaf hashes")
    # The leaf's hash made consistent again: the root no longer matches the signed one; the
    # root made consistent too: the signature no longer holds.
    entry = next(e for e in edited["leaves"] if e["case_id"] == case.id)
    entry["hash"] = leaf_hash(leaf_bytes(leaf))
    result = run.verify(edited)
    assert names(result) == {"merkle root"}
    assert names(run.verify(rehash(edited))) == {"signature", "trusted key"}
    # Re-signed by the key's holder: the signature holds, but the transcript's judge replies
    # and the regrade (from the transcript, and by the rules from the leaves) do not.
    forged = resign(rehash(edited), run.key)
    assert run.verify(forged).ok
    result = run.verify(forged, run.transcript.to_json())
    assert names(result) == {"transcript judge"}
    assert f"case {case.id}: the verdicts are not the panel's majority" in detail(
        result, "transcript judge"
    )
    regraded = regrade_receipt(forged, run.transcript.to_json())
    found = {(d.field, d.case_id) for d in regraded.disagreements}
    assert ("leaf.judged.verdicts", case.id) in found
    # From the leaves alone the verdict is bound, not recomputable, but the score that follows
    # from it by the rubric is: the leaf's score and the signed nuance score disagree with it.
    from_leaves = {(d.field, d.case_id) for d in regrade_receipt(forged).disagreements}
    assert from_leaves == {
        ("leaf.judged.score", case.id),
        ("merkle_root", ""),
        ("nuance.score", ""),
        ("nuance.stderr", ""),
    }
    # A forger who also fixes those figures passes the regrade from the leaves (the verdicts
    # are bound but judged there); the judge's replies in the transcript still say otherwise.
    recomputed = {d.field: d.recomputed for d in regrade_receipt(forged).disagreements}
    consistent = copy.deepcopy(forged)
    leaf = next(e["leaf"] for e in consistent["leaves"] if e["case_id"] == case.id)
    leaf["judged"]["score"] = recomputed["leaf.judged.score"]
    consistent["manifest"]["nuance"]["score"] = recomputed["nuance.score"]
    consistent["manifest"]["nuance"]["stderr"] = recomputed["nuance.stderr"]
    consistent = resign(rehash(consistent), run.key)
    assert regrade_receipt(consistent).ok
    assert not regrade_receipt(consistent, run.transcript.to_json()).ok
    assert "transcript judge" in names(run.verify(consistent, run.transcript.to_json()))


def test_an_edited_reply_in_the_transcript_fails(run: Signed) -> None:
    case = run.dataset.open_cases[0]
    transcript = copy.deepcopy(run.transcript.to_json())
    judgement = next(j for j in transcript["judge"]["judgements"] if j["case_id"] == case.id)
    judgement["calls"][0]["reply"] += " (and YES to everything)"
    result = run.verify(run.receipt, transcript)
    assert names(result) == {"transcript hash", "transcript judge"}
    assert f"case {case.id}: the judge calls" in detail(result, "transcript judge")


def test_an_unofficial_judge_is_signed_as_unofficial(dataset: Dataset) -> None:
    run = signed_run(dataset, judged(dataset, answered(dataset), OTHER_MODEL))
    nuance = run.receipt["manifest"]["nuance"]
    assert nuance["official"] is False and nuance["judge_model"] == OTHER_MODEL
    locked = get_policy(VERSION).judge
    assert locked is not None and nuance["protocol_sha256"] == locked.with_model(OTHER_MODEL).sha256
    assert run.verify(run.receipt, run.transcript.to_json()).ok
    regraded = regrade_receipt(run.receipt)
    assert regraded.ok, regraded.disagreements
    assert "unofficial" in "\n".join(score_lines(Manifest.from_json(run.receipt["manifest"])))
    # Passing it off as official needs a new signature, and the rules catch it from the leaves.
    promoted = copy.deepcopy(run.receipt)
    promoted["manifest"]["nuance"]["official"] = True
    assert names(run.verify(promoted)) == {"signature", "trusted key"}
    found = {d.field for d in regrade_receipt(resign(promoted, run.key)).disagreements}
    assert found == {"nuance.official"}


def test_an_unjudged_run_verifies_and_says_so(dataset: Dataset) -> None:
    run = signed_run(dataset, None)
    nuance = run.receipt["manifest"]["nuance"]
    assert nuance == {
        "score": None,
        "stderr": "0.000000",
        "scored": 0,
        "judge_errors": 0,
        "total": len(dataset.open_cases),
        "official": False,
        "judge_id": "",
        "judge_model": "",
        "protocol_sha256": "",
    }
    statuses = {leaf["judged"]["status"] for leaf in run.open_leaves()}
    assert statuses == {"not_judged", "no_answer"}
    result = run.verify(run.receipt, run.transcript.to_json())
    assert result.ok, result.failed
    assert "unjudged" in detail(result, "transcript judge")
    assert "unjudged" in "\n".join(score_lines(Manifest.from_json(run.receipt["manifest"])))
    for regraded in (
        regrade_receipt(run.receipt),
        regrade_receipt(run.receipt, run.transcript.to_json()),
    ):
        assert regraded.ok, regraded.disagreements
        assert regraded.nuance == "unjudged"
    # A judged transcript does not pass for this receipt.
    other = signed_run(dataset, judged(dataset, answered(dataset)))
    result = run.verify(run.receipt, other.transcript.to_json())
    assert "transcript judge" in names(result)


def test_leaves_have_exactly_one_of_two_shapes(run: Signed) -> None:
    case = run.dataset.open_cases[0]

    def edited(change: Any) -> Verification:
        receipt = copy.deepcopy(run.receipt)
        change(next(e["leaf"] for e in receipt["leaves"] if e["case_id"] == case.id))
        return run.verify(resign(rehash(receipt), run.key))

    mixed = edited(lambda leaf: leaf.update(score="1.000000"))
    assert names(mixed) == {"leaf hashes"}
    assert "(a graded case) or" in detail(mixed, "leaf hashes")
    assert f"case {case.id}" in detail(mixed, "leaf hashes")
    status = edited(lambda leaf: leaf["judged"].update(status="passed"))
    assert f"case {case.id}: open-question leaf: judged.status" in detail(status, "leaf hashes")
    call = edited(lambda leaf: leaf["judged"]["calls"][0].update(reply="S1: YES"))
    assert "judged.calls[0] must have exactly" in detail(call, "leaf hashes")
    scoreless = edited(lambda leaf: leaf["judged"].update(score=None))
    assert "judged.score must be given" in detail(scoreless, "leaf hashes")
    other = edited(lambda leaf: leaf["judged"].update(protocol_sha256="ab" * 32))
    assert "not the manifest's nuance protocol_sha256" in detail(other, "leaf hashes")


def test_open_leaves_belong_to_format_5_and_are_counted(run: Signed) -> None:
    older = copy.deepcopy(run.receipt)
    older["manifest"]["format"] = RECEIPT_FORMAT_4
    del older["manifest"]["nuance"]
    result = run.verify(resign(older, run.key))
    assert names(result) == {"leaf hashes"}
    assert f"only {RECEIPT_FORMAT_5}" in detail(result, "leaf hashes")
    dropped = copy.deepcopy(run.receipt)
    dropped["leaves"] = [e for e in dropped["leaves"] if "judged" not in e["leaf"]]
    dropped["manifest"]["leaf_count"] = len(dropped["leaves"])
    result = run.verify(resign(rehash(dropped), run.key))
    assert names(result) == {"leaf count"}
    assert "0 open-question leaves" in detail(result, "leaf count")


def test_format_5_fields_are_exact(run: Signed) -> None:
    manifest = run.receipt["manifest"]
    nuance = manifest["nuance"]
    with pytest.raises(ManifestError, match="missing nuance"):
        Manifest.from_json({k: v for k, v in manifest.items() if k != "nuance"})
    with pytest.raises(ManifestError, match=r"unknown field\(s\) nuance"):
        Manifest.from_json({**manifest, "format": RECEIPT_FORMAT_4})
    bad: list[tuple[dict[str, Any], str]] = [
        ({**nuance, "score": 0.5}, "six decimals"),
        ({**nuance, "official": "yes"}, "true or false"),
        ({**nuance, "scored": 0}, "null exactly when"),
        ({**nuance, "total": 1}, "more than total"),
        ({**nuance, "judge_model": ""}, "go together"),
        ({**nuance, "extra": 1}, "expected exactly"),
        ({**nuance, "protocol_sha256": "", "judge_id": "", "judge_model": ""}, "nobody judged"),
    ]
    for value, message in bad:
        with pytest.raises(ManifestError, match=message):
            Manifest.from_json({**manifest, "nuance": value})
    # The nuance is never a verified score: moved into scores, the manifest is refused.
    blended = copy.deepcopy(manifest)
    blended["scores"]["nuance"] = blended.pop("nuance")["score"]
    with pytest.raises(ManifestError):
        Manifest.from_json(blended)


def test_a_run_with_open_questions_needs_a_nonce_and_a_seed_source(dataset: Dataset) -> None:
    transcript = answered(dataset)
    report = grade_run(dataset, transcript).report
    key = Ed25519PrivateKey.generate()
    with pytest.raises(ReceiptInputError, match=RECEIPT_FORMAT_5):
        build_receipt(report, transcript, case_prompts(dataset), key, "verified", CREATED, "h")
