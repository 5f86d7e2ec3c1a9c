"""Read what a harness sends: liberal where the protocol says a field is ignored or optional,
strict where the grader reads it, and always something that can be stored and hashed.

The engine decodes ``POST /run`` replies with ``run_response`` and tool-endpoint calls with
``tool_exec_request``; the rules (docs/engine.md, "Hostile harnesses and neighbours"):

- JSON nested deeper than ``MAX_DEPTH`` levels (counted from the body's top level) is refused
  with a ``DecodeError`` (the case is recorded as ``bad_json``; the endpoint answers 400);
- text anywhere (values, object keys, tool names) has lone surrogates replaced by "?";
- integers beyond +-(2**53 - 1) inside ``args`` become strings; ``hop`` and token counts are
  clamped into that range;
- ``latency_ms`` is ignored whatever it holds; ``prompt_tokens``, ``output_tokens`` and ``hop``
  take an integer, an integral-looking float or numeric string, and read anything else (or
  ``null``) as 0; ``confidence`` outside [0, 1] or not a number reads as absent;
- fields the grader reads keep their type (``final_text`` and ``answer`` text, ``answer`` may
  also be a bare number, ``abstain`` a boolean, ``tool_calls`` an array of objects with a string
  ``name``); ``null`` reads as absent; anything else makes the reply ``bad_json``;
- at most ``CALLS_KEPT`` reported tool calls are kept per reply; the rest are counted, not read;
- ``retrieved`` is a diagnostic, never graded, so it is read as liberally as can be: anything
  but an array reads as empty, items that are not strings (or are empty, or longer than
  ``RETRIEVED_ID_LIMIT``) are dropped, a repeated id is kept once (where it first appears) and at
  most ``RETRIEVED_KEPT`` ids are kept.
"""

from __future__ import annotations

import math
from typing import Any

from dittobench.core.canonical import MAX_SAFE_INTEGER
from dittobench.spec.codec import DecodeError
from dittobench.spec.transcript import json_safe, safe_text
from dittobench.spec.wire import RunResponse, SeedResponse, ToolCall, ToolExecRequest

MAX_DEPTH = 64
"""Deepest JSON nesting read from a harness (a tool call's ``args`` sit four levels down)."""

CALLS_KEPT = 200
"""Tool calls kept per case: the reported calls of one reply, and the calls the tool endpoint
records for one case (beyond it the endpoint answers 429). The grader's discipline penalty and
efficiency factor saturate long before."""

RETRIEVED_KEPT = 100
"""Pair ids kept from a reply's ``retrieved`` list (the first ones, repeats dropped); recall is
measured at 10 at most."""

RETRIEVED_ID_LIMIT = 200
"""Longest pair id kept in ``retrieved`` (longer text is dropped): pair ids are short, so a
longer one is never a pair the harness was shown and would only bloat the transcript."""

_NUMBER_TEXT_LIMIT = 32


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when ``value`` nests arrays and objects more than ``limit`` levels deep (iterative,
    so it never meets the interpreter's recursion limit)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def repair_text(value: Any) -> Any:
    """``value`` with lone surrogates replaced by "?" in every string and object key; nothing
    else changes (for requests a harness decodes with the spec's strict decoder)."""
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, dict):
        return {safe_text(str(k)): repair_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [repair_text(v) for v in value]
    return value


def clamp(value: int, low: int = -MAX_SAFE_INTEGER) -> int:
    """``value`` within [low, 2**53 - 1]."""
    return min(max(value, low), MAX_SAFE_INTEGER)


def lenient_int(value: Any, low: int = -MAX_SAFE_INTEGER) -> int:
    """An integer read liberally and clamped: ints, finite floats (rounded) and numeric strings
    count; anything else (``null``, booleans, objects, text) reads as 0."""
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return clamp(value, low)
    if isinstance(value, float):
        return clamp(round(value), low) if math.isfinite(value) else 0
    if isinstance(value, str) and len(value) <= _NUMBER_TEXT_LIMIT:
        try:
            number = float(value.strip())
        except ValueError:
            return 0
        return clamp(round(number), low) if math.isfinite(number) else 0
    return 0


def _confidence(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    if isinstance(value, int):  # float() of a 400-digit integer overflows
        return float(value) if value in (0, 1) else None
    if isinstance(value, str):
        if len(value) > _NUMBER_TEXT_LIMIT:
            return None
        try:
            value = float(value.strip())
        except ValueError:
            return None
    number = float(value)
    return number if 0.0 <= number <= 1.0 else None


def _text(data: dict[str, Any], key: str, path: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise DecodeError(f"{path}.{key}: expected a string, got {type(value).__name__}")
    return safe_text(value)


def _answer(value: Any, path: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return safe_text(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)
    raise DecodeError(f"{path}.answer: expected a string or a number, got {type(value).__name__}")


def retrieved(value: Any) -> tuple[str, ...]:
    """A reply's ``retrieved`` list read liberally: its string items (repaired), each once in
    first order, at most ``RETRIEVED_KEPT``; anything but an array reads as empty."""
    if not isinstance(value, list):
        return ()
    kept: dict[str, None] = {}
    for item in value:
        if len(kept) >= RETRIEVED_KEPT:
            break
        if isinstance(item, str) and item and len(item) <= RETRIEVED_ID_LIMIT:
            kept.setdefault(safe_text(item), None)
    return tuple(kept)


def tool_call(data: Any, path: str) -> ToolCall:
    """One reported tool call: ``name`` a string (repaired), ``args`` any JSON (made safe),
    ``hop`` read liberally."""
    if not isinstance(data, dict):
        raise DecodeError(f"{path}: expected an object, got {type(data).__name__}")
    name = data.get("name")
    if not isinstance(name, str):
        raise DecodeError(f"{path}.name: expected a string")
    return ToolCall(safe_text(name), json_safe(data.get("args")), lenient_int(data.get("hop")))


def run_response(data: Any) -> tuple[RunResponse, int]:
    """A ``POST /run`` reply, and how many reported tool calls beyond ``CALLS_KEPT`` were
    dropped. ``DecodeError`` (naming the field) when it cannot be graded."""
    if not isinstance(data, dict):
        raise DecodeError("$: expected an object")
    if too_deep(data):
        raise DecodeError(f"$: nested deeper than {MAX_DEPTH} levels")
    calls = data.get("tool_calls")
    if calls is None:
        calls = []
    if not isinstance(calls, list):
        raise DecodeError("$.tool_calls: expected an array")
    kept = tuple(tool_call(c, f"$.tool_calls[{i}]") for i, c in enumerate(calls[:CALLS_KEPT]))
    abstain = data.get("abstain")
    if abstain is not None and not isinstance(abstain, bool):
        raise DecodeError("$.abstain: expected true, false or null")
    response = RunResponse(
        final_text=_text(data, "final_text", "$") or "",
        tool_calls=kept,
        prompt_tokens=lenient_int(data.get("prompt_tokens"), low=0),
        output_tokens=lenient_int(data.get("output_tokens"), low=0),
        latency_ms=0,  # ignored: the engine measures latency itself
        answer=_answer(data.get("answer"), "$"),
        abstain=abstain,
        confidence=_confidence(data.get("confidence")),
        retrieved=retrieved(data.get("retrieved")),
    )
    return response, max(0, len(calls) - CALLS_KEPT)


def tool_exec_request(data: Any) -> ToolExecRequest:
    """A call to the tool endpoint: ``case_id`` and ``name`` strings (the name repaired),
    ``args`` any JSON (made safe), ``hop`` read liberally, ``user_id`` ignored unless text."""
    if not isinstance(data, dict):
        raise DecodeError("$: expected an object")
    if too_deep(data):
        raise DecodeError(f"$: nested deeper than {MAX_DEPTH} levels")
    case_id = data.get("case_id")
    if not isinstance(case_id, str):
        raise DecodeError("$.case_id: expected a string")
    name = data.get("name")
    if not isinstance(name, str):
        raise DecodeError("$.name: expected a string")
    user_id = data.get("user_id")
    return ToolExecRequest(
        case_id=safe_text(case_id),
        name=safe_text(name),
        args=json_safe(data.get("args")),
        hop=lenient_int(data.get("hop")),
        user_id=safe_text(user_id) if isinstance(user_id, str) else "",
    )


def seed_response(data: Any) -> SeedResponse:
    """A ``POST /seed`` reply: counts are informative only, so anything unreadable is 0."""
    if not isinstance(data, dict):
        return SeedResponse()
    return SeedResponse(
        pairs=lenient_int(data.get("pairs"), low=0),
        subjects=lenient_int(data.get("subjects"), low=0),
        links=lenient_int(data.get("links"), low=0),
    )
