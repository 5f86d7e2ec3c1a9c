"""The tool catalog: the tools a harness is offered, with JSON Schemas for their arguments."""

from dittobench.catalog.tools import (
    CATALOG,
    MEMORY_TOOLS,
    TOOL_NAMES,
    get_tool,
    is_known_tool,
    required_args,
)

__all__ = [
    "CATALOG",
    "MEMORY_TOOLS",
    "TOOL_NAMES",
    "get_tool",
    "is_known_tool",
    "required_args",
]
