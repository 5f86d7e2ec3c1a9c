"""An adapter served as a harness: ``/seed`` into the memory system, ``/run`` answered by a reader.

``build`` puts the pieces together for ``dittobench harness serve --adapter NAME``: the adapter,
the seeding ledger, the reader (the offline extractive one, or the model reader when a reader URL
is given) and the identity ``/health`` declares, which the engine carries into the report, the
receipt and the pages: the adapter and its version, the system it drives and the reader's locked
settings.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from starlette.applications import Starlette

from dittobench.spec.reading import EXTRACTIVE_1, READER_1, ReaderProtocol
from dittobench_adapters import __version__
from dittobench_adapters.contract import MemoryAdapter
from dittobench_adapters.extractive import ExtractiveReader
from dittobench_adapters.ledger import Ledger
from dittobench_adapters.model_reader import ModelReader
from dittobench_adapters.registry import load_adapter
from dittobench_baseline.agent import Agent
from dittobench_baseline.server import create_app

MAX_DESCRIBED = 8
"""The most of ``describe()`` declared (the identity keeps at most 24 keys in all)."""


@dataclass(frozen=True, slots=True)
class ReaderChoice:
    """Which reader answers: the extractive one when ``url`` is empty, else the model reader at
    ``url`` (an OpenAI-compatible base URL) with ``model`` (default: the locked model)."""

    url: str = ""
    model: str = ""
    api_key: str | None = None
    timeout_s: float = 60.0

    def protocol(self) -> ReaderProtocol:
        if not self.url:
            return EXTRACTIVE_1
        return replace(READER_1, model=self.model) if self.model else READER_1


@dataclass
class AdapterHarness:
    adapter: MemoryAdapter
    ledger: Ledger
    reader: Agent
    identity: dict[str, str]

    def app(self, allow_remote_tools: bool = False) -> Starlette:
        return create_app(
            self.ledger, self.reader, allow_remote_tools=allow_remote_tools, identity=self.identity
        )

    def close(self) -> None:
        close = getattr(self.reader, "close", None)
        if callable(close):
            close()
        self.adapter.close()


def identity_of(adapter: MemoryAdapter, protocol: ReaderProtocol) -> dict[str, str]:
    """What ``/health`` declares: the harness, the adapter, what ``describe()`` says of the
    system (``system`` and ``system_version`` as given, any other key as ``system_<key>``) and
    the reader's settings."""
    described = {}
    for key, value in list(adapter.describe().items())[:MAX_DESCRIBED]:
        name = key if key in ("system", "system_version") else f"system_{key}"
        name = re.sub(r"[^a-z0-9_]", "_", name.lower())[:40]
        if value:
            described[name] = value[:200]
    return {
        "name": "dittobench-adapter-harness",
        "harness_version": __version__,
        "adapter": adapter.name,
        "adapter_version": adapter.version,
        "adapter_capabilities": ",".join(sorted(adapter.capabilities)) or "none",
        **described,
        **protocol.declared(),
    }


def build(name: str, config: Mapping[str, Any], reader: ReaderChoice) -> AdapterHarness:
    """The harness for adapter ``name`` built with ``config``, read by ``reader``."""
    adapter = load_adapter(name, config)
    try:
        ledger = Ledger(adapter)
        protocol = reader.protocol()
        agent: Agent
        if reader.url:
            agent = ModelReader(
                adapter,
                ledger,
                reader.url,
                reader.api_key,
                protocol=protocol,
                timeout_s=reader.timeout_s,
            )
        else:
            agent = ExtractiveReader(adapter, ledger, protocol)
        return AdapterHarness(adapter, ledger, agent, identity_of(adapter, protocol))
    except BaseException:
        adapter.close()
        raise


__all__ = ["AdapterHarness", "ReaderChoice", "build", "identity_of"]
