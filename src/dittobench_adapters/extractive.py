"""The offline reader (``EXTRACTIVE_1``): the baseline harness's answerer over recalled memories.

It decides what a message asks exactly as the baseline does (``dittobench_baseline.intent``):
tool requests go through the baseline's router to the run's tool endpoint, small talk gets a short
reply. What differs is memory: a question is answered only from the ``top_k`` memories the adapter
recalls for it (loaded into a scratch store that lives for that one answer, then the baseline's
sentence-picking ``recall``), and a request to remember, change or forget something goes to the
memory system. So two adapters read by this reader differ only in what their systems recall.

Writes: a note is saved with ``save`` (or ingested as a turn when the system has no ``save``); a
change updates the best matching memory when the system can, else deletes it and saves the new
note, else saves the new note beside it; a request to forget deletes the matching memories when
the system can, and otherwise says it cannot (no ``delete_memory`` call is claimed).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from dittobench.spec.reading import EXTRACTIVE_1, ReaderProtocol
from dittobench.spec.wire import Pair, RunResponse, SeedRequest
from dittobench_adapters.contract import Capability, Memory, MemoryAdapter, Turn
from dittobench_adapters.ledger import Ledger
from dittobench_baseline.agent import OfflineAgent
from dittobench_baseline.evidence import QUESTION_FILLER
from dittobench_baseline.intent import WriteIntent
from dittobench_baseline.recall import recall
from dittobench_baseline.router import find_ids
from dittobench_baseline.store import MemoryStore
from dittobench_baseline.textutil import content_stems
from dittobench_baseline.tools import CallTrace

SCRATCH_USER = "reader"


class ExtractiveReader(OfflineAgent):
    """Answers from what ``adapter`` recalls; thread-safe as long as the adapter is."""

    def __init__(
        self, adapter: MemoryAdapter, ledger: Ledger, protocol: ReaderProtocol = EXTRACTIVE_1
    ) -> None:
        self.adapter = adapter
        self.ledger = ledger
        self.protocol = protocol

    def recall(self, user: str, question: str, trace: CallTrace) -> RunResponse:
        memories = self.adapter.recall(user, question, self.protocol.top_k)
        with MemoryStore(":memory:") as scratch:
            scratch.upsert(SeedRequest(user_id=SCRATCH_USER, pairs=_pairs(memories, self.protocol)))
            return recall(scratch, SCRATCH_USER, question, trace)

    def write(self, user: str, intent: WriteIntent, trace: CallTrace) -> RunResponse:
        if intent.kind == "save":
            self._save(user, intent.content, trace)
            return _done("Saved. I'll remember that.", "Saved", trace)
        targets = self._targets(user, intent.topic)
        caps = self.adapter.capabilities
        if intent.kind == "update":
            if targets and Capability.UPDATE in caps:
                self.adapter.update(user, targets[0].id, intent.content)
                trace.add("update_memory", {"pair_id": targets[0].id, "content": intent.content})
            else:
                if targets and Capability.DELETE in caps:
                    self.adapter.delete(user, targets[0].id)
                    trace.add("delete_memory", {"pair_id": targets[0].id})
                self._save(user, intent.content, trace)
            return _done("Updated. I've changed that in my notes.", "Updated", trace)
        if Capability.DELETE not in caps:
            return RunResponse(
                final_text="I can't remove things from my memory, so that is still stored.",
                tool_calls=tuple(trace.calls),
            )
        for memory in targets:
            self.adapter.delete(user, memory.id)
            trace.add("delete_memory", {"pair_id": memory.id})
        if not targets:
            return _done(
                "Deleted. There was nothing stored about that, so nothing is kept.",
                "Deleted",
                trace,
            )
        return _done("Deleted. I've removed that from my memory.", "Deleted", trace)

    def _save(self, user: str, content: str, trace: CallTrace) -> None:
        stamp = self.ledger.next_stamp(user)
        if Capability.SAVE in self.adapter.capabilities:
            self.adapter.save(user, content, stamp)
        else:
            digest = hashlib.sha256(f"{user}\0{stamp}\0{content}".encode()).hexdigest()
            ident = f"note-{digest[:16]}"
            self.adapter.ingest([Turn(user, "notes", stamp, ident, content, "")])
        trace.add("save_memory", {"content": content})

    def _targets(self, user: str, topic: str) -> list[Memory]:
        """The recalled memories a change or deletion is about: the ones an id in the request
        names, else those that mention most of the topic's content words."""
        recalled = [m for m in self.adapter.recall(user, topic, self.protocol.top_k) if m.id]
        named = set(find_ids(topic))
        if named:
            return [m for m in recalled if m.id in named]
        wanted = content_stems(topic) - QUESTION_FILLER
        if not wanted:
            return []
        need = len(wanted) if len(wanted) <= 2 else max(2, (len(wanted) * 2 + 2) // 3)
        return [m for m in recalled if len(wanted & content_stems(f"{m.text} {m.reply}")) >= need]


def _pairs(memories: Sequence[Memory], protocol: ReaderProtocol) -> tuple[Pair, ...]:
    cut = protocol.memory_chars
    pairs: dict[str, Pair] = {}
    for index, memory in enumerate(memories[: protocol.top_k]):
        ident = memory.id or f"recalled-{index}"
        if ident not in pairs:
            pairs[ident] = Pair(
                ident, "recalled", memory.timestamp, memory.text[:cut], memory.reply[:cut]
            )
    return tuple(pairs.values())


def _done(text: str, answer: str, trace: CallTrace) -> RunResponse:
    return RunResponse(
        final_text=text, tool_calls=tuple(trace.calls), answer=answer, confidence=1.0
    )


__all__ = ["ExtractiveReader"]
