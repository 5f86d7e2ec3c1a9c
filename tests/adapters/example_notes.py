"""The worked example of docs/adapters.md: a memory system that keeps plain notes, one list per
user, and recalls the notes sharing the most words with the query. It is tested as users would run
it: `dittobench harness serve --adapter tests.adapters.example_notes:NotesAdapter`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from dittobench_adapters import BaseAdapter, Capability, Memory, Turn
from dittobench_adapters.contract import check_keys


class NotesAdapter(BaseAdapter):
    name = "notes"
    version = "1"
    capabilities = frozenset({Capability.SAVE, Capability.DELETE})

    def __init__(self, config: Mapping[str, Any]) -> None:
        super().__init__()
        check_keys(config, (), self.name)
        self.notes: dict[str, list[Memory]] = {}

    def ingest(self, turns: Sequence[Turn]) -> None:
        with self.lock:
            for turn in turns:
                memory = Memory(turn.prompt, turn.pair_id, turn.timestamp, turn.response)
                self.notes.setdefault(turn.user, []).append(memory)

    def recall(self, user: str, query: str, k: int) -> list[Memory]:
        wanted = _words(query)
        with self.lock:
            mine = list(self.notes.get(user, []))
        scored = [(len(wanted & _words(f"{m.text} {m.reply}")), i, m) for i, m in enumerate(mine)]
        best = sorted((s for s in scored if s[0]), key=lambda s: (-s[0], -s[1]))
        return [memory for _, _, memory in best[:k]]

    def save(self, user: str, text: str, timestamp: str) -> str:
        with self.lock:
            notes = self.notes.setdefault(user, [])
            ident = f"note-{len(notes)}"
            notes.append(Memory(text, ident, timestamp))
        return ident

    def delete(self, user: str, memory_id: str) -> bool:
        with self.lock:
            before = self.notes.get(user, [])
            self.notes[user] = [m for m in before if m.id != memory_id]
            return len(self.notes[user]) < len(before)

    def reset(self, user: str) -> None:
        with self.lock:
            self.notes.pop(user, None)


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2}
