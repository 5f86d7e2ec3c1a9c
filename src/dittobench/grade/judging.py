"""The judge's side of an open case, pure: the request sent for one answer, the reading of a reply,
the panel's combined verdict and the nuance score (docs/judge.md).

The judge only says YES or NO per rubric item; everything else is a fixed rule here. A reply that
does not give exactly one verdict for every item is unparsed (the caller asks again, then records
``judge_error``); a panel's verdict per item is the majority of its calls; the rubric score is
``spec.open.rubric_score``. The grader recomputes all of it from the raw replies in the transcript.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from dittobench.core.hashing import canonical_sha256
from dittobench.grade.stats import mean, std_err
from dittobench.spec.judging import (
    CaseJudgement,
    JudgeConfigError,
    JudgeProtocol,
    JudgeRecord,
    NuanceScore,
    OpenVerdict,
    prompt_of,
)
from dittobench.spec.open import OpenCase, RubricItem, rubric_score
from dittobench.spec.wire import RunResponse

YES, NO = "YES", "NO"
_LINE = re.compile(r"^[\W_]*([SN]\d{1,3})[\W_]*?\s*[:=\-\u2013\u2014.)]\s*[\W_]*(YES|NO)\b", re.I)


def answer_text(response: RunResponse | None) -> str:
    """What the judge reads of a harness's reply: its text, and its answer slot when the text
    does not already hold it ("" when there was no reply)."""
    if response is None:
        return ""
    text = response.final_text.strip()
    slot = (response.answer or "").strip()
    if slot and slot not in text:
        text = f"{text}\n{slot}".strip()
    return text


def judge_request(
    protocol: JudgeProtocol, case: OpenCase, answer: str, panel_call: int
) -> dict[str, Any]:
    """The OpenAI-compatible chat completion body for one panel call on one answer."""
    prompt = prompt_of(protocol)
    user = (
        prompt.user.replace("{question}", case.question)
        .replace("{period}", _period(protocol, case))
        .replace("{facts}", _items(protocol, case.must_state) or prompt.none)
        .replace("{not_facts}", _items(protocol, case.must_not) or prompt.none)
        .replace("{ids}", ", ".join(case.item_ids))
        .replace("{answer}", _fenced(answer, protocol.answer_chars) or prompt.none)
    )
    body: dict[str, Any] = {
        "model": protocol.model,
        "messages": [
            {"role": "system", "content": prompt.system},
            {"role": "user", "content": user},
        ],
        "temperature": protocol.temperature_permille / 1000,
        "seed": protocol.seed + panel_call,
        "max_tokens": protocol.max_tokens,
    }
    if protocol.constrained:
        verdict = {"type": "string", "enum": [YES, NO]}
        body["response_format"] = {
            "type": "json_object",
            "schema": {
                "type": "object",
                "properties": {item: verdict for item in case.item_ids},
                "required": list(case.item_ids),
                "additionalProperties": False,
            },
        }
    return body


_MARKERS = re.compile(r"<<<\s*ANSWER|ANSWER\s*>>>", re.I)


def _fenced(answer: str, most: int) -> str:
    """The answer as the judge reads it, between the markers: at most ``most`` characters (a
    longer one is cut and marked), and any marker it writes itself broken up, so an answer
    cannot close its own block and speak as the rubric."""
    text = answer.strip()
    if len(text) > most:
        text = text[:most] + " […]"
    return _MARKERS.sub(lambda m: m.group(0).replace("<", "‹").replace(">", "›"), text)


def request_sha256(body: dict[str, Any]) -> str:
    """The hash a transcript records of a request body (RFC 8785 bytes)."""
    return canonical_sha256(body)


def _period(protocol: JudgeProtocol, case: OpenCase) -> str:
    prompt = prompt_of(protocol)
    template = prompt.period if case.period_from else prompt.period_open
    return template.replace("{start}", case.period_from).replace("{end}", case.period_to)


def _items(protocol: JudgeProtocol, items: Sequence[RubricItem]) -> str:
    prompt = prompt_of(protocol)
    lines = []
    for item in items:
        line = (
            prompt.item.replace("{id}", item.id)
            .replace("{about}", item.about)
            .replace("{value}", item.value)
        )
        forms = [f for f in item.accepted if f != item.value]
        if forms:
            line += prompt.also.replace("{forms}", ", ".join(forms))
        if item.day:
            line += prompt.day.replace("{day}", item.day)
        if item.note == "current":
            line += prompt.current
        elif item.note in prompt.reasons:
            line += prompt.reasons[item.note]
        lines.append(line)
    return "\n".join(lines)


def parse_reply(reply: str, case: OpenCase) -> dict[str, str] | None:
    """The verdict per rubric item read from a judge's reply: a JSON object of item id to YES or
    NO (what the prompt asks for), else one ``ID: YES|NO`` line per item (case, markup and
    punctuation around them are tolerated). None when an item has no verdict or two different
    ones, or the reply gives a verdict for an item the rubric lacks."""
    wanted = set(case.item_ids)
    start, end = reply.find("{"), reply.rfind("}")
    if 0 <= start < end:
        try:
            data = json.loads(reply[start : end + 1])
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict):
            lines = [f"{k}: {v}" for k, v in data.items() if isinstance(v, str)]
            if len(lines) != len(data):
                return None
            return _read_lines(lines, wanted)
    return _read_lines(reply.splitlines(), wanted)


def _read_lines(lines: Sequence[str], wanted: set[str]) -> dict[str, str] | None:
    found: dict[str, str] = {}
    for line in lines:
        match = _LINE.match(line.strip())
        if not match:
            continue
        item, said = match.group(1).upper(), match.group(2).upper()
        if item not in wanted or found.get(item, said) != said:
            return None
        found[item] = said
    return found if set(found) == wanted else None


def combine(panel: Sequence[dict[str, str]]) -> dict[str, str]:
    """Per item, the majority verdict of the panel's parsed calls (ties, possible only with an
    even panel, go to NO: a fact not clearly stated is not credited, a value not clearly asserted
    is not held against the answer)."""
    out = {}
    for item in sorted(panel[0]):
        yes = sum(1 for verdicts in panel if verdicts.get(item) == YES)
        out[item] = YES if yes * 2 > len(panel) else NO
    return out


def judged_case(
    case: OpenCase, judgement: CaseJudgement | None, answered: bool, panel: int
) -> OpenVerdict:
    """One open case as graded from its judgement: each of the ``panel`` calls must have a reply
    that parses (retries are further calls of the same ``panel_call``), else ``judge_error``."""
    if not answered:
        return OpenVerdict(case.id, case.open_kind, "no_answer", 0.0)
    if judgement is None:
        return OpenVerdict(case.id, case.open_kind, "not_judged")
    parsed: dict[int, dict[str, str]] = {}
    for call in judgement.calls:
        if call.outcome == "ok" and call.panel_call not in parsed:
            verdicts = parse_reply(call.reply, case)
            if verdicts is not None:
                parsed[call.panel_call] = verdicts
    calls = len(judgement.calls)
    if sorted(parsed) != list(range(panel)):
        return OpenVerdict(case.id, case.open_kind, "judge_error", calls=calls)
    verdicts = combine([parsed[k] for k in range(panel)])
    score = rubric_score(case, {item: v == YES for item, v in verdicts.items()})
    return OpenVerdict(case.id, case.open_kind, "judged", score, verdicts, calls)


def official_mark(
    locked: JudgeProtocol | None, protocol_sha256: str, models: set[str], judge_errors: int
) -> bool:
    """Whether a judging is the official one: the bench version's locked protocol, every reply
    naming its model (the endpoint's word: a server can be told to answer under any name), and
    every answered open case judged (a judge error, which an answer can provoke, leaves the
    score incomplete)."""
    return (
        locked is not None
        and protocol_sha256 == locked.sha256
        and models <= {locked.model}
        and judge_errors == 0
    )


def nuance_score(
    cases: Sequence[OpenCase],
    answers: Mapping[str, str],
    record: JudgeRecord | None,
    official_protocol: JudgeProtocol | None,
) -> NuanceScore:
    """The nuance score of a run's open cases. ``answers``: per case, the text the judge was to
    read ("" when the harness gave none); ``record``: the transcript's judging, if any;
    ``official_protocol``: the bench version's own judge (None: no judge is official for it).

    Never raises on a judge record that does not hold together: a case whose judgement is
    doubled, missing while the case was answered, or has a call whose recorded verdicts are not
    what its reply says or whose request is not the one its answer makes, is a judge error."""
    by_case: dict[str, CaseJudgement] = {}
    doubled: set[str] = set()
    for judgement in record.judgements if record else ():
        if judgement.case_id in by_case:
            doubled.add(judgement.case_id)
        by_case.setdefault(judgement.case_id, judgement)
    known = {c.id for c in cases}
    stray = bool(set(by_case) - known)
    panel = record.protocol.panel if record else 0
    verdicts = []
    for case in cases:
        answer = answers.get(case.id, "")
        found = by_case.get(case.id)
        sound = (
            record is not None
            and case.id not in doubled
            and found is not None
            and _holds(record.protocol, case, answer, found)
        )
        if record is not None and answer and not sound:
            verdicts.append(OpenVerdict(case.id, case.open_kind, "judge_error"))
        else:
            verdicts.append(judged_case(case, found, bool(answer), panel))
    scores = [v.score for v in verdicts if v.score is not None]
    judged = [v for v in verdicts if v.status == "judged"]
    errors = sum(1 for v in verdicts if v.status == "judge_error")
    models = {call.model for j in by_case.values() for call in j.calls if call.outcome == "ok"}
    protocol_sha = record.protocol.sha256 if record else ""
    official = not stray and official_mark(official_protocol, protocol_sha, models, errors)
    return NuanceScore(
        score=round(mean(scores), 6) if judged else None,
        stderr=round(std_err(scores), 6) if judged else 0.0,
        scored=len(scores) if judged else 0,
        judge_errors=errors,
        total=len(cases),
        official=official,
        judge_id=record.protocol.id if record else "",
        judge_model=record.protocol.model if record else "",
        protocol_sha256=protocol_sha,
        per_case=tuple(verdicts),
    )


def _holds(protocol: JudgeProtocol, case: OpenCase, answer: str, judgement: CaseJudgement) -> bool:
    """Every call of ``judgement`` is what it says: its verdicts are what its reply says, and its
    request hash is that of the request ``answer`` makes under ``protocol`` (when the protocol's
    prompt is one this build has; another prompt cannot be official anyway)."""
    if protocol.panel < 1:
        return False
    try:
        expected = {
            k: request_sha256(judge_request(protocol, case, answer, k))
            for k in range(protocol.panel)
        }
    except JudgeConfigError:
        expected = {}
    for call in judgement.calls:
        read = parse_reply(call.reply, case) if call.outcome == "ok" else None
        if (call.outcome == "ok" and read is None) or (read or {}) != (call.verdicts or {}):
            return False
        if expected and expected.get(call.panel_call) != call.request_sha256:
            return False
    return True
