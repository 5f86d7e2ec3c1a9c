"""`dittobench verify --rejudge --judge-url URL`: ask the judge again about a receipt's open
questions, under the protocol the run was judged with, and report how far its verdicts agree
with the signed ones, item by item (docs/receipts.md, "Rejudging").

The glue between the pure receipts layer (``receipts.nuance.agreement``) and the engine's judge
client (``engine.judging.judge_transcript``), so receipts never import the engine. The receipt
is never changed: a judge is a model, and its verdicts are reported, not recomputed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import typer

from dittobench.core.errors import DittobenchError

if TYPE_CHECKING:
    from dittobench.packs import Pack
    from dittobench.receipts.nuance import Agreement
    from dittobench.spec.judging import NuanceScore


class RejudgeError(DittobenchError):
    """A receipt and transcript that cannot be judged again (no open questions, no judge record,
    another protocol, another dataset)."""

    exit_code = 1
    http_status = 422


def rejudge(receipt: Any, transcript: Any, pack: Pack | None, url: str) -> bool:
    """Judge the transcript's open answers again and print the agreement with the receipt's
    verdicts; False (after printing why) when it cannot be done."""
    from dittobench.receipts.nuance import agreement

    typer.echo("rejudge:")
    try:
        signed, rejudged, calls = _rejudged(receipt, transcript, pack, url)
    except DittobenchError as exc:
        typer.echo(f"  FAIL  {exc}")
        return False
    found = agreement(receipt.get("leaves") or [], rejudged)
    typer.echo(
        f"  judge {rejudged.judge_model} under {rejudged.judge_id} at {url}: {calls} call(s) for "
        f"{rejudged.total} open question(s)"
    )
    for case_id, what in found.differing:
        typer.echo(f"  DIFF  case {case_id}  {what}")
    typer.echo(_summary(found, signed, rejudged))
    typer.echo(
        "  (a judge is a model: the receipt is unchanged, and disagreement does not fail it)"
    )
    return True


def _rejudged(
    receipt: Any, transcript_data: Any, pack: Pack | None, url: str
) -> tuple[str, NuanceScore, int]:
    """(the signed nuance score, the rejudged one, how many judge calls were made)."""
    from dittobench.cli.inputs import judge_endpoint
    from dittobench.core.hashing import canonical_sha256
    from dittobench.engine.judging import judge_transcript
    from dittobench.grade.run import grade_run
    from dittobench.receipts.manifest import Manifest
    from dittobench.receipts.packs import regrade_pack
    from dittobench.receipts.regrade import rebuild_dataset
    from dittobench.spec.transcript import Transcript

    manifest = Manifest.from_json(receipt.get("manifest") if isinstance(receipt, dict) else None)
    if manifest.nuance is None:
        raise RejudgeError(f"a {manifest.format} receipt has no open questions to judge again")
    transcript = Transcript.from_json(transcript_data)
    record = transcript.judge
    if record is None or not manifest.nuance.judged:
        raise RejudgeError("the run was not judged: there are no signed verdicts to compare")
    if record.protocol.sha256 != manifest.nuance.protocol_sha256:
        raise RejudgeError(
            f"the transcript was judged under protocol {record.protocol.sha256[:16]}…, the "
            f"receipt signs {manifest.nuance.protocol_sha256[:16]}…"
        )
    dataset = rebuild_dataset(manifest, regrade_pack(manifest, pack))
    if canonical_sha256(dataset.to_json()) != manifest.dataset_sha256:
        raise RejudgeError("the dataset rebuilt from the manifest is not the one it names")
    endpoint = judge_endpoint(url, manifest.bench_version)
    if endpoint is None:
        raise RejudgeError("--rejudge needs --judge-url")
    again = judge_transcript(endpoint, record.protocol, dataset, transcript)
    nuance = grade_run(dataset, replace(transcript, judge=again)).report.nuance
    if nuance is None:
        raise RejudgeError("the dataset rebuilt from the manifest has no open questions")
    signed = manifest.nuance.score or "none"
    return signed, nuance, sum(len(j.calls) for j in again.judgements)


def _summary(found: Agreement, signed: str, rejudged: NuanceScore) -> str:
    score = "none" if rejudged.score is None else f"{rejudged.score:.6f}"
    scores = f"nuance: receipt {signed}, rejudged {score}"
    if not found.total:
        return f"  ok    nothing to compare: no open question was judged on either side; {scores}"
    share = f"{found.agreeing} of {found.total} rubric items"
    over = f"over {found.cases} open question(s)"
    if found.full:
        return f"  ok    full agreement: {share} {over} agree with the receipt's verdicts; {scores}"
    percent = 100 * found.agreeing / found.total
    return f"  DIFF  agreement: {share} ({percent:.1f}%) {over}; {scores}"
