"""Whether a reported or observed tool call carries out a write instruction.

A save or an update must store the new code (``save_memory`` or ``update_memory`` with the code
in any argument); a delete must remove a stored pair that held the old code (``delete_memory``
naming one of the instruction's evidence pairs) and nothing else: wiping every memory to be sure
is not carrying out an instruction. The read-back then proves the write took effect
(``grade.run``).

A harness names a pair by the id it was shown, which in a run keyed by a nonce is not the
dataset's (``spec.wireids``): every string of a delete's arguments goes through ``to_dataset``
(``WireIds.dataset_id``) before it is compared with the instruction's pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Final

from dittobench.grade.match import hit, normalize
from dittobench.spec.memory import MemoryCase
from dittobench.spec.wire import JSONValue, ToolCall

STORING_TOOLS: Final = frozenset(("save_memory", "update_memory"))
DELETING_TOOL: Final = "delete_memory"
_MAX_DEPTH = 8


def _same(text: str) -> str:
    return text


def _strings(value: JSONValue, depth: int = 0) -> Iterator[str]:
    """Every string (and number, as text) inside an argument value, keys included."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield str(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, depth + 1)


def write_done(
    case: MemoryCase, calls: Iterable[ToolCall], to_dataset: Callable[[str], str] = _same
) -> bool:
    """Whether ``calls`` (reported or observed, in any order) carry out the write instruction
    ``case``: one of them does what it asked, and no delete removes anything else. ``to_dataset``
    maps an id the harness quotes back to the dataset's (the identity for a run without a
    nonce)."""
    calls = tuple(calls)
    if not any(write_matches(case, call, to_dataset) for call in calls):
        return False
    if case.write_op != "delete":
        return True
    return all(
        write_matches(case, call, to_dataset) for call in calls if call.name == DELETING_TOOL
    )


def write_matches(
    case: MemoryCase, call: ToolCall, to_dataset: Callable[[str], str] = _same
) -> bool:
    """Whether ``call`` does what the write instruction ``case`` asked; a pair is named by the
    id the harness was shown, mapped back by ``to_dataset``."""
    if case.write_op in ("save", "update"):
        codes = [c for c in case.answer_items if c]
        return call.name in STORING_TOOLS and any(
            hit(text, code) for text in _strings(call.args) for code in codes
        )
    if case.write_op == "delete":
        pairs = {normalize(p) for p in case.evidence_pair_ids}
        return call.name == DELETING_TOOL and any(
            normalize(to_dataset(text)) in pairs for text in _strings(call.args)
        )
    return False


__all__ = ["DELETING_TOOL", "STORING_TOOLS", "write_done", "write_matches"]
