"""Ask the locked judge about a run's open answers, over an OpenAI-compatible endpoint.

For each open case the harness answered, ``panel`` calls are made (call ``k`` with the protocol's
seed + k); a call whose reply does not parse (``grade.judging.parse_reply``), or fails in
transport, is sent again up to ``retries`` more times, then left as it is: the grader counts the
case as ``judge_error``, never as a pass or a fail. Every attempt is recorded (request hash, the
model the endpoint named, the raw reply), so the verdicts can be recomputed and checked later.
The key is passed in by the caller (the command line reads it from the environment).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from dittobench.core.canonical import canonical_bytes
from dittobench.core.errors import DittobenchError
from dittobench.engine.client import (
    IDENTITY,
    OVERALL_SLACK_S,
    BodyTooLarge,
    BodyUnreadable,
    read_body,
)
from dittobench.grade.judging import answer_text, judge_request, parse_reply, request_sha256
from dittobench.spec.dataset import Dataset
from dittobench.spec.judging import CaseJudgement, JudgeCall, JudgeProtocol, JudgeRecord
from dittobench.spec.open import OpenCase
from dittobench.spec.transcript import Transcript, safe_text
from dittobench.spec.vocab import JudgeOutcome

REPLY_BYTES = 256 * 1024
"""The most of a judge reply read."""
REPLY_KEPT = 8000
"""The most of a reply's text kept in the transcript (a judge asked for a few lines)."""


class JudgeError(DittobenchError, RuntimeError):
    """The judge endpoint cannot be used at all (bad URL, refused before any verdict)."""

    http_status = 502


@dataclass(frozen=True, slots=True)
class JudgeEndpoint:
    """Where the judge is: ``base_url`` ends before ``/chat/completions`` (e.g.
    ``http://127.0.0.1:8765/v1``); ``api_key`` is sent as a bearer token when given."""

    base_url: str
    api_key: str = ""
    timeout_s: float = 120.0
    concurrency: int = 1

    @property
    def url(self) -> str:
        return self.base_url.strip().rstrip("/") + "/chat/completions"


Progress = Callable[[int, int], None]


async def judge_cases(
    endpoint: JudgeEndpoint,
    protocol: JudgeProtocol,
    cases: Sequence[tuple[OpenCase, str]],
    progress: Progress | None = None,
    http: httpx.AsyncClient | None = None,
) -> JudgeRecord:
    """Judge each (open case, answer) pair; answers that are empty are not sent."""
    asked = [(case, answer) for case, answer in cases if answer.strip()]
    done = 0
    places = asyncio.Semaphore(max(1, endpoint.concurrency))

    async def one(client: httpx.AsyncClient, case: OpenCase, answer: str) -> CaseJudgement:
        nonlocal done
        async with places:
            calls: list[JudgeCall] = []
            for panel_call in range(protocol.panel):
                calls.extend(
                    await _panel_call(client, endpoint, protocol, case, answer, panel_call)
                )
        done += 1
        if progress:
            progress(done, len(asked))
        return CaseJudgement(case.id, tuple(calls))

    async with contextlib.AsyncExitStack() as stack:  # the caller's client, or a fresh one
        client = http
        if client is None:
            client = await stack.enter_async_context(httpx.AsyncClient(follow_redirects=False))
        judgements = await asyncio.gather(*(one(client, c, a) for c, a in asked))
    return JudgeRecord(protocol, tuple(sorted(judgements, key=lambda j: j.case_id)))


def judge_transcript(
    endpoint: JudgeEndpoint,
    protocol: JudgeProtocol,
    dataset: Dataset,
    transcript: Transcript,
    progress: Progress | None = None,
) -> JudgeRecord:
    """The judging of a transcript's open answers (blocking)."""
    records = {c.case_id: c for c in transcript.cases}
    pairs = [
        (case, answer_text(records[case.id].response if case.id in records else None))
        for case in dataset.open_cases
    ]
    return asyncio.run(judge_cases(endpoint, protocol, pairs, progress))


async def _panel_call(
    client: httpx.AsyncClient,
    endpoint: JudgeEndpoint,
    protocol: JudgeProtocol,
    case: OpenCase,
    answer: str,
    panel_call: int,
) -> list[JudgeCall]:
    body = judge_request(protocol, case, answer, panel_call)
    digest = request_sha256(body)
    calls = []
    for attempt in range(1, protocol.retries + 2):
        outcome, model, reply, detail = await _post(client, endpoint, body)
        verdicts = parse_reply(reply, case) if outcome == "ok" else None
        if outcome == "ok" and verdicts is None:
            outcome, detail = "unparsed", "no YES/NO line for every rubric item"
        calls.append(
            JudgeCall(panel_call, attempt, digest, outcome, model, reply, verdicts, detail)
        )
        if verdicts is not None:
            break
    return calls


async def _post(
    client: httpx.AsyncClient, endpoint: JudgeEndpoint, body: dict[str, Any]
) -> tuple[JudgeOutcome, str, str, str]:
    """(outcome, model named, reply text, detail) of one chat completion request, within the
    endpoint's timeout overall (a reply dripped a byte at a time resets every read timeout)."""
    try:
        async with asyncio.timeout(endpoint.timeout_s + OVERALL_SLACK_S):
            outcome, model, text, detail = await _send(client, endpoint, body)
    except TimeoutError:
        return "timeout", "", "", f"no reply within {endpoint.timeout_s:g} s"
    return outcome, safe_text(model), safe_text(text), detail


async def _send(
    client: httpx.AsyncClient, endpoint: JudgeEndpoint, body: dict[str, Any]
) -> tuple[JudgeOutcome, str, str, str]:
    headers = {**IDENTITY, "content-type": "application/json"}
    if endpoint.api_key:
        headers["authorization"] = f"Bearer {endpoint.api_key}"
    try:
        async with client.stream(
            "POST",
            endpoint.url,
            content=canonical_bytes(body),
            headers=headers,
            timeout=endpoint.timeout_s,
        ) as reply:
            raw = await read_body(reply, REPLY_BYTES)
            status = reply.status_code
    except httpx.TimeoutException:
        return "timeout", "", "", f"no reply within {endpoint.timeout_s:g} s"
    except httpx.HTTPError as exc:
        return "connection_error", "", "", type(exc).__name__
    except (BodyTooLarge, BodyUnreadable) as exc:
        return "bad_json", "", "", str(exc)[:200]
    if not 200 <= status < 300:
        return "http_error", "", raw.decode("utf-8", "replace")[:500], f"HTTP {status}"
    try:
        data = json.loads(raw)
        text = data["choices"][0]["message"]["content"]
        model = data.get("model", "")
    except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError):
        return "bad_json", "", raw.decode("utf-8", "replace")[:500], "not a chat completion"
    if not isinstance(text, str):
        return "bad_json", "", "", "the message content is not text"
    return "ok", model if isinstance(model, str) else "", text[:REPLY_KEPT], ""
