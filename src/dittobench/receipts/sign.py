"""Build a signed receipt from a graded run (docs/receipts.md, "Receipt file").

The receipt is ``{"manifest", "signature", "public_key", "key_id", "leaves"}``; the signature is
Ed25519 over exactly ``manifest_bytes(manifest)``, naming the run's content pack: in format 4
(``RECEIPT_FORMAT_4``, with the run's wire nonce and who chose its seed) when the transcript
records a nonce and the caller names the seed source, in format 3 (the nonce alone) when it names
none, else in format 2 (``RECEIPT_FORMAT``), as before nonces. A run whose dataset has open
questions (its report has a nuance score) is signed in format 5 (``RECEIPT_FORMAT_5``: format 4
plus the nuance score and its judge, and one leaf per open question). Pure: the caller passes the
key and the time (only a transcript made before packs makes it read the shipped pack it stands
for).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import dittobench
from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import text_sha256
from dittobench.core.prng import seed_text
from dittobench.receipts.judged import call_leaf, judged_object
from dittobench.receipts.keys import b64encode, key_id, raw_public_key
from dittobench.receipts.manifest import (
    RECEIPT_FORMAT,
    RECEIPT_FORMAT_3,
    RECEIPT_FORMAT_4,
    RECEIPT_FORMAT_5,
    Manifest,
    Nuance,
    Scores,
    check_trust_tier,
    manifest_bytes,
    parse_rfc3339,
)
from dittobench.receipts.merkle import (
    leaf_bytes,
    leaf_hash,
    make_leaf,
    make_open_leaf,
    merkle_root,
)
from dittobench.receipts.packs import implied_pack
from dittobench.spec.dataset import Dataset, PackRef
from dittobench.spec.judging import OpenVerdict
from dittobench.spec.report import CaseScore, ScoreReport
from dittobench.spec.seeds import check_seed_source
from dittobench.spec.transcript import Transcript
from dittobench.spec.vocab import SeedSource, TrustTier


class ReceiptInputError(DittobenchError, ValueError):
    """The report, transcript and prompts do not describe one run."""

    http_status = 422


def case_prompts(dataset: Dataset) -> dict[str, str]:
    """What each leaf's ``prompt_sha256`` hashes: the text the harness was asked for each case
    (a tool case's prompt, a memory case's or an open question's question)."""
    prompts = {c.id: c.prompt for c in dataset.tool_cases}
    prompts.update({c.id: c.question for c in dataset.memory_cases})
    prompts.update({c.id: c.question for c in dataset.open_cases})
    return prompts


def receipt_leaves(
    report: ScoreReport, transcript: Transcript, prompts: Mapping[str, str]
) -> list[dict[str, Any]]:
    """One ``{"case_id", "leaf", "hash"}`` entry per graded case and per open question (the
    report's nuance verdicts), sorted by case id. A case the transcript lacks has ``response``
    null and no observed calls, as it was graded; an open question's leaf carries its judge
    calls from the transcript's judge record."""
    records = {c.case_id: c.to_json() for c in transcript.cases}
    opened = report.nuance.per_case if report.nuance is not None else ()
    ids = [s.case_id for s in report.per_case] + [v.case_id for v in opened]
    if len(set(ids)) != len(ids):
        raise ReceiptInputError("the report grades a case twice")
    stray = sorted(set(records) - set(ids))
    if stray:
        raise ReceiptInputError(
            f"the transcript has cases the report lacks: {', '.join(stray[:5])}"
        )
    missing = sorted(set(ids) - set(prompts))
    if missing:
        raise ReceiptInputError(f"no prompt text for: {', '.join(missing[:5])}")
    leaves = [_case_leaf(score, records.get(score.case_id), prompts) for score in report.per_case]
    leaves += [_open_leaf(verdict, records.get(verdict.case_id), transcript, prompts)
               for verdict in opened]  # fmt: skip
    out = []
    for leaf in sorted(leaves, key=lambda leaf: str(leaf["case_id"])):
        out.append({"case_id": leaf["case_id"], "leaf": leaf, "hash": leaf_hash(leaf_bytes(leaf))})
    return out


def _case_leaf(
    score: CaseScore, record: dict[str, Any] | None, prompts: Mapping[str, str]
) -> dict[str, Any]:
    return make_leaf(
        score.case_id,
        text_sha256(prompts[score.case_id]),
        record["response"] if record else None,
        record["observed"] if record else [],
        score.score,
    )


def _open_leaf(
    verdict: OpenVerdict,
    record: dict[str, Any] | None,
    transcript: Transcript,
    prompts: Mapping[str, str],
) -> dict[str, Any]:
    judge = transcript.judge
    judgements = judge.judgements if judge is not None else ()
    judgement = next((j for j in judgements if j.case_id == verdict.case_id), None)
    calls = [call_leaf(call.to_json()) for call in judgement.calls] if judgement else []
    protocol = judge.protocol.sha256 if judge is not None else ""
    return make_open_leaf(
        verdict.case_id,
        text_sha256(prompts[verdict.case_id]),
        record["response"] if record else None,
        judged_object(verdict, calls, protocol),
    )


def build_receipt(
    report: ScoreReport,
    transcript: Transcript,
    prompts: Mapping[str, str],
    private_key: Ed25519PrivateKey,
    trust_tier: TrustTier,
    created_at: str,
    harness: str,
    *,
    seed_source: SeedSource | Literal[""] = "",
) -> dict[str, Any]:
    """Sign a graded run. ``prompts`` maps each case id to the text the harness was asked (a
    tool case's prompt, a memory case's question: ``case_prompts``); ``created_at`` is an RFC
    3339 time. The manifest names the transcript's content pack, its wire nonce when it has
    one (format 3), and with it ``seed_source`` when given (format 4: every run the engine and
    the service sign). A transcript without a nonce was stored before wire ids, and before seed
    sources: it is signed in format 2, which has no place for one. A report with a nuance score
    (open questions, bench 8.0) is signed in format 5, which needs both."""
    pack = _run_pack(report, transcript)
    tier = check_trust_tier(trust_tier)
    source = check_seed_source(seed_source) if seed_source else ""
    parse_rfc3339(created_at, "created_at")
    nuance = Nuance.of(report.nuance) if report.nuance is not None else None
    if nuance is not None:
        _check_nuance_inputs(transcript.wire_nonce, seed_source)
    leaves = receipt_leaves(report, transcript, prompts)
    kid = key_id(private_key)
    manifest = Manifest(
        benchmark=report.benchmark,
        bench_version=report.bench_version,
        package_version=dittobench.__version__,
        seed=seed_text(report.seed),
        run_size=report.run_size,
        dataset_sha256=report.dataset_sha256,
        transcript_sha256=report.transcript_sha256,
        merkle_root=merkle_root([entry["hash"] for entry in leaves]),
        leaf_count=len(leaves),
        harness=harness,
        trust_tier=tier,
        scores=_scores(report),
        grading_policy=report.grading_policy,
        created_at=created_at,
        key_id=kid,
        pack_id=pack.id,
        pack_sha256=pack.sha256,
        format=RECEIPT_FORMAT_5 if nuance else _format(transcript.wire_nonce, seed_source),
        wire_nonce=transcript.wire_nonce,
        seed_source=source if transcript.wire_nonce else "",
        nuance=nuance,
    )
    signature = private_key.sign(manifest_bytes(manifest))
    return {
        "manifest": manifest.to_json(),
        "signature": b64encode(signature),
        "public_key": b64encode(raw_public_key(private_key)),
        "key_id": kid,
        "leaves": leaves,
    }


def _run_pack(report: ScoreReport, transcript: Transcript) -> PackRef:
    """The content pack of the run, once the report is known to be graded from the transcript
    (``ReceiptInputError`` otherwise). A transcript made before packs names none: the version's
    own public pack."""
    if report.transcript_sha256 != transcript.sha256:
        raise ReceiptInputError("the report was graded from a different transcript")
    if report.dataset_sha256 != transcript.dataset_sha256:
        raise ReceiptInputError("the report and the transcript name different datasets")
    if report.pack != transcript.pack:
        raise ReceiptInputError("the report and the transcript name different content packs")
    return transcript.pack or implied_pack(report.bench_version)


def _check_nuance_inputs(wire_nonce: str, seed_source: str) -> None:
    """A run with open questions is signed in format 5: it needs a wire nonce and a seed
    source."""
    if not (wire_nonce and seed_source):
        raise ReceiptInputError(
            f"a run with open questions is signed in {RECEIPT_FORMAT_5}, which signs the run's "
            "wire nonce and who chose its seed: the transcript needs a nonce and the caller a "
            "seed source"
        )


def _scores(report: ScoreReport) -> Scores:
    """The signed figures of the rules score."""
    return Scores.from_numbers(
        report.composite,
        report.composite_stderr,
        report.tool_mean,
        report.memory_mean,
        report.dimensions,
    )


def _format(wire_nonce: str, seed_source: str) -> str:
    if not wire_nonce:
        return RECEIPT_FORMAT
    return RECEIPT_FORMAT_4 if seed_source else RECEIPT_FORMAT_3
