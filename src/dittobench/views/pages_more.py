"""The served pages beyond one run: compare two runs (``templates/compare.html``), and a dataset
as a harness sees it beside its answer keys, one section at a time and paged (``datasets.html``);
the leaderboard is ``views.board``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlencode

from dittobench.spec.dataset import Dataset, ToolCase
from dittobench.spec.memory import MemoryCase
from dittobench.spec.vocab import RUN_SIZES, RunSizeName
from dittobench.spec.wire import Pair
from dittobench.store.listing import Listed
from dittobench.views.comparing import RunComparison
from dittobench.views.frame import Chrome
from dittobench.views.paging import PER, Pager, pager, paging
from dittobench.views.templating import render


@dataclass(frozen=True, slots=True)
class ComparePage:
    """The runs to choose from, the two chosen and, when both are, their comparison;
    ``judged``: one of them has a nuance score (a column beside the composites)."""

    runs: tuple[Listed, ...]
    a: str
    b: str
    made: RunComparison | None
    judged: bool
    verdict: str


def _verdict(made: RunComparison | None) -> str:
    if made is None:
        return ""
    d = made.result.composite
    return "B is higher" if d.low > 0 else "B is lower" if d.high < 0 else "no clear difference"


def compare_page(
    runs: Sequence[Listed], a: str, b: str, made: RunComparison | None, chrome: Chrome
) -> str:
    """The form (two finished runs) and, when both are chosen, the comparison."""
    judged = made is not None and (made.a.nuance is not None or made.b.nuance is not None)
    page = ComparePage(tuple(runs), a, b, made, judged, _verdict(made))
    return render("compare.html", page=page, chrome=chrome)


SECTIONS: tuple[tuple[str, str], ...] = (
    ("tool", "Tool cases"),
    ("memory", "Memory cases"),
    ("history", "History"),
)
"""The dataset page's sections, one shown at a time, each paged."""


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One pair of the history, with the wave and user it was sent in."""

    wave: int
    user_id: str
    pair: Pair


@dataclass(frozen=True, slots=True)
class DatasetPage:
    """The form (seed, size, version), what went wrong, and one section of the dataset: its
    page of rows (``tools``, ``memories`` or ``history``, the others empty), the section
    links (label, query, how many rows, whether it is the one shown) and the pager."""

    dataset: Dataset | None
    seed: str
    size: str
    version: str
    versions: tuple[str, ...]
    problem: str
    section: str = "tool"
    sizes: tuple[RunSizeName, ...] = RUN_SIZES
    """The run sizes the form offers (``spec.vocab.RUN_SIZES``)."""
    sections: tuple[tuple[str, str, int, bool], ...] = ()
    tools: tuple[ToolCase, ...] = ()
    memories: tuple[MemoryCase, ...] = ()
    history: tuple[HistoryLine, ...] = ()
    pager: Pager | None = None


def history_lines(dataset: Dataset) -> tuple[HistoryLine, ...]:
    """Every pair of every wave, in the order the waves are sent."""
    return tuple(
        HistoryLine(wave.wave, wave.user_id, pair)
        for wave in dataset.memory_waves
        for pair in wave.pairs
    )


def _section(
    dataset: Dataset, section: str, query: Mapping[str, str], page: int, per: int
) -> dict[str, Any]:
    """The section's rows for ``page``, its links and its pager."""
    rows: dict[str, tuple[Any, ...]] = {
        "tool": tuple(dataset.tool_cases),
        "memory": tuple(dataset.memory_cases),
        "history": history_lines(dataset),
    }
    chosen = section if section in rows else "tool"
    cut = paging(page, per, len(rows[chosen]))
    links = tuple(
        (label, urlencode({**query, "section": name}), len(rows[name]), name == chosen)
        for name, label in SECTIONS
    )
    kept = {**query, "section": chosen}
    shown = {"tools": (), "memories": (), "history": ()}
    shown[{"tool": "tools", "memory": "memories"}.get(chosen, "history")] = cut.rows(rows[chosen])
    return {"section": chosen, "sections": links, "pager": pager(cut, kept), **shown}


def dataset_page(
    dataset: Dataset | None,
    seed: str,
    size: str,
    version: str,
    versions: Sequence[str],
    chrome: Chrome,
    problem: str = "",
    *,
    section: str = "tool",
    page: int = 1,
    per: int = PER,
) -> str:
    """A form (seed, size, version) and the dataset, one section at a time (tool cases, memory
    cases, the history waves), ``per`` rows a page: each case as the harness sees it beside its
    answer key."""
    made = DatasetPage(dataset, seed, size, version, tuple(versions), problem)
    if dataset is not None:
        query = {"seed": seed, "run_size": size, "bench_version": version}
        if per != PER:
            query["per"] = str(per)
        made = replace(made, **_section(dataset, section, query, page, per))
    return render("datasets.html", page=made, chrome=chrome)


__all__ = [
    "SECTIONS",
    "ComparePage",
    "DatasetPage",
    "HistoryLine",
    "compare_page",
    "dataset_page",
    "history_lines",
]
