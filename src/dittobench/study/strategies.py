"""The study's built-in strategies: each answers every case of a dataset, deterministically.

A strategy is prepared once per dataset (``prepare``) and then answers each memory question and
each tool case as a pure function of the dataset and the case. ``knows_key`` marks the two that
read the answer key (the ceiling); ``reads_history`` marks the ones that choose their answer by
reading what the user stored (the ``saturated`` flag of ``study.figures`` looks at the others).
``docs/study.md`` describes each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dittobench.packs import Pack
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.memory import MemoryCase
from dittobench.spec.transcript import Transcript
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.study.grammar import GrammarReader, GrammarTools
from dittobench.study.index import pack_of
from dittobench.study.lexical import LexicalReader
from dittobench.study.naive import always_decline, best_constant, dump_stored, no_tools
from dittobench.study.oracle import oracle_memory, oracle_tool
from dittobench.study.paraphrase import paraphrase_memory
from dittobench.study.parse_tools import ToolParser
from dittobench.study.router import Router
from dittobench.study.simple import regex_reader
from dittobench.study.transcripts import MemoryAnswer, ToolAnswer, build
from dittobench.study.window import (
    WINDOW_SIZES,
    label,
    shared_parser,
    window_oracle,
    window_parser,
)


@dataclass(frozen=True, slots=True)
class Answers:
    """How a strategy answers the cases of one dataset."""

    memory: MemoryAnswer
    tool: ToolAnswer


@dataclass(frozen=True, slots=True)
class Strategy:
    name: str
    summary: str
    knows_key: bool
    reads_history: bool
    prepare: Callable[[Dataset], Answers]

    def transcript(self, dataset: Dataset) -> Transcript:
        """The transcript of a run in which this strategy answered every case."""
        answers = self.prepare(dataset)
        return build(dataset, answers.memory, answers.tool, harness=f"study:{self.name}")


def _prose(text: str) -> ToolAnswer:
    def answer(case: ToolCase, fixture: ToolFixture) -> tuple[RunResponse, tuple[ToolCall, ...]]:
        return RunResponse(final_text=text), ()

    return answer


def _parser(dataset: Dataset) -> Answers:
    reader = shared_parser(dataset)

    def memory(case: MemoryCase, _dataset: Dataset) -> RunResponse:
        return reader(case)

    return Answers(memory, ToolParser(dataset))


def grammar_answers(dataset: Dataset, pack: Pack) -> Answers:
    """The grammar attack built on ``pack`` answering ``dataset`` (``study.grammar``)."""
    reader = GrammarReader(dataset, pack)

    def memory(case: MemoryCase, _dataset: Dataset) -> RunResponse:
        return reader(case)

    return Answers(memory, GrammarTools(dataset, pack))


ACROSS = "grammar-across"


def across(pack: Pack) -> Strategy:
    """The grammar attack built on ``pack``, whatever pack the datasets come from: on datasets
    of another pack it measures how much of the attack carries over."""
    return Strategy(
        ACROSS,
        f"the grammar attack built on pack {pack.pack_id}, run on datasets of another pack",
        False,
        True,
        lambda d: grammar_answers(d, pack),
    )


def _regex(dataset: Dataset) -> Answers:
    return Answers(regex_reader(dataset), ToolParser(dataset))


def _lexical(dataset: Dataset) -> Answers:
    reader = LexicalReader(dataset)

    def memory(case: MemoryCase, _dataset: Dataset) -> RunResponse:
        return reader(case)

    return Answers(memory, no_tools)


STRATEGIES: tuple[Strategy, ...] = (
    Strategy(
        "oracle",
        "the answer key and the expected tool calls",
        True,
        True,
        lambda _d: Answers(oracle_memory, oracle_tool),
    ),
    Strategy(
        "paraphrase",
        "the answer key in other words (the honest ceiling); the oracle's tool calls",
        True,
        True,
        lambda _d: Answers(paraphrase_memory, oracle_tool),
    ),
    Strategy(
        "parser",
        "the public pack's grammar read back: statements, questions, tool routes",
        False,
        True,
        _parser,
    ),
    Strategy(
        "grammar",
        "the real parse attack: the dataset's own pack compiled into an inverse (unanchored, "
        "longest match first, pools and coin forms, corrections and notes; tool templates, the "
        "later finding)",
        False,
        True,
        lambda d: grammar_answers(d, pack_of(d)),
    ),
    Strategy(
        "regex",
        "issue 13's parser: one pattern per statement wording, the last mention wins, pools and "
        "coined-value shapes known; the parser's writes and tool routes",
        False,
        True,
        _regex,
    ),
    Strategy(
        "lexical",
        "the stored user turn sharing most content words with the question; no tools",
        False,
        True,
        _lexical,
    ),
    Strategy(
        "canned",
        "the best constant answer of the case's answer kind; no tools",
        False,
        False,
        lambda _d: Answers(best_constant, _prose("Done.")),
    ),
    Strategy(
        "dump",
        "everything stored for the user so far (turns and replies), in one answer; no tools",
        False,
        False,
        lambda _d: Answers(dump_stored, no_tools),
    ),
    Strategy(
        "decline",
        "always declines",
        False,
        False,
        lambda _d: Answers(always_decline, _prose("I can't help with that.")),
    ),
    Strategy(
        "router",
        "the catalog tool whose description shares most words with the request; declines",
        False,
        False,
        lambda d: Answers(always_decline, Router(d)),
    ),
)
"""In report order."""

STRATEGY_NAMES = tuple(s.name for s in STRATEGIES)


def _windows(limit: int) -> tuple[Strategy, Strategy]:
    size = label(limit)
    return (
        Strategy(
            f"window-{size}",
            f"an ideal reader of the newest {limit:,} tokens seeded (characters / 4): the key "
            "when every evidence pair is in the window, else a decline; the oracle's tool calls",
            True,
            True,
            lambda d: Answers(window_oracle(d, limit), oracle_tool),
        ),
        Strategy(
            f"window-parser-{size}",
            f"the parser given only the newest {limit:,} tokens seeded; the parser's tool routes",
            False,
            True,
            lambda d: Answers(window_parser(d, limit), ToolParser(d)),
        ),
    )


WINDOW_STRATEGIES: tuple[Strategy, ...] = tuple(
    s for pair in zip(*(_windows(n) for n in WINDOW_SIZES), strict=True) for s in pair
)
"""The context-window strategies (``study.window``), run only when asked for by name
(``dittobench study --strategies``): ``window-8k``, ``window-32k``, ``window-128k``, then
``window-parser-8k``, ``window-parser-32k``, ``window-parser-128k``."""

KNOWN_STRATEGIES: tuple[Strategy, ...] = (*STRATEGIES, *WINDOW_STRATEGIES)
"""Every strategy a study can be asked to run, in report order; the default is ``STRATEGIES``."""
