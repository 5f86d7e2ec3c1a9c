"""The dittobench reference baseline harness: an honest, model-free floor.

It serves the harness wire protocol (``/health``, ``/seed``, ``/run``) over a per-user SQLite
FTS5 memory store, answers memory questions by BM25 retrieval and routes tool requests by word
overlap with the request's own tool catalog. It sees only what crosses the wire.
"""

from dittobench_baseline.agent import HttpToolCaller, MemoryTools, OfflineAgent
from dittobench_baseline.store import Hit, MemoryStore, Retriever

__all__ = ["Hit", "HttpToolCaller", "MemoryStore", "MemoryTools", "OfflineAgent", "Retriever"]
