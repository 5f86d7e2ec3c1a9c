"""The red-team parser, tool side: requests routed by the pack's category grammars.

A tool prompt is matched against every category's ``origin`` wordings (``tools.json``, one
pattern per wording, slot values captured; a pool slot matches only its pool's values). The
category it fits gives the calls to make, in order, and its pins say which captured value goes
into which argument; every other required argument gets a filler. The calls go through the
mock tool endpoint (``mocktools.execute``), as a harness's calls go over HTTP: a transient
error is retried once, a job id or a link a result hands back is carried into the next call,
and for result-usage requests the figure of the pack's needle sentence (``values.json``
``formats.needle``) is read from the results and stated. A request no category fits, or one of
a category without tools, is answered in prose.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dittobench.catalog import MEMORY_TOOLS, get_tool
from dittobench.generate.texts import Texts, texts_of
from dittobench.generate.tools.category import Category
from dittobench.mocktools import TRANSIENT_ERROR, execute
from dittobench.packs import Pack
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.versions import get_policy
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.study.index import pack_of
from dittobench.study.oracle import SAMPLE_ARGS
from dittobench.study.patterns import Wording, compile_format, compile_symbol

PROSE = "Happy to help with that without any tools."


@dataclass(frozen=True, slots=True)
class Route:
    """A wording of a tool category."""

    category: Category
    wording: Wording


@dataclass(frozen=True, slots=True)
class Readers:
    """Patterns for what results hand back, from the pack's formats."""

    job_id: Wording
    link: Wording
    needle: Wording


_ROUTES: dict[str, tuple[tuple[Route, ...], Readers]] = {}


def routes_of(pack: Pack) -> tuple[tuple[Route, ...], Readers]:
    """Every category wording of ``pack`` and its result readers (cached by the pack's hash)."""
    cached = _ROUTES.get(pack.sha256)
    if cached is None:
        texts = texts_of(pack)
        cached = _ROUTES[pack.sha256] = (_routes(texts), _readers(texts))
    return cached


def _routes(texts: Texts) -> tuple[Route, ...]:
    records = {r["name"]: r for r in texts.pack.file("tools")["categories"]}
    routes = []
    for category in texts.categories:
        slots = _pool_patterns(records.get(category.name, {}), texts.words.pools)
        for wording in compile_symbol(category.grammar, "origin", slots):
            routes.append(Route(category, wording))
    return tuple(routes)


def _pool_patterns(
    record: Mapping[str, Any], pools: Mapping[str, tuple[str, ...]]
) -> dict[str, str]:
    out = {}
    for slot, spec in record.get("slots", {}).items():
        pool = pools.get(spec.get("pool", ""), ())
        if pool:
            values = sorted(pool, key=len, reverse=True)
            out[slot] = "(?:" + "|".join(re.escape(v) for v in values) + ")"
    return out


def _readers(texts: Texts) -> Readers:
    formats = texts.words.formats
    return Readers(
        job_id=compile_format(formats["job_id"], {"code": r"[A-Za-z0-9]+"}),
        link=compile_format(
            formats["link"], {s: r"[^\s/]+" for s in ("host", "tld", "section", "slug")}
        ),
        needle=compile_format(formats["needle"], {"figure": r"\d[\d,]*", "unit": r"\S+"}),
    )


class ToolParser:
    """Answers one dataset's tool cases the way the parser harness would."""

    def __init__(self, dataset: Dataset, pack: Pack | None = None) -> None:
        """``pack``: the pack whose grammars route requests (default: the dataset's own)."""
        self.routes, self.readers = routes_of(pack if pack is not None else pack_of(dataset))
        self.seed = dataset.seed
        self.content_version = get_policy(dataset.bench_version).content_version

    def route(self, prompt: str) -> tuple[Route, dict[str, str]] | None:
        lowered = prompt.lower()
        for route in self.routes:
            slots = route.wording.match(prompt, lowered)
            if slots is not None:
                return route, slots
        return None

    def __call__(
        self, case: ToolCase, fixture: ToolFixture
    ) -> tuple[RunResponse, tuple[ToolCall, ...]]:
        found = self.route(case.prompt)
        if found is None or not found[0].category.tools:
            return RunResponse(final_text=PROSE), ()
        route, values = found
        calls: list[ToolCall] = []
        figure = ""
        for index, tool in enumerate(route.category.tools):
            call = ToolCall(tool, self.arguments(route.category, index, values, case.prompt), index)
            for result in self.run(case, fixture, call, calls):
                values.update(self.read(result))
                figure = self.figure(result) or figure
        if route.category.uses_result and figure:
            return RunResponse(final_text=f"It reached {figure}."), tuple(calls)
        return RunResponse(final_text="Done."), tuple(calls)

    def arguments(
        self, category: Category, index: int, values: Mapping[str, str], prompt: str
    ) -> dict[str, Any]:
        """Fillers for the required arguments, then every pin of this call whose slot has a
        value (pins into the same argument are joined)."""
        tool = category.tools[index]
        schema = get_tool(tool).parameters
        args: dict[str, Any] = {name: SAMPLE_ARGS.get(name, "x") for name in schema["required"]}
        if tool == "search_web":
            args["queries"] = [values.get("subject") or values.get("topic") or prompt]
        pinned: dict[str, list[str]] = {}
        for pin in category.pins:
            if pin.tool == index and values.get(pin.slot):
                pinned.setdefault(pin.arg, []).append(values[pin.slot])
        for arg, found in pinned.items():
            text = " ".join(found)
            args[arg] = [text] if schema["properties"][arg]["type"] == "array" else text
        return args

    def run(
        self, case: ToolCase, fixture: ToolFixture, call: ToolCall, calls: list[ToolCall]
    ) -> list[str]:
        """Make ``call`` (again once after a transient error); the results it got."""
        calls.append(call)
        if call.name in MEMORY_TOOLS:  # served by the harness's own store, not the endpoint
            return []
        earlier = [c.name for c in calls[:-1]]
        reply = execute(
            self.seed, self.content_version, case, fixture, call.name, call.args, earlier
        )
        if reply.error == TRANSIENT_ERROR:
            calls.append(call)
            earlier.append(call.name)
            reply = execute(
                self.seed, self.content_version, case, fixture, call.name, call.args, earlier
            )
        return [reply.result] if reply.result else []

    def read(self, result: str) -> dict[str, str]:
        """What a result hands on to the next call: a job id, the first link."""
        out = {}
        job = self.readers.job_id.pattern.search(result)
        if job:
            out["job_id"] = job.group(0)
        link = self.readers.link.pattern.search(result)
        if link:
            out["link"] = link.group(0)
        return out

    def figure(self, result: str) -> str:
        found = self.readers.needle.search(result)
        return found.get("figure", "") if found else ""
