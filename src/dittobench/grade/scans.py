"""Looking for a case's scanned values in an answer: the forbidden values, the distractors and
the dump guard's values (``grade.memory`` decides what each finding means).

A scanned value that is itself part of the expected answer, an accepted form or an answer item
(a distractor "York" beside the expected "New York") is looked for only outside those forms, so
naming the right answer never trips it while naming "York" on its own still does.
"""

from __future__ import annotations

from math import ceil

from dittobench.grade.guards import named_as_answer
from dittobench.grade.match import Prepared, hit, hits, masked, normalized
from dittobench.spec.versions import GradingPolicy


class Scanner:
    """Looks for scanned values in the full answer; a value found inside one of the protected
    forms (expected answer, accepted forms, answer items) is looked for outside them instead."""

    __slots__ = ("_full", "_outside", "_protected", "_wider")

    def __init__(self, full: Prepared, protected: tuple[str, ...], wider: bool = False) -> None:
        self._full = full
        self._protected = protected
        self._outside: Prepared | None = None
        self._wider = wider  # former values are also told by grading-3's further cues

    def hit(self, value: str, excuse_former: bool = False) -> bool:
        """``value`` is named; with ``excuse_former``, named as the answer, not as a former or
        rejected value ("you switched from X")."""
        wider = self._wider

        def found(text: Prepared, value: str) -> bool:
            return named_as_answer(text, value, wider) if excuse_former else hit(text, value)

        if not hit(self._full, value):
            return False
        if not any(hit(form, value) for form in self._protected):
            return found(self._full, value)
        if self._outside is None:
            self._outside = masked(self._full, self._protected)
        return found(self._outside, value)

    def found(self, values: tuple[str, ...]) -> list[str]:
        """The values the full answer names somewhere (the only ones ``hit`` may find)."""
        return hits(self._full, values)

    def any(self, values: tuple[str, ...], excuse_former: bool = False) -> bool:
        return any(self.hit(value, excuse_former) for value in self.found(values))

    def any_spending(self, values: tuple[str, ...]) -> bool:
        """Some value is named as the answer; longest first, and a value named only as a
        former one is blanked out before the shorter ones are looked for (its short form
        inside "you had the Surface Milper before" is not named on its own)."""
        spent: list[str] = []
        for value in sorted(dict.fromkeys(self.found(values)), key=len, reverse=True):
            rest = (
                Scanner(masked(self._full, spent), self._protected, self._wider) if spent else self
            )
            if rest.hit(value, True):
                return True
            spent.append(value)
        return False


Guard = tuple[tuple[str, ...], int]
"""A dump guard's distinct values (one per normal form) and how many of them make a dump."""


def dump_guard(values: tuple[str, ...], policy: GradingPolicy) -> Guard:
    """The guard of ``values``: one per normal form, and at least max(dump_floor,
    ceil(n / dump_divisor), 1) of them named make a dump."""
    distinct = {normalized(v): v for v in values}
    distinct.pop("", None)
    threshold = max(policy.dump_floor, ceil(len(distinct) / policy.dump_divisor), 1)
    return tuple(distinct.values()), threshold


def is_dump(scanner: Scanner, guard: Guard) -> bool:
    """The answer names at least the guard's threshold of its values."""
    values, threshold = guard
    if len(values) < threshold:
        return False
    named = 0
    for value in scanner.found(values):
        named += scanner.hit(value)
        if named >= threshold:
            return True
    return False


__all__ = ["Guard", "Scanner", "dump_guard", "is_dump"]
