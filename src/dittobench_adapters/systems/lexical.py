"""``lexical``: the honest lexical floor, turns kept whole in SQLite and ranked by BM25.

It is the baseline harness's own store (``dittobench_baseline.store``) behind the adapter
contract, so the adapter harness with this adapter and the extractive reader is a yardstick for
every other adapter: a memory system that recalls worse than BM25 over raw turns is not helping.

Config: ``{"db": "FILE"}`` keeps the store in a SQLite file (default: in memory).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dittobench.spec.wire import Pair, SeedRequest
from dittobench_adapters.contract import (
    BaseAdapter,
    Capability,
    Memory,
    Turn,
    check_keys,
    config_value,
)
from dittobench_baseline.store import MemoryStore


class LexicalAdapter(BaseAdapter):
    name = "lexical"
    version = "1"
    capabilities = frozenset({Capability.SAVE, Capability.UPDATE, Capability.DELETE})

    def __init__(self, config: Mapping[str, Any]) -> None:
        super().__init__()
        check_keys(config, ("db",), self.name)
        self.store = MemoryStore(config_value(config, "db", str, ":memory:"))

    def describe(self) -> Mapping[str, str]:
        return {"system": "sqlite-fts5-bm25"}

    def ingest(self, turns: Sequence[Turn]) -> None:
        by_user: dict[str, list[Pair]] = {}
        for turn in turns:
            pair = Pair(turn.pair_id, turn.session, turn.timestamp, turn.prompt, turn.response)
            by_user.setdefault(turn.user, []).append(pair)
        for user, pairs in by_user.items():
            self.store.upsert(SeedRequest(user_id=user, pairs=tuple(pairs)))

    def recall(self, user: str, query: str, k: int) -> list[Memory]:
        return [
            Memory(hit.prompt, hit.pair_id, hit.timestamp, hit.response, hit.score)
            for hit in self.store.search(user, query, k)
        ]

    def save(self, user: str, text: str, timestamp: str) -> str:
        return self.store.save(user, text, timestamp or None)

    def update(self, user: str, memory_id: str, text: str) -> bool:
        return self.store.update(user, memory_id, text)

    def delete(self, user: str, memory_id: str) -> bool:
        return self.store.delete(user, memory_id)

    def reset(self, user: str) -> None:
        for hit in self.store.all_pairs(user):
            self.store.delete(user, hit.pair_id)

    def close(self) -> None:
        self.store.close()
