"""The model reader (``READER_1``): a chat model answers from what the adapter recalls.

Each message is answered in two steps. First the adapter recalls the ``top_k`` memories for the
user's message; they go into the system message under the locked reader prompt
(``spec/reader_prompts``), each with its day, with the run's system prompt before it and "today"
(the newest day stored for the user) after it. Then the baseline's tool-calling loop runs
(``dittobench_baseline.model.ChatLoop``) with the run's tools: the memory tools act on the adapter
(``search_memories`` recalls again with the model's own words, ``save_memory`` / ``update_memory``
/ ``delete_memory`` change the system when it can), every other tool goes to the run's tool
endpoint. Temperature, seed, token budget and step budget are the reader protocol's.
"""

from __future__ import annotations

from typing import Any

from dittobench.spec.reading import READER_1, ReaderPrompt, ReaderProtocol, reader_prompt
from dittobench.spec.wire import RunRequest, RunResponse, ToolExecResponse
from dittobench_adapters.contract import AdapterError, Capability, Memory, MemoryAdapter
from dittobench_adapters.ledger import Ledger
from dittobench_baseline.model import DEFAULT_TIMEOUT_S, ChatLoop
from dittobench_baseline.store import user_key
from dittobench_baseline.textutil import spoken
from dittobench_baseline.tools import ToolCaller


class ModelReader(ChatLoop):
    """Answers with an OpenAI-compatible chat model over an adapter's memories."""

    def __init__(
        self,
        adapter: MemoryAdapter,
        ledger: Ledger,
        base_url: str,
        api_key: str | None = None,
        *,
        protocol: ReaderProtocol = READER_1,
        model: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        super().__init__(
            base_url,
            model or protocol.model,
            api_key,
            protocol.max_steps,
            timeout_s,
            temperature=protocol.temperature_permille / 1000,
            seed=protocol.seed,
            max_tokens=protocol.max_tokens,
        )
        self.adapter = adapter
        self.ledger = ledger
        self.protocol = protocol
        self.prompt: ReaderPrompt = reader_prompt(protocol)

    def answer(self, request: RunRequest, call_tool: ToolCaller) -> RunResponse:
        user = user_key(request.user_id)
        memories = self.adapter.recall(user, request.user_input, self.protocol.top_k)
        tools = AdapterMemoryTools(self.adapter, self.ledger, user, self.protocol)
        return self.converse(request, call_tool, self.system_message(request, memories), tools)

    def system_message(self, request: RunRequest, memories: list[Memory]) -> str:
        prompt = self.prompt
        parts = [request.system_prompt.strip()] if request.system_prompt.strip() else []
        parts.append(prompt.system)
        newest = self.ledger.newest(request.user_id)
        parts.append(
            prompt.reference_date.format(date=spoken(newest.date()))
            if newest
            else prompt.reference_unknown
        )
        lines = render_memories(memories, prompt, self.protocol)
        parts.append(prompt.memories.format(lines=lines) if lines else prompt.no_memories)
        return "\n\n".join(parts)


def render_memories(memories: list[Memory], prompt: ReaderPrompt, protocol: ReaderProtocol) -> str:
    cut = protocol.memory_chars
    lines = []
    for memory in memories[: protocol.top_k]:
        when = memory.timestamp[:10] or prompt.undated
        if memory.reply:
            line = prompt.memory_reply.format(
                when=when, text=memory.text[:cut], reply=memory.reply[:cut]
            )
        else:
            line = prompt.memory.format(when=when, text=memory.text[:cut])
        lines.append(line)
    return "\n".join(lines)


class AdapterMemoryTools:
    """The memory tools a model calls, run on the adapter for one user."""

    def __init__(
        self, adapter: MemoryAdapter, ledger: Ledger, user: str, protocol: ReaderProtocol
    ) -> None:
        self.adapter, self.ledger, self.user, self.protocol = adapter, ledger, user, protocol

    def execute(self, name: str, args: Any) -> ToolExecResponse:
        if not isinstance(args, dict):
            return ToolExecResponse(error="arguments must be a JSON object")
        try:
            return ToolExecResponse(result=self._run(name, args))
        except (KeyError, TypeError, ValueError) as exc:
            return ToolExecResponse(error=f"{name}: bad arguments ({exc})")
        except AdapterError as exc:
            return ToolExecResponse(error=str(exc))

    def _run(self, name: str, args: dict[str, Any]) -> str:
        caps = self.adapter.capabilities
        if name in ("search_memories", "search_memories_in_subjects", "search_subjects"):
            queries = args["queries"]
            query = " ".join(map(str, queries)) if isinstance(queries, list) else str(queries)
            found = self.adapter.recall(self.user, query, self.protocol.top_k)
            return (
                "\n".join(
                    f"[{m.id}] {m.timestamp} {m.text}"
                    + (f" | assistant: {m.reply}" if m.reply else "")
                    for m in found
                )
                or "nothing found"
            )
        if name == "fetch_memories":
            return "this memory system fetches by search only: use search_memories"
        if name == "save_memory":
            stamp = self.ledger.next_stamp(self.user)
            if Capability.SAVE not in caps:
                return "this memory system cannot save notes"
            return f"saved as {self.adapter.save(self.user, str(args['content']), stamp)}"
        if name == "update_memory":
            if Capability.UPDATE not in caps:
                return "this memory system cannot update a memory"
            done = self.adapter.update(self.user, str(args["pair_id"]), str(args["content"]))
            return "updated" if done else "no such memory"
        if name == "delete_memory":
            if Capability.DELETE not in caps:
                return "this memory system cannot delete a memory"
            return (
                "deleted"
                if self.adapter.delete(self.user, str(args["pair_id"]))
                else ("no such memory")
            )
        raise ValueError(f"{name} is not a memory tool")


__all__ = ["AdapterMemoryTools", "ModelReader", "render_memories"]
