"""``mem0``: mem0 OSS (PyPI ``mem0ai`` 2.x), its ``Memory`` run in this process.

Each turn goes to ``Memory.add`` as a user and an assistant message, with the turn's timestamp,
session and pair id as metadata, so what is recalled still says when it was said. With ``infer``
(the default) mem0's model extracts facts from the turn; without it, mem0 stores both messages as
they are. A pair mem0 already keeps something from is not added again, so a wave sent again after
failing part way through is not stored twice. ``recall`` is ``Memory.search`` scoped to the user;
``save`` adds a note as is (no extraction, so it has one id); ``update`` and ``delete`` act only on
the user's own memories (mem0's ids are global); ``reset`` is ``delete_all`` for the user.

mem0 sends usage telemetry unless ``MEM0_TELEMETRY`` is false: this module turns it off before
mem0 is imported (and in mem0's modules, should mem0 have been imported already), so scoring
mem0 never calls out of the machine except to the model and stores it is configured with.

Config: ``mem0`` (a mapping passed to ``Memory.from_config`` as is: ``llm``, ``embedder``,
``vector_store``, ``history_db_path``...; unknown top-level keys are refused, since mem0 ignores
them), ``infer`` (bool, default true), ``timeout`` (seconds per model call, default 60) and
``retries`` (default 2), both applied to OpenAI-compatible model clients so a dead model server
gives an error in bounded time, not a hang.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import string
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar
from urllib.parse import quote

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
from dittobench_baseline.store import user_key
from dittobench_baseline.textutil import format_timestamp

# Set before mem0 is imported, which reads it once. mem0 is imported by name because it ships no
# type information; this keeps type checking the same with or without it installed.
os.environ["MEM0_TELEMETRY"] = "False"
Mem0Memory = importlib.import_module("mem0").Memory
MemoryConfig = importlib.import_module("mem0.configs.base").MemoryConfig

T = TypeVar("T")

_ID_SAFE = string.punctuation.replace("%", "")


def _telemetry_off() -> None:
    """mem0 reads ``MEM0_TELEMETRY`` once, at import, into module globals that its notices and
    events check on each call: set them too, in case mem0 was imported before this module."""
    for name in ("mem0.memory.telemetry", "mem0.memory.main"):
        try:
            module = importlib.import_module(name)
        except ImportError:  # another mem0 layout: the environment variable is what it reads
            continue
        if hasattr(module, "MEM0_TELEMETRY"):
            vars(module)["MEM0_TELEMETRY"] = False


_telemetry_off()


def mem0_user(user: str) -> str:
    """The id mem0 keeps for ``user``. mem0 trims ids and refuses whitespace in them, so
    whitespace, ``%`` and non-ASCII characters are percent-encoded: distinct users stay distinct
    (``"a b"`` and ``"a%20b"`` too) and the common plain ids are kept as they are."""
    return quote(user_key(user), safe=_ID_SAFE)


class Mem0Adapter(BaseAdapter):
    name = "mem0"
    version = "1"
    capabilities = frozenset({Capability.SAVE, Capability.UPDATE, Capability.DELETE})

    def __init__(self, config: Mapping[str, Any]) -> None:
        super().__init__()
        check_keys(config, ("mem0", "infer", "timeout", "retries"), self.name)
        settings = dict(config_value(config, "mem0", dict, {}))
        self.infer: bool = config_value(config, "infer", bool, True)
        timeout: float = config_value(config, "timeout", float, 60.0)
        retries: int = config_value(config, "retries", int, 2)
        if timeout <= 0:
            raise AdapterConfigError("timeout: expected a positive number of seconds")
        if retries < 0:
            raise AdapterConfigError("retries: expected 0 or more")
        known = sorted(MemoryConfig.model_fields)
        unknown = sorted(set(settings) - set(known))
        if unknown:
            raise AdapterConfigError(
                f"mem0: unknown key {unknown[0]!r} in config 'mem0' (known: {', '.join(known)})"
            )
        try:
            self.memory = Mem0Memory.from_config(settings)
        except (ValueError, TypeError) as exc:
            raise AdapterConfigError(f"mem0: config 'mem0' refused: {_line(exc)}") from None
        except Exception as exc:
            raise AdapterError(f"mem0: cannot start: {type(exc).__name__}: {_line(exc)}") from exc
        for part in (self.memory.llm, self.memory.embedding_model):
            client = getattr(part, "client", None)
            if client is not None and hasattr(client, "with_options"):
                part.client = client.with_options(timeout=timeout, max_retries=retries)

    def describe(self) -> Mapping[str, str]:
        settings = self.memory.config
        llm = getattr(getattr(self.memory.llm, "config", None), "model", None)
        embedder = getattr(getattr(self.memory.embedding_model, "config", None), "model", None)
        return {
            "system": "mem0",
            "system_version": importlib.metadata.version("mem0ai"),
            "llm": f"{settings.llm.provider}/{llm or '?'}",
            "embedder": f"{settings.embedder.provider}/{embedder or '?'}",
            "vector_store": str(settings.vector_store.provider),
            "infer": "true" if self.infer else "false",
        }

    def ingest(self, turns: Sequence[Turn]) -> None:
        for turn in turns:
            messages = [
                {"role": role, "content": content}
                for role, content in (("user", turn.prompt), ("assistant", turn.response))
                if content.strip()
            ]
            if not messages:
                continue
            metadata = {
                "timestamp": turn.timestamp,
                "session": turn.session,
                "pair_id": turn.pair_id,
            }
            add = partial(
                self.memory.add,
                messages,
                user_id=mem0_user(turn.user),
                metadata=metadata,
                infer=self.infer,
            )
            with self.lock:
                if not self._stored(turn):
                    self._call("add", add)

    def recall(self, user: str, query: str, k: int) -> list[Memory]:
        if k <= 0 or not query.strip():
            return []
        found = self._call(
            "search",
            lambda: self.memory.search(query, top_k=k, filters={"user_id": mem0_user(user)}),
        )
        memories = []
        for item in _results(found, "search")[:k]:
            metadata = item.get("metadata") or {}
            memories.append(
                Memory(
                    text=str(item.get("memory", "")),
                    id=str(item.get("id", "")),
                    timestamp=str(metadata.get("timestamp", "")),
                    score=float(item.get("score") or 0.0),
                )
            )
        return memories

    def save(self, user: str, text: str, timestamp: str) -> str:
        stamp = timestamp or format_timestamp(datetime.now(UTC))
        added = self._call(
            "save",
            lambda: self.memory.add(
                [{"role": "user", "content": text}],
                user_id=mem0_user(user),
                metadata={"timestamp": stamp, "session": "saved"},
                infer=False,
            ),
        )
        results = _results(added, "save")
        if not results or not results[0].get("id"):
            raise AdapterError("mem0: save stored nothing")
        return str(results[0]["id"])

    def update(self, user: str, memory_id: str, text: str) -> bool:
        """Replace the memory's text and restamp it as said now, as the other adapters do."""
        if not self._owned(user, memory_id):
            return False
        stamp = format_timestamp(datetime.now(UTC))
        self._call(
            "update",
            lambda: self.memory.update(memory_id, text=text, metadata={"timestamp": stamp}),
        )
        return True

    def delete(self, user: str, memory_id: str) -> bool:
        if not self._owned(user, memory_id):
            return False
        self._call("delete", lambda: self.memory.delete(memory_id))
        return True

    def reset(self, user: str) -> None:
        self._call("reset", lambda: self.memory.delete_all(user_id=mem0_user(user)))

    def close(self) -> None:
        """Close mem0's history database and the vector store's client (a local Qdrant holds a
        lock on its folder until then)."""
        with self.lock:
            self.memory.close()
            client = getattr(getattr(self.memory, "vector_store", None), "client", None)
            close = getattr(client, "close", None)
            if callable(close):
                close()

    def _stored(self, turn: Turn) -> bool:
        """Whether mem0 already keeps something from this pair (see the module docstring)."""
        scope = {"user_id": mem0_user(turn.user), "pair_id": turn.pair_id}
        found = self._call("get_all", lambda: self.memory.get_all(filters=scope, top_k=1))
        return bool(_results(found, "get_all"))

    def _owned(self, user: str, memory_id: str) -> bool:
        """Whether ``memory_id`` names one of ``user``'s memories (mem0's ids are UUIDs)."""
        try:
            uuid.UUID(memory_id)
        except ValueError:
            return False
        item = self._call("get", lambda: self.memory.get(memory_id))
        return isinstance(item, dict) and item.get("user_id") == mem0_user(user)

    def _call(self, what: str, action: Callable[[], T]) -> T:
        with self.lock:
            try:
                return action()
            except Exception as exc:
                raise AdapterError(
                    f"mem0: {what} failed: {type(exc).__name__}: {_line(exc)}"
                ) from exc


def _results(reply: Any, what: str) -> list[dict[str, Any]]:
    results = reply.get("results") if isinstance(reply, dict) else None
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise AdapterError(f"mem0: {what} replied {type(reply).__name__}, not a results list")
    return results


def _line(exc: BaseException) -> str:
    """The error as one short line; a pydantic validation error (mem0's config models) as what
    each failing field says, since its first line only counts the errors."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        try:
            found = errors()
            text = "; ".join(
                f"{'.'.join(str(part) for part in e['loc'])}: {e['msg']}" for e in found
            )
        except Exception:
            text = str(exc)
    else:
        text = str(exc)
    text = " ".join(text.split())
    return text[:300] if text else "no message"


__all__ = ["Mem0Adapter", "mem0_user"]
