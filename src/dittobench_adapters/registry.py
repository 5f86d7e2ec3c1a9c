"""Finding an adapter by name: a built-in one (``BUILTIN``) or any ``module:Class`` on the path.

An adapter class is built with its configuration, a JSON object: ``Class(config)``. Built-in
adapters are imported only when asked for, so a system's client library is needed only by those
who score that system.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from dittobench_adapters.contract import AdapterConfigError, MemoryAdapter

BUILTIN: Mapping[str, str] = {
    "lexical": "dittobench_adapters.systems.lexical:LexicalAdapter",
    "embedding": "dittobench_adapters.systems.embedding:EmbeddingAdapter",
    "mcp": "dittobench_adapters.systems.mcp:McpAdapter",
    "mem0": "dittobench_adapters.systems.mem0:Mem0Adapter",
}
"""Name -> ``module:Class`` of the adapters that ship with dittobench."""


def load_adapter(name: str, config: Mapping[str, Any]) -> MemoryAdapter:
    """The adapter ``name`` (a built-in name or ``module:Class``) built with ``config``.
    ``AdapterConfigError`` names what is wrong: an unknown name, a module that does not import
    (a missing extra, say), a class that is not an adapter."""
    target = BUILTIN.get(name, name)
    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        known = ", ".join(sorted(BUILTIN))
        raise AdapterConfigError(
            f"adapter {name!r} is not built in ({known}) nor a module:Class path"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise AdapterConfigError(f"adapter {name!r}: cannot import {module_name}: {exc}") from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise AdapterConfigError(f"adapter {name!r}: {module_name} has no {attr}")
    adapter = cls(dict(config))
    if not isinstance(adapter, MemoryAdapter):
        raise AdapterConfigError(f"adapter {name!r}: {target} does not implement MemoryAdapter")
    return adapter


__all__ = ["BUILTIN", "load_adapter"]
