"""The knowledge-graph shape of ``@modelcontextprotocol/server-memory``: each turn an entity
``{user}|{pair_id}`` of entityType ``turn``, each saved note one ``{user}|saved-<n>-<hash>`` of
entityType ``note``, found again by searching each content word of the question apart."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import re
import time
from collections.abc import Sequence
from typing import Any

from dittobench_adapters.contract import AdapterError, Memory, Turn
from dittobench_adapters.systems.mcp.replies import ReplyShapeError, entity_memory, observations
from dittobench_adapters.systems.mcp.session import McpSession

GRAPH_REQUIRED = ("create_entities", "search_nodes", "delete_entities")

_WORD = re.compile(r"[^\W_]+")
_CHUNK = 100

_STOPWORD_TEXT = """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each else ever
    few for from further get got had has have having he her here hers herself him himself his how
    i if in into is it its itself just like me more most much my myself no nor not now of off on
    once only or other our ours ourselves out over own said same say she should so some such than
    that the their theirs them themselves then there these they this those through to too under
    until up upon very was we were what when where which while who whom whose why will with would
    yet you your yours yourself yourselves tell told know remember recall mention mentioned
    user assistant timestamp session note turn saved
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
"""Query words that would match nearly every turn: English function words, the words of a
question about memory, and the labels of this adapter's own observations."""


def user_prefix(user: str) -> str:
    """The start of every entity name of ``user``'s: ``{user}|``, escaped so that it is never
    the start of another user's."""
    return f"{_escape_bars(user)}|"


def _escape_bars(part: str) -> str:
    return part.replace("%", "%25").replace("|", "%7C")


def query_words(query: str, limit: int) -> list[str]:
    """The content words of ``query`` to search one by one, the ``limit`` longest."""
    seen: dict[str, int] = {}
    for word in _WORD.findall(query.lower()):
        if word in STOPWORDS or word in seen:
            continue
        if len(word) >= 3 or (word.isdigit() and len(word) >= 2):
            seen[word] = len(seen)
    ranked = sorted(seen, key=lambda word: (-len(word), seen[word]))[:limit]
    return sorted(ranked, key=seen.__getitem__)


class GraphShape:
    """The contract's operations on a server of the knowledge-graph shape; ``tool_names`` are
    all the server's tools (``open_nodes`` is used when it has it)."""

    def __init__(
        self, session: McpSession, tool_names: frozenset[str], max_query_words: int
    ) -> None:
        self.session = session
        self.tool_names = tool_names
        self.max_query_words = max_query_words
        self._saved = itertools.count(1)

    async def ingest(self, turns: Sequence[Turn]) -> None:
        entities = [
            {
                "name": user_prefix(turn.user) + _escape_bars(turn.pair_id),
                "entityType": "turn",
                "observations": [
                    f"timestamp: {turn.timestamp}",
                    f"session: {turn.session}",
                    f"user: {turn.prompt}",
                    f"assistant: {turn.response}",
                ],
            }
            for turn in turns
        ]
        for start in range(0, len(entities), _CHUNK):
            await self.session.call(
                "create_entities", {"entities": entities[start : start + _CHUNK]}
            )

    async def entities(self, query: str) -> list[dict[str, Any]]:
        data = await self.session.data("search_nodes", {"query": query})
        entities = data.get("entities") if isinstance(data, dict) else None
        if not isinstance(entities, list) or not all(
            isinstance(entity, dict) and isinstance(entity.get("name"), str) for entity in entities
        ):
            raise AdapterError("mcp: search_nodes: reply of the wrong shape: no list of entities")
        return entities

    async def recall(self, user: str, query: str, k: int) -> list[Memory]:
        words = query_words(query, self.max_query_words)
        if not words:
            return []
        found = await asyncio.gather(*(self.entities(word) for word in words))
        prefix = user_prefix(user)
        entities: dict[str, dict[str, Any]] = {}
        matched: dict[str, set[str]] = {}
        for word, hits in zip(words, found, strict=True):
            for entity in hits:
                name = entity["name"]
                if name.startswith(prefix):
                    entities[name] = entity
                    matched.setdefault(name, set()).add(word)
        try:
            memories = [
                entity_memory(entities[name], len(matched[name]) / len(words))
                for name in sorted(entities)
            ]
        except ReplyShapeError as exc:
            raise AdapterError(f"mcp: search_nodes: reply of the wrong shape: {exc}") from None
        memories.sort(key=lambda memory: (memory.score, memory.timestamp), reverse=True)
        return memories[:k]

    async def save(self, user: str, text: str, timestamp: str) -> str:
        for _ in range(5):
            digest = hashlib.sha256(f"{user}\n{timestamp}\n{text}\n{time.time_ns()}".encode())
            name = f"{user_prefix(user)}saved-{next(self._saved)}-{digest.hexdigest()[:10]}"
            entity = {
                "name": name,
                "entityType": "note",
                "observations": [f"timestamp: {timestamp}", f"note: {text}"],
            }
            data = await self.session.data("create_entities", {"entities": [entity]})
            created = data.get("entities") if isinstance(data, dict) else data
            if not isinstance(created, list):
                raise AdapterError("mcp: create_entities: reply of the wrong shape: no entities")
            if any(isinstance(each, dict) and each.get("name") == name for each in created):
                return name
        raise AdapterError("mcp: create_entities: kept refusing a new note's name")

    async def open(self, name: str) -> dict[str, Any] | None:
        if "open_nodes" in self.tool_names:
            data = await self.session.data("open_nodes", {"names": [name]})
            entities = data.get("entities") if isinstance(data, dict) else None
            if not isinstance(entities, list):
                raise AdapterError("mcp: open_nodes: reply of the wrong shape: no list of entities")
        else:
            entities = await self.entities(name)
        for entity in entities:
            if isinstance(entity, dict) and entity.get("name") == name:
                return entity
        return None

    async def update(self, user: str, memory_id: str, text: str) -> bool:
        if not memory_id.startswith(user_prefix(user)):
            return False
        entity = await self.open(memory_id)
        if entity is None:
            return False
        try:
            fields = observations(entity)
        except ReplyShapeError as exc:
            raise AdapterError(f"mcp: open_nodes: reply of the wrong shape: {exc}") from None
        label = "user" if "user" in fields else "note"
        old = [
            observation
            for observation in entity["observations"]
            if observation.startswith(f"{label}: ")
        ]
        if old:
            deletion = {"entityName": memory_id, "observations": old}
            await self.session.call("delete_observations", {"deletions": [deletion]})
        addition = {"entityName": memory_id, "contents": [f"{label}: {text}"]}
        await self.session.call("add_observations", {"observations": [addition]})
        return True

    async def delete(self, user: str, memory_id: str) -> bool:
        if not memory_id.startswith(user_prefix(user)) or await self.open(memory_id) is None:
            return False
        await self.session.call("delete_entities", {"entityNames": [memory_id]})
        return True

    async def reset(self, user: str) -> None:
        prefix = user_prefix(user)
        names = [
            entity["name"]
            for entity in await self.entities(prefix)
            if entity["name"].startswith(prefix)
        ]
        for start in range(0, len(names), _CHUNK):
            chunk = names[start : start + _CHUNK]
            await self.session.call("delete_entities", {"entityNames": chunk})
