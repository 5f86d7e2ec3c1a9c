"""What grading works out once per immutable object (a dataset, a case), kept by identity."""

from __future__ import annotations

from collections.abc import Callable
from operator import is_
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
        key = tuple(map(id, objects))
        found = self._kept.get(key)
        # the same ids, so as many objects: each must be the very one kept (an id is reused
        # only once its object is gone, which holding it prevents)
        if found is not None and all(map(is_, found[0], objects)):
            return found[1]
        value = make()
        if len(self._kept) >= self._most:
            self._kept.clear()
        self._kept[key] = (objects, value)
        return value
