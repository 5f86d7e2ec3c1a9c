"""The text-memory shape: a server whose tools store and search plain texts (found by
``find_text_tools``). Turns are stored as ``Turn.text()`` and read back into prompt, reply and
timestamp; when the tools take no user, each stored text starts with a ``user_id: "..."`` line
and recall keeps only the user's texts."""

from __future__ import annotations

import json
from collections.abc import Sequence

from dittobench_adapters.contract import AdapterError, Memory, Turn
from dittobench_adapters.systems.mcp.mapping import TextTool, TextTools
from dittobench_adapters.systems.mcp.replies import (
    ReplyShapeError,
    memories,
    payload,
    reply_done,
    reply_id,
    text_memory,
)
from dittobench_adapters.systems.mcp.session import McpSession

_TAG = "user_id: "


class TextShape:
    """The contract's operations on a server of the text-memory shape; ``tagged`` when each
    stored text carries its user's line."""

    def __init__(self, session: McpSession, tools: TextTools, tagged: bool) -> None:
        self.session = session
        self.tools = tools
        self.tagged = tagged

    def tool(self, role: str) -> TextTool:
        tool: TextTool | None = getattr(self.tools, role)
        if tool is None:
            raise AdapterError(f"mcp: the server has no {role} tool")
        return tool

    def tag(self, user: str, text: str) -> str:
        return f"{_TAG}{json.dumps(user)}\n{text}" if self.tagged else text

    def untag(self, user: str, memory: Memory) -> Memory | None:
        """``memory`` without the user line when it is ``user``'s, else None."""
        head = f"{_TAG}{json.dumps(user)}\n"
        if not memory.text.startswith(head):
            return None
        rest = text_memory(memory.text[len(head) :], memory.id, memory.timestamp, memory.score)
        return Memory(rest.text, rest.id, rest.timestamp, rest.reply or memory.reply, rest.score)

    async def ingest(self, turns: Sequence[Turn]) -> None:
        tool = self.tool("ingest")
        for turn in turns:
            text = self.tag(turn.user, turn.text())
            await self.session.call(tool.name, tool.arguments(text=text, user=turn.user))

    async def recall(self, user: str, query: str, k: int) -> list[Memory]:
        tool = self.tool("recall")
        limit = k * 5 if self.tagged else k
        data = await self.session.data(
            tool.name, tool.arguments(text=query, user=user, limit=limit)
        )
        found = memories(tool.name, data)
        if self.tagged:
            found = [kept for kept in (self.untag(user, m) for m in found) if kept]
        return found[:k]

    async def save(self, user: str, text: str, timestamp: str) -> str:
        tool = self.tool("ingest")
        stored = self.tag(user, f"[{timestamp}] note: {text}")
        result = await self.session.call(tool.name, tool.arguments(text=stored, user=user))
        try:
            return reply_id(payload(result, tool.name))
        except ReplyShapeError:
            return ""

    async def update(self, user: str, memory_id: str, text: str) -> bool:
        tool = self.tool("update")
        stored = self.tag(user, text)
        data = await self.session.call(
            tool.name, tool.arguments(text=stored, user=user, memory_id=memory_id)
        )
        try:
            return reply_done(payload(data, tool.name))
        except ReplyShapeError:
            return True

    async def delete(self, user: str, memory_id: str) -> bool:
        tool = self.tool("delete")
        result = await self.session.call(tool.name, tool.arguments(user=user, memory_id=memory_id))
        try:
            return reply_done(payload(result, tool.name))
        except ReplyShapeError:
            return True

    async def reset(self, user: str) -> None:
        if self.tools.reset is not None:
            await self.session.call(self.tools.reset.name, self.tools.reset.arguments(user=user))
        elif self.tools.delete is not None and self.tools.recall is not None:
            await self._reset_by_search(user)

    async def _reset_by_search(self, user: str) -> None:
        """Deletes what a search for the user finds, round after round, while it finds any."""
        search, delete = self.tool("recall"), self.tool("delete")
        query = f"{_TAG}{json.dumps(user)}" if self.tagged else user
        for _ in range(20):
            data = await self.session.data(
                search.name, search.arguments(text=query, user=user, limit=100)
            )
            found = memories(search.name, data)
            if self.tagged:
                found = [kept for kept in (self.untag(user, m) for m in found) if kept]
            ids = [memory.id for memory in found if memory.id]
            if not ids:
                return
            for memory_id in ids:
                await self.session.call(
                    delete.name, delete.arguments(user=user, memory_id=memory_id)
                )
