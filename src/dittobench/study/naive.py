"""Answers that never understand the history: a decline, a constant, a dump of what is stored.

They stand for harnesses that score by gaming the grader rather than by remembering. Each is a
pure function of the case (and, for ``dump_everything``, of what the user stored); grading-2
(``docs/grading.md``) holds every one of them near zero on memory.
"""

from __future__ import annotations

from collections.abc import Mapping

from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.memory import MemoryCase
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.study.transcripts import MemoryAnswer

BEST_CONSTANTS: Mapping[str, str] = {
    "value": "size 38",
    "number": "2",
    "tally": "14, the first on 2026-03-30",
    "list": "The Orchard at Vell, A Field Guide to Leaving, The Year of Small Fires, The Tin Crown",
    "ordered_list": "staghorn fern, Porto, Marrowstone",
    "duration": "18 days",
    "reversal": "You gave it up.",
    "persistence": "You're still at it, you haven't given up.",
    "decline": "I don't have any record of that.",
    "acknowledge": "Done, saved.",
}
"""The constant answer of each answer kind that passed most cases of bench 2.0.0 (full runs,
seeds 1000-1019, over the candidates of ``tests/unit/test_grade_redteam.py``: stock phrases,
the commonest answers and every count and duration). Where none passes any case (reversal,
persistence, decline, acknowledge) the stock phrase stands. ``docs/study.md`` gives the rates."""


def always_decline(case: MemoryCase, dataset: Dataset) -> RunResponse:
    return RunResponse(final_text="I don't know.", abstain=True)


def dump_everything(case: MemoryCase, dataset: Dataset) -> RunResponse:
    """Everything stored for the user, every time (no knowledge of the key)."""
    pairs = [p for w in dataset.memory_waves if w.user_id == case.user_id for p in w.pairs]
    return RunResponse(final_text="\n".join(p.prompt for p in pairs))


def dump_stored(case: MemoryCase, dataset: Dataset) -> RunResponse:
    """Every turn and reply stored for the user by the time the question is asked, in one
    answer: all a harness that recites its store could say."""
    pairs = [
        p
        for w in dataset.memory_waves
        if w.user_id == case.user_id and w.wave <= case.run_after_wave
        for p in w.pairs
    ]
    return RunResponse(final_text="\n".join(f"{p.prompt}\n{p.response}" for p in pairs))


def canned(text: str) -> MemoryAnswer:
    """One constant answer to every question."""

    def answer(case: MemoryCase, dataset: Dataset) -> RunResponse:
        return RunResponse(final_text=text)

    return answer


def best_constant(case: MemoryCase, dataset: Dataset) -> RunResponse:
    """The best constant of the case's answer kind (``BEST_CONSTANTS``). Being told the kind
    makes it stronger than any harness, which only sees the question."""
    return RunResponse(final_text=BEST_CONSTANTS.get(case.answer_kind, "I don't know."))


def no_tools(case: ToolCase, fixture: ToolFixture) -> tuple[RunResponse, tuple[ToolCall, ...]]:
    """Answer tool cases in prose only, echoing the request."""
    return RunResponse(final_text=case.prompt), ()
