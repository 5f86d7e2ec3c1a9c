"""The served pages beyond one run: compare two runs (``templates/compare.html``), and a dataset
as a harness sees it beside its answer keys (``datasets.html``); the leaderboard is
``views.board``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dittobench.spec.dataset import Dataset
from dittobench.store.listing import Listed
from dittobench.views.comparing import RunComparison
from dittobench.views.frame import Chrome
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


@dataclass(frozen=True, slots=True)
class DatasetPage:
    """The form (seed, size, version), what went wrong, and the dataset."""

    dataset: Dataset | None
    seed: str
    size: str
    version: str
    versions: tuple[str, ...]
    problem: str


def dataset_page(
    dataset: Dataset | None,
    seed: str,
    size: str,
    version: str,
    versions: Sequence[str],
    chrome: Chrome,
    problem: str = "",
) -> str:
    """A form (seed, size, version) and the dataset: each case as the harness sees it beside
    its answer key, and the history waves."""
    page = DatasetPage(dataset, seed, size, version, tuple(versions), problem)
    return render("datasets.html", page=page, chrome=chrome)


__all__ = ["ComparePage", "DatasetPage", "compare_page", "dataset_page"]
