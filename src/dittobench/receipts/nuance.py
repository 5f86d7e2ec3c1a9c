"""The nuance score in a receipt: recomputed where a rule decides it, bound where a judge did
(docs/receipts.md, "Open questions").

A format-5 receipt signs the nuance score apart from the verified scores, and its open leaves
carry the judge's verdicts and the hashes of its replies, not the replies. So:

- with the transcript, everything is recomputed: the replies are read again by the rubric parser,
  the panel combined, each rubric score and the nuance score recomputed (``grade.run``);
- from the leaves alone, the verdicts are bound but judged: taken as signed, and each rubric
  score, the nuance score and whether the judge was the version's locked one are recomputed
  from them by the rules (``judged_from_leaves``);
- ``verify --rejudge`` asks the judge again and compares its verdicts with the signed ones item
  by item (``agreement``); it never changes the receipt.

Pure: no clock, no network.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dittobench.grade.judging import NO, YES, official_mark
from dittobench.grade.stats import mean, std_err
from dittobench.receipts.judged import JUDGE_ASKED, is_open_leaf, judged_object
from dittobench.receipts.manifest import Manifest, Nuance
from dittobench.receipts.merkle import leaf_bytes, leaf_hash
from dittobench.spec.dataset import Dataset
from dittobench.spec.judging import JudgeProtocol, NuanceScore, OpenVerdict
from dittobench.spec.open import OpenCase, rubric_score
from dittobench.spec.versions import get_policy


def judged_from_leaves(
    dataset: Dataset,
    graded: NuanceScore,
    signed: Mapping[str, dict[str, Any]],
    manifest: Manifest,
    leaves: Sequence[dict[str, Any]],
) -> tuple[list[dict[str, Any]], Nuance]:
    """For a regrade from the leaves alone: ``leaves`` (rebuilt from a transcript without a
    judge record, graded as ``graded``) with each open question's ``judged`` object rebuilt by
    the rules from the receipt's own (``signed``: its leaf objects by case id), and the nuance
    score that follows. The verdicts and judge calls are taken as signed (bound, not
    recomputable without the replies); the status of an unanswered question, every rubric
    score, the counts, the score and its standard error, and ``official`` are recomputed."""
    cases = {c.id: c for c in dataset.open_cases}
    by_case = {v.case_id: v for v in graded.per_case}
    protocol = manifest.nuance.protocol_sha256 if manifest.nuance is not None else ""
    out: list[dict[str, Any]] = []
    verdicts: list[OpenVerdict] = []
    for entry in leaves:
        leaf = entry["leaf"]
        if not is_open_leaf(leaf):
            out.append(entry)
            continue
        bound = signed.get(leaf["case_id"], {}).get("judged")
        calls = _calls(bound) if protocol else []
        verdict = _by_rules(cases[leaf["case_id"]], by_case[leaf["case_id"]], bound, protocol)
        verdicts.append(verdict)
        asked = calls if verdict.status in JUDGE_ASKED else []
        rebuilt = {**leaf, "judged": judged_object(verdict, asked, protocol)}
        out.append({**entry, "leaf": rebuilt, "hash": leaf_hash(leaf_bytes(rebuilt))})
    return out, _nuance_of(verdicts, manifest, out, get_policy(manifest.bench_version).judge)


def _calls(bound: Any) -> list[dict[str, Any]]:
    calls = bound.get("calls") if isinstance(bound, dict) else None
    return [c for c in calls if isinstance(c, dict)] if isinstance(calls, list) else []


def _by_rules(case: OpenCase, graded: OpenVerdict, bound: Any, protocol: str) -> OpenVerdict:
    """One open question from its signed verdicts: an unanswered question scores 0 whatever
    the leaf says, an unjudged run judges nothing, and signed verdicts for exactly the rubric's
    items give the rubric score (anything else stands for a judge error)."""
    if graded.status == "no_answer" or not protocol:
        return graded
    said = bound.get("verdicts") if isinstance(bound, dict) else None
    calls = len(_calls(bound))
    if (
        isinstance(said, dict)
        and set(said) == set(case.item_ids)
        and all(v in (YES, NO) for v in said.values())
    ):
        score = rubric_score(case, {item: v == YES for item, v in said.items()})
        return OpenVerdict(case.id, case.open_kind, "judged", score, dict(said), calls)
    return OpenVerdict(case.id, case.open_kind, "judge_error", calls=calls)


def _nuance_of(
    verdicts: Sequence[OpenVerdict],
    manifest: Manifest,
    leaves: Sequence[dict[str, Any]],
    locked: JudgeProtocol | None,
) -> Nuance:
    """The nuance score of the rebuilt verdicts, by the rule of ``grade.judging.nuance_score``:
    the mean (and standard error) of the rubric scores of the questions judged or unanswered,
    when any was judged. The judge's id and model are the signed ones, unless its protocol is
    the version's locked one (then they are that protocol's); it is official when it is that
    protocol and every reply named its model."""
    signed = manifest.nuance
    protocol = signed.protocol_sha256 if signed is not None else ""
    scores = [v.score for v in verdicts if v.score is not None]
    judged = any(v.status == "judged" for v in verdicts)
    models = {
        call.get("model")
        for entry in leaves
        if is_open_leaf(entry["leaf"])
        for call in entry["leaf"]["judged"]["calls"]
        if call.get("outcome") == "ok"
    }
    is_locked = False
    judge = ("", "")
    if locked is not None and protocol == locked.sha256:
        is_locked, judge = True, (locked.id, locked.model)
    elif signed is not None and protocol:
        judge = (signed.judge_id, signed.judge_model)
    return Nuance.of(
        NuanceScore(
            score=round(mean(scores), 6) if judged else None,
            stderr=round(std_err(scores), 6) if judged else 0.0,
            scored=len(scores) if judged else 0,
            judge_errors=sum(1 for v in verdicts if v.status == "judge_error"),
            total=len(verdicts),
            official=is_locked
            and official_mark(
                locked, protocol, models, sum(v.status == "judge_error" for v in verdicts)
            ),
            judge_id=judge[0],
            judge_model=judge[1],
            protocol_sha256=protocol,
        )
    )


def score_lines(manifest: Manifest) -> list[str]:
    """How each signed score of a format-5 receipt stands, in words: the verified scores are
    rules only, the nuance score bound but judged (or unjudged). [] for older formats."""
    nuance = manifest.nuance
    if nuance is None:
        return []
    s = manifest.scores
    verified = (
        f"verified  composite {s.composite} ± {s.composite_stderr} · tool {s.tool_mean} · "
        f"memory {s.memory_mean}: recomputed by rules (--regrade recomputes every one from the "
        "leaves or the transcript)"
    )
    if not nuance.judged:
        judged = (
            f"nuance    unjudged: none of the {nuance.total} open questions was judged (the run "
            "had no judge); no judged score is bound"
        )
    else:
        standing = "official" if nuance.official else "unofficial: not the version's locked judge"
        judged = (
            f"nuance    {nuance.score or 'none'} ± {nuance.stderr} ({nuance.scored} of "
            f"{nuance.total} open questions scored, {nuance.judge_errors} judge errors): bound "
            f"but judged, by model {nuance.judge_model} under {nuance.judge_id} ({standing}); "
            "the verdicts are the judge's, bound in the open leaves (--transcript ties them to "
            "its replies, --rejudge asks the judge again); never in the composite"
        )
    return ["scores:", f"  {verified}", f"  {judged}"]


@dataclass(frozen=True, slots=True)
class Agreement:
    """A rejudge against the signed verdicts: rubric items whose verdict is the same, out of
    every item of the open questions either side judged, and one line per question that
    differs."""

    agreeing: int
    total: int
    cases: int
    differing: tuple[tuple[str, str], ...]
    """(case id, what differs) per question whose verdicts differ."""

    @property
    def full(self) -> bool:
        return self.agreeing == self.total


def agreement(entries: Sequence[Any], rejudged: NuanceScore) -> Agreement:
    """Compare the receipt's open leaves (its ``leaves`` entries) with a rejudge's verdicts."""
    signed: dict[str, dict[str, Any]] = {}
    for entry in entries:
        leaf = entry.get("leaf") if isinstance(entry, dict) else None
        if is_open_leaf(leaf) and isinstance(leaf["judged"], dict):
            signed[str(leaf.get("case_id"))] = leaf["judged"]
    agreeing = total = cases = 0
    differing: list[tuple[str, str]] = []
    for verdict in rejudged.per_case:
        bound = signed.get(verdict.case_id, {})
        said = bound.get("verdicts")
        theirs: dict[str, Any] = said if isinstance(said, dict) else {}
        mine = verdict.verdicts or {}
        if not theirs and not mine:
            continue  # neither side judged it: nothing to compare
        items = sorted(set(theirs) | set(mine))
        same = sum(1 for item in items if theirs.get(item) == mine.get(item))
        agreeing, total, cases = agreeing + same, total + len(items), cases + 1
        if same < len(items):
            differing.append((verdict.case_id, _difference(bound, verdict, theirs, mine, items)))
    return Agreement(agreeing, total, cases, tuple(sorted(differing)))


def _difference(
    bound: dict[str, Any],
    verdict: OpenVerdict,
    theirs: dict[str, Any],
    mine: dict[str, str],
    items: list[str],
) -> str:
    if not mine:
        return f"receipt judged, rejudge {verdict.status}: {len(items)} item(s) without a verdict"
    if not theirs:
        return f"receipt {bound.get('status', 'absent')}, rejudge judged: {len(items)} item(s)"
    return "; ".join(
        f"{item} receipt {theirs.get(item, '-')} rejudged {mine.get(item, '-')}"
        for item in items
        if theirs.get(item) != mine.get(item)
    )


__all__ = ["Agreement", "agreement", "judged_from_leaves", "score_lines"]
