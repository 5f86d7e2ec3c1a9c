"""Running tool calls and recording them.

Non-memory tools go to the request's ``tool_endpoint`` through a ``ToolCaller`` (``HttpToolCaller``
over HTTP); memory tools never leave the harness and run on the store (``MemoryTools``). Every call
the agent makes, local or remote, is recorded in a ``CallTrace`` in the order made, with its hop.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.wire import (
    RunRequest,
    ToolCall,
    ToolExecRequest,
    ToolExecResponse,
    to_wire,
)
from dittobench_baseline.store import Hit, MemoryStore, user_key

log = logging.getLogger("dittobench_baseline.agent")
"""Failed calls are logged under the agent's name, as every offline-agent warning is."""

ToolCaller = Callable[[str, ToolExecRequest], ToolExecResponse]
"""Executes one tool call: ``(tool_endpoint, request) -> response``."""

TOOL_TIMEOUT_S = 15.0


class HttpToolCaller:
    """POSTs ``ToolExecRequest`` JSON to the tool endpoint with httpx (15 s timeout). Transport
    failures, non-2xx replies and unreadable bodies come back as a response with ``error``."""

    def __init__(self, timeout: float = TOOL_TIMEOUT_S) -> None:
        self._client = httpx.Client(timeout=timeout, trust_env=False)

    def close(self) -> None:
        self._client.close()

    def __call__(self, endpoint: str, request: ToolExecRequest) -> ToolExecResponse:
        try:
            reply = self._client.post(endpoint, json=to_wire(request))
        except httpx.HTTPError as exc:
            return ToolExecResponse(error=f"tool endpoint unreachable: {type(exc).__name__}")
        try:
            body = reply.json()
        except ValueError:
            body = None
        if isinstance(body, dict):
            try:
                parsed = decode(ToolExecResponse, body)
            except DecodeError as exc:
                return ToolExecResponse(error=f"tool endpoint sent a malformed reply: {exc}")
            if reply.is_success or parsed.error:
                return parsed
        return ToolExecResponse(error=f"tool endpoint replied HTTP {reply.status_code}")


class MemoryTools:
    """The seven memory tools, executed against the store for one user. ``found`` keeps the
    pair ids the reading tools returned, each once, in the order first returned (what the
    answer's ``retrieved`` lists)."""

    def __init__(self, store: MemoryStore, user_id: str) -> None:
        self.store = store
        self.user = user_key(user_id)
        self.found: dict[str, None] = {}

    def execute(self, name: str, args: Any) -> ToolExecResponse:
        if not isinstance(args, dict):
            return ToolExecResponse(error="arguments must be a JSON object")
        try:
            return ToolExecResponse(result=self._run(name, args))
        except (KeyError, TypeError, ValueError) as exc:
            return ToolExecResponse(error=f"{name}: bad arguments ({exc})")

    def _run(self, name: str, args: dict[str, Any]) -> str:
        if name == "search_memories":
            return self._hits(self.store.search(self.user, _joined(args["queries"]), 10))
        if name == "fetch_memories":
            return self._hits(self.store.fetch(self.user, [str(p) for p in args["pairIds"]]))
        if name == "search_subjects":
            found = self.store.search_subjects(self.user, _joined(args["queries"]))
            return "\n".join(f"[{s.id}] {s.subject_text}: {s.description_text}" for s in found)
        if name == "search_memories_in_subjects":
            hits = self.store.search_in_subject(
                self.user, str(args["subject_id"]), _joined(args["queries"])
            )
            return self._hits(hits)
        if name == "save_memory":
            return f"saved as {self.store.save(self.user, str(args['content']))}"
        if name == "update_memory":
            ok = self.store.update(self.user, str(args["pair_id"]), str(args["content"]))
            return "updated" if ok else "no such memory"
        if name == "delete_memory":
            return (
                "deleted"
                if self.store.delete(self.user, str(args["pair_id"]))
                else "no such memory"
            )
        raise ValueError(f"{name} is not a memory tool")

    def _hits(self, hits: Sequence[Hit]) -> str:
        for hit in hits:
            self.found.setdefault(hit.pair_id, None)
        return _format_hits(hits)


def _joined(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def _format_hits(hits: Sequence[Hit]) -> str:
    return "\n".join(
        f"[{h.pair_id}] {h.timestamp} user: {h.prompt} | assistant: {h.response}" for h in hits
    )


@dataclass
class CallTrace:
    """The tool calls made for one request, in order; a call's hop is its position."""

    calls: list[ToolCall] = field(default_factory=list)

    def add(self, name: str, args: Any) -> int:
        hop = len(self.calls)
        self.calls.append(ToolCall(name=name, args=args, hop=hop))
        return hop


def call_endpoint(
    request: RunRequest,
    name: str,
    args: dict[str, Any],
    trace: CallTrace,
    call_tool: ToolCaller,
) -> ToolExecResponse:
    """Call one non-memory tool at the request's endpoint, once more when the reply asks for a
    retry. Each attempt is recorded with its own hop; a caller that raises becomes an error
    response, never an exception."""
    response = ToolExecResponse(error="not called")
    for _attempt in range(2):
        hop = trace.add(name, args)
        try:
            response = call_tool(
                request.tool_endpoint,
                ToolExecRequest(
                    case_id=request.case_id,
                    name=name,
                    args=args,
                    hop=hop,
                    user_id=request.user_id,
                ),
            )
        except Exception as exc:
            log.warning("tool call %s failed: %s", name, exc)
            response = ToolExecResponse(error=f"tool call failed: {type(exc).__name__}")
        if not (response.error and "retry" in response.error.lower()):
            break
    return response


__all__ = [
    "TOOL_TIMEOUT_S",
    "CallTrace",
    "HttpToolCaller",
    "MemoryTools",
    "ToolCaller",
    "call_endpoint",
]
