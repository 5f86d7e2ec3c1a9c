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
from collections.abc import Sequence
from typing import Any

from dittobench.core.hashing import canonical_sha256
from dittobench.grade.stats import mean, std_err
from dittobench.spec.judging import (
    CaseJudgement,
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
        .replace("{answer}", _fenced(answer) or prompt.none)
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


def _fenced(answer: str) -> str:
    """The answer as the judge reads it, between the markers: any marker it writes itself is
    broken up, so an answer cannot close its own block and speak as the rubric."""
    return _MARKERS.sub(lambda m: m.group(0).replace("<", "‹").replace(">", "›"), answer.strip())


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
        except ValueError:
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


def nuance_score(
    cases: Sequence[OpenCase],
    answered: dict[str, bool],
    record: JudgeRecord | None,
    official_protocol: JudgeProtocol | None,
) -> NuanceScore:
    """The nuance score of a run's open cases. ``answered``: per case, whether the harness gave
    an answer; ``record``: the transcript's judging, if any; ``official_protocol``: the bench
    version's own judge (None: no judge is official for it)."""
    by_case = {j.case_id: j for j in record.judgements} if record else {}
    panel = record.protocol.panel if record else 0
    verdicts = tuple(
        judged_case(c, by_case.get(c.id), answered.get(c.id, False), panel) for c in cases
    )
    scores = [v.score for v in verdicts if v.score is not None]
    judged = [v for v in verdicts if v.status == "judged"]
    models = {call.model for j in by_case.values() for call in j.calls if call.outcome == "ok"}
    official = (
        record is not None
        and official_protocol is not None
        and record.protocol == official_protocol
        and models <= {official_protocol.model}
    )
    return NuanceScore(
        score=round(mean(scores), 6) if judged else None,
        stderr=round(std_err(scores), 6) if judged else 0.0,
        scored=len(scores) if judged else 0,
        judge_errors=sum(1 for v in verdicts if v.status == "judge_error"),
        total=len(cases),
        official=official,
        judge_id=record.protocol.id if record else "",
        judge_model=record.protocol.model if record else "",
        protocol_sha256=record.protocol.sha256 if record else "",
        per_case=verdicts,
    )
