"""The adapter contract: what a memory system must do to be scored through dittobench.

A memory system that only stores and retrieves is wrapped by one small class with these methods;
``dittobench harness serve --adapter NAME`` turns it into a harness that speaks the protocol, and
a reader (``readers``) answers each question from what ``recall`` returns.

- ``ingest(turns)``: store conversation turns. Called with each ``/seed`` wave's new pairs, in
  order, at most once per pair (the harness keeps a ledger, so a re-sent wave is not stored twice).
- ``recall(user, query, k)``: at most ``k`` memories for ``user`` relevant to ``query``, best first.
- ``save`` / ``update`` / ``delete``: optional; declared in ``capabilities``. A system without them
  is still scored: the reader says it cannot change what is stored instead of pretending it did.
- ``reset(user)``: forget everything about ``user``. The harness calls it the first time it sees a
  user, so a persistent system starts each run clean.
- ``describe()``: what is measured: ``system`` and ``system_version``, and any other short
  string worth naming (a model, a store), reported in ``/health`` (as ``system_<key>``) and from
  there in the report, the receipt and the pages.

Every method may raise ``AdapterError`` when the system fails; the harness turns it into a 502, so
the engine records a failed delivery, never a wrong answer. Methods are called from several
threads at once: an adapter that is not thread-safe guards itself (``BaseAdapter.lock``).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

from dittobench_baseline.agent import UpstreamError


class AdapterError(UpstreamError):
    """The memory system failed (unreachable, an error reply, a reply of the wrong shape). The
    message is one line naming the adapter and what failed."""


class AdapterConfigError(ValueError):
    """An adapter's configuration is wrong: a missing or misspelt key, a value of the wrong type."""


class Capability(StrEnum):
    SAVE = "save"
    UPDATE = "update"
    DELETE = "delete"


@dataclass(frozen=True, slots=True)
class Turn:
    """One exchange to store: what the user said (``prompt``) and what the assistant replied
    (``response``), in session ``session`` at ``timestamp`` (ISO 8601, as the dataset gives it).
    ``pair_id`` is the exchange's id in the run; a system that keeps its own ids may ignore it."""

    user: str
    session: str
    timestamp: str
    pair_id: str
    prompt: str
    response: str

    def text(self) -> str:
        """The exchange as one block of text, for systems that store plain strings."""
        return f"[{self.timestamp}] user: {self.prompt}\nassistant: {self.response}"


@dataclass(frozen=True, slots=True)
class Memory:
    """One recalled memory. ``text`` is what was said or noted (the user's turn, a fact the system
    extracted); ``reply`` is the assistant's side when the system keeps an exchange whole.
    ``timestamp`` is when it was said (ISO 8601) when the system keeps it, else empty; ``id`` is
    the system's handle, used by ``update`` and ``delete``."""

    text: str
    id: str = ""
    timestamp: str = ""
    reply: str = ""
    score: float = 0.0


@runtime_checkable
class MemoryAdapter(Protocol):
    """What the adapter harness drives (see the module docstring)."""

    name: str
    """The adapter's registry name, e.g. ``mcp``."""
    version: str
    """The adapter's own version: bump it when its mapping to the system changes."""
    capabilities: frozenset[Capability]

    def describe(self) -> Mapping[str, str]: ...

    def ingest(self, turns: Sequence[Turn]) -> None: ...

    def recall(self, user: str, query: str, k: int) -> list[Memory]: ...

    def save(self, user: str, text: str, timestamp: str) -> str: ...

    def update(self, user: str, memory_id: str, text: str) -> bool: ...

    def delete(self, user: str, memory_id: str) -> bool: ...

    def reset(self, user: str) -> None: ...

    def close(self) -> None: ...


class BaseAdapter:
    """Defaults for the optional parts: no save, update or delete, nothing to close. Subclasses
    set ``name``, ``version`` and ``capabilities`` and implement the rest."""

    name = "base"
    version = "0"
    capabilities: frozenset[Capability] = frozenset()

    def __init__(self) -> None:
        self.lock = threading.RLock()

    def describe(self) -> Mapping[str, str]:
        return {"system": self.name}

    def save(self, user: str, text: str, timestamp: str) -> str:
        raise AdapterError(f"{self.name}: cannot save")

    def update(self, user: str, memory_id: str, text: str) -> bool:
        raise AdapterError(f"{self.name}: cannot update")

    def delete(self, user: str, memory_id: str) -> bool:
        raise AdapterError(f"{self.name}: cannot delete")

    def close(self) -> None:
        return None


def config_value(config: Mapping[str, Any], key: str, kind: type, default: Any) -> Any:
    """``config[key]`` checked to be a ``kind`` (``default`` when absent), else
    ``AdapterConfigError`` naming the key."""
    if key not in config:
        return default
    value = config[key]
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise AdapterConfigError(f"{key}: expected {kind.__name__}, got {type(value).__name__}")
    return value


def check_keys(config: Mapping[str, Any], allowed: Sequence[str], adapter: str) -> None:
    """Refuse keys an adapter does not read, so a misspelt one is not silently ignored."""
    unknown = sorted(set(config) - set(allowed))
    if unknown:
        known = ", ".join(allowed) or "none"
        raise AdapterConfigError(f"{adapter}: unknown config key {unknown[0]!r} (known: {known})")


__all__ = [
    "AdapterConfigError",
    "AdapterError",
    "BaseAdapter",
    "Capability",
    "Memory",
    "MemoryAdapter",
    "Turn",
    "check_keys",
    "config_value",
]
