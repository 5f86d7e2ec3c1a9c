"""Loose bounds on what bench 3.0's history gives away (``benchmarks/history_study.py`` prints
the figures): a regression that makes the history parseable again fails here.

Measured over seeds 0-19 (medium / full; ``benchmarks/history_study.py --seeds 20``, bench
3.0.0 as released): one fact per pair 0.44 / 0.39, fact mentions with a look-alike 0.84 / 0.82,
coined values 0.29 / 0.35, the simple parser's memory mean 0.37 / 0.33 (when these bounds were
set: 0.39 / 0.36, 0.67 / 0.66, 0.32 / 0.33, 0.74 / 0.69; 1.1.0: one fact 1.00, look-alikes
0.41 / 0.35, none coined, parser 0.99). The one-fact bound is loose on these 10 medium seeds
(0.47; 0.38 over 200 full seeds, the target of 0.40 is a full-run figure).
"""

from __future__ import annotations

from functools import cache

from dittobench.generate.lint import lint_pack
from dittobench.packs import public_pack
from dittobench.spec.versions import get_policy
from tests.helpers import history as H

SEEDS = range(10)


@cache
def measured(version: str) -> dict[str, float]:
    runs = [H.memory_side(seed, version, "medium") for seed in SEEDS]
    figures = [H.figures(side) for _d, side, _t in runs]
    return {
        "one_fact": H.mean(f.single_fact_share for f in figures),
        "twinned": H.mean(f.twinned_share for f in figures),
        "coined": H.mean(f.coined_share for f in figures),
        "parser": H.mean(H.parser_mean(d, texts) for d, _side, texts in runs),
    }


def test_the_parser_of_issue_13_still_reads_the_old_history() -> None:
    """The instrument is honest: on 1.1.0 it scores what issue 13 measured."""
    old = measured("1.1.0")
    assert old["parser"] >= 0.95
    assert old["one_fact"] == 1.0 and old["coined"] == 0.0


def test_the_3_0_history_is_woven_twinned_and_coined() -> None:
    new = measured("3.0.0")
    assert new["one_fact"] <= 0.5
    assert new["twinned"] >= 0.45
    assert new["coined"] >= 0.25
    assert new["parser"] <= 0.85


def test_the_3_0_pack_passes_lint() -> None:
    assert lint_pack(public_pack("public-3.0"), get_policy("6.0.0").content) == []
