"""Cue routers: strategies that answer tool cases from the prompt's words alone.

They measure how much of a bench version's tool score a harness earns without understanding the
request (``benchmarks/tool_cues.py`` prints the figures, ``tests/unit/test_tool_cues.py`` pins a
bound):

- the **description router** calls the catalog tool whose description shares the most content
  words (stems, ``core.text.content_words``) with the prompt; it is told how many tools the case
  expects (at least one), and calls that many top tools; no shared word, no call;
- the **keyword router** learns, per tool category, the ``KEYWORDS`` most frequent content words
  of ``SAMPLES`` expansions of the category's grammar (seeds no dataset uses), and calls the
  tools of the category whose keywords the prompt holds most (ties: the summed frequency, then
  pack order); no keyword, no call. Its ``distinctive`` variant ranks each category's words by
  TF-IDF instead, a stronger learner printed for reference.

Both are generous: a routed tool that the case expects gets exactly the expected arguments (the
oracle's), a content tool that fails with the transient error is retried once, and for a
result-usage case the reply states the figure a **frame reader** picks from what the calls
served. The frame reader is trained on served findings of other seeds: it weighs each word by how
much more often it stands beside a needle figure than beside a decoy figure, and picks the figure
whose sentence scores highest (the last one on ties).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from dittobench.catalog import get_tool
from dittobench.catalog.content import CONTENT_TOOLS
from dittobench.catalog.shown import shown_by
from dittobench.core.prng import Stream
from dittobench.core.text import STOP_WORDS, content_words, words
from dittobench.generate.texts import Texts, texts_of
from dittobench.generate.tools.build import build_tool_cases
from dittobench.generate.tools.category import Category
from dittobench.generate.tools.fixtures import fixture_values, make_fixture
from dittobench.generate.tools.render import render
from dittobench.grade.tools import grade_tool
from dittobench.mocktools import TRANSIENT_ERROR, execute
from dittobench.mocktools.content import finding
from dittobench.packs import public_pack
from dittobench.spec.dataset import ToolCase, ToolFixture
from dittobench.spec.transcript import Attempt, CaseRecord, Execution
from dittobench.spec.versions import BenchPolicy, get_policy
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.study.oracle import SAMPLE_ARGS, oracle_call, oracle_tool

KEYWORDS = 15
SAMPLES = 300
TRAINING_SEED = 10**15
"""Training streams start here: far from any seed a test or benchmark generates."""
FIGURE = re.compile(r"(?<![\d,])\d{1,3}(?:,\d{3})+(?![\d,])|(?<![\d,])\d{5,}(?![\d,])")
_SENTENCE = re.compile(r"[^.\n]*(?:\.\d[^.\n]*)*")
_EXECUTION = Execution((Attempt(1, 40, "ok", 200),), 40, "ok")

Answer = Callable[[ToolCase, ToolFixture], tuple[RunResponse, tuple[ToolCall, ...]]]


def stems(text: str) -> frozenset[str]:
    return content_words(text, STOP_WORDS, stems=True)


@dataclass(frozen=True, slots=True)
class Setting:
    """What a router runs against: a version's policy and the texts of its pack."""

    policy: BenchPolicy
    texts: Texts

    @classmethod
    def of(cls, bench_version: str) -> Setting:
        policy = get_policy(bench_version)
        return cls(policy, texts_of(public_pack(policy.pack_id)))

    @property
    def version(self) -> str:
        return self.policy.content_version

    def tool_side(
        self, seed: int, run_size: str
    ) -> tuple[tuple[ToolCase, ...], tuple[ToolFixture, ...]]:
        """The tool cases and fixtures of one dataset (what ``build_dataset`` makes of them)."""
        root = Stream.root(seed, self.version)
        count = self.policy.run_size(run_size).tool_cases
        return build_tool_cases(root, count, self.texts, self.policy.content)


# Routers ------------------------------------------------------------------------------------


class DescriptionRouter:
    """Picks the catalog tools whose descriptions share the most content words with the prompt."""

    def __init__(self, setting: Setting) -> None:
        tools = shown_by(setting.texts.pack).tools
        self.order = [tool.name for tool in tools]
        self.described = {tool.name: stems(tool.description) for tool in tools}

    def route(self, case: ToolCase) -> list[str]:
        asked = stems(case.prompt)
        scores = {name: len(asked & self.described[name]) for name in self.order}
        ranked = sorted(self.order, key=lambda name: (-scores[name], self.order.index(name)))
        wanted = max(1, len(case.expected_tools))
        return [name for name in ranked[:wanted] if scores[name] > 0]


class KeywordRouter:
    """Calls the tools of the category whose learned keywords the prompt holds most.

    With ``distinctive`` the keywords are each category's words ranked by frequency times
    ``log(categories / categories where the word is common)`` (TF-IDF), a stronger learner than
    the plain most-frequent words: it measures what the content words alone still route."""

    def __init__(
        self,
        setting: Setting,
        keywords: int = KEYWORDS,
        samples: int = SAMPLES,
        distinctive: bool = False,
    ) -> None:
        self.categories = setting.texts.categories
        counts = [_count(category, setting, samples) for category in self.categories]
        weight = _idf(counts, samples) if distinctive else None
        self.keywords = [_top(c, samples, keywords, weight) for c in counts]

    def route(self, case: ToolCase) -> list[str]:
        asked = stems(case.prompt)
        best: tuple[int, float, int] = (0, 0.0, 0)
        chosen: Category | None = None
        for index, (category, learned) in enumerate(
            zip(self.categories, self.keywords, strict=True)
        ):
            hits = [w for w in learned if w in asked]
            key = (len(hits), sum(learned[w] for w in hits), -index)
            if hits and key > best:
                best, chosen = key, category
        return list(chosen.tools) if chosen else []


COMMON = 0.05
"""A word is common in a category when at least this share of its expansions say it."""


def _count(category: Category, setting: Setting, samples: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    for i in range(samples):
        stream = Stream.root(TRAINING_SEED + i, setting.version).fork(f"keywords/{category.name}")
        fixture = make_fixture(stream.fork("fixture"), "training", category, setting.texts.words)
        counts.update(stems(render(category, stream, fixture_values(fixture)).prompt))
    return counts


def _idf(counts: list[Counter[str]], samples: int) -> dict[str, float]:
    common = Counter(w for c in counts for w, n in c.items() if n >= COMMON * samples)
    return {w: math.log(len(counts) / n) for w, n in common.items()}


def _top(
    counts: Counter[str], samples: int, keywords: int, idf: dict[str, float] | None
) -> dict[str, float]:
    def rank(w: str) -> float:
        share = counts[w] / samples
        return share if idf is None else share * idf.get(w, math.log(len(idf) or 1))

    top = sorted(counts, key=lambda w: (-rank(w), w))[:keywords]
    return {w: counts[w] / samples for w in top}


# Frame reader -------------------------------------------------------------------------------


class FrameReader:
    """Picks the needle among the figures a case's results show, by the words around each.

    Trained on the findings (``mocktools.content.finding``: the sentence that states a figure,
    without the tool's own scaffolding) of the cases of other seeds: the needle's, and the decoy
    of every other content tool."""

    def __init__(self, setting: Setting, seeds: Iterable[int] = range(40)) -> None:
        near_needle: Counter[str] = Counter()
        near_decoy: Counter[str] = Counter()
        for needle, decoy in findings(setting, (TRAINING_SEED + s for s in seeds)):
            near_needle.update(set(words(needle)))
            near_decoy.update(set(words(decoy)))
        total_n = sum(near_needle.values()) or 1
        total_d = sum(near_decoy.values()) or 1
        self.weight = {
            w: math.log((near_needle[w] + 1) / total_n) - math.log((near_decoy[w] + 1) / total_d)
            for w in set(near_needle) | set(near_decoy)
        }

    def pick(self, served: Sequence[str]) -> str:
        found = [pair for text in served for pair in figures_in(text)]
        if not found:
            return ""
        scores = [sum(self.weight.get(w, 0.0) for w in set(words(s))) for _, s in found]
        best = max(range(len(found)), key=lambda i: (scores[i], i))
        return found[best][0]


def figures_in(text: str) -> list[tuple[str, str]]:
    """(figure, the sentence holding it, figure removed) for every figure in ``text``."""
    out = []
    for sentence in _SENTENCE.findall(text):
        for figure in FIGURE.findall(sentence):
            out.append((figure, sentence.replace(figure, " ")))
    return out


def findings(setting: Setting, seeds: Iterable[int]) -> Iterable[tuple[str, str]]:
    """(needle finding, decoy finding), each figure replaced by ``{figure}``, for every case
    with a bearer: the decoy as one other content tool words it."""
    for seed in seeds:
        cases, fixtures = setting.tool_side(seed, "full")
        for case, fixture in zip(cases, fixtures, strict=True):  # both in case order
            if not fixture.bearer:
                continue
            stream = Stream.root(seed, setting.version).fork(f"frames/{case.id}")
            other = next(t for t in CONTENT_TOOLS if t != fixture.bearer)
            needle = finding(stream, fixture, fixture.bearer, public_pack().replies)
            decoy = finding(stream, fixture, other, public_pack().replies)
            yield (
                needle.replace(fixture.needle_figure, "{figure}"),
                decoy.replace(fixture.decoy_figure, "{figure}"),
            )


# Answering and scoring ----------------------------------------------------------------------


def answer_with(
    route: Callable[[ToolCase], list[str]], reader: FrameReader, seed: int, version: str
) -> Answer:
    """A tool strategy calling what ``route`` picks, with the expected arguments when it picked
    an expected tool, and stating the figure ``reader`` picks for result-usage cases."""

    def answer(case: ToolCase, fixture: ToolFixture) -> tuple[RunResponse, tuple[ToolCall, ...]]:
        calls: list[ToolCall] = []
        shown: list[str] = []
        used: set[int] = set()
        for name in route(case):
            call = _call(case, fixture, name, used, len(calls))
            earlier = [c.name for c in calls]
            calls.append(call)
            reply = execute(seed, version, case, fixture, name, call.args, earlier)
            if reply.error == TRANSIENT_ERROR:
                calls.append(call)
                reply = execute(seed, version, case, fixture, name, call.args, [*earlier, name])
            shown.append(reply.result)
        text = "Done." if calls else "Sure, happy to help."
        if case.group == "result_usage":
            text = f"It reached {reader.pick(shown)}."
        return RunResponse(final_text=text), tuple(calls)

    return answer


def _call(case: ToolCase, fixture: ToolFixture, name: str, used: set[int], hop: int) -> ToolCall:
    for index, expected in enumerate(case.expected_tools):
        if expected.name == name and index not in used:
            used.add(index)
            call = oracle_call(case, fixture, index)
            return ToolCall(call.name, call.args, hop)
    required = get_tool(name).parameters["required"]
    return ToolCall(name, {arg: SAMPLE_ARGS.get(arg, "x") for arg in required}, hop)


def tool_scores(
    setting: Setting, cases: Sequence[ToolCase], fixtures: Sequence[ToolFixture], answer: Answer
) -> list[float]:
    """The grader's score of every case answered by ``answer`` (calls observed)."""
    by_id = {f.case_id: f for f in fixtures}
    scores = []
    for case in cases:
        fixture = by_id[case.id]
        response, calls = answer(case, fixture)
        record = CaseRecord(case.id, "tool", "", response, calls, _EXECUTION)
        verdict = grade_tool(case, fixture, record, setting.policy.grading)
        scores.append(verdict.score)
    return scores


oracle: Answer = oracle_tool
"""The oracle's tool answers (``dittobench.study.oracle``): the ceiling, 1.0 on every case."""


def date_reader(setting: Setting) -> Callable[[Sequence[str]], str]:
    """A reader of content: picks the figure whose sentence carries the latest date (a month of
    the pack, a day, a year when one follows); the last figure when no sentence is dated."""
    months = {m.lower(): i for i, m in enumerate(setting.texts.words.pool("months"))}

    def when(sentence: str) -> tuple[int, int, int]:
        tokens = [*words(sentence), ""]
        for i, token in enumerate(tokens[:-2]):
            if token in months and tokens[i + 1].isdigit():
                year = int(tokens[i + 2]) if tokens[i + 2].isdigit() else 0
                return year, months[token], int(tokens[i + 1])
        return (-1, -1, -1)

    def pick(served_texts: Sequence[str]) -> str:
        found = [pair for text in served_texts for pair in figures_in(text)]
        if not found:
            return ""
        dates = [when(sentence) for _, sentence in found]
        return found[max(range(len(found)), key=lambda i: (dates[i], i))][0]

    return pick
