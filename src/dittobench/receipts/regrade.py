"""Regrade a receipt: rebuild its dataset, grade it again, and compare every figure it signs
(docs/receipts.md, "Regrading").

``verify`` proves a receipt is intact and signed by a key you trust; it cannot tell whether that
key signed the right numbers. ``regrade_receipt`` re-derives them with the project's own generator
and grader:

1. the dataset is rebuilt from the manifest's seed, bench version, run size and content pack
   (``rebuild_dataset``, the one place a dataset is regenerated) and its ``dataset_sha256``
   compared with the manifest's; when they differ nothing else can be compared, so it stops there.
   The pack is the one the caller passes (``--pack DIR``), whose SHA-256 must be the manifest's,
   else the shipped pack of the manifest's id and SHA-256 (a format-1 manifest: the bench
   version's own); a transcript given must name the same pack (``receipts/packs.py``);
2. every case is graded again, from the transcript when one is given, else from the receipt's own
   leaves (each carries the case's ``response`` and ``observed`` calls as the transcript holds
   them, which is everything the grader reads; the transcript adds only timings, which no signed
   figure depends on) and the manifest's ``wire_nonce`` (format 3), which maps the ids the
   harness quoted back to the dataset's; a transcript given must record the same nonce;
3. the leaves are rebuilt from the dataset's prompts, the graded responses and the recomputed
   scores, and compared with the receipt's leaf by leaf (``prompt_sha256``, ``response``,
   ``observed``, ``score``), as are the Merkle root and leaf count over them, the benchmark, bench
   version, run size, grading policy, the transcript hash (with a transcript) and every score:
   composite, its standard error, the tool and memory means and each dimension;
4. a receipt of open questions (format 5) has its open leaves (``prompt_sha256``, ``response``,
   ``judged.*``) and its signed nuance score compared too: recomputed in full from the judge's
   replies with a transcript; from the leaves alone the verdicts are bound but judged, and what
   follows from them by rules is recomputed (``receipts.nuance``).

Pure: no clock, no network, no files but the shipped packs and the pack passed in. Never raises
on a malformed receipt or transcript: what cannot be regraded is reported in ``Regrade.blocked``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from dittobench.core.canonical import CanonicalJSONError, canonical_bytes
from dittobench.core.errors import DittobenchError
from dittobench.core.hashing import canonical_sha256
from dittobench.core.prng import parse_seed
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.packs import Pack
from dittobench.receipts.judged import JUDGED_KEYS, is_open_leaf
from dittobench.receipts.manifest import (
    NUANCE_KEYS,
    SCORE_KEYS,
    Manifest,
    ManifestError,
    Nuance,
    Scores,
)
from dittobench.receipts.merkle import merkle_root
from dittobench.receipts.nuance import judged_from_leaves
from dittobench.receipts.packs import PackMismatchError, manifest_pack, packs_differ, regrade_pack
from dittobench.receipts.sign import case_prompts, receipt_leaves
from dittobench.spec.codec import decode
from dittobench.spec.dataset import Dataset
from dittobench.spec.report import ScoreReport
from dittobench.spec.transcript import CaseRecord, Transcript
from dittobench.spec.vocab import RUN_SIZES, RunSizeName, VocabularyError, member

LEAF_FIELDS = ("prompt_sha256", "response", "observed", "score")
"""The leaf fields regrading recomputes (``case_id`` names the leaf)."""
OPEN_LEAF_FIELDS = ("prompt_sha256", "response", *(f"judged.{k}" for k in sorted(JUDGED_KEYS)))
"""The fields of an open question's leaf regrading compares."""

ABSENT = "(absent)"
"""Shown for a value one side does not have (a leaf, a dimension)."""


class RegradeError(DittobenchError):
    """A receipt whose signed figures do not follow from its seed and its responses."""

    exit_code = 1  # the receipt failed the check; the files themselves were readable
    http_status = 422


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One figure the receipt signs that regrading does not reproduce. ``case_id`` names the
    leaf for a leaf field, and is "" for a manifest field."""

    field: str
    receipt: str
    recomputed: str
    case_id: str = ""

    def to_json(self) -> dict[str, str]:
        return {
            "field": self.field,
            "case_id": self.case_id,
            "receipt": self.receipt,
            "recomputed": self.recomputed,
        }


@dataclass(frozen=True, slots=True)
class Regrade:
    """What regrading found. ``ok`` only when the receipt could be regraded and every figure
    agrees."""

    disagreements: tuple[Disagreement, ...] = ()
    blocked: str = ""
    """Why the scores could not be regraded ("" when they were)."""
    source: str = ""
    """What was graded: ``transcript`` or ``leaves`` ("" when nothing was)."""
    cases: int = 0
    """How many cases were graded."""
    dataset_sha256: str = ""
    """The hash of the rebuilt dataset ("" when it could not be rebuilt)."""
    pack_id: str = ""
    pack_sha256: str = ""
    """The pack the dataset was rebuilt with ("" when none could be chosen)."""
    nuance: str = ""
    """How the nuance score was regraded: ``recomputed`` (from the judge's replies in the
    transcript), ``rules`` (from the leaves: the verdicts bound, what follows from them
    recomputed), ``unjudged`` (nobody judged the run), "" (no open questions)."""

    @property
    def ok(self) -> bool:
        return not self.blocked and not self.disagreements

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "blocked": self.blocked,
            "source": self.source,
            "cases": self.cases,
            "dataset_sha256": self.dataset_sha256,
            "pack_id": self.pack_id,
            "pack_sha256": self.pack_sha256,
            "nuance": self.nuance,
            "disagreements": [d.to_json() for d in self.disagreements],
        }


def rebuild_dataset(manifest: Manifest, pack: Pack) -> Dataset:
    """The dataset the manifest names, rebuilt from ``pack`` (``regrade_pack``) with this build's
    generator: the one place a regrade regenerates a dataset. Raises ``SeedError``,
    ``UnknownVersionError``, ``UnknownRunSizeError`` or ``PackError`` when the manifest names
    one this build cannot make."""
    seed = parse_seed(manifest.seed)
    return build_dataset(seed, manifest.bench_version, manifest.run_size, pack)


def regrade_receipt(
    receipt: Any, transcript: Any | None = None, pack: Pack | None = None
) -> Regrade:
    """Regrade a parsed receipt; with ``transcript`` (parsed JSON) grade that transcript instead
    of the responses the leaves carry; with ``pack`` (``--pack DIR``) rebuild the dataset from
    it, which must be the pack the manifest names. See the module docstring for what is
    compared."""
    if not isinstance(receipt, dict):
        return Regrade(blocked="a receipt is a JSON object")
    try:
        manifest = Manifest.from_json(receipt.get("manifest"))
    except ManifestError as exc:
        return Regrade(blocked=f"the manifest cannot be read: {exc}")
    try:
        chosen = regrade_pack(manifest, pack)
        dataset = rebuild_dataset(manifest, chosen)
    except PackMismatchError as exc:
        return Regrade(blocked=str(exc))
    except DittobenchError as exc:
        return Regrade(blocked=f"cannot rebuild the dataset from the manifest: {exc}")
    dataset_sha = canonical_sha256(dataset.to_json())
    rebuilt = Regrade(dataset_sha256=dataset_sha, pack_id=chosen.pack_id, pack_sha256=chosen.sha256)
    if dataset_sha != manifest.dataset_sha256:
        return replace(
            rebuilt,
            disagreements=(Disagreement("dataset_sha256", manifest.dataset_sha256, dataset_sha),),
            blocked=f"the dataset rebuilt from seed {manifest.seed}, {manifest.run_size}, bench "
            f"version {manifest.bench_version}, pack {chosen.pack_id} is not the one the receipt "
            "names; the scores were not regraded",
        )
    entries = _entries(receipt.get("leaves"))
    try:
        graded = _graded_transcript(dataset, dataset_sha, manifest, entries, transcript)
        report = grade_run(dataset, graded).report
        leaves = receipt_leaves(report, graded, case_prompts(dataset))
    except DittobenchError as exc:
        return replace(rebuilt, blocked=f"cannot regrade: {exc}")
    nuance = Nuance.of(report.nuance) if report.nuance is not None else None
    if transcript is None and report.nuance is not None:
        leaves, nuance = judged_from_leaves(dataset, report.nuance, entries, manifest, leaves)
    found = _manifest_differences(manifest, report, leaves, with_transcript=transcript is not None)
    found += _nuance_differences(manifest.nuance, nuance)
    found += _leaf_differences(entries, {leaf["case_id"]: leaf["leaf"] for leaf in leaves})
    source = "leaves" if transcript is None else "transcript"
    return replace(
        rebuilt,
        disagreements=tuple(found),
        source=source,
        cases=report.n,
        nuance=_nuance_source(nuance, source),
    )


def _nuance_source(nuance: Nuance | None, source: str) -> str:
    if nuance is None:
        return ""
    if not nuance.judged:
        return "unjudged"
    return "recomputed" if source == "transcript" else "rules"


def _entries(raw: Any) -> dict[str, dict[str, Any]]:
    """The receipt's leaf objects by case id; malformed entries are left to ``verify``'s leaf
    checks (and show here as leaves the dataset has but the receipt lacks)."""
    out: dict[str, dict[str, Any]] = {}
    for entry in raw if isinstance(raw, list) else []:
        leaf = entry.get("leaf") if isinstance(entry, dict) else None
        if isinstance(leaf, dict) and isinstance(leaf.get("case_id"), str):
            out.setdefault(leaf["case_id"], leaf)
    return out


def _graded_transcript(
    dataset: Dataset,
    dataset_sha: str,
    manifest: Manifest,
    entries: dict[str, dict[str, Any]],
    transcript: Any | None,
) -> Transcript:
    """The transcript to grade: the one given, or one rebuilt from the leaves of the dataset's
    cases (a leaf for a case the dataset lacks is reported by ``_leaf_differences``)."""
    if transcript is not None:
        given = Transcript.from_json(transcript)
        if packs_differ(transcript, manifest.to_json()):
            signed = manifest_pack(manifest)
            named = f"{given.pack.id!r} (sha256 {given.pack.sha256})" if given.pack else "none"
            raise PackMismatchError(
                f"the transcript names pack {named}, the receipt pack {signed.id!r} "
                f"(sha256 {signed.sha256})"
            )
        if given.wire_nonce != manifest.wire_nonce:
            raise RegradeError(
                f"the transcript records wire nonce {given.wire_nonce or '(none)'}, the receipt "
                f"{manifest.wire_nonce or '(none)'}"
            )
        return given
    kinds = {c.id: ("tool", "") for c in dataset.tool_cases}
    kinds |= {c.id: ("memory", c.user_id) for c in dataset.memory_cases}
    kinds |= {c.id: ("open", c.user_id) for c in dataset.open_cases}
    records = [
        decode(
            CaseRecord,
            {
                "case_id": case_id,
                "kind": kinds[case_id][0],
                "user_id": kinds[case_id][1],
                "response": leaf.get("response"),
                # An open question's leaf has no observed calls (nothing is graded from them).
                "observed": [] if kinds[case_id][0] == "open" else leaf.get("observed"),
            },
            f"the leaf of case {case_id}",
        )
        for case_id, leaf in sorted(entries.items())
        if case_id in kinds
    ]
    return Transcript(
        benchmark=manifest.benchmark,
        bench_version=manifest.bench_version,
        seed=dataset.seed,
        run_size=_run_size(manifest.run_size),
        dataset_sha256=dataset_sha,
        harness=manifest.harness,
        cases=tuple(records),
        wire_nonce=manifest.wire_nonce,
    )


def _manifest_differences(
    manifest: Manifest,
    report: ScoreReport,
    leaves: Sequence[dict[str, Any]],
    with_transcript: bool,
) -> list[Disagreement]:
    """Every manifest figure that follows from the dataset and the graded responses."""
    scores = Scores.from_numbers(
        report.composite,
        report.composite_stderr,
        report.tool_mean,
        report.memory_mean,
        report.dimensions,
    )
    pairs: list[tuple[str, object, object]] = [
        ("benchmark", manifest.benchmark, report.benchmark),
        ("bench_version", manifest.bench_version, report.bench_version),
        ("run_size", manifest.run_size, report.run_size),
        ("grading_policy", manifest.grading_policy, report.grading_policy),
        ("leaf_count", manifest.leaf_count, len(leaves)),
        ("merkle_root", manifest.merkle_root, merkle_root([e["hash"] for e in leaves])),
    ]
    if with_transcript:
        pairs.append(("transcript_sha256", manifest.transcript_sha256, report.transcript_sha256))
    claimed, recomputed = manifest.scores.to_json(), scores.to_json()
    pairs += [(f"scores.{name}", claimed[name], recomputed[name]) for name in SCORE_KEYS]
    dims, own = dict(manifest.scores.dimensions), dict(scores.dimensions)
    pairs += [
        (f"scores.dimensions.{name}", dims.get(name, ABSENT), own.get(name, ABSENT))
        for name in sorted(set(dims) | set(own))
    ]
    return [Disagreement(name, str(a), str(b)) for name, a, b in pairs if a != b]


def _nuance_differences(signed: Nuance | None, recomputed: Nuance | None) -> list[Disagreement]:
    """The signed nuance score against the recomputed one, field by field (one side without
    any: a ``nuance`` disagreement)."""
    if signed is None or recomputed is None:
        if signed is recomputed:
            return []
        shown = ("present" if signed else ABSENT, "present" if recomputed else ABSENT)
        return [Disagreement("nuance", *shown)]
    mine, theirs = recomputed.to_json(), signed.to_json()
    return [
        Disagreement(f"nuance.{name}", _shown(theirs[name]), _shown(mine[name]))
        for name in NUANCE_KEYS
        if theirs[name] != mine[name] or type(theirs[name]) is not type(mine[name])
    ]


def _leaf_differences(
    entries: dict[str, dict[str, Any]], rebuilt: dict[str, dict[str, Any]]
) -> list[Disagreement]:
    """Leaf by leaf, in case-id order: each recomputed field that differs from the receipt's,
    and each case only one side has."""
    out: list[Disagreement] = []
    for case_id in sorted(set(entries) | set(rebuilt)):
        mine, theirs = rebuilt.get(case_id), entries.get(case_id)
        if mine is None or theirs is None:
            shown = ("present" if theirs else ABSENT, "present" if mine else ABSENT)
            out.append(Disagreement("leaf", *shown, case_id))
            continue
        for name in OPEN_LEAF_FIELDS if is_open_leaf(mine) else LEAF_FIELDS:
            was, now = _field(theirs, name), _field(mine, name)
            if not _same_json(was, now):
                out.append(Disagreement(f"leaf.{name}", _shown(was), _shown(now), case_id))
    return out


def _field(leaf: dict[str, Any], name: str) -> Any:
    """A leaf's field by name, ``judged.NAME`` inside its judged object (None when absent)."""
    if name.startswith("judged."):
        judged = leaf.get("judged")
        return judged.get(name.removeprefix("judged.")) if isinstance(judged, dict) else None
    return leaf.get(name)


def _same_json(a: Any, b: Any) -> bool:
    try:
        return canonical_bytes(a) == canonical_bytes(b)
    except CanonicalJSONError:
        return False


def _shown(value: Any, limit: int = 80) -> str:
    """A leaf value in one line: strings as they are, JSON as compact canonical text."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = canonical_bytes(value).decode("utf-8")
        except CanonicalJSONError:
            text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def _run_size(signed: str) -> RunSizeName:
    """The receipt's run size, one this build knows (else the rebuilt transcript would not be
    one ``Transcript.from_json`` reads)."""
    try:
        return member(RUN_SIZES, signed, "manifest.run_size")
    except VocabularyError as exc:
        raise RegradeError(str(exc)) from None


__all__ = [
    "ABSENT",
    "LEAF_FIELDS",
    "OPEN_LEAF_FIELDS",
    "Disagreement",
    "Regrade",
    "RegradeError",
    "rebuild_dataset",
    "regrade_receipt",
]
