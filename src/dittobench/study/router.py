"""The description router: a tool request answered by word overlap with the catalog.

It reads the catalog as the harness is shown it (the pack's ``catalog.json`` descriptions) and
calls the one tool whose description shares the most content words with the request (word
stems, stop words left out; the catalog's first on a tie). Each required argument gets the
request's words that its own description shares, and nothing when there are none. A request
that shares no word with any description gets a prose reply. It never reads the history: its
memory answers decline.
"""

from __future__ import annotations

from typing import Any

from dittobench.catalog.shown import shown_by
from dittobench.core.text import STOP_WORDS, content_words, stem, words
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.study.index import pack_of


def _stems(text: str) -> frozenset[str]:
    return content_words(text, STOP_WORDS, stems=True)


class Router:
    """Routes one dataset's tool cases by description overlap."""

    def __init__(self, dataset: Dataset) -> None:
        self.tools = shown_by(pack_of(dataset)).tools
        self.described = [_stems(tool.description) for tool in self.tools]

    def __call__(
        self, case: ToolCase, fixture: ToolFixture
    ) -> tuple[RunResponse, tuple[ToolCall, ...]]:
        asked = _stems(case.prompt)
        overlap = [len(described & asked) for described in self.described]
        best = max(range(len(self.tools)), key=lambda i: (overlap[i], -i))
        if overlap[best] == 0:
            return RunResponse(final_text="I can't tell which tool that needs."), ()
        tool = self.tools[best]
        call = ToolCall(tool.name, self.arguments(tool.parameters, case.prompt), 0)
        return RunResponse(final_text="Done."), (call,)

    def arguments(self, schema: dict[str, Any], prompt: str) -> dict[str, Any]:
        args: dict[str, Any] = {}
        properties = schema["properties"]
        for name in schema["required"]:
            described = _stems(str(properties[name].get("description", "")))
            shared = [w for w in words(prompt) if stem(w) in described]
            if shared:
                text = " ".join(dict.fromkeys(shared))
                args[name] = [text] if properties[name]["type"] == "array" else text
        return args
