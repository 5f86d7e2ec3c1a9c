"""Carrying out a write intent on the store, and acknowledging it.

A save stores the content. An update replaces the most recent pair the topic names (by id, else
by its content words), or saves the content when none matches. A delete removes every matching
pair. Each store change is recorded in the trace as the memory tool that makes it.
"""

from __future__ import annotations

from dittobench.spec.wire import RunResponse
from dittobench_baseline.evidence import QUESTION_FILLER, SEARCH_DEPTH
from dittobench_baseline.intent import WriteIntent
from dittobench_baseline.router import find_ids
from dittobench_baseline.store import Hit, MemoryStore
from dittobench_baseline.textutil import content_stems
from dittobench_baseline.tools import CallTrace


def write_memory(
    store: MemoryStore, user: str, intent: WriteIntent, trace: CallTrace
) -> RunResponse:
    if intent.kind == "save":
        return _save(store, user, intent.content, trace)
    named = store.fetch(user, find_ids(intent.topic))
    targets = named or matching_pairs(store, user, intent.topic)
    if intent.kind == "update":
        return _update(store, user, targets, intent.content, trace)
    return _delete(store, user, targets, trace)


def _save(store: MemoryStore, user: str, content: str, trace: CallTrace) -> RunResponse:
    store.save(user, content)
    trace.add("save_memory", {"content": content})
    return RunResponse(
        final_text="Saved. I'll remember that.",
        tool_calls=tuple(trace.calls),
        answer="Saved",
        confidence=1.0,
    )


def _update(
    store: MemoryStore, user: str, targets: list[Hit], content: str, trace: CallTrace
) -> RunResponse:
    if targets:
        target = max(targets, key=lambda h: (h.moment is not None, h.moment, h.seq))
        store.update(user, target.pair_id, content)
        trace.add("update_memory", {"pair_id": target.pair_id, "content": content})
    else:
        store.save(user, content)
        trace.add("save_memory", {"content": content})
    return RunResponse(
        final_text="Updated. I've changed that in my notes.",
        tool_calls=tuple(trace.calls),
        answer="Updated",
        confidence=1.0,
    )


def _delete(store: MemoryStore, user: str, targets: list[Hit], trace: CallTrace) -> RunResponse:
    for hit in targets:
        store.delete(user, hit.pair_id)
        trace.add("delete_memory", {"pair_id": hit.pair_id})
    return RunResponse(
        final_text="Deleted. I've removed that from my memory."
        if targets
        else "Deleted. There was nothing stored about that, so nothing is kept.",
        tool_calls=tuple(trace.calls),
        answer="Deleted",
        confidence=1.0,
    )


def matching_pairs(store: MemoryStore, user: str, topic: str) -> list[Hit]:
    """Pairs that mention most of the topic's content words (all of them for short topics)."""
    wanted = content_stems(topic) - QUESTION_FILLER
    if not wanted:
        return []
    need = len(wanted) if len(wanted) <= 2 else max(2, (len(wanted) * 2 + 2) // 3)
    out = []
    for hit in store.search(user, topic, SEARCH_DEPTH):
        have = content_stems(f"{hit.prompt} {hit.response}")
        if len(wanted & have) >= need:
            out.append(hit)
    return out
