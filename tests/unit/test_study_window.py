"""The study's context-window strategies (docs/study.md, "Context windows"): the window takes
pairs newest first and stops at N tokens; a case whose evidence lies before its window is
declined (and graded as a decline) while one inside is answered; a window that holds a whole
full history scores what the oracle scores, and on long runs a small window scores less than a
large one; the parser in a window never reads the key; `dittobench study --strategies` runs
them."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import pytest

from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.report import ScoreReport
from dittobench.spec.wire import Pair
from dittobench.study.history import StoredPair, stored_pairs
from dittobench.study.oracle import oracle_memory, oracle_tool
from dittobench.study.parser import MemoryParser
from dittobench.study.run import StudyError, select_strategies
from dittobench.study.strategies import KNOWN_STRATEGIES, STRATEGIES, Answers, Strategy
from dittobench.study.window import (
    WINDOW_DECLINE,
    ContextWindows,
    pair_tokens,
    window_of,
    window_oracle,
    window_parser,
)
from tests.helpers.cli import dittobench

VERSION = "8.0.0"


def _stored(index: int, chars: int) -> StoredPair:
    """A pair of ``chars`` characters in all (prompt and reply), said on day ``index``."""
    prompt = "a" * (chars // 2)
    pair = Pair(
        f"p{index}", "s", f"2026-01-{index + 1:02d}T10:00:00Z", prompt, "b" * (chars - len(prompt))
    )
    return StoredPair(pair, 0)


def test_a_pair_costs_its_characters_over_four_rounded_up() -> None:
    assert pair_tokens(_stored(0, 8).pair) == 2
    assert pair_tokens(_stored(0, 9).pair) == 3
    assert pair_tokens(_stored(0, 1).pair) == 1


def test_the_window_takes_pairs_newest_first_and_stops_at_n() -> None:
    # tokens, oldest first: 10, 2, 5, 3, 4
    pairs = [_stored(i, chars) for i, chars in enumerate((40, 8, 20, 12, 16))]
    assert [s.pair.pair_id for s in window_of(pairs, 7)] == ["p3", "p4"]
    assert [s.pair.pair_id for s in window_of(pairs, 12)] == ["p2", "p3", "p4"]
    # 4 + 3 + 5 = 12; p1 (2) would make 14, over 13: the window ends before it
    assert [s.pair.pair_id for s in window_of(pairs, 13)] == ["p2", "p3", "p4"]
    assert [s.pair.pair_id for s in window_of(pairs, 14)] == ["p1", "p2", "p3", "p4"]
    assert window_of(pairs, 3) == ()  # the newest pair alone is over N
    assert window_of(pairs, 34) == tuple(pairs)
    skipped = [_stored(0, 4), _stored(1, 20), _stored(2, 16)]  # 1, 5, 4
    assert [s.pair.pair_id for s in window_of(skipped, 6)] == ["p2"]  # p0 would fit: not taken


@cache
def _dataset(size: str, seed: int = 3) -> Dataset:
    return build_dataset(seed, VERSION, size)


def _answerable_with_evidence(dataset: Dataset) -> MemoryCase:
    """An answerable case whose evidence is not in the newest pair seeded by then."""
    for case in dataset.memory_cases:
        if case.answer_kind in ("decline", "acknowledge") or not case.evidence_pair_ids:
            continue
        seeded = _seeded(dataset, case)
        if seeded[-1].pair.pair_id not in case.evidence_pair_ids:
            return case
    raise AssertionError("no answerable case with evidence")


def _seeded(dataset: Dataset, case: MemoryCase) -> list[StoredPair]:
    pairs = stored_pairs(dataset)[case.user_id]
    return [s for s in pairs if s.wave <= case.run_after_wave]


def test_evidence_before_the_window_is_declined_and_inside_it_is_answered() -> None:
    dataset = _dataset("full")
    case = _answerable_with_evidence(dataset)
    seeded = _seeded(dataset, case)
    oldest = min(i for i, s in enumerate(seeded) if s.pair.pair_id in case.evidence_pair_ids)
    exact = sum(pair_tokens(s.pair) for s in seeded[oldest:])  # the oldest evidence just fits
    assert set(case.evidence_pair_ids) <= set(ContextWindows(dataset, exact).pair_ids(case))
    inside = window_oracle(dataset, exact)(case, dataset)
    assert inside == oracle_memory(case, dataset)
    outside = window_oracle(dataset, exact - 1)(case, dataset)
    assert outside == WINDOW_DECLINE
    assert outside.abstain and outside != inside

    only = replace(dataset, memory_cases=(case,), tool_cases=(), tool_fixtures=())
    strategy = Strategy("w", "", True, True, lambda d: _answers(d, exact - 1))
    graded = grade_run(only, strategy.transcript(only)).report.per_case
    assert [(c.score, c.reason) for c in graded] == [(0.0, "wrongful_decline")]


def _answers(dataset: Dataset, limit: int) -> Answers:
    return Answers(window_oracle(dataset, limit), oracle_tool)


def test_a_decline_question_is_declined_as_the_oracle_does_whatever_the_window() -> None:
    dataset = _dataset("full")
    declines = [c for c in dataset.memory_cases if c.answer_kind == "decline"]
    assert declines
    answer = window_oracle(dataset, 1)
    for case in declines:
        assert answer(case, dataset) == oracle_memory(case, dataset), case.id


def _strategy(name: str) -> Strategy:
    return next(s for s in KNOWN_STRATEGIES if s.name == name)


def _report(name: str, size: str, seed: int = 3) -> ScoreReport:
    dataset = _dataset(size, seed)
    return grade_run(dataset, _strategy(name).transcript(dataset)).report


def test_a_window_that_holds_a_full_history_scores_as_the_oracle() -> None:
    dataset = _dataset("full")
    tokens = sum(pair_tokens(s.pair) for pairs in stored_pairs(dataset).values() for s in pairs)
    assert tokens < 128_000
    oracle, window = _report("oracle", "full"), _report("window-128k", "full")
    assert window.memory_mean == oracle.memory_mean == 1.0
    assert window.composite == oracle.composite
    assert _report("window-8k", "full").memory_mean < 1.0  # a full history is over 8k


def test_on_a_long_run_a_small_window_scores_less_than_a_large_one() -> None:
    small, large = _report("window-8k", "long"), _report("window-128k", "long")
    assert small.memory_mean < large.memory_mean < 1.0
    assert small.tool_mean == large.tool_mean == 1.0


def test_the_parser_in_a_window_reads_only_its_window() -> None:
    dataset = _dataset("medium")
    whole = MemoryParser(dataset)
    everything = window_parser(dataset, 10**9)
    assert all(everything(c, dataset) == whole(c, dataset) for c in dataset.memory_cases)
    nothing = window_parser(dataset, 0)
    blind = MemoryParser(replace(dataset, memory_waves=()))
    assert all(nothing(c, dataset) == blind(c, dataset) for c in dataset.memory_cases)


def test_the_parser_in_a_window_never_reads_the_answer_key() -> None:
    dataset = _dataset("medium")
    hidden = tuple(
        replace(c, expected_answer="", answer_items=(), accepted=(), evidence_pair_ids=())
        for c in dataset.memory_cases
    )
    blind = replace(dataset, memory_cases=hidden)
    seen = window_parser(dataset, 2_000)
    unseen = window_parser(blind, 2_000)
    for case, blank in zip(dataset.memory_cases, hidden, strict=True):
        assert seen(case, dataset) == unseen(blank, blind), case.id


def test_strategies_are_chosen_by_name_in_report_order() -> None:
    chosen = select_strategies(["window-128k", "oracle", "window-8k", "oracle"])
    assert [s.name for s in chosen] == ["oracle", "window-8k", "window-128k"]
    assert not {s.name for s in STRATEGIES} & {"window-8k", "window-32k", "window-128k"}
    with pytest.raises(StudyError, match="unknown strategy 'window-9k'"):
        select_strategies(["oracle", "window-9k"])
    with pytest.raises(StudyError, match="at least one"):
        select_strategies([])


def test_the_command_runs_the_strategies_named() -> None:
    result = dittobench(
        "study",
        "--seeds",
        "2",
        "--run-size",
        "small",
        "--strategies",
        "window-8k,oracle",
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("strategy"))
    table = lines[start + 1 : lines.index("", start)]
    assert [line.split()[0] for line in table] == ["oracle", "window-8k"]
    heads = next(line for line in lines if line.startswith("category")).split()
    assert heads[3:5] == ["oracle", "w8k"]
    refused = dittobench("study", "--seeds", "2", "--strategies", "oracle,nope")
    assert refused.returncode == 2
    assert "unknown strategy 'nope'" in refused.stderr
