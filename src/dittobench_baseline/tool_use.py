"""Answering a request with the catalog's non-memory tools: plan, fill, call, report.

The plan is one tool per clause that routes clearly ("search for X, then open the first result"),
or the best tool for the whole request plus any tool the words it leaves unexplained point to
and whose precise arguments the request states; at most ``MAX_STEPS`` tools. The first tool's
arguments come from the request; a missing precise argument is asked for, never guessed. Each
later tool may take a link or id from the earlier results and is skipped when it still lacks an
argument. The reply quotes a figure the last good result states about the request's subject.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dittobench.spec.wire import (
    MEMORY_TOOLS,
    RunRequest,
    RunResponse,
    ToolDefinition,
    ToolExecResponse,
)
from dittobench_baseline.router import (
    FOLLOW_THRESHOLD,
    Route,
    Router,
    fill_args,
    find_ids,
    find_urls,
)
from dittobench_baseline.textutil import content_stems, sentences
from dittobench_baseline.tools import CallTrace, ToolCaller, call_endpoint

MAX_STEPS = 3

_CLAUSE_BREAK = re.compile(
    r",?\s+(?:and\s+)?(?:then|afterwards|after that|once (?:that|it)(?:'s| is) (?:done|started))"
    r"[,\s]+|;\s+|(?<=[.!?])\s+(?=[A-Z])"
    r"|,?\s+and\s+(?:also\s+)?(?=(?:check|tell|read|open|get|show|send|set|switch|change|create"
    r"|make|start|run|look|search|find|email|remind|give|let|report|see|fetch|download|pull"
    r"|summari[sz]e|book|add|put|use|turn)\b)",
    re.IGNORECASE,
)
_FIGURE = re.compile(
    r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.,])\d+(?:\.\d+)?(?![\w])"
)


def use_tools(
    request: RunRequest,
    text: str,
    router: Router,
    ranked: list[Route],
    primary: Route,
    trace: CallTrace,
    call_tool: ToolCaller,
) -> RunResponse:
    """Plan the calls for ``text`` (``primary`` being its best tool), make them, report."""
    steps = plan(router, text, ranked, primary)
    first_tool, first_text = steps[0]
    filled = fill_args(router.tools[first_tool], first_text)
    if filled.missing:
        filled = fill_args(router.tools[first_tool], text)
    if filled.missing:
        return ask_for(router.tools[first_tool], filled.missing)
    if not request.tool_endpoint:
        return RunResponse(final_text=f"I would use {first_tool}, but no tool service is set up.")
    results: list[tuple[str, ToolExecResponse]] = [
        (first_tool, call_endpoint(request, first_tool, filled.args, trace, call_tool))
    ]
    for name, clause in steps[1:]:
        context = [r.result for _, r in results if r.result]
        follow = fill_args(router.tools[name], clause, context)
        if follow.missing:
            follow = fill_args(router.tools[name], text, context)
        if follow.missing:
            continue
        results.append((name, call_endpoint(request, name, follow.args, trace, call_tool)))
    return report(text, results, trace)


def plan(router: Router, text: str, ranked: list[Route], primary: Route) -> list[tuple[str, str]]:
    """The tools to call, in order, each with the words it should draw its arguments from."""
    by_clause = _plan_by_clause(router, text)
    if by_clause is not None:
        return by_clause
    return _plan_together(router, text, ranked, primary)


def clauses(text: str) -> list[str]:
    return [c.strip(" ,.;") for c in _CLAUSE_BREAK.split(text) if c and c.strip(" ,.;")]


def _plan_by_clause(router: Router, text: str) -> list[tuple[str, str]] | None:
    """One tool per clause that routes clearly, when at least two clauses do; else None."""
    parts = clauses(text)
    if len(parts) < 2:
        return None
    steps: list[tuple[str, str]] = []
    for clause in parts:
        best = next((r for r in router.rank(clause) if r.name not in MEMORY_TOOLS), None)
        if best is None or best.score < FOLLOW_THRESHOLD:
            continue
        if steps and steps[-1][0] == best.name:
            continue
        steps.append((best.name, clause))
    return steps[:MAX_STEPS] if len(steps) >= 2 else None


def _plan_together(
    router: Router, text: str, ranked: list[Route], primary: Route
) -> list[tuple[str, str]]:
    """``primary``, then each other tool that the words ``primary`` leaves unexplained point to
    and whose precise arguments the request states with values no earlier tool takes
    (independent settings asked for together)."""
    steps = [(primary.name, text)]
    taken = {str(v) for v in fill_args(router.tools[primary.name], text).args.values()}
    for route in ranked:
        if len(steps) >= MAX_STEPS:
            break
        if route.name in MEMORY_TOOLS or route.name == primary.name:
            continue
        if route.score < FOLLOW_THRESHOLD:
            break
        if router.residual(text, primary.name, route.name) < FOLLOW_THRESHOLD:
            continue
        other = fill_args(router.tools[route.name], text)
        values = {str(other.args[n]) for n in other.precise}
        if other.missing or not other.precise or values & taken:
            continue
        taken |= values
        steps.append((route.name, text))
    return steps


def ask_for(tool: ToolDefinition, missing: Sequence[str]) -> RunResponse:
    """A reply asking for the missing arguments, in the words of their descriptions."""
    props = tool.parameters.get("properties", {}) if isinstance(tool.parameters, dict) else {}
    wanted = []
    for name in missing:
        schema = props.get(name, {}) if isinstance(props, dict) else {}
        desc = str(schema.get("description", "")).rstrip(".") if isinstance(schema, dict) else ""
        wanted.append(desc.lower() or name.replace("_", " "))
    return RunResponse(
        final_text=f"I can do that, but I need one more detail first: {'; '.join(wanted)}. "
        "Could you tell me?"
    )


def report(
    text: str, results: Sequence[tuple[str, ToolExecResponse]], trace: CallTrace
) -> RunResponse:
    """The reply after the calls: the last failure when none went through, else the figure
    the last good result states about the request, else that result in brief."""
    calls = tuple(trace.calls)
    done = [(name, r) for name, r in results if not r.error]
    if not done:
        name, failed = results[-1]
        return RunResponse(
            final_text=f"The {name} call did not go through: {failed.error}", tool_calls=calls
        )
    name, last = done[-1]
    figure = stated_figure(last.result, text)
    if figure is not None:
        number, sentence = figure
        return RunResponse(
            final_text=f"The figure is {number}. ({sentence})",
            tool_calls=calls,
            answer=number,
            confidence=0.6,
        )
    summary = " ".join(last.result.split())
    if len(summary) > 400:
        summary = summary[:397] + "..."
    return RunResponse(
        final_text=f"Done ({name}): {summary}" if summary else "Done.", tool_calls=calls
    )


def stated_figure(result: str, request: str) -> tuple[str, str] | None:
    """The number a tool result states about the request's subject, and its sentence: in the
    sentence sharing most content words with the request, the longest number outside links and
    ids."""
    wanted = content_stems(request)
    best: tuple[int, int, str, str] | None = None
    for sentence in sentences(result):
        plain = _without_links_and_ids(sentence)
        numbers = _FIGURE.findall(plain)
        if not numbers:
            continue
        overlap = len(wanted & content_stems(plain))
        if overlap == 0:
            continue
        number = max(numbers, key=lambda n: sum(ch.isdigit() for ch in n))
        key = (overlap, sum(ch.isdigit() for ch in number))
        if best is None or key > best[:2]:
            best = (key[0], key[1], number, sentence.strip())
    if best is None:
        return None
    return best[2], best[3]


def _without_links_and_ids(sentence: str) -> str:
    plain = sentence
    for link in find_urls(sentence):
        plain = plain.replace(link, " ")
    for ident in find_ids(plain):
        plain = plain.replace(ident, " ")
    return plain
