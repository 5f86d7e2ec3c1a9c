"""The tool catalog: the tools a harness is offered, with JSON Schemas for their arguments."""

from dittobench.catalog.tools import (
    CATALOG,
    DEFAULT_CATALOG,
    MEMORY_TOOLS,
    SHAPE_TABLES,
    SHAPES,
    TOOL_NAMES,
    CatalogTextError,
    UnknownCatalogError,
    catalog_with_text,
    get_tool,
    is_known_tool,
    required_args,
    shape_of,
    tool_names,
)

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
