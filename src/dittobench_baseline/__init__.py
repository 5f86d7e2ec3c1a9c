"""The dittobench reference baseline harness.

It serves the harness wire protocol (``/health``, ``/seed``, ``/run``) over a per-user SQLite
FTS5 memory store. By default it is an honest, model-free floor (``OfflineAgent``): it answers
memory questions by BM25 retrieval and routes tool requests by word overlap with the request's own
tool catalog. In model mode (``ModelAgent``) an OpenAI-compatible chat model drives a bounded
tool-calling loop, with the memory tools served from the same store. It sees only what crosses
the wire.
"""

from dittobench_baseline.agent import OfflineAgent
from dittobench_baseline.model import ModelAgent
from dittobench_baseline.store import Hit, MemoryStore, Retriever
from dittobench_baseline.tools import HttpToolCaller, MemoryTools

__all__ = [
    "Hit",
    "HttpToolCaller",
    "MemoryStore",
    "MemoryTools",
    "ModelAgent",
    "OfflineAgent",
    "Retriever",
]
