"""Read JSON into the spec's dataclasses, with errors that say what is wrong and where.

``decode(cls, data)`` walks the dataclass's type hints: ``str``, ``int``, ``bool``, ``float``,
``Literal`` of strings (a ``spec.vocab`` vocabulary: any other string is an error naming the
field and the value), ``X | None``, ``tuple[X, ...]``, ``dict[str, X]``, nested dataclasses and
``Any`` (JSON kept as is).
Unknown keys are ignored (the wire tolerates extra keys); missing keys take the field's default or
are an error. Strings are never coerced into numbers, nor numbers into strings.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from functools import cache
from typing import Any, Literal, TypeVar, Union

from dittobench.core.errors import DittobenchError

T = TypeVar("T")


class DecodeError(DittobenchError, ValueError):
    """JSON that does not fit the expected shape; the message names the path, e.g.
    ``$.memory_cases[3].answer_kind``."""

    http_status = 400


def loads(text: str | bytes, what: str) -> Any:
    """Parse JSON strictly (no NaN or Infinity), naming ``what`` in the error."""

    def reject(constant: str) -> Any:
        raise DecodeError(f"{what}: {constant} is not valid JSON")

    try:
        return json.loads(text, parse_constant=reject)
    except json.JSONDecodeError as exc:
        raise DecodeError(
            f"{what}: not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})"
        ) from None
    except RecursionError:
        raise DecodeError(f"{what}: JSON nested too deeply") from None
    except ValueError as exc:  # e.g. an integer with more digits than Python will convert
        raise DecodeError(f"{what}: {exc}") from None


def decode(cls: type[T], data: Any, path: str = "$") -> T:
    """Build ``cls`` (a dataclass) from parsed JSON."""
    if not isinstance(data, dict):
        raise DecodeError(f"{path}: expected an object, got {_kind(data)}")
    hints = _hints(cls)  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        where = f"{path}.{field.name}"
        if field.name in data:
            values[field.name] = _value(hints[field.name], data[field.name], where)
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            raise DecodeError(f"{where}: missing")
    return cls(**values)


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _value(hint: Any, data: Any, path: str) -> Any:
    origin = typing.get_origin(hint)
    if hint is Any:
        return data
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if data is None and type(None) in options:
            return None
        (inner,) = [o for o in options if o is not type(None)]
        return _value(inner, data, path)
    if origin is tuple:
        item_hint = typing.get_args(hint)[0]
        if not isinstance(data, list):
            raise DecodeError(f"{path}: expected an array, got {_kind(data)}")
        return tuple(_value(item_hint, item, f"{path}[{i}]") for i, item in enumerate(data))
    if origin is dict:
        _, item_hint = typing.get_args(hint)
        if not isinstance(data, dict):
            raise DecodeError(f"{path}: expected an object, got {_kind(data)}")
        return {k: _value(item_hint, v, f"{path}.{k}") for k, v in data.items()}
    if dataclasses.is_dataclass(hint):
        return decode(hint, data, path)  # type: ignore[arg-type]
    if origin is Literal:
        return _member(typing.get_args(hint), data, path)
    return _scalar(hint, data, path)


def _member(members: tuple[str, ...], data: Any, path: str) -> str:
    """``data`` when it is one of ``members`` (a vocabulary); else an error naming the field
    (the last step of ``path``) and the value."""
    if not isinstance(data, str):
        raise DecodeError(f"{path}: expected str, got {_kind(data)}")
    if data not in members:
        name = path.rsplit(".", 1)[-1].split("[", 1)[0]
        choices = ", ".join(m for m in members if m)
        raise DecodeError(f"{path}: unknown {name} {data!r:.60}; expected one of {choices}")
    return data


def _scalar(hint: Any, data: Any, path: str) -> Any:
    if hint is bool:
        ok = isinstance(data, bool)
    elif hint is int:
        ok = isinstance(data, int) and not isinstance(data, bool)
    elif hint is float:
        ok = isinstance(data, (int, float)) and not isinstance(data, bool)
        if ok:
            try:
                data = float(data)
            except OverflowError:
                raise DecodeError(f"{path}: number too large") from None
    elif hint is str:
        ok = isinstance(data, str)
    else:
        raise DecodeError(f"{path}: no decoder for {hint!r}")
    if not ok:
        raise DecodeError(f"{path}: expected {hint.__name__}, got {_kind(data)}")
    return data


def _kind(data: Any) -> str:
    names = {
        dict: "an object",
        list: "an array",
        str: "a string",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        type(None): "null",
    }
    return names.get(type(data), type(data).__name__)
