"""The tool catalog sent to harnesses: its shape here, its words in the content pack.

Thirty-three tools mirror the reference catalog (same names, argument names, JSON types and
required sets); ``create_reminder`` is our own 34th. The shape (names, argument names, types,
required sets, enums) is the protocol and lives here; every description a harness reads comes
from a content pack's ``catalog.json`` (``docs/packs.md``), so a change of wording is a change of
``pack_sha256``. Each tool's ``parameters`` is a Draft 2020-12 object schema that rejects
unknown arguments. ``SHAPES`` order is the order sent to harnesses and must stay fixed.

A bench version names its shape by id (``BenchPolicy.catalog``, ``SHAPE_TABLES``); every version
so far names ``catalog-1`` (``SHAPES``). A new tool is a new row, ``(*SHAPES, _shape(...))`` under
a new id, named by a new version: the shape an older version names never changes
(``docs/bench-versions.md``, "Adding a tool").
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from dittobench.core.errors import DittobenchError
from dittobench.packs import public_pack
from dittobench.spec.wire import MEMORY_TOOLS, JSONValue, ToolDefinition

_Arg = tuple[str, dict[str, JSONValue], bool]
_Shape = tuple[str, tuple[_Arg, ...]]


class CatalogTextError(DittobenchError, ValueError):
    """A pack's ``catalog.json`` that does not describe exactly the catalog's tools and
    arguments; the message names the tool and argument."""


def _arg(name: str, *, kind: str = "string", required: bool = True, **extra: JSONValue) -> _Arg:
    return name, {"type": kind, **extra}, required


def _list(name: str, *, required: bool = True) -> _Arg:
    return _arg(name, kind="array", required=required, items={"type": "string"}, minItems=1)


def _shape(name: str, *args: _Arg) -> _Shape:
    return name, args


SHAPES: tuple[_Shape, ...] = (
    # Memory: served by the assistant's own store.
    _shape("search_memories", _list("queries")),
    _shape("search_subjects", _list("queries")),
    _shape("search_memories_in_subjects", _arg("subject_id"), _list("queries")),
    _shape("fetch_memories", _list("pairIds"), _arg("stripImages", kind="boolean", required=False)),
    _shape("save_memory", _arg("content")),
    _shape("update_memory", _arg("pair_id"), _arg("content")),
    _shape("delete_memory", _arg("pair_id")),
    # Web.
    _shape(
        "search_web",
        _list("queries"),
        _arg("num_results", kind="integer", required=False, minimum=1),
        _arg("search_mode", required=False, enum=["general", "news", "research"]),
    ),
    _shape("read_links", _list("urls")),
    # Media and documents.
    _shape("create_image", _arg("prompt")),
    _shape("edit_image", _arg("image_url"), _arg("instruction")),
    _shape("artifacts", _arg("spec")),
    # Background agents.
    _shape("execute_agent_job", _arg("task")),
    _shape(
        "execute_agent_workflow",
        _arg("goal"),
        _arg("max_parallel", kind="integer", required=False, minimum=1),
    ),
    _shape("get_agent_job_status", _arg("job_id")),
    _shape(
        "list_agent_jobs",
        _arg("status", required=False),
        _arg("limit", kind="integer", required=False, minimum=1),
    ),
    # Settings.
    _shape("set_theme", _arg("theme")),
    _shape("set_accent_color", _arg("color")),
    _shape("set_chat_font", _arg("font")),
    _shape("set_main_model", _arg("model")),
    _shape("set_reasoning_effort", _arg("effort", enum=["low", "medium", "high"])),
    _shape("set_chat_tool_preferences", _arg("preferences")),
    # Automations and recipes.
    _shape("create_automation", _arg("schedule"), _arg("task")),
    _shape("list_automations"),
    _shape("create_recipe", _arg("name"), _list("steps")),
    _shape("apply_recipe", _arg("name")),
    # Calendar, email and reminders.
    _shape("calendar_create_event", _arg("title"), _arg("when")),
    _shape("calendar_search_events", _arg("query")),
    _shape("gmail_send", _arg("to"), _arg("subject", required=False), _arg("body")),
    _shape("create_reminder", _arg("message"), _arg("remind_at")),
    # Code and meta.
    _shape("run_code", _arg("code")),
    _shape("search_tools", _arg("query")),
    _shape("discover_capabilities", _arg("query", required=False)),
    _shape("file_feedback_for_team", _arg("message")),
)

TOOL_NAMES: tuple[str, ...] = tuple(name for name, _ in SHAPES)

DEFAULT_CATALOG: Final = "catalog-1"
"""The shape of every bench version so far (``SHAPES``)."""

SHAPE_TABLES: Final[MappingProxyType[str, tuple[_Shape, ...]]] = MappingProxyType(
    {DEFAULT_CATALOG: SHAPES}
)
"""Every catalog shape by id; a bench version names one (``BenchPolicy.catalog``)."""


class UnknownCatalogError(DittobenchError, ValueError):
    """A bench version names a catalog shape this build lacks."""


def shape_of(catalog_id: str = DEFAULT_CATALOG) -> tuple[_Shape, ...]:
    """The catalog shape ``catalog_id``, or ``UnknownCatalogError`` listing the known ones."""
    try:
        return SHAPE_TABLES[catalog_id]
    except KeyError:
        known = ", ".join(SHAPE_TABLES)
        raise UnknownCatalogError(
            f"unknown catalog {catalog_id!r}; this build has: {known}"
        ) from None


def tool_names(catalog_id: str = DEFAULT_CATALOG) -> tuple[str, ...]:
    """The tools of catalog ``catalog_id``, in the order sent to harnesses."""
    return tuple(name for name, _ in shape_of(catalog_id))


def catalog_with_text(
    text: Mapping[str, Any], where: str = "catalog.json", catalog_id: str = DEFAULT_CATALOG
) -> tuple[ToolDefinition, ...]:
    """Catalog ``catalog_id`` with the descriptions of ``text`` (a pack's ``catalog.json``: for
    every tool, ``{"description": ..., "parameters": {argument: description}}``, nothing more or
    less)."""
    shapes = shape_of(catalog_id)
    extra = sorted(set(text) - {name for name, _ in shapes})
    if extra:
        raise CatalogTextError(f"{where}: no such tool {extra[0]!r} in the catalog")
    return tuple(_described(name, args, text.get(name), where) for name, args in shapes)


def _described(name: str, args: tuple[_Arg, ...], entry: Any, where: str) -> ToolDefinition:
    if not isinstance(entry, dict) or not isinstance(entry.get("description"), str):
        raise CatalogTextError(f"{where}: key {name!r} needs a string 'description'")
    words = entry.get("parameters", {})
    names = [arg for arg, _, _ in args]
    if not isinstance(words, dict) or sorted(words) != sorted(names):
        raise CatalogTextError(f"{where}: key {name}.parameters must describe exactly {names}")
    properties: dict[str, JSONValue] = {}
    for arg, schema, _ in args:
        if not isinstance(words[arg], str):
            raise CatalogTextError(f"{where}: key {name}.parameters.{arg} must be a string")
        properties[arg] = {
            "type": schema["type"],
            "description": words[arg],
            **{k: v for k, v in schema.items() if k != "type"},
        }
    return ToolDefinition(
        name=name,
        description=entry["description"],
        parameters={
            "type": "object",
            "properties": properties,
            "required": [arg for arg, _, required in args if required],
            "additionalProperties": False,
        },
    )


CATALOG: tuple[ToolDefinition, ...] = catalog_with_text(public_pack().file("catalog"))
"""The catalog in the default public pack's words."""

_BY_NAME: dict[str, ToolDefinition] = {tool.name: tool for tool in CATALOG}


def get_tool(name: str) -> ToolDefinition:
    """The catalog entry called ``name``; ``KeyError`` if there is none."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown tool {name!r}: not in the catalog") from None


def required_args(name: str, catalog_id: str = DEFAULT_CATALOG) -> tuple[str, ...]:
    """The required argument names of tool ``name`` of catalog ``catalog_id``, in declared
    order; ``KeyError`` if it has no such tool."""
    for tool, args in shape_of(catalog_id):
        if tool == name:
            return tuple(arg for arg, _, required in args if required)
    raise KeyError(f"unknown tool {name!r}: not in the catalog")


def is_known_tool(name: str, catalog_id: str = DEFAULT_CATALOG) -> bool:
    """Whether catalog ``catalog_id`` has a tool ``name``."""
    return name in tool_names(catalog_id)


__all__ = [
    "CATALOG",
    "DEFAULT_CATALOG",
    "MEMORY_TOOLS",
    "SHAPES",
    "SHAPE_TABLES",
    "TOOL_NAMES",
    "CatalogTextError",
    "UnknownCatalogError",
    "catalog_with_text",
    "get_tool",
    "is_known_tool",
    "required_args",
    "shape_of",
    "tool_names",
]
