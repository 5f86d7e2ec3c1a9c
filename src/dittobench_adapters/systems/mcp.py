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

import asyncio
import concurrent.futures
import contextlib
import hashlib
import itertools
import json
import os
import re
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any, TypeVar

import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, Implementation, TextContent, Tool

from dittobench import __version__ as dittobench_version
from dittobench_adapters.contract import (
    AdapterConfigError,
    AdapterError,
    BaseAdapter,
    Capability,
    Memory,
    Turn,
    check_keys,
    config_value,
)

_T = TypeVar("_T")

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

ROLE_FIELDS: Mapping[str, tuple[str, ...]] = {
    "ingest": ("user", "session", "timestamp", "pair_id", "prompt", "response", "text"),
    "recall": ("user", "query", "k"),
    "save": ("user", "text", "timestamp"),
    "update": ("user", "id", "text"),
    "delete": ("user", "id"),
    "reset": ("user",),
}
"""The placeholders each mappable role fills in its argument template."""

GRAPH_REQUIRED = ("create_entities", "search_nodes", "delete_entities")

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_]+)\}")
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_WORD = re.compile(r"[^\W_]+")
_NAME_TOKEN = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")
_TURN_TEXT = re.compile(
    r"\[(?P<ts>[^\]\n]*)\] (?P<kind>user|note): (?P<text>.*?)(?:\nassistant: (?P<reply>.*))?", re.S
)
_TAG = "user_id: "
_CHUNK = 100
_STOP_GRACE_S = 15.0

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

_INGEST_VERBS = frozenset({"add", "save", "store", "remember", "memorize", "insert", "write"})
_INGEST_VERBS |= frozenset({"create", "put", "record"})
_RECALL_VERBS = frozenset({"search", "recall", "retrieve", "query", "find", "lookup"})
_DELETE_VERBS = frozenset({"delete", "remove", "forget", "erase"})
_UPDATE_VERBS = frozenset({"update", "edit", "modify", "replace"})
_RESET_VERBS = frozenset({"clear", "reset", "wipe", "purge"})
_NOUNS = frozenset({"memory", "memories", "mem", "mems", "note", "notes", "fact", "facts"})
_USER_ARGS = frozenset({"userid", "user", "username"})
_LIMIT_ARGS = frozenset({"limit", "k", "topk", "n", "maxresults", "count", "size"})
_ID_ARGS = frozenset({"id", "memoryid", "noteid", "key", "uuid"})
_TEXT_ARGS = ("text", "content", "memory", "query", "q", "note", "fact", "value", "input")

_LIST_KEYS = ("memories", "results", "entities", "items", "hits", "matches", "notes", "data")
_LIST_KEYS_LAST = ("documents", "result")
_TEXT_KEYS = ("text", "memory", "content", "value", "document", "fact", "note", "body")
_ID_KEYS = ("id", "memory_id", "memoryId", "uuid", "key", "name")
_TS_KEYS = ("timestamp", "created_at", "createdAt", "time", "date")
_SCORE_KEYS = ("score", "similarity", "relevance")


class ReplyShapeError(ValueError):
    """A tool's reply is not what its role needs; the caller names the tool."""


# Configuration


@dataclass(frozen=True, slots=True)
class ToolTemplate:
    """A role mapped by hand: the tool to call and its argument template."""

    tool: str
    arguments: Mapping[str, Any]


def _placeholders(template: Any) -> Iterator[str]:
    if isinstance(template, str):
        for match in _PLACEHOLDER.finditer(template):
            if match.group(1):
                yield match.group(1)
    elif isinstance(template, list):
        for value in template:
            yield from _placeholders(value)
    elif isinstance(template, dict):
        for value in template.values():
            yield from _placeholders(value)


def fill(template: Any, values: Mapping[str, Any]) -> Any:
    """``template`` with its placeholders replaced by ``values``, in strings at any depth."""
    if isinstance(template, str):
        whole = _PLACEHOLDER.fullmatch(template)
        if whole is not None and whole.group(1):
            return values[whole.group(1)]

        def one(match: re.Match[str]) -> str:
            token = match.group(0)
            if token in ("{{", "}}"):
                return token[0]
            return str(values[match.group(1)])

        return _PLACEHOLDER.sub(one, template)
    if isinstance(template, list):
        return [fill(value, values) for value in template]
    if isinstance(template, dict):
        return {key: fill(value, values) for key, value in template.items()}
    return template


def _tool_templates(config: Mapping[str, Any]) -> dict[str, ToolTemplate]:
    tools = config_value(config, "tools", dict, {})
    unknown = sorted(set(tools) - set(ROLE_FIELDS))
    if unknown:
        known = ", ".join(ROLE_FIELDS)
        raise AdapterConfigError(f"mcp: tools: unknown role {unknown[0]!r} (known: {known})")
    templates: dict[str, ToolTemplate] = {}
    for role, spec in tools.items():
        if not isinstance(spec, dict):
            raise AdapterConfigError(f"mcp: tools.{role}: expected an object with tool, arguments")
        check_keys(spec, ("tool", "arguments"), f"mcp: tools.{role}")
        tool = spec.get("tool")
        if not isinstance(tool, str) or not tool:
            raise AdapterConfigError(f"mcp: tools.{role}.tool: expected a tool name")
        arguments = spec.get("arguments", {})
        if not isinstance(arguments, dict):
            raise AdapterConfigError(f"mcp: tools.{role}.arguments: expected an object")
        for name in _placeholders(arguments):
            if name not in ROLE_FIELDS[role]:
                known = " ".join("{" + field + "}" for field in ROLE_FIELDS[role])
                raise AdapterConfigError(
                    f"mcp: tools.{role}.arguments: unknown placeholder {{{name}}} (known: {known})"
                )
        templates[role] = ToolTemplate(tool, arguments)
    return templates


def _expand_env(values: Mapping[str, Any], key: str) -> dict[str, str]:
    expanded: dict[str, str] = {}
    for name, value in values.items():
        if not isinstance(value, str):
            raise AdapterConfigError(f"mcp: {key}.{name}: expected a string")

        def one(match: re.Match[str], name: str = name) -> str:
            found = os.environ.get(match.group(1))
            if found is None:
                raise AdapterConfigError(f"mcp: {key}.{name}: ${{{match.group(1)}}} is not set")
            return found

        expanded[name] = _ENV_REF.sub(one, value)
    return expanded


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where the server is: a command to start, or a URL."""

    command: tuple[str, ...] = ()
    env: Mapping[str, str] | None = None
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] | None = None

    @property
    def transport(self) -> str:
        return "stdio" if self.command else "streamable-http"


def _endpoint(config: Mapping[str, Any]) -> Endpoint:
    command = config.get("command")
    url = config_value(config, "url", str, "")
    if (command is None) == (not url):
        raise AdapterConfigError("mcp: give exactly one of command (stdio) and url (HTTP)")
    if url:
        for key in ("env", "cwd"):
            if key in config:
                raise AdapterConfigError(f"mcp: {key} applies to a command, not a url")
        if not url.startswith(("http://", "https://")):
            raise AdapterConfigError(f"mcp: url: expected http:// or https://, got {url!r}")
        headers = _expand_env(config_value(config, "headers", dict, {}), "headers")
        return Endpoint(url=url, headers=headers or None)
    if "headers" in config:
        raise AdapterConfigError("mcp: headers apply to a url, not a command")
    if isinstance(command, str):
        command = [command]
    if (
        not isinstance(command, list)
        or not command
        or not all(isinstance(part, str) and part for part in command)
    ):
        raise AdapterConfigError("mcp: command: expected a non-empty list of strings")
    env = _expand_env(config_value(config, "env", dict, {}), "env")
    cwd = config_value(config, "cwd", str, None)
    if cwd is not None and not Path(cwd).is_dir():
        raise AdapterConfigError(f"mcp: cwd: {cwd!r} is not a folder")
    return Endpoint(command=tuple(command), env=env or None, cwd=cwd)


# Reading replies


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


def _observations(entity: Mapping[str, Any]) -> dict[str, str]:
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
    fields = _observations(entity)
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


# Tool discovery


def _name_tokens(name: str) -> list[str]:
    return [token.lower() for token in _NAME_TOKEN.findall(name)]


def _names_role(name: str, verbs: frozenset[str]) -> bool:
    """Whether a tool's name is a verb of ``verbs``, alone or with a memory noun."""
    tokens = _name_tokens(name)
    if not tokens:
        return False
    for verb_at in (0, len(tokens) - 1):
        if tokens[verb_at] in verbs:
            others = tokens[:verb_at] + tokens[verb_at + 1 :]
            if all(token in _NOUNS for token in others):
                return True
    return False


def _norm(arg: str) -> str:
    return arg.replace("_", "").replace("-", "").lower()


@dataclass(frozen=True, slots=True)
class TextTool:
    """A text-memory tool and which of its arguments carries what."""

    name: str
    text_arg: str | None = None
    user_arg: str | None = None
    limit_arg: str | None = None
    id_arg: str | None = None
    id_integer: bool = False

    def arguments(
        self, *, text: str | None = None, user: str = "", limit: int = 0, memory_id: str = ""
    ) -> dict[str, Any]:
        args: dict[str, Any] = {}
        if self.text_arg is not None and text is not None:
            args[self.text_arg] = text
        if self.user_arg is not None:
            args[self.user_arg] = user
        if self.limit_arg is not None and limit:
            args[self.limit_arg] = limit
        if self.id_arg is not None:
            args[self.id_arg] = int(memory_id) if self.id_integer else memory_id
        return args


def _kinds(prop: Any) -> set[str]:
    if not isinstance(prop, dict):
        return set()
    kind = prop.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {str(each) for each in kind}
    found: set[str] = set()
    for option in prop.get("anyOf", []) or []:
        found |= _kinds(option)
    return found


def text_tool(tool: Tool, *, wants_text: bool, wants_id: bool) -> TextTool | None:
    """``tool`` read as a text-memory tool, or None when its input schema does not fit: every
    required argument must be one it can fill, with exactly one free string when it wants text."""
    schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
    props = schema.get("properties") or {}
    required = set(schema.get("required") or [])
    if not isinstance(props, dict):
        return None
    user_arg = limit_arg = id_arg = None
    id_integer = False
    strings: list[str] = []
    for arg, prop in props.items():
        kinds, norm = _kinds(prop), _norm(arg)
        if norm in _USER_ARGS and "string" in kinds and user_arg is None:
            user_arg = arg
        elif norm in _LIMIT_ARGS and kinds & {"integer", "number"} and limit_arg is None:
            limit_arg = arg
        elif wants_id and norm in _ID_ARGS and kinds & {"string", "integer"} and id_arg is None:
            id_arg, id_integer = arg, "string" not in kinds
        elif "string" in kinds:
            strings.append(arg)
    text_arg: str | None = None
    if wants_text:
        if len(strings) > 1:
            strings = [arg for arg in strings if arg.lower() in _TEXT_ARGS] or strings
        if len(strings) != 1:
            return None
        text_arg = strings[0]
    if wants_id and id_arg is None:
        return None
    filled = {text_arg, user_arg, limit_arg, id_arg} - {None}
    if not required <= filled:
        return None
    return TextTool(tool.name, text_arg, user_arg, limit_arg, id_arg, id_integer)


@dataclass(frozen=True, slots=True)
class TextTools:
    """The text-memory shape found on a server."""

    ingest: TextTool | None
    recall: TextTool | None
    delete: TextTool | None
    update: TextTool | None
    reset: TextTool | None


def _clears_all(name: str) -> bool:
    """Whether a tool's name says it forgets everything: clear/reset/wipe/purge (memories),
    delete/forget all (memories)."""
    tokens = _name_tokens(name)
    if not tokens:
        return False
    verb, rest = tokens[0], tokens[1:]
    if verb in _RESET_VERBS or (verb in _DELETE_VERBS and "all" in rest):
        return set(rest) <= _NOUNS | {"all"}
    return False


def find_text_tools(tools: Sequence[Tool]) -> TextTools:
    """The text-memory tools among ``tools``, the first fitting one for each role. A tool that
    forgets everything is a reset only when it takes the user, so one user's reset never wipes
    the others."""
    singles = [tool for tool in tools if not _clears_all(tool.name)]

    def pick(verbs: frozenset[str], *, text: bool, memory_id: bool) -> TextTool | None:
        for tool in singles:
            if _names_role(tool.name, verbs):
                found = text_tool(tool, wants_text=text, wants_id=memory_id)
                if found is not None:
                    return found
        return None

    resets = [
        text_tool(tool, wants_text=False, wants_id=False)
        for tool in tools
        if _clears_all(tool.name)
    ]
    return TextTools(
        ingest=pick(_INGEST_VERBS, text=True, memory_id=False),
        recall=pick(_RECALL_VERBS, text=True, memory_id=False),
        delete=pick(_DELETE_VERBS, text=False, memory_id=True),
        update=pick(_UPDATE_VERBS, text=True, memory_id=True),
        reset=next((tool for tool in resets if tool is not None and tool.user_arg), None),
    )


class Shape(Enum):
    GRAPH = "knowledge-graph"
    TEXT = "text"
    NONE = "none"


# Naming in the knowledge graph


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


# The adapter


class McpAdapter(BaseAdapter):
    name = "mcp"
    version = "1"

    def __init__(self, config: Mapping[str, Any]) -> None:
        super().__init__()
        check_keys(config, CONFIG_KEYS, self.name)
        self.endpoint = _endpoint(config)
        self.timeout_s = float(config_value(config, "timeout_s", float, 30.0))
        start_timeout_s = float(config_value(config, "start_timeout_s", float, 120.0))
        self.max_query_words = config_value(config, "max_query_words", int, 8)
        if self.timeout_s <= 0 or start_timeout_s <= 0 or self.max_query_words < 1:
            raise AdapterConfigError("mcp: timeout_s, start_timeout_s, max_query_words must be > 0")
        self.templates = _tool_templates(config)
        self._saved = itertools.count(1)
        self._closed = False
        self._client: Client | None = None
        self._stderr_path: str | None = None
        self._described: dict[str, str] = {}
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="mcp-adapter", daemon=True
        )
        self._thread.start()
        self._stop = asyncio.Event()
        self._writes = asyncio.Lock()
        self._owner: concurrent.futures.Future[None] | None = None
        self._owner_done = threading.Event()
        try:
            self._start(start_timeout_s)
            self._map_tools(self._run(self._list_tools(), self.timeout_s * 4))
        except BaseException:
            self.close()
            raise

    # The session

    def _start(self, timeout_s: float) -> None:
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._owner = asyncio.run_coroutine_threadsafe(self._own_session(ready), self._loop)
        try:
            ready.result(timeout=timeout_s)
        except concurrent.futures.TimeoutError:
            self._owner.cancel()
            raise AdapterError(
                f"mcp: {self._where()} did not complete the MCP handshake in {timeout_s:g}s"
                f"{self._stderr_tail()}"
            ) from None
        except FileNotFoundError as exc:
            raise AdapterConfigError(
                f"mcp: cannot start {self._where()}: {exc.strerror or exc}"
                f" ({self.endpoint.command[0]!r} is not a program on PATH)"
            ) from None
        except PermissionError as exc:
            raise AdapterConfigError(f"mcp: cannot start {self._where()}: {exc}") from None
        except Exception as exc:
            raise AdapterError(
                f"mcp: {self._where()} failed at start: {_summary(exc)}{self._stderr_tail()}"
            ) from None

    def _where(self) -> str:
        if self.endpoint.command:
            return "server " + " ".join(self.endpoint.command)
        return f"server at {self.endpoint.url}"

    def _stderr_tail(self) -> str:
        if self._stderr_path is None:
            return ""
        try:
            lines = Path(self._stderr_path).read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        if not lines:
            return ""
        errors = [line for line in lines if "rror" in line]
        return f"; its stderr says: {(errors or lines)[-1].strip()[:200]}"

    async def _own_session(self, ready: concurrent.futures.Future[None]) -> None:
        """Opens the session, holds it until ``close``, and closes it in this same task (the
        SDK's task groups must be left by the task that entered them)."""
        try:
            async with contextlib.AsyncExitStack() as stack:
                client = Client(
                    await self._transport(stack),
                    read_timeout_seconds=self.timeout_s,
                    client_info=Implementation(name="dittobench", version=dittobench_version),
                    cache=None,
                )
                self._client = await stack.enter_async_context(client)
                info = self._client.server_info
                self._described = {
                    "system": info.name if info is not None else "unknown",
                    "system_version": (info.version or "") if info is not None else "",
                    "transport": self.endpoint.transport,
                }
                ready.set_result(None)
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(_innermost(exc))
            if not isinstance(exc, Exception):
                raise
        finally:
            self._client = None
            self._owner_done.set()

    async def _transport(self, stack: contextlib.AsyncExitStack) -> Any:
        endpoint = self.endpoint
        if endpoint.command:
            handle, self._stderr_path = tempfile.mkstemp(prefix="dittobench-mcp-", suffix=".log")
            errlog = stack.enter_context(os.fdopen(handle, "w"))
            params = StdioServerParameters(
                command=endpoint.command[0],
                args=list(endpoint.command[1:]),
                env=dict(endpoint.env) if endpoint.env else None,
                cwd=endpoint.cwd,
            )
            return stdio_client(params, errlog=errlog)
        http = None
        if endpoint.headers:
            timeout = httpx2.Timeout(self.timeout_s, read=max(300.0, self.timeout_s))
            http = httpx2.AsyncClient(headers=dict(endpoint.headers), timeout=timeout)
            await stack.enter_async_context(http)
        return streamable_http_client(endpoint.url, http_client=http)

    def _run(self, coro: Coroutine[Any, Any, _T], timeout_s: float) -> _T:
        """Runs ``coro`` on the session's loop and waits for it, at most ``timeout_s``."""
        if self._closed:
            coro.close()
            raise AdapterError("mcp: the adapter is closed")
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result(timeout=timeout_s)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise AdapterError(f"mcp: no reply from {self._where()} in {timeout_s:g}s") from None

    def _budget(self, calls: int) -> float:
        return self.timeout_s * (calls + 1)

    async def _list_tools(self) -> list[Tool]:
        client = self._session()
        tools: list[Tool] = []
        cursor: str | None = None
        for _ in range(100):
            try:
                page = await asyncio.wait_for(client.list_tools(cursor=cursor), self.timeout_s)
            except Exception as exc:
                raise AdapterError(f"mcp: tools/list failed: {_summary(exc)}") from None
            tools.extend(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                break
        return tools

    def _session(self) -> Client:
        if self._client is None:
            raise AdapterError(f"mcp: the session with {self._where()} has ended")
        return self._client

    async def _call(self, tool: str, arguments: Mapping[str, Any]) -> CallToolResult:
        """One tool call; a failure or an error reply is an ``AdapterError`` naming the tool."""
        client = self._session()
        try:
            result = await asyncio.wait_for(client.call_tool(tool, dict(arguments)), self.timeout_s)
        except TimeoutError:
            raise AdapterError(f"mcp: {tool}: no reply in {self.timeout_s:g}s") from None
        except Exception as exc:
            raise AdapterError(f"mcp: {tool}: {_summary(exc)}") from None
        if result.is_error:
            texts = [block.text for block in result.content if isinstance(block, TextContent)]
            message = " ".join(" ".join(texts).split())[:300] or "no message"
            raise AdapterError(f"mcp: {tool} replied with an error: {message}")
        return result

    async def _data(self, tool: str, arguments: Mapping[str, Any]) -> Any:
        result = await self._call(tool, arguments)
        try:
            return payload(result, tool)
        except ReplyShapeError as exc:
            raise AdapterError(f"mcp: {tool}: reply of the wrong shape: {exc}") from None

    async def _write(self, work: Callable[[], Awaitable[_T]]) -> _T:
        async with self._writes:
            return await work()

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
                f"mcp: {self._where()} has no {role} tool this adapter recognises"
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

    # The contract

    def describe(self) -> Mapping[str, str]:
        return dict(self._described)

    def ingest(self, turns: Sequence[Turn]) -> None:
        if not turns:
            return
        calls = len(turns) if "ingest" in self.templates or self.shape is Shape.TEXT else 1
        self._run(self._write(lambda: self._ingest(turns)), self._budget(calls))

    def recall(self, user: str, query: str, k: int) -> list[Memory]:
        if k <= 0:
            return []
        return self._run(self._recall(user, query, k), self._budget(self.max_query_words))

    def save(self, user: str, text: str, timestamp: str) -> str:
        if Capability.SAVE not in self.capabilities:
            return super().save(user, text, timestamp)
        return self._run(self._write(lambda: self._save(user, text, timestamp)), self._budget(5))

    def update(self, user: str, memory_id: str, text: str) -> bool:
        if Capability.UPDATE not in self.capabilities:
            return super().update(user, memory_id, text)
        return self._run(self._write(lambda: self._update(user, memory_id, text)), self._budget(3))

    def delete(self, user: str, memory_id: str) -> bool:
        if Capability.DELETE not in self.capabilities:
            return super().delete(user, memory_id)
        return self._run(self._write(lambda: self._delete(user, memory_id)), self._budget(2))

    def reset(self, user: str) -> None:
        self._run(self._write(lambda: self._reset(user)), self._budget(40))

    def close(self) -> None:
        with self.lock:
            if self._closed:
                return
            self._closed = True
        owner = self._owner
        if owner is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
            if not self._owner_done.wait(_STOP_GRACE_S):
                owner.cancel()
                self._owner_done.wait(_STOP_GRACE_S)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=_STOP_GRACE_S)
        if not self._thread.is_alive():
            self._loop.close()
        if self._stderr_path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._stderr_path)

    # Ingest

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
                await self._call(template.tool, fill(template.arguments, values))
        elif self.shape is Shape.GRAPH:
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
                await self._call("create_entities", {"entities": entities[start : start + _CHUNK]})
        else:
            tool = self._text_tool("ingest")
            for turn in turns:
                text = self._tag(turn.user, turn.text())
                await self._call(tool.name, tool.arguments(text=text, user=turn.user))

    def _text_tool(self, role: str) -> TextTool:
        tool: TextTool | None = getattr(self.text, role)
        if tool is None:
            raise AdapterError(f"mcp: the server has no {role} tool")
        return tool

    def _tag(self, user: str, text: str) -> str:
        return f"{_TAG}{json.dumps(user)}\n{text}" if self.tagged else text

    def _untag(self, user: str, memory: Memory) -> Memory | None:
        """``memory`` without the user line when it is ``user``'s, else None."""
        head = f"{_TAG}{json.dumps(user)}\n"
        if not memory.text.startswith(head):
            return None
        rest = text_memory(memory.text[len(head) :], memory.id, memory.timestamp, memory.score)
        return Memory(rest.text, rest.id, rest.timestamp, rest.reply or memory.reply, rest.score)

    # Recall

    async def _recall(self, user: str, query: str, k: int) -> list[Memory]:
        template = self.templates.get("recall")
        if template is not None:
            data = await self._data(
                template.tool, fill(template.arguments, {"user": user, "query": query, "k": k})
            )
            return self._memories(template.tool, data)[:k]
        if self.shape is Shape.GRAPH:
            return await self._recall_graph(user, query, k)
        tool = self._text_tool("recall")
        limit = k * 5 if self.tagged else k
        data = await self._data(tool.name, tool.arguments(text=query, user=user, limit=limit))
        memories = self._memories(tool.name, data)
        if self.tagged:
            memories = [kept for kept in (self._untag(user, m) for m in memories) if kept]
        return memories[:k]

    def _memories(self, tool: str, data: Any) -> list[Memory]:
        try:
            return [item_memory(item) for item in _items(data)]
        except ReplyShapeError as exc:
            raise AdapterError(f"mcp: {tool}: reply of the wrong shape: {exc}") from None

    async def _entities(self, query: str) -> list[dict[str, Any]]:
        data = await self._data("search_nodes", {"query": query})
        entities = data.get("entities") if isinstance(data, dict) else None
        if not isinstance(entities, list) or not all(
            isinstance(entity, dict) and isinstance(entity.get("name"), str) for entity in entities
        ):
            raise AdapterError("mcp: search_nodes: reply of the wrong shape: no list of entities")
        return entities

    async def _recall_graph(self, user: str, query: str, k: int) -> list[Memory]:
        words = query_words(query, self.max_query_words)
        if not words:
            return []
        found = await asyncio.gather(*(self._entities(word) for word in words))
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

    # Save, update, delete, reset

    async def _save(self, user: str, text: str, timestamp: str) -> str:
        template = self.templates.get("save")
        if template is not None:
            values = {"user": user, "text": text, "timestamp": timestamp}
            return reply_id(await self._data(template.tool, fill(template.arguments, values)))
        if self.shape is Shape.GRAPH:
            return await self._save_graph(user, text, timestamp)
        tool = self._text_tool("ingest")
        stored = self._tag(user, f"[{timestamp}] note: {text}")
        result = await self._call(tool.name, tool.arguments(text=stored, user=user))
        try:
            return reply_id(payload(result, tool.name))
        except ReplyShapeError:
            return ""

    async def _save_graph(self, user: str, text: str, timestamp: str) -> str:
        for _ in range(5):
            digest = hashlib.sha256(f"{user}\n{timestamp}\n{text}\n{time.time_ns()}".encode())
            name = f"{user_prefix(user)}saved-{next(self._saved)}-{digest.hexdigest()[:10]}"
            entity = {
                "name": name,
                "entityType": "note",
                "observations": [f"timestamp: {timestamp}", f"note: {text}"],
            }
            data = await self._data("create_entities", {"entities": [entity]})
            created = data.get("entities") if isinstance(data, dict) else data
            if not isinstance(created, list):
                raise AdapterError("mcp: create_entities: reply of the wrong shape: no entities")
            if any(isinstance(each, dict) and each.get("name") == name for each in created):
                return name
        raise AdapterError("mcp: create_entities: kept refusing a new note's name")

    async def _open(self, name: str) -> dict[str, Any] | None:
        if "open_nodes" in self.tool_names:
            data = await self._data("open_nodes", {"names": [name]})
            entities = data.get("entities") if isinstance(data, dict) else None
            if not isinstance(entities, list):
                raise AdapterError("mcp: open_nodes: reply of the wrong shape: no list of entities")
        else:
            entities = await self._entities(name)
        for entity in entities:
            if isinstance(entity, dict) and entity.get("name") == name:
                return entity
        return None

    async def _update(self, user: str, memory_id: str, text: str) -> bool:
        template = self.templates.get("update")
        if template is not None:
            values = {"user": user, "id": memory_id, "text": text}
            return reply_done(await self._data(template.tool, fill(template.arguments, values)))
        if self.shape is Shape.GRAPH:
            if not memory_id.startswith(user_prefix(user)):
                return False
            entity = await self._open(memory_id)
            if entity is None:
                return False
            try:
                fields = _observations(entity)
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
                await self._call("delete_observations", {"deletions": [deletion]})
            addition = {"entityName": memory_id, "contents": [f"{label}: {text}"]}
            await self._call("add_observations", {"observations": [addition]})
            return True
        tool = self._text_tool("update")
        stored = self._tag(user, text)
        data = await self._call(
            tool.name, tool.arguments(text=stored, user=user, memory_id=memory_id)
        )
        try:
            return reply_done(payload(data, tool.name))
        except ReplyShapeError:
            return True

    async def _delete(self, user: str, memory_id: str) -> bool:
        template = self.templates.get("delete")
        if template is not None:
            values = {"user": user, "id": memory_id}
            return reply_done(await self._data(template.tool, fill(template.arguments, values)))
        if self.shape is Shape.GRAPH:
            if not memory_id.startswith(user_prefix(user)) or await self._open(memory_id) is None:
                return False
            await self._call("delete_entities", {"entityNames": [memory_id]})
            return True
        tool = self._text_tool("delete")
        result = await self._call(tool.name, tool.arguments(user=user, memory_id=memory_id))
        try:
            return reply_done(payload(result, tool.name))
        except ReplyShapeError:
            return True

    async def _reset(self, user: str) -> None:
        template = self.templates.get("reset")
        if template is not None:
            await self._call(template.tool, fill(template.arguments, {"user": user}))
        elif self.shape is Shape.GRAPH:
            prefix = user_prefix(user)
            names = [
                entity["name"]
                for entity in await self._entities(prefix)
                if entity["name"].startswith(prefix)
            ]
            for start in range(0, len(names), _CHUNK):
                chunk = names[start : start + _CHUNK]
                await self._call("delete_entities", {"entityNames": chunk})
        elif self.text.reset is not None:
            await self._call(self.text.reset.name, self.text.reset.arguments(user=user))
        elif self.text.delete is not None and self.text.recall is not None:
            await self._reset_by_search(user)

    async def _reset_by_search(self, user: str) -> None:
        """Deletes what a search for the user finds, round after round, while it finds any."""
        search, delete = self._text_tool("recall"), self._text_tool("delete")
        query = f"{_TAG}{json.dumps(user)}" if self.tagged else user
        for _ in range(20):
            data = await self._data(search.name, search.arguments(text=query, user=user, limit=100))
            memories = self._memories(search.name, data)
            if self.tagged:
                memories = [kept for kept in (self._untag(user, m) for m in memories) if kept]
            ids = [memory.id for memory in memories if memory.id]
            if not ids:
                return
            for memory_id in ids:
                await self._call(delete.name, delete.arguments(user=user, memory_id=memory_id))


def _innermost(exc: BaseException) -> BaseException:
    """The first leaf of an exception group (the SDK's task groups wrap what went wrong)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _summary(exc: BaseException) -> str:
    """One line saying what went wrong."""
    exc = _innermost(exc)
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__


__all__ = ["McpAdapter"]
