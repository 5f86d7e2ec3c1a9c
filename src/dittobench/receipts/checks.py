"""A named check and the list a verification fills, in the order the checks are made."""

from __future__ import annotations

from dataclasses import dataclass, field

SHOWN = 5
"""How many offending cases a detail lists before summarising the rest."""


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class Checklist:
    checks: list[Check] = field(default_factory=list)

    def add(self, name: str, ok: bool, detail: str) -> None:
        self.checks.append(Check(name, ok, detail))


def listing(problems: list[str]) -> str:
    """The first ``SHOWN`` problems, then how many more there are."""
    shown = "; ".join(problems[:SHOWN])
    more = len(problems) - SHOWN
    return shown + (f"; and {more} more" if more > 0 else "")
