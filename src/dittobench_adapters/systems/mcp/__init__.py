"""``mcp``: any memory server that speaks the Model Context Protocol, with no code of its own.

The server is started over stdio (``{"command": ["npx", "-y", "PACKAGE"], "env": {...},
"cwd": DIR}``) or reached over streamable HTTP (``{"url": "http://...", "headers": {...}}``),
never both, through the official ``mcp`` SDK. The SDK is async and the adapter's methods are
called from several threads, so one event loop in a background thread owns the session and every
method submits a coroutine to it; each tool call is bounded by ``timeout_s`` (default 30), the
start by ``start_timeout_s`` (default 120, as ``npx`` may first download the server). Values in
``env`` and ``headers`` may name the adapter's own environment as ``${NAME}``, so a secret need
not be written in the config file.

The contract is mapped onto the server's tools as ``tools/list`` describes them:

- The knowledge-graph shape of ``@modelcontextprotocol/server-memory`` (``create_entities``,
  ``search_nodes``, ``delete_entities``; ``open_nodes``, ``add_observations`` and
  ``delete_observations`` when present). Each stored turn is one entity named
  ``{user}|{pair_id}`` (``|`` and ``%`` in either part are percent-escaped, so one user's names
  never start with another's prefix) of entityType ``turn``, with the observations
  ``timestamp: ...``, ``session: ...``, ``user: ...`` (what the user said) and
  ``assistant: ...``. The server ignores an entity whose name exists, so a re-sent pair is not
  stored twice. ``search_nodes`` matches its whole query as one substring, so a question would
  match nothing: recall searches each content word of the query apart (stopwords, words under
  three letters and the observation labels dropped; the ``max_query_words``, default 8, longest
  kept), keeps the entities whose name starts with ``{user}|`` (every user shares the one graph),
  ranks them by how many distinct query words they matched, then by recency, and returns at most
  ``k``. A saved note is an entity ``{user}|saved-<n>-<hash>`` of entityType ``note`` with a
  ``note: ...`` observation; ``update`` swaps a memory's ``user:`` or ``note:`` observation;
  ``delete`` removes one entity of the user's; ``reset`` finds the user's entities by searching
  their name prefix and deletes them.
- A text-memory shape: a tool named like add/save/store/remember (memory) taking one string, a
  tool named like search/recall/retrieve/query (memory) taking one string, and optionally
  delete/update tools taking an id, a clear/reset tool taking a user. A ``user_id``-like argument
  is given the user and an integer ``limit``-like one the number wanted. When the tools take no
  user, each stored text starts with a ``user_id: "..."`` line and recall keeps only the user's
  texts. Turns are stored as ``Turn.text()`` and read back into prompt, reply and timestamp.
- ``{"tools": {ROLE: {"tool": NAME, "arguments": TEMPLATE}}}`` maps any role (ingest, recall,
  save, update, delete, reset) by hand. String values in the template may hold ``{user}``
  ``{session}`` ``{timestamp}`` ``{pair_id}`` ``{prompt}`` ``{response}`` ``{text}`` ``{query}``
  ``{k}`` ``{id}`` (each role the ones it has; ``{{`` and ``}}`` are braces); a string that is
  one placeholder alone takes the value's own type (``{k}`` stays a number). A mapped recall is
  not filtered by user: its template scopes it.

A tool's reply is read from ``structuredContent``, else its text content as JSON; an error reply
or one of the wrong shape raises ``AdapterError`` naming the tool. A server without a recall or
an ingest tool is refused at start, naming the tools it has. Writes are sent one at a time:
server-memory rewrites its whole file on each call, so two at once would lose one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcp.types import Tool

from dittobench_adapters.contract import (
    AdapterConfigError,
    BaseAdapter,
    Capability,
    Memory,
    Turn,
    check_keys,
    config_value,
)
from dittobench_adapters.systems.mcp.graph import (
    GRAPH_REQUIRED,
    STOPWORDS,
    GraphShape,
    query_words,
    user_prefix,
)
from dittobench_adapters.systems.mcp.mapping import (
    ROLE_FIELDS,
    Shape,
    TextTool,
    TextTools,
    ToolTemplate,
    fill,
    find_text_tools,
    text_tool,
    tool_templates,
)
from dittobench_adapters.systems.mcp.replies import (
    ReplyShapeError,
    entity_memory,
    item_memory,
    memories,
    payload,
    reply_done,
    reply_id,
    text_memory,
)
from dittobench_adapters.systems.mcp.session import Endpoint, McpSession, read_endpoint
from dittobench_adapters.systems.mcp.text import TextShape

CONFIG_KEYS = (
    "command",
    "env",
    "cwd",
    "url",
    "headers",
    "timeout_s",
    "start_timeout_s",
    "max_query_words",
    "tools",
)


class McpAdapter(BaseAdapter):
    name = "mcp"
    version = "1"

    def __init__(self, config: Mapping[str, Any]) -> None:
        super().__init__()
        check_keys(config, CONFIG_KEYS, self.name)
        self.endpoint = read_endpoint(config)
        self.timeout_s = float(config_value(config, "timeout_s", float, 30.0))
        start_timeout_s = float(config_value(config, "start_timeout_s", float, 120.0))
        self.max_query_words = config_value(config, "max_query_words", int, 8)
        if self.timeout_s <= 0 or start_timeout_s <= 0 or self.max_query_words < 1:
            raise AdapterConfigError("mcp: timeout_s, start_timeout_s, max_query_words must be > 0")
        self.templates = tool_templates(config)
        self.session = McpSession(self.endpoint, self.timeout_s, self.lock)
        try:
            self.session.start(start_timeout_s)
            self._map_tools(self.session.run(self.session.list_tools(), self.timeout_s * 4))
        except BaseException:
            self.close()
            raise

    # Mapping

    def _map_tools(self, tools: list[Tool]) -> None:
        by_name = {tool.name: tool for tool in tools}
        names = ", ".join(sorted(by_name)) or "none"
        for role, template in self.templates.items():
            if template.tool not in by_name:
                raise AdapterConfigError(
                    f"mcp: tools.{role}.tool: the server has no tool {template.tool!r}"
                    f" (its tools: {names})"
                )
        self.tool_names = frozenset(by_name)
        self.text = find_text_tools(tools)
        graph = all(tool in by_name for tool in GRAPH_REQUIRED)
        text = not graph and (self.text.ingest is not None or self.text.recall is not None)
        self.shape = Shape.GRAPH if graph else Shape.TEXT if text else Shape.NONE
        for role in ("ingest", "recall"):
            if role in self.templates or graph or (text and getattr(self.text, role) is not None):
                continue
            raise AdapterConfigError(
                f"mcp: {self.session.where()} has no {role} tool this adapter recognises"
                f" (its tools: {names}); map one in the config's tools.{role}"
            )
        can: set[Capability] = set()
        if "save" in self.templates or graph or (text and self.text.ingest is not None):
            can.add(Capability.SAVE)
        graph_update = {"open_nodes", "add_observations", "delete_observations"} <= by_name.keys()
        if "update" in self.templates or (graph and graph_update) or (text and self.text.update):
            can.add(Capability.UPDATE)
        if "delete" in self.templates or graph or (text and self.text.delete):
            can.add(Capability.DELETE)
        self.capabilities = frozenset(can)
        self.tagged = text and not (
            self.text.ingest is not None
            and self.text.ingest.user_arg is not None
            and self.text.recall is not None
            and self.text.recall.user_arg is not None
        )
        self.graph_shape = GraphShape(self.session, self.tool_names, self.max_query_words)
        self.text_shape = TextShape(self.session, self.text, self.tagged)

    # The contract

    def describe(self) -> Mapping[str, str]:
        return dict(self.session.described)

    def ingest(self, turns: Sequence[Turn]) -> None:
        if not turns:
            return
        calls = len(turns) if "ingest" in self.templates or self.shape is Shape.TEXT else 1
        session = self.session
        session.run(session.write(lambda: self._ingest(turns)), session.budget(calls))

    def recall(self, user: str, query: str, k: int) -> list[Memory]:
        if k <= 0:
            return []
        session = self.session
        return session.run(self._recall(user, query, k), session.budget(self.max_query_words))

    def save(self, user: str, text: str, timestamp: str) -> str:
        if Capability.SAVE not in self.capabilities:
            return super().save(user, text, timestamp)
        session = self.session
        return session.run(
            session.write(lambda: self._save(user, text, timestamp)), session.budget(5)
        )

    def update(self, user: str, memory_id: str, text: str) -> bool:
        if Capability.UPDATE not in self.capabilities:
            return super().update(user, memory_id, text)
        session = self.session
        return session.run(
            session.write(lambda: self._update(user, memory_id, text)), session.budget(3)
        )

    def delete(self, user: str, memory_id: str) -> bool:
        if Capability.DELETE not in self.capabilities:
            return super().delete(user, memory_id)
        session = self.session
        return session.run(session.write(lambda: self._delete(user, memory_id)), session.budget(2))

    def reset(self, user: str) -> None:
        session = self.session
        session.run(session.write(lambda: self._reset(user)), session.budget(40))

    def close(self) -> None:
        self.session.close()

    # Each operation: a role mapped by hand, else the shape the server has

    async def _ingest(self, turns: Sequence[Turn]) -> None:
        template = self.templates.get("ingest")
        if template is not None:
            for turn in turns:
                values = {
                    "user": turn.user,
                    "session": turn.session,
                    "timestamp": turn.timestamp,
                    "pair_id": turn.pair_id,
                    "prompt": turn.prompt,
                    "response": turn.response,
                    "text": turn.text(),
                }
                await self.session.call(template.tool, fill(template.arguments, values))
        elif self.shape is Shape.GRAPH:
            await self.graph_shape.ingest(turns)
        else:
            await self.text_shape.ingest(turns)

    async def _recall(self, user: str, query: str, k: int) -> list[Memory]:
        template = self.templates.get("recall")
        if template is not None:
            data = await self.session.data(
                template.tool, fill(template.arguments, {"user": user, "query": query, "k": k})
            )
            return memories(template.tool, data)[:k]
        if self.shape is Shape.GRAPH:
            return await self.graph_shape.recall(user, query, k)
        return await self.text_shape.recall(user, query, k)

    async def _save(self, user: str, text: str, timestamp: str) -> str:
        template = self.templates.get("save")
        if template is not None:
            values = {"user": user, "text": text, "timestamp": timestamp}
            return reply_id(
                await self.session.data(template.tool, fill(template.arguments, values))
            )
        if self.shape is Shape.GRAPH:
            return await self.graph_shape.save(user, text, timestamp)
        return await self.text_shape.save(user, text, timestamp)

    async def _update(self, user: str, memory_id: str, text: str) -> bool:
        template = self.templates.get("update")
        if template is not None:
            values = {"user": user, "id": memory_id, "text": text}
            return reply_done(
                await self.session.data(template.tool, fill(template.arguments, values))
            )
        if self.shape is Shape.GRAPH:
            return await self.graph_shape.update(user, memory_id, text)
        return await self.text_shape.update(user, memory_id, text)

    async def _delete(self, user: str, memory_id: str) -> bool:
        template = self.templates.get("delete")
        if template is not None:
            values = {"user": user, "id": memory_id}
            return reply_done(
                await self.session.data(template.tool, fill(template.arguments, values))
            )
        if self.shape is Shape.GRAPH:
            return await self.graph_shape.delete(user, memory_id)
        return await self.text_shape.delete(user, memory_id)

    async def _reset(self, user: str) -> None:
        template = self.templates.get("reset")
        if template is not None:
            await self.session.call(template.tool, fill(template.arguments, {"user": user}))
        elif self.shape is Shape.GRAPH:
            await self.graph_shape.reset(user)
        else:
            await self.text_shape.reset(user)


__all__ = [
    "CONFIG_KEYS",
    "GRAPH_REQUIRED",
    "ROLE_FIELDS",
    "STOPWORDS",
    "Endpoint",
    "McpAdapter",
    "ReplyShapeError",
    "Shape",
    "TextTool",
    "TextTools",
    "ToolTemplate",
    "entity_memory",
    "fill",
    "find_text_tools",
    "item_memory",
    "payload",
    "query_words",
    "reply_done",
    "reply_id",
    "text_memory",
    "text_tool",
    "user_prefix",
]
