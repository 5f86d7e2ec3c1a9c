"""RFC 8785 (JSON Canonicalization Scheme) bytes, stdlib only.

Everything the project hashes or signs (dataset, transcript, manifest) goes through
``canonical_bytes``. The rules, restated in docs/determinism.md:

- objects: members sorted by key, comparing keys as UTF-16 code-unit sequences; no whitespace;
- strings: UTF-8; only ``"``, ``\\`` and control characters below U+0020 are escaped
  (``\\b \\f \\n \\r \\t`` short forms, others as ``\\u00xx`` lowercase hex);
  lone surrogates are rejected;
- numbers: integers in decimal; floats as ECMAScript ``Number.prototype.toString`` (shortest
  round-trip digits); NaN and infinities rejected; integers beyond 2**53 are rejected because
  other JCS implementations would read them as lossy doubles;
- ``true``, ``false``, ``null``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any, Final

from dittobench.core.errors import DittobenchError

MAX_SAFE_INTEGER = 2**53 - 1


class CanonicalJSONError(DittobenchError, ValueError):
    """A value that has no canonical JSON form (NaN, a huge integer, a lone surrogate, a set...)."""


def canonical_bytes(value: Any) -> bytes:
    """Return the RFC 8785 canonical UTF-8 bytes of a JSON-compatible value."""
    if _plain(value):
        # Without floats, and with keys below U+D800 (where UTF-16 order is code-point order),
        # the standard encoder's compact, sorted, raw-UTF-8 output is exactly RFC 8785.
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        try:
            return text.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise CanonicalJSONError(f"string contains a lone surrogate: {exc}") from exc
    parts: list[str] = []
    _emit(value, parts, "$")
    try:
        return "".join(parts).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CanonicalJSONError(f"string contains a lone surrogate: {exc}") from exc


def canonical_str(value: Any) -> str:
    """The canonical form as text (for display; hash ``canonical_bytes``)."""
    return canonical_bytes(value).decode("utf-8")


def _plain(value: Any) -> bool:
    """True when ``value`` holds only strings, booleans, null, safe integers, lists and objects
    whose keys are strings below U+D800."""
    # Read a container's values at once (their types as a set, an object's keys joined): most
    # hold only text, flags and nulls, and need no loop in Python.
    stack: list[Iterable[Any]] = [(value,)]
    while stack:
        values = stack.pop()
        kinds = set(map(type, values))
        if kinds <= _LEAVES:
            continue
        if not kinds <= _PLAIN:
            return False  # a float, a set, any other object
        for item in values:
            kind = type(item)
            if kind is dict:
                if not _KEY_TYPES.issuperset(map(type, item)):
                    return False
                keys = "".join(item)
                if not keys.isascii() and max(keys) >= "\ud800":
                    return False
                stack.append(item.values())
            elif kind is list or kind is tuple:
                stack.append(item)
            elif kind is int and abs(item) > MAX_SAFE_INTEGER:
                return False
    return True


_LEAVES: Final = frozenset((str, bool, type(None)))
_PLAIN: Final = _LEAVES | {int, dict, list, tuple}
_KEY_TYPES: Final = frozenset((str,))


def _emit(value: Any, out: list[str], path: str) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise CanonicalJSONError(f"{path}: integer {value} is outside +-2**53; use a string")
        out.append(str(int(value)))
    elif isinstance(value, float):
        out.append(format_number(value, path))
    elif isinstance(value, str):
        out.append(json.dumps(value, ensure_ascii=False))
    elif isinstance(value, Mapping):
        _emit_object(value, out, path)
    elif isinstance(value, Sequence) and not isinstance(value, (bytes, bytearray)):
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            _emit(item, out, f"{path}[{index}]")
        out.append("]")
    else:
        raise CanonicalJSONError(f"{path}: {type(value).__name__} is not a JSON value")


def _emit_object(value: Mapping[Any, Any], out: list[str], path: str) -> None:
    for key in value:
        if not isinstance(key, str):
            raise CanonicalJSONError(f"{path}: object key {key!r} is not a string")
    out.append("{")
    for index, key in enumerate(sorted(value, key=_utf16_key)):
        if index:
            out.append(",")
        out.append(json.dumps(key, ensure_ascii=False))
        out.append(":")
        _emit(value[key], out, f"{path}.{key}")
    out.append("}")


def _utf16_key(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def format_number(number: float, path: str = "$") -> str:
    """Format a float as ECMAScript's Number.prototype.toString does (RFC 8785 section 3.2.2.3)."""
    if math.isnan(number) or math.isinf(number):
        raise CanonicalJSONError(f"{path}: {number} has no JSON form")
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    # repr gives the shortest digits that round-trip, as ECMAScript requires.
    parts = Decimal(repr(abs(number))).normalize().as_tuple()
    digits = "".join(str(d) for d in parts.digits)
    n = len(digits) + int(parts.exponent)  # value = 0.digits * 10**n
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    exponent = n - 1
    exp_sign = "+" if exponent >= 0 else "-"
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{head}e{exp_sign}{abs(exponent)}"
