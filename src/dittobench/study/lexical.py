"""The lexical reader: a memory question answered with the stored user turn that shares the
most content words with it (word stems, stop words left out; the latest turn on a tie).

It reads only what the user stored by the time the question is asked, and understands none
of it. The question wordings keep their word overlap with the evidence low
(``docs/memory.md``), so this reader mostly lands on the wrong turn.
"""

from __future__ import annotations

from dittobench.core.text import STOP_WORDS, content_words
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.wire import RunResponse
from dittobench.study.history import stored_pairs


def _stems(text: str) -> frozenset[str]:
    return content_words(text, STOP_WORDS, stems=True)


class LexicalReader:
    """Answers one dataset's memory questions by word overlap with the stored user turns."""

    def __init__(self, dataset: Dataset) -> None:
        self.turns = {
            user: [(s.wave, s.pair.prompt, _stems(s.pair.prompt)) for s in pairs]
            for user, pairs in stored_pairs(dataset).items()
        }

    def __call__(self, case: MemoryCase, dataset: Dataset | None = None) -> RunResponse:
        asked = _stems(case.question)
        best, text = 0, ""
        for wave, prompt, stems in self.turns.get(case.user_id, ()):
            shared = len(stems & asked)
            if wave <= case.run_after_wave and shared >= best and shared:
                best, text = shared, prompt
        return RunResponse(final_text=text or "I don't know.")
