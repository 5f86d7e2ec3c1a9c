"""Mapping the contract onto the server's tools: the roles mapped by hand in the config's
``tools`` (an argument template per role, filled by ``fill``), the text-memory tools found by
their names and input schemas, and the shape of memory the server turned out to have."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from mcp.types import Tool

from dittobench_adapters.contract import AdapterConfigError, check_keys, config_value

ROLE_FIELDS: Mapping[str, tuple[str, ...]] = {
    "ingest": ("user", "session", "timestamp", "pair_id", "prompt", "response", "text"),
    "recall": ("user", "query", "k"),
    "save": ("user", "text", "timestamp"),
    "update": ("user", "id", "text"),
    "delete": ("user", "id"),
    "reset": ("user",),
}
"""The placeholders each mappable role fills in its argument template."""

_PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_]+)\}")
_NAME_TOKEN = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")

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


class Shape(Enum):
    GRAPH = "knowledge-graph"
    TEXT = "text"
    NONE = "none"


# Roles mapped by hand


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


def tool_templates(config: Mapping[str, Any]) -> dict[str, ToolTemplate]:
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
