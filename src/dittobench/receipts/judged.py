"""An open question's ``judged`` object: what the judge said of one answer, as its receipt leaf
binds it (docs/receipts.md, "Leaves").

``{"status", "score", "verdicts", "protocol_sha256", "calls"}``:

- ``status``: one of ``spec.judging.CASE_STATUSES`` (judged, judge_error, no_answer, not_judged);
- ``score``: the rubric score as a six-decimal string, null unless judged or no_answer;
- ``verdicts``: the panel's combined verdict per rubric item (``S1`` … / ``N1`` … -> ``YES`` or
  ``NO``), ``{}`` unless judged;
- ``protocol_sha256``: the run's judge protocol hash (``JudgeProtocol.sha256``), "" when nobody
  judged the run;
- ``calls``: every call made to judge this answer, in the order made, each ``{"panel_call",
  "attempt", "request_sha256", "reply_sha256", "model", "outcome"}``; ``reply_sha256`` is the
  SHA-256 of the raw reply's UTF-8 text, which stays in the transcript.

The verdicts are the judge's, not a rule's: a receipt binds them (change one and the leaf, the
root or the signature fails) but only the judge's replies in the transcript, read again by the
rubric parser, or the judge asked again (``verify --rejudge``), can recompute them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeGuard

from dittobench.core.hashing import text_sha256
from dittobench.grade.judging import NO, YES, combine
from dittobench.receipts.merkle import SCORE_TEXT, format_score
from dittobench.spec.judging import CASE_STATUSES, JUDGE_OUTCOMES, OpenVerdict

JUDGED_KEYS: Final = ("calls", "protocol_sha256", "score", "status", "verdicts")
CALL_KEYS: Final = (
    "attempt",
    "model",
    "outcome",
    "panel_call",
    "reply_sha256",
    "request_sha256",
)
SCORED_STATUSES: Final = ("judged", "no_answer")
"""The statuses that carry a rubric score (no_answer scores 0)."""
JUDGE_ASKED: Final = ("judged", "judge_error")
"""The statuses of an answer the judge was asked about."""

_ITEM_ID = re.compile(r"[SN]\d{1,3}", re.ASCII)
_HEX64 = re.compile(r"[0-9a-f]{64}", re.ASCII)


def call_leaf(call: Mapping[str, Any]) -> dict[str, Any]:
    """One judge call as a leaf binds it, from the call's transcript JSON (``JudgeCall.to_json``):
    everything but the reply text (hashed), the parsed verdicts and the detail."""
    reply = call.get("reply")
    return {
        "panel_call": call.get("panel_call"),
        "attempt": call.get("attempt"),
        "request_sha256": call.get("request_sha256"),
        "reply_sha256": text_sha256(reply) if isinstance(reply, str) else None,
        "model": call.get("model"),
        "outcome": call.get("outcome"),
    }


def judged_object(
    verdict: OpenVerdict, calls: Sequence[Mapping[str, Any]], protocol_sha256: str
) -> dict[str, Any]:
    """The ``judged`` object of one open question graded as ``verdict``; ``calls`` are its judge
    calls as ``call_leaf`` gives them."""
    return {
        "status": verdict.status,
        "score": None if verdict.score is None else format_score(verdict.score),
        "verdicts": dict(sorted((verdict.verdicts or {}).items())),
        "protocol_sha256": protocol_sha256,
        "calls": [dict(call) for call in calls],
    }


def judged_problem(judged: Any) -> str:
    """What is wrong with a leaf's ``judged`` object, or "" (the shape and the rules that tie
    its fields together; whether the verdicts are the judge's is for the transcript to show)."""
    if not isinstance(judged, dict):
        return "judged is not an object"
    if set(judged) != set(JUDGED_KEYS):
        return f"judged must have exactly {', '.join(JUDGED_KEYS)}"
    status, score, verdicts = judged["status"], judged["score"], judged["verdicts"]
    protocol, calls = judged["protocol_sha256"], judged["calls"]
    if status not in CASE_STATUSES:
        return f"judged.status is not one of {', '.join(CASE_STATUSES)}"
    if (score is not None) != (status in SCORED_STATUSES):
        return "judged.score must be given for a judged or unanswered question, else null"
    if score is not None and not (isinstance(score, str) and SCORE_TEXT.fullmatch(score)):
        return "judged.score is not a six-decimal string"
    if not _verdicts_ok(verdicts):
        return "judged.verdicts must map rubric item ids (S1, N1, …) to YES or NO"
    if bool(verdicts) != (status == "judged"):
        return "judged.verdicts must be given exactly when the status is judged"
    if not (isinstance(protocol, str) and (protocol == "" or _HEX64.fullmatch(protocol))):
        return "judged.protocol_sha256 is neither '' nor a hex SHA-256"
    if (status in JUDGE_ASKED and not protocol) or (status == "not_judged" and protocol):
        return f"judged.protocol_sha256 does not fit the status {status}"
    if not isinstance(calls, list):
        return "judged.calls is not a list"
    if calls and status not in JUDGE_ASKED:
        return f"judged.calls: a question with status {status} has no judge calls"
    return next((p for p in map(_call_problem, range(len(calls)), calls) if p), "")


def _verdicts_ok(verdicts: Any) -> bool:
    return isinstance(verdicts, dict) and all(
        isinstance(item, str) and _ITEM_ID.fullmatch(item) and said in (YES, NO)
        for item, said in verdicts.items()
    )


def _call_problem(index: int, call: Any) -> str:
    where = f"judged.calls[{index}]"
    if not isinstance(call, dict) or set(call) != set(CALL_KEYS):
        return f"{where} must have exactly {', '.join(CALL_KEYS)}"
    if not _count(call["panel_call"], 0) or not _count(call["attempt"], 1):
        return f"{where}: panel_call (from 0) and attempt (from 1) must be integers"
    for name in ("request_sha256", "reply_sha256"):
        if not (isinstance(call[name], str) and _HEX64.fullmatch(call[name])):
            return f"{where}.{name} is not a hex SHA-256"
    if not isinstance(call["model"], str):
        return f"{where}.model is not a string"
    if call["outcome"] not in JUDGE_OUTCOMES:
        return f"{where}.outcome is not one of {', '.join(JUDGE_OUTCOMES)}"
    return ""


def _count(value: Any, least: int) -> bool:
    return type(value) is int and least <= value <= 1_000_000


def is_open_leaf(leaf: Any) -> TypeGuard[dict[str, Any]]:
    """The leaf is an open question's (it has ``judged``)."""
    return isinstance(leaf, dict) and "judged" in leaf


def panel_verdicts(calls: Sequence[Any], panel: int) -> dict[str, str] | None:
    """The panel's combined verdicts from a judgement's calls as the transcript records them
    (``JudgeCall.to_json``: each ``ok`` call's ``verdicts`` are what the rubric parser read of
    its reply): the first ``ok`` call of each panel call counts, and every panel call must have
    one, else None (the question ended in judge_error)."""
    first: dict[int, dict[str, str]] = {}
    for call in calls:
        if not isinstance(call, dict) or call.get("outcome") != "ok":
            continue
        said, number = call.get("verdicts"), call.get("panel_call")
        if isinstance(said, dict) and said and type(number) is int and number not in first:
            first[number] = said
    if panel < 1 or set(first) != set(range(panel)):
        return None
    return combine([first[k] for k in range(panel)])


__all__ = [
    "CALL_KEYS",
    "JUDGED_KEYS",
    "call_leaf",
    "is_open_leaf",
    "judged_object",
    "judged_problem",
    "panel_verdicts",
]
