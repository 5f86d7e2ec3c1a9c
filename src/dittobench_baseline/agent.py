"""The offline agent: answers one ``RunRequest`` with no language model.

It decides between four things, in this order (``intent.decide``):

1. **Writing memory.** An instruction to remember, change or forget something (recognised by
   plain English cues, unless a non-memory tool fits the request clearly better) is carried out on
   the store and acknowledged (``writing``).
2. **Answering from memory.** A question about the user's own life or past, or a request whose best
   tool is a memory-reading one, is answered from the store: BM25 retrieval, then the sentence that
   best covers the question's content words, preferring the most recent one when several fit,
   honouring a date the question names, and declining when the evidence is weak (``recall``,
   ``evidence``).
3. **Calling a tool.** Otherwise the request is routed over its own catalog (``router``). The
   chosen tool's arguments are filled from the request; when a precise argument is missing the
   agent asks for it instead of guessing. Calls go to ``tool_endpoint``; a second tool follows when
   the request asks for more than the first explains (its missing link or id taken from the first
   result). A figure the final result states about the request's subject is quoted back
   (``tool_use``).
4. **Small talk** or an ask no tool can serve gets a short reply and no call.

Memory tools are never sent to the endpoint: they run here, on the store, and are reported in
``tool_calls`` (``tools``).
"""

from __future__ import annotations

from typing import Protocol

from dittobench.spec.wire import MEMORY_TOOLS, RunRequest, RunResponse
from dittobench_baseline.intent import Action, WriteIntent, decide
from dittobench_baseline.recall import recall
from dittobench_baseline.router import Router
from dittobench_baseline.store import MemoryStore, user_key
from dittobench_baseline.textutil import normalize_quotes
from dittobench_baseline.tool_use import use_tools
from dittobench_baseline.tools import CallTrace, HttpToolCaller, MemoryTools, ToolCaller
from dittobench_baseline.writing import write_memory


class Agent(Protocol):
    """What the server drives: answers one ``RunRequest``, calling non-memory tools through
    ``call_tool``. Implementations must be safe to call from several threads at once."""

    def answer(self, request: RunRequest, call_tool: ToolCaller) -> RunResponse: ...


class UpstreamError(Exception):
    """A service the agent depends on (not the tool endpoint) failed, so the case cannot be
    answered. The message is one line, safe to show the client; the server replies 502 with it."""


MAX_INPUT_CHARS = 4000
"""Requests are read up to this length; patterns never run over unbounded text."""


class OfflineAgent:
    """A deterministic, model-free floor. Stateless apart from the store, so it is safe to call
    from many threads at once."""

    def __init__(self, store: MemoryStore) -> None:
        self.store = store

    def answer(self, request: RunRequest, call_tool: ToolCaller) -> RunResponse:
        user = user_key(request.user_id)
        text = normalize_quotes(request.user_input).strip()[:MAX_INPUT_CHARS]
        trace = CallTrace()
        if not text:
            return RunResponse(final_text="What can I help you with?")
        router = Router(request.tools)
        decision = decide(text, router)
        if decision.action is Action.WRITE and decision.write is not None:
            return self.write(user, decision.write, trace)
        if decision.action is Action.SMALL_TALK:
            return _small_talk()
        if decision.action is Action.RECALL:
            return self.recall(user, text, trace)
        if decision.action is Action.TOOLS and decision.tool is not None:
            return use_tools(
                request, text, router, decision.ranked, decision.tool, trace, call_tool
            )
        return RunResponse(
            final_text="I don't have a tool that fits this, so I'll leave it there. "
            "Tell me if there's something specific you'd like me to do."
        )

    def recall(self, user: str, question: str, trace: CallTrace) -> RunResponse:
        """Answer a memory question (an adapter harness answers from what its system recalls)."""
        return recall(self.store, user, question, trace)

    def write(self, user: str, intent: WriteIntent, trace: CallTrace) -> RunResponse:
        """Carry out a request to remember, change or forget something."""
        return write_memory(self.store, user, intent, trace)


def _small_talk() -> RunResponse:
    return RunResponse(
        final_text="Happy to chat! Let me know if there's anything I can do for you."
    )


__all__ = [
    "MEMORY_TOOLS",
    "Agent",
    "HttpToolCaller",
    "MemoryTools",
    "OfflineAgent",
    "ToolCaller",
    "UpstreamError",
]
