"""What grading works out once per immutable object (a dataset, a case), kept by identity."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """Up to ``most`` results, each kept with the objects it was worked out from: holding them
    keeps their ids from being reused while kept. All are dropped when it is full."""

    def __init__(self, most: int) -> None:
        self._most = most
        self._kept: dict[tuple[int, ...], tuple[tuple[object, ...], V]] = {}

    def get(self, make: Callable[[], V], *objects: object) -> V:
        """The result kept for exactly ``objects`` (the same objects, not equal ones), or
        ``make()`` kept for them."""
        key = tuple(id(o) for o in objects)
        found = self._kept.get(key)
        if found is not None and all(a is b for a, b in zip(found[0], objects, strict=True)):
            return found[1]
        value = make()
        if len(self._kept) >= self._most:
            self._kept.clear()
        self._kept[key] = (objects, value)
        return value
