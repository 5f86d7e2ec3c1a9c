"""The runs list's rows: one row a run, except that the runs of a multi-seed suite fold into one
row (the suite, how many runs, their mean composite) that links to the list of that suite's runs
alone. Pure: listed runs and each job's worker and suite in, rows out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dittobench.grade.stats import mean
from dittobench.store.listing import Listed


@dataclass(frozen=True, slots=True)
class SuiteLine:
    """A suite's runs as one row of the runs list; ``runs`` newest first."""

    suite_id: str
    runs: tuple[Listed, ...]

    @property
    def scored(self) -> tuple[float, ...]:
        return tuple(r.composite for r in self.runs if r.composite is not None)

    @property
    def mean(self) -> float | None:
        """The mean composite of its runs that have one (None before any has)."""
        return mean(self.scored) if self.scored else None

    @property
    def newest(self) -> Listed:
        return self.runs[0]

    @property
    def done(self) -> int:
        return sum(1 for r in self.runs if r.status == "done")


Entry = Listed | SuiteLine
"""One row of the runs list before its page is cut."""


def fold_suites(
    items: Sequence[Listed], places: Mapping[str, tuple[str, str]], suite: str = ""
) -> list[Entry]:
    """``items`` (already filtered and sorted) with each suite's runs folded into one row where
    its first run stands; ``places``: run id -> (worker, suite id). With ``suite``, only that
    suite's runs, one row each."""
    if suite:
        return [i for i in items if places.get(i.run_id, ("", ""))[1] == suite]
    members: dict[str, list[Listed]] = {}
    for item in items:
        suite_id = places.get(item.run_id, ("", ""))[1]
        if suite_id:
            members.setdefault(suite_id, []).append(item)
    out: list[Entry] = []
    placed: set[str] = set()
    for item in items:
        suite_id = places.get(item.run_id, ("", ""))[1]
        if not suite_id:
            out.append(item)
        elif suite_id not in placed:
            placed.add(suite_id)
            runs = sorted(members[suite_id], key=lambda r: (r.created_at, r.run_id), reverse=True)
            out.append(SuiteLine(suite_id, tuple(runs)))
    return out


__all__ = ["Entry", "SuiteLine", "fold_suites"]
