"""The model-backed agent: answers one ``RunRequest`` with any OpenAI-compatible chat model.

Model mode
==========

``ModelAgent`` drives ``POST {base_url}/chat/completions`` (the OpenAI Chat Completions shape,
which llama.cpp's ``llama-server``, Ollama, vLLM and hosted services all speak) in a bounded
tool-calling loop:

1. **Prompt.** The system message is the request's ``system_prompt`` followed by two lines of
   ours: the run's reference date (the latest timestamp among this user's stored pairs, to be
   treated as today; or a plain statement that it is unknown when nothing is stored) and a note
   that the memory tools search the user's stored conversations. The user message is
   ``user_input``. The request's own catalog is offered as OpenAI function tools with
   ``tool_choice: "auto"``.
2. **Loop.** At most ``max_steps`` completions. While the model asks for tools, each call is run
   and its result (or ``error: ...``) goes back as a ``tool`` message. The seven memory tools run
   here, on the store, for the request's user (``MemoryTools``, the same code the offline agent
   uses); every other tool is POSTed to the run's ``tool_endpoint`` as a ``ToolExecRequest``
   carrying the call's ``hop``. Arguments that are not valid JSON are not executed: the model is
   told so and may try again.
3. **Reply.** ``final_text`` is the model's last non-empty text (when the step budget runs out,
   whatever it last said). ``tool_calls`` lists every call in order with its hop;
   ``prompt_tokens`` and ``output_tokens`` sum the endpoint's ``usage``; ``abstain`` is set only
   when the whole reply is a plain decline ("I don't have a record of that."), never for a hedged
   answer.

A failing model endpoint (unreachable, a timeout, a non-2xx status, a body that is not a chat
completion) raises ``ModelEndpointError``; the server turns it into a 502 with
``{"error": "model endpoint: ..."}``, so the engine records a failed delivery, not a wrong answer.
Tool endpoint failures are not fatal: the model sees the error and carries on.

The API key is an argument (sent as ``Authorization: Bearer ...`` when given); only the command
line reads it from the environment (``api_key_from``). Proxy variables are ignored, as for the
tool endpoint. ``temperature`` defaults to 0 for repeatable runs; ``None`` leaves it to the server.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Protocol

import httpx

from dittobench.core.dates import spoken_date
from dittobench.spec.wire import (
    MEMORY_TOOLS,
    RunRequest,
    RunResponse,
    ToolCall,
    ToolDefinition,
    ToolExecRequest,
    ToolExecResponse,
)
from dittobench_baseline.agent import UpstreamError
from dittobench_baseline.store import MemoryStore
from dittobench_baseline.textutil import format_timestamp, normalize_quotes, sentences
from dittobench_baseline.tools import MemoryTools, ToolCaller

log = logging.getLogger(__name__)

DEFAULT_MAX_STEPS = 6
DEFAULT_TIMEOUT_S = 60.0

API_KEY_VARIABLES = ("DITTOBENCH_MODEL_API_KEY", "OPENAI_API_KEY")
"""Where the command line looks for the model's API key, first match wins."""

MAX_TOOL_RESULT_CHARS = 8000
"""A tool result is cut to this length before it goes back to the model."""

MAX_ERROR_DETAIL_CHARS = 200

_THINK = re.compile(r"<think>.*?</think>\s*", re.DOTALL | re.IGNORECASE)
_DECLINE = re.compile(
    r"^(?:(?:sorry|unfortunately|hmm)[,.!]?\s+)?(?:i'm sorry,?\s+(?:but\s+)?)?"
    r"(?:i (?:do not|don't|can't|cannot|could not|couldn't) (?:have|find|see|recall|remember"
    r"|know)\b|i have no (?:record|memory|information|note)s?\b|there (?:is|are|'s) no (?:record"
    r"|mention|memory|information|note)s?\b|nothing (?:in|from) (?:our|your|my) |you (?:have not"
    r"|haven't|never) (?:told|mentioned|said|shared)\b|i (?:do not|don't) (?:seem to )?have any\b)",
    re.IGNORECASE,
)
_HEDGE = re.compile(r"\b(?:but|however|although|though|except)\b", re.IGNORECASE)


class ModelEndpointError(UpstreamError):
    """The chat endpoint failed: unreachable, timed out, a non-2xx status or a malformed reply.
    The message starts with ``model endpoint:``."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"model endpoint: {detail}")


@dataclass(frozen=True, slots=True)
class _Request:
    """One tool call the model asked for."""

    id: str
    name: str
    args: Any
    raw_arguments: str
    bad_arguments: bool


@dataclass(frozen=True, slots=True)
class _Completion:
    content: str
    calls: tuple[_Request, ...]
    prompt_tokens: int
    output_tokens: int


class MemoryRunner(Protocol):
    """Runs the memory tools for one user (``MemoryTools`` over the store, or an adapter's)."""

    def execute(self, name: str, args: Any) -> ToolExecResponse: ...


class ChatLoop:
    """The bounded tool-calling loop with an OpenAI-compatible chat model (module docstring),
    the memory tools run by a ``MemoryRunner`` the caller gives. ``seed`` and ``max_tokens`` are
    sent when set.

    Thread-safe: each ``converse`` keeps its conversation to itself and the httpx client is
    shared. Call ``close()`` when done (the server does)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        *,
        temperature: float | None = 0.0,
        seed: int | None = None,
        max_tokens: int | None = None,
    ) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        if not base_url.strip():
            raise ValueError("base_url is empty")
        if not model.strip():
            raise ValueError("model is empty")
        self.url = base_url.strip().rstrip("/") + "/chat/completions"
        self.model = model
        self.max_steps = max_steps
        self.temperature = temperature
        self.seed = seed
        self.max_tokens = max_tokens
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout_s, trust_env=False, headers=headers)
        self._timeout_s = timeout_s

    def close(self) -> None:
        self._client.close()

    def converse(
        self, request: RunRequest, call_tool: ToolCaller, system: str, memory: MemoryRunner
    ) -> RunResponse:
        """Answer ``request`` with ``system`` as the system message."""
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": system},
            {"role": "user", "content": request.user_input},
        ]
        tools = openai_tools(request.tools)
        calls: list[ToolCall] = []
        text = ""
        prompt_tokens = output_tokens = 0
        for _step in range(self.max_steps):
            completion = self._complete(messages, tools)
            prompt_tokens += completion.prompt_tokens
            output_tokens += completion.output_tokens
            if completion.content:
                text = completion.content
            if not completion.calls:
                break
            messages.append(_assistant_message(completion))
            for wanted in completion.calls:
                hop = len(calls)
                calls.append(ToolCall(name=wanted.name, args=wanted.args, hop=hop))
                outcome = self._execute(request, memory, wanted, hop, call_tool)
                messages.append(
                    {"role": "tool", "tool_call_id": wanted.id, "content": _tool_content(outcome)}
                )
        return RunResponse(
            final_text=text,
            tool_calls=tuple(calls),
            prompt_tokens=prompt_tokens,
            output_tokens=output_tokens,
            abstain=True if is_decline(text) else None,
        )

    # One completion ---------------------------------------------------------------------------

    def _complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> _Completion:
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        if tools:
            body["tools"] = tools
            body["tool_choice"] = "auto"
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.seed is not None:
            body["seed"] = self.seed
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        try:
            reply = self._client.post(self.url, json=body)
        except httpx.TimeoutException:
            raise ModelEndpointError(f"no reply within {self._timeout_s:g} s") from None
        except httpx.HTTPError as exc:
            raise ModelEndpointError(f"unreachable ({type(exc).__name__})") from None
        if not reply.is_success:
            raise ModelEndpointError(f"HTTP {reply.status_code}{_error_detail(reply)}")
        try:
            payload = reply.json()
        except ValueError:
            raise ModelEndpointError("malformed reply: the body is not JSON") from None
        return _parse_completion(payload)

    # Tools ------------------------------------------------------------------------------------

    def _execute(
        self,
        request: RunRequest,
        memory: MemoryRunner,
        wanted: _Request,
        hop: int,
        call_tool: ToolCaller,
    ) -> ToolExecResponse:
        if wanted.bad_arguments:
            return ToolExecResponse(
                error=f"the arguments for {wanted.name} are not a valid JSON object; "
                "call it again with valid JSON"
            )
        if wanted.name in MEMORY_TOOLS:
            return memory.execute(wanted.name, wanted.args)
        if not request.tool_endpoint:
            return ToolExecResponse(error="no tool service is set up for this run")
        try:
            return call_tool(
                request.tool_endpoint,
                ToolExecRequest(
                    case_id=request.case_id,
                    name=wanted.name,
                    args=wanted.args,
                    hop=hop,
                    user_id=request.user_id,
                ),
            )
        except Exception as exc:
            log.warning("tool call %s failed: %s", wanted.name, exc)
            return ToolExecResponse(error=f"tool call failed: {type(exc).__name__}")


class ModelAgent(ChatLoop):
    """Answers with an OpenAI-compatible chat model, memory tools served from ``store``."""

    def __init__(
        self,
        store: MemoryStore,
        base_url: str,
        model: str,
        api_key: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        *,
        temperature: float | None = 0.0,
    ) -> None:
        super().__init__(base_url, model, api_key, max_steps, timeout_s, temperature=temperature)
        self.store = store

    def answer(self, request: RunRequest, call_tool: ToolCaller) -> RunResponse:
        memory = MemoryTools(self.store, request.user_id)
        response = self.converse(request, call_tool, self.system_prompt(request), memory)
        return replace(response, retrieved=tuple(memory.found))  # what its searches returned

    def system_prompt(self, request: RunRequest) -> str:
        """The request's system prompt plus the reference-date and memory-tool lines."""
        lines = [request.system_prompt.strip()] if request.system_prompt.strip() else []
        lines.append(reference_date_line(self.store.newest_moment(request.user_id)))
        lines.append(
            "The memory tools (search_memories, fetch_memories, search_subjects, "
            "search_memories_in_subjects, save_memory, update_memory, delete_memory) search and "
            "change this user's stored past conversations with you: use them for anything the "
            "user may have told you before, and answer from what they return."
        )
        return "\n\n".join(lines)


# Helpers --------------------------------------------------------------------------------------


def openai_tools(tools: Sequence[ToolDefinition]) -> list[dict[str, Any]]:
    """The catalog as OpenAI function tools."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.parameters or {"type": "object", "properties": {}},
            },
        }
        for tool in tools
    ]


def reference_date_line(newest: datetime | None) -> str:
    """The prompt line that states the run's reference date (or that it is unknown)."""
    if newest is None:
        return (
            "Reference date: unknown. This user has no stored conversations yet, so there is no "
            "date to count relative times from."
        )
    return (
        f"Reference date: {spoken_date(newest.date())} ({format_timestamp(newest)}), the time of "
        "this user's most recent stored conversation. Treat it as today when a question says "
        '"now", "recently", "last week" and the like.'
    )


def is_decline(text: str) -> bool:
    """True when ``text`` is a plain decline: its first sentence says there is nothing on
    record, it has at most two sentences and it hedges nowhere ("but", "however")."""
    plain = normalize_quotes(text).strip()
    if not plain or _HEDGE.search(plain):
        return False
    said = sentences(plain)
    return len(said) <= 2 and bool(_DECLINE.match(said[0]))


def api_key_from(environ: Mapping[str, str]) -> str | None:
    """The API key from ``$DITTOBENCH_MODEL_API_KEY``, else ``$OPENAI_API_KEY``; None when
    neither is set. For the command line only: library code takes the key as an argument."""
    for name in API_KEY_VARIABLES:
        value = environ.get(name, "").strip()
        if value:
            return value
    return None


def _error_detail(reply: httpx.Response) -> str:
    try:
        body = reply.json()
    except ValueError:
        body = None
    detail: Any = None
    if isinstance(body, dict):
        error = body.get("error")
        detail = error.get("message") if isinstance(error, dict) else error
    if not isinstance(detail, str):
        detail = reply.text
    detail = " ".join(detail.split())[:MAX_ERROR_DETAIL_CHARS]
    return f": {detail}" if detail else ""


def _parse_completion(payload: Any) -> _Completion:
    if not isinstance(payload, dict):
        raise ModelEndpointError("malformed reply: not a JSON object")
    choices = payload.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ModelEndpointError("malformed reply: no choices")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise ModelEndpointError("malformed reply: the first choice has no message")
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise ModelEndpointError("malformed reply: message content is not text")
    raw_calls = message.get("tool_calls") or []
    if not isinstance(raw_calls, list):
        raise ModelEndpointError("malformed reply: tool_calls is not a list")
    calls = tuple(_parse_call(raw, index) for index, raw in enumerate(raw_calls))
    usage = payload.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    return _Completion(
        content=_THINK.sub("", content or "").strip(),
        calls=calls,
        prompt_tokens=_count(usage.get("prompt_tokens")),
        output_tokens=_count(usage.get("completion_tokens")),
    )


def _parse_call(raw: Any, index: int) -> _Request:
    if not isinstance(raw, dict) or not isinstance(raw.get("function"), dict):
        raise ModelEndpointError("malformed reply: a tool call has no function")
    function: dict[str, Any] = raw["function"]
    name = function.get("name")
    if not isinstance(name, str) or not name:
        raise ModelEndpointError("malformed reply: a tool call has no function name")
    call_id = raw.get("id")
    if not isinstance(call_id, str) or not call_id:
        call_id = f"call_{index}"
    arguments = function.get("arguments")
    if isinstance(arguments, dict):  # some servers send an object rather than JSON text
        return _Request(call_id, name, arguments, json.dumps(arguments), bad_arguments=False)
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        return _Request(call_id, name, {}, "{}", bad_arguments=False)
    if not isinstance(arguments, str):
        return _Request(call_id, name, arguments, json.dumps(arguments), bad_arguments=True)
    try:
        args = json.loads(arguments)
    except ValueError:
        return _Request(call_id, name, arguments, arguments, bad_arguments=True)
    return _Request(call_id, name, args, arguments, bad_arguments=not isinstance(args, dict))


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _assistant_message(completion: _Completion) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": completion.content or None,
        "tool_calls": [
            {
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.raw_arguments},
            }
            for call in completion.calls
        ],
    }


def _tool_content(outcome: ToolExecResponse) -> str:
    text = f"error: {outcome.error}" if outcome.error else (outcome.result or "(empty result)")
    if len(text) > MAX_TOOL_RESULT_CHARS:
        text = text[: MAX_TOOL_RESULT_CHARS - 3] + "..."
    return text


__all__ = [
    "API_KEY_VARIABLES",
    "DEFAULT_MAX_STEPS",
    "DEFAULT_TIMEOUT_S",
    "ModelAgent",
    "ModelEndpointError",
    "api_key_from",
    "is_decline",
    "openai_tools",
    "reference_date_line",
]
