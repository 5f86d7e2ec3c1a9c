"""Context-window strategies: readers that see only the most recent N tokens of the history.

Any assistant can read a whole ``full`` history (about 11 K tokens) in its context window on
every question; a ``long`` one (bench 8.0, about 550 K tokens) does not fit. These strategies
measure what a bigger window buys and where memory is needed (``docs/study.md``, "Context
windows").

- **The window** of a memory question is cut from the user's pairs seeded by the time it is
  asked (the waves up to its ``run_after_wave``), in time order (timestamp, then seeding order,
  as ``study.history.stored_pairs`` sorts them). A pair costs ``pair_tokens``: its prompt and
  reply in characters, divided by ``TOKEN_CHARS`` (4) and rounded up; no tokenizer. Pairs are
  taken newest first while the running total stays within N; the first pair that would take it
  over N ends the window (it and every older pair are left out), so a window never holds more
  than N tokens.
- **window-Nk** (``window_oracle``) is an ideal reader of what the window holds: when every
  evidence pair of the case (``MemoryCase.evidence_pair_ids``; a case without any trivially)
  lies in the window, it answers as ``study.oracle`` does; when one does not, it declines with
  ``abstain`` ("I have no record of that in the part of our history I can see."), which the
  grader reads as a decline: 0 on a question that has an answer (``wrongful_decline``;
  ``unconfirmed`` on a write instruction, which it does not carry out). On a decline question
  (``answer_kind`` decline) it gives the oracle's grounded decline either way: seeing nothing
  about the subject, an ideal reader declines, which is the right answer. It reads the key: a
  ceiling per window size, not a harness, and a strict one (it needs every evidence pair even
  where fewer would do, ``docs/study.md``).
- **window-parser-Nk** (``window_parser``) is the study's ``parser`` given only the mentions
  it read in the window's pairs (``MemoryParser.answer_seen``): a harness with no model that
  reads its context window with the public pack's grammar. It never reads the key.

Tool cases are not about the history: ``window-Nk`` answers them as the oracle does, so its
composite moves with memory only; ``window-parser-Nk`` as ``parser`` does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.wire import Pair, RunResponse
from dittobench.study.history import StoredPair, stored_pairs
from dittobench.study.oracle import oracle_memory
from dittobench.study.parser import MemoryParser
from dittobench.study.transcripts import MemoryAnswer

TOKEN_CHARS = 4
"""Characters a token stands for: the usual rule of thumb for English text."""
WINDOW_SIZES = (8_000, 32_000, 128_000)
"""The window sizes the study runs, in tokens (``k`` is a thousand)."""
WINDOW_DECLINE = RunResponse(
    final_text="I have no record of that in the part of our history I can see.", abstain=True
)
"""What ``window-Nk`` says when some evidence lies outside its window."""


def pair_tokens(pair: Pair) -> int:
    """A pair's cost in tokens: prompt and reply in characters over ``TOKEN_CHARS``, rounded
    up (a tokenizer-free estimate that every machine computes alike)."""
    return -(-(len(pair.prompt) + len(pair.response)) // TOKEN_CHARS)


def window_of(pairs: list[StoredPair], limit: int) -> tuple[StoredPair, ...]:
    """The newest pairs of ``pairs`` (in time order, oldest first) whose tokens add up to at
    most ``limit``: taken newest first, stopping at the first that does not fit. Returned
    oldest first."""
    taken: list[StoredPair] = []
    total = 0
    for stored in reversed(pairs):
        total += pair_tokens(stored.pair)
        if total > limit:
            break
        taken.append(stored)
    taken.reverse()
    return tuple(taken)


def label(limit: int) -> str:
    """``8k`` for 8,000 tokens: how the strategy names write a window size."""
    return f"{limit // 1000}k" if limit % 1000 == 0 else str(limit)


class ContextWindows:
    """The window of each memory question of one dataset, for one window size.

    Questions asked after the same wave by the same user share a window; each is cut once."""

    def __init__(self, dataset: Dataset, limit: int) -> None:
        self.limit = limit
        self._pairs = stored_pairs(dataset)
        self._cut: dict[tuple[str, int], frozenset[str]] = {}

    def pairs(self, case: MemoryCase) -> tuple[StoredPair, ...]:
        """The pairs in ``case``'s window, oldest first."""
        seeded = [s for s in self._pairs.get(case.user_id, ()) if s.wave <= case.run_after_wave]
        return window_of(seeded, self.limit)

    def pair_ids(self, case: MemoryCase) -> frozenset[str]:
        """The ids of the pairs in ``case``'s window (for membership only)."""
        key = (case.user_id, case.run_after_wave)
        cut = self._cut.get(key)
        if cut is None:
            cut = frozenset(s.pair.pair_id for s in self.pairs(case))
            self._cut[key] = cut
        return cut

    def holds_evidence(self, case: MemoryCase) -> bool:
        """Whether every evidence pair of ``case`` lies in its window."""
        held = self.pair_ids(case)
        return all(pair_id in held for pair_id in case.evidence_pair_ids)


def window_oracle(dataset: Dataset, limit: int) -> MemoryAnswer:
    """``window-Nk``'s memory answers: the oracle's when the window holds every evidence pair,
    else a decline (the oracle's grounded one on a decline question)."""
    windows = ContextWindows(dataset, limit)

    def answer(case: MemoryCase, given: Dataset) -> RunResponse:
        if case.answer_kind == "decline" or windows.holds_evidence(case):
            return oracle_memory(case, given)
        return WINDOW_DECLINE

    return answer


@dataclass(slots=True)
class _Shared:
    """The last dataset's parser, shared by the window sizes (its reading is the slow part)."""

    dataset: Dataset | None = None
    reader: MemoryParser | None = None


_SHARED = _Shared()


def shared_parser(dataset: Dataset) -> MemoryParser:
    """The ``parser``'s reader of ``dataset``, read once for every window size that asks for it
    in turn (only the last dataset is kept: the study prepares its strategies dataset by
    dataset)."""
    if _SHARED.dataset is not dataset or _SHARED.reader is None:
        _SHARED.reader = MemoryParser(dataset)
        _SHARED.dataset = dataset
    return _SHARED.reader


def window_parser(dataset: Dataset, limit: int) -> Callable[[MemoryCase, Dataset], RunResponse]:
    """``window-parser-Nk``'s memory answers: the parser's, from the mentions it read in the
    window's pairs only."""
    windows = ContextWindows(dataset, limit)
    reader = shared_parser(dataset)

    def answer(case: MemoryCase, _given: Dataset) -> RunResponse:
        held = windows.pair_ids(case)
        seen = [
            m
            for m in reader.mentions.get(case.user_id, ())
            if m.wave <= case.run_after_wave and m.pair_id in held
        ]
        return reader.answer_seen(case, seen)

    return answer
