"""Reading a tool's reply: its data (``structuredContent``, else its text content read as JSON),
and the memories, ids and answers it carries. A reply of the wrong shape is a
``ReplyShapeError``, which the caller turns into an ``AdapterError`` naming the tool."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from mcp.types import CallToolResult, TextContent

from dittobench_adapters.contract import AdapterError, Memory

_TURN_TEXT = re.compile(
    r"\[(?P<ts>[^\]\n]*)\] (?P<kind>user|note): (?P<text>.*?)(?:\nassistant: (?P<reply>.*))?", re.S
)

_LIST_KEYS = ("memories", "results", "entities", "items", "hits", "matches", "notes", "data")
_LIST_KEYS_LAST = ("documents", "result")
_TEXT_KEYS = ("text", "memory", "content", "value", "document", "fact", "note", "body")
_ID_KEYS = ("id", "memory_id", "memoryId", "uuid", "key", "name")
_TS_KEYS = ("timestamp", "created_at", "createdAt", "time", "date")
_SCORE_KEYS = ("score", "similarity", "relevance")


class ReplyShapeError(ValueError):
    """A tool's reply is not what its role needs; the caller names the tool."""


def payload(result: CallToolResult, tool: str) -> Any:
    """The reply's data: ``structuredContent``, else its text content read as JSON."""
    if result.structured_content is not None:
        return result.structured_content
    texts = [block.text for block in result.content if isinstance(block, TextContent)]
    if not texts:
        raise ReplyShapeError("no structured or text content")
    try:
        if len(texts) == 1:
            return json.loads(texts[0])
        return [json.loads(text) for text in texts]
    except json.JSONDecodeError:
        first = texts[0].strip().splitlines()[0] if texts[0].strip() else ""
        raise ReplyShapeError(f"text content is not JSON: {first[:80]!r}") from None


def _items(data: Any, depth: int = 0) -> list[Any]:
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        for key in (*_LIST_KEYS, *_LIST_KEYS_LAST):
            value = data.get(key)
            if isinstance(value, list):
                return value
            if isinstance(value, dict) and depth == 0:
                with contextlib.suppress(ReplyShapeError):
                    return _items(value, depth + 1)
        if isinstance(data.get("observations"), list) or any(
            isinstance(data.get(key), str) for key in _TEXT_KEYS
        ):
            return [data]
    raise ReplyShapeError(f"expected a list of memories, got {type(data).__name__}")


def _first(item: Mapping[str, Any], keys: Sequence[str], kinds: tuple[type, ...]) -> Any:
    for key in keys:
        value = item.get(key)
        if isinstance(value, kinds) and not isinstance(value, bool):
            return value
    return None


def observations(entity: Mapping[str, Any]) -> dict[str, str]:
    """An entity's labelled observations (``label: value``, first of each label), and the
    unlabelled ones joined under ``""``."""
    fields: dict[str, str] = {}
    rest: list[str] = []
    for observation in entity["observations"]:
        if not isinstance(observation, str):
            raise ReplyShapeError("an observation is not a string")
        label, sep, value = observation.partition(": ")
        if sep and label in ("timestamp", "session", "user", "assistant", "note"):
            fields.setdefault(label, value)
        else:
            rest.append(observation)
    fields[""] = "\n".join(rest)
    return fields


def entity_memory(entity: Mapping[str, Any], score: float = 0.0) -> Memory:
    """A stored turn or note of the knowledge-graph shape, as a ``Memory``."""
    name = entity.get("name")
    if not isinstance(name, str) or not isinstance(entity.get("observations"), list):
        raise ReplyShapeError("an entity without a name or observations")
    fields = observations(entity)
    text = fields.get("user", fields.get("note", fields[""]))
    return Memory(
        text=text,
        id=name,
        timestamp=fields.get("timestamp", ""),
        reply=fields.get("assistant", ""),
        score=score,
    )


def text_memory(text: str, memory_id: str = "", timestamp: str = "", score: float = 0.0) -> Memory:
    """A stored text as a ``Memory``: a ``Turn.text()`` or a saved note is split back into its
    parts, any other text kept whole."""
    match = _TURN_TEXT.fullmatch(text)
    if match is None:
        return Memory(text=text, id=memory_id, timestamp=timestamp, score=score)
    return Memory(
        text=match["text"],
        id=memory_id,
        timestamp=match["ts"] or timestamp,
        reply=match["reply"] or "",
        score=score,
    )


def item_memory(item: Any) -> Memory:
    """One item of a recall reply (a string, a text-memory object or a graph entity)."""
    if isinstance(item, str):
        return text_memory(item)
    if not isinstance(item, dict):
        raise ReplyShapeError(f"a memory is a {type(item).__name__}")
    score = _first(item, _SCORE_KEYS, (int, float))
    score = float(score) if score is not None else 0.0
    if isinstance(item.get("observations"), list):
        return entity_memory(item, score)
    text = _first(item, _TEXT_KEYS, (str,))
    if text is None:
        raise ReplyShapeError(f"a memory without text (keys: {', '.join(sorted(item))})")
    memory_id = _first(item, _ID_KEYS, (str, int))
    timestamp = _first(item, _TS_KEYS, (str,))
    return text_memory(text, "" if memory_id is None else str(memory_id), timestamp or "", score)


def reply_id(data: Any) -> str:
    """The id a save reply names, else empty."""
    if isinstance(data, (str, int)) and not isinstance(data, bool):
        return str(data)
    if isinstance(data, dict):
        found = _first(data, _ID_KEYS, (str, int))
        if found is not None:
            return str(found)
        for key in ("result", "memory", "data"):
            if key in data:
                return reply_id(data[key])
    return ""


def reply_done(data: Any) -> bool:
    """Whether a delete or update reply says it changed something (yes unless it says no)."""
    if isinstance(data, bool):
        return data
    if isinstance(data, dict):
        for key in ("deleted", "updated", "success", "ok", "result", "found"):
            if isinstance(data.get(key), bool):
                return bool(data[key])
    return True


def memories(tool: str, data: Any) -> list[Memory]:
    """The memories of a recall reply; one of the wrong shape is an ``AdapterError`` naming
    ``tool``."""
    try:
        return [item_memory(item) for item in _items(data)]
    except ReplyShapeError as exc:
        raise AdapterError(f"mcp: {tool}: reply of the wrong shape: {exc}") from None
