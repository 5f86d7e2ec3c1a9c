"""Grade one tool case: which tools, which arguments, in what order, how many calls, and (for
result-usage cases) whether the answer uses the figure only the right tool returned.

score = selection x 0.4 + arguments x 0.4 + order-and-discipline x 0.2 (weights from the policy).
Calls are taken from what the tool endpoint observed. A case whose expected tools are all served by
the endpoint but which shows no observed call is graded on the harness's own report and capped
(a self-reported trajectory proves nothing). Memory tools run in the harness's own store, so
memory-only cases are graded on the report as well as anything observed; grading-1 left those
uncapped, grading-2 caps a memory call that nothing observed like any other self-report.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from dittobench.catalog.tools import MEMORY_TOOLS
from dittobench.grade.commitment import committed_text, lines_as_sentences, read_mentions
from dittobench.grade.match import hit, normalize, prepare, words_of
from dittobench.spec.dataset import ExpectedTool, ToolCase, ToolFixture
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.versions import GradingPolicy
from dittobench.spec.vocab import TOOL_REASONS, ToolReason
from dittobench.spec.wire import ToolCall

ToolVerdictReason = Literal["", ToolReason]
"""A tool verdict's reason: "" for full credit, else one of ``REASONS``."""

REASONS: Final = TOOL_REASONS
"""Why a tool case lost credit (``spec.vocab.ToolReason``; docs/grading.md)."""


@dataclass(frozen=True, slots=True)
class ToolVerdict:
    score: float
    trajectory: float
    reason: ToolVerdictReason
    called: tuple[str, ...]
    observed: bool
    capped: bool
    observed_calls: int


def grade_tool(
    case: ToolCase, fixture: ToolFixture | None, record: CaseRecord | None, policy: GradingPolicy
) -> ToolVerdict:
    response = record.response if record else None
    if record is None or response is None:
        return ToolVerdict(0.0, 0.0, "undelivered", (), False, False, 0)
    observed = list(record.observed)
    reported = list(response.tool_calls)
    text = f"{response.answer or ''}\n{response.final_text}"
    if not case.expected_tools:
        return _restraint(observed, reported, text)
    calls, is_observed, capped = _calls(case, observed, reported, policy)
    names = tuple(c.name for c in calls)
    trajectory, reason = _trajectory(case, calls, policy)
    score = trajectory
    if case.group == "result_usage" and fixture is not None:
        usage, usage_reason = _usage(text, fixture, policy)
        score = policy.result_trajectory * trajectory + policy.result_usage * usage
        reason = reason or usage_reason
    if capped and score > policy.self_report_cap:
        score, reason = policy.self_report_cap, reason or "self_reported"
    return ToolVerdict(
        round(score, 6),
        round(trajectory, 6),
        reason if score < 1 else "",
        names,
        is_observed,
        capped,
        len(observed),
    )


def _restraint(observed: list[ToolCall], reported: list[ToolCall], text: str) -> ToolVerdict:
    names = tuple(c.name for c in observed or reported)
    if names:
        return ToolVerdict(
            0.0, 0.0, "called_in_restraint", names, bool(observed), False, len(observed)
        )
    if not text.strip():
        return ToolVerdict(0.0, 0.0, "empty", (), False, False, 0)
    return ToolVerdict(1.0, 1.0, "", (), False, False, 0)


def _calls(
    case: ToolCase, observed: list[ToolCall], reported: list[ToolCall], policy: GradingPolicy
) -> tuple[list[ToolCall], bool, bool]:
    """(calls to grade, whether they were observed, whether the self-report cap applies)."""
    if all(t.name in MEMORY_TOOLS for t in case.expected_tools):
        if any(c.name in MEMORY_TOOLS for c in observed):
            return observed, True, False
        own = [c for c in reported if c.name in MEMORY_TOOLS]
        # grading-2: a memory call only the harness reports is a self-report like any other.
        capped = policy.confirm_memory_tool_reports and bool(own)
        return own + observed, bool(observed), capped
    if observed:
        return observed, True, False
    return reported, False, bool(reported)


def _trajectory(
    case: ToolCase, calls: list[ToolCall], policy: GradingPolicy
) -> tuple[float, ToolVerdictReason]:
    expected = [t.name for t in case.expected_tools]
    want = Counter(expected)
    counted = _forgiven(case, calls, want) if policy.retry_free else calls
    got = Counter(c.name for c in counted)
    matched = sum(min(got[name], count) for name, count in want.items())
    if matched == 0:
        return 0.0, "wrong_tools" if calls else "no_call"
    recall = matched / len(expected)
    precision = matched / len(counted)
    selection = recall if case.allow_extra_tools else 2 * precision * recall / (precision + recall)
    arguments = _arguments(case.expected_tools, calls, policy, case.prompt)
    order = _order(expected, calls, case.unordered)
    penalty = 0.0 if case.allow_extra_tools else _discipline(case, got, want, len(counted))
    score = (
        policy.tool_selection * selection
        + policy.tool_arguments * arguments
        + policy.tool_order_discipline * order * (1 - penalty)
    )
    reason: ToolVerdictReason = ""
    if arguments < 1:
        reason = "arguments"
    elif order < 1:
        reason = "order"
    elif selection < 1 or penalty > 0:
        reason = "extra_or_missing_calls"
    return min(1.0, score), reason


def _arguments(
    expected: Sequence[ExpectedTool], calls: list[ToolCall], policy: GradingPolicy, request: str
) -> float:
    """F1 over required arguments: each expected call is matched to the first unused call of the
    same name; a required key counts when present and correct."""
    used: set[int] = set()
    wanted = present = correct = 0
    for spec in expected:
        index = next(
            (i for i, c in enumerate(calls) if c.name == spec.name and i not in used), None
        )
        wanted += len(spec.required_args)
        if index is None:
            continue
        used.add(index)
        args = calls[index].args if isinstance(calls[index].args, dict) else {}
        for key, value in spec.required_args:
            if key in args:
                present += 1
                said = request if key in DESCRIPTIONS else ""
                correct += value_matches(args[key], value, policy, said)
    if wanted == 0 and present == 0:
        return 1.0
    if correct == 0:
        return 0.0
    precision, recall = correct / present, correct / wanted
    return 2 * precision * recall / (precision + recall)


def value_matches(observed: Any, wanted: str, policy: GradingPolicy, request: str = "") -> bool:
    """An observed argument carries the wanted value: equal after normalisation, or containing it
    as whole words without being stuffed (far longer, many words; with ``natural_arguments``
    and a ``request`` given for a describing argument, stuffed only when task-sized no more or
    when it names values the request does not). Arrays match on any element."""
    if isinstance(observed, list):
        return any(value_matches(item, wanted, policy, request) for item in observed)
    if isinstance(observed, (dict, bool)) or observed is None:
        return False
    text = normalize(str(observed))
    target = normalize(wanted)
    if not target:
        return False
    if text == target:
        return True
    stuffed = (
        len(text) > policy.stuffing_ratio * len(target)
        and len(text.split()) >= policy.stuffing_min_words
    )
    if stuffed and policy.natural_arguments and request:
        stuffed = len(text) > TASK_SIZED or len(_foreign_values(str(observed), request)) > 1
    return not stuffed and hit(text, target)


DESCRIPTIONS = frozenset(
    (
        "task",
        "goal",
        "message",
        "content",
        "prompt",
        "instruction",
        "body",
        "spec",
        "queries",
        "query",
        "steps",
        "title",
        "subject",
        "preferences",
    )
)
"""Arguments that describe in words (a task, a message, a search): a natural description may
state the wanted value among other words (grading-4); an address, an id, a time or a setting
must still be the value."""
TASK_SIZED = 600
"""Characters a natural description of a task stays within (grading-4)."""
_VALUE_LIKE = re.compile(
    r"https?://\S+|[\w.+-]+@[\w-]+\.[\w.]+|\b\w*\d\w*\b|(?:(?<=[^\W_] )|(?<=[,;:] ))[A-Z][\w'’-]*"
)


def _foreign_values(argument: str, request: str) -> set[str]:
    """Value-like words of an argument (names written capitalised inside a sentence, numbers,
    codes, addresses) that the request does not contain: what a stuffed argument adds."""
    said = words_of(normalize(request).replace("-", " "))
    out = set()
    for token in _VALUE_LIKE.findall(argument):
        words = normalize(token).replace("-", " ").replace("'s", "").split()
        if words and not all(w.strip(".,;:!?()'\"") in said for w in words):
            out.add(normalize(token))
    return out


def _order(expected: list[str], calls: list[ToolCall], unordered: bool) -> float:
    """Share of consecutive expected pairs whose first occurrences arrive in order."""
    if unordered or len(expected) < 2:
        return 1.0
    first: dict[str, int] = {}
    for index, call in enumerate(calls):
        first.setdefault(call.name, index)
    pairs = list(itertools.pairwise(expected))
    good = sum(1 for a, b in pairs if a in first and b in first and first[a] < first[b])
    return good / len(pairs)


def _discipline(case: ToolCase, got: Counter[str], want: Counter[str], calls: int) -> float:
    """Loss for calls beyond the budget or beyond what each expected tool needs, capped at 1."""
    budget = case.max_tool_calls
    over_budget = (calls - budget) / budget if budget and calls > budget else 0.0
    extras = sum(max(0, count - want.get(name, 0)) for name, count in got.items())
    return min(1.0, max(over_budget, extras / len(case.expected_tools)))


def _forgiven(case: ToolCase, calls: list[ToolCall], want: Counter[str]) -> list[ToolCall]:
    """The calls less what grading-4 does not count as extra: one repeat of an expected tool (a
    corrective retry after an error or an empty result) and, in a result-usage case, a read of
    a page to check a figure."""
    kept: list[ToolCall] = []
    repeated: set[str] = set()
    seen: Counter[str] = Counter()
    for call in calls:
        seen[call.name] += 1
        over = seen[call.name] > want.get(call.name, 0)
        if over and call.name in want and call.name not in repeated:
            repeated.add(call.name)
            continue
        if over and case.group == "result_usage" and call.name == "read_links":
            continue
        kept.append(call)
    return kept


def _usage(
    text: str, fixture: ToolFixture, policy: GradingPolicy
) -> tuple[float, ToolVerdictReason]:
    """1 when the answer states the needle figure and not the decoy figure (with
    ``decoy_set_aside``, a decoy it sets aside does not count)."""
    if policy.decoy_set_aside:
        said = committed_text(
            prepare(lines_as_sentences(text)),
            read_mentions(
                prepare(lines_as_sentences(text)),
                [f for f in (fixture.needle_figure, fixture.decoy_figure) if f],
                "",
                readings_5=policy.readings_5,
            ),
        )
        text = said.norm
    if fixture.decoy_figure and hit(text, fixture.decoy_figure):
        return 0.0, "decoy_figure"
    if fixture.needle_figure and hit(text, fixture.needle_figure):
        return 1.0, ""
    return 0.0, "no_figure"
