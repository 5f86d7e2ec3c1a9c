"""The tool catalog: the tools a harness is offered, with JSON Schemas for their arguments."""

from dittobench.catalog.tools import (
    CATALOG,
    MEMORY_TOOLS,
    SHAPES,
    TOOL_NAMES,
    CatalogTextError,
    catalog_with_text,
    get_tool,
    is_known_tool,
    required_args,
)

__all__ = [
    "CATALOG",
    "MEMORY_TOOLS",
    "SHAPES",
    "TOOL_NAMES",
    "CatalogTextError",
    "catalog_with_text",
    "get_tool",
    "is_known_tool",
    "required_args",
]
