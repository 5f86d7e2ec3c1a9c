"""Memory systems scored through dittobench: the adapter contract (``contract``), the adapters
that ship with it (``systems``), the readers that answer from what a system recalls and the
harness that serves an adapter over the protocol (``harness``). See docs/adapters.md."""

from dittobench_adapters.contract import (
    AdapterConfigError,
    AdapterError,
    BaseAdapter,
    Capability,
    Memory,
    MemoryAdapter,
    Turn,
)

__version__ = "1"
"""The adapter harness's version: bump it when the ledger or a reader changes behaviour."""

__all__ = [
    "AdapterConfigError",
    "AdapterError",
    "BaseAdapter",
    "Capability",
    "Memory",
    "MemoryAdapter",
    "Turn",
    "__version__",
]
