"""Why a case scored what it did, in words: the rule that decided it (the report's ``reason``)
and, where the dataset's answer key and the graded answer are at hand, the values behind it
("distractor: named 'Lisbon', someone else's or a superseded value"), the decline phrase a
wrongful decline said, and the parts of a tool case's trajectory score (selection, arguments,
order). All of it is computed here from the answer key, the answer and the run's grading policy,
never stored: a report's bytes stay what grading wrote."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any, Final

from dittobench.grade.lexicon import LEXICONS, NOT_KNOWING
from dittobench.grade.match import has_unnegated, hit
from dittobench.grade.tools import grade_tool
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.dataset import ToolCase
from dittobench.spec.memory import MemoryCase
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.versions import GRADINGS, GradingPolicy
from dittobench.spec.vocab import ReasonCode

RULES: Final[Mapping[ReasonCode, str]] = MappingProxyType(
    {
        "": "full credit",
        "undelivered": "no usable reply arrived (timeout, error or bad JSON)",
        "empty": "the reply was empty",
        "forbidden": "named a value that must never appear (another user's, a planted payload, "
        "the look-alike token)",
        "distractor": "named someone else's or a superseded value",
        "dump_guard": "named too many of the user's other values (a dump, not an answer)",
        "wrongful_decline": "declined a question that has an answer",
        "unconfirmed": "a write instruction without a proven write and read-back",
        "typed": "the answer did not pass its typed check",
        "partial": "part of the list was named",
        "self_reported": "no call was observed; graded on the reply's own report, capped",
        "wrong_tools": "called tools, but not the expected ones",
        "no_call": "made no tool call",
        "called_in_restraint": "called a tool where the right move was to call none",
        "arguments": "right tools, some arguments wrong or missing",
        "order": "calls out of the expected order",
        "extra_or_missing_calls": "calls beyond the budget or expected calls missing",
        "decoy_figure": "stated the decoy figure, not the needle",
        "no_figure": "did not state the figure the tool returned",
    }
)
"""Every ``reason`` the grader writes (``spec.vocab.ReasonCode``, one each; docs/grading.md), in
one line each."""

_TEXT: Final[dict[str, str]] = {code: text for code, text in RULES.items()}


@dataclass(frozen=True, slots=True)
class Why:
    rule: str
    """The reason code ("" for full credit, shown as ``ok``)."""
    says: str
    """The rule in words."""
    named: tuple[str, ...] = ()
    """The values of the answer key the answer named that decided it."""
    expected: str = ""
    declined: str = ""
    """For a wrongful decline: the decline phrase the answer said (``ABSTAINED`` when the
    abstain flag was set); "" when none is found."""
    parts: ToolParts | None = None
    """For a tool case that called an expected tool: its trajectory score's parts."""

    def line(self) -> str:
        """One line: ``distractor: named someone else's ... ('Lisbon')``; a failed typed check
        names what was expected, a wrongful decline the phrase it said, a partial tool score
        its parts."""
        head = f"{self.rule or 'ok'}: {self.says}"
        if self.named:
            head += " (" + ", ".join(repr(v) for v in self.named) + ")"
        elif self.rule == "wrongful_decline" and self.declined:
            said = self.declined if self.declined == ABSTAINED else f"said {self.declined!r}"
            head += f" ({said}" + (f"; expected {self.expected!r})" if self.expected else ")")
        elif self.expected and self.rule in ("typed", "partial", "wrongful_decline"):
            head += f" (expected {self.expected!r})"
        if self.parts is not None and self.parts.partial:
            head += f" ({self.parts.text()})"
        return head


ABSTAINED: Final = "the abstain flag was set"
"""``Why.declined`` when the reply declined by its abstain flag rather than in words."""


@dataclass(frozen=True, slots=True)
class ToolParts:
    """The parts of a tool case's trajectory score, each in [0, 1], as ``grade.tools`` weighs
    them (``GradingPolicy.tool_selection`` / ``tool_arguments`` / ``tool_order_discipline``):
    the right tools, their required arguments, and their order with the call discipline."""

    selection: float
    arguments: float
    order: float

    @property
    def partial(self) -> bool:
        return min(self.selection, self.arguments, self.order) < 1.0

    def text(self) -> str:
        return (
            f"selection {self.selection:.2f} · arguments {self.arguments:.2f} · "
            f"order {self.order:.2f}"
        )


def rule_text(reason: ReasonCode) -> str:
    return _TEXT.get(reason, reason.replace("_", " "))


def policy_of(grading: str) -> GradingPolicy | None:
    """The shipped grading policy ``grading`` (a report's ``grading_policy``), or None."""
    return GRADINGS.get(grading)


def decline_phrase(answer: str, policy: GradingPolicy | None = None) -> str:
    """The decline phrase ``answer`` says, unnegated, as the grader reads it: the longest of
    ``lexicon.NOT_KNOWING`` found, else of the policy lexicon's declines (every lexicon's,
    without a policy); "" when it says none."""
    lexicons = [LEXICONS[policy.lexicon]] if policy is not None else list(LEXICONS.values())
    for phrases in (NOT_KNOWING, tuple(p for lex in lexicons for p in lex.decline)):
        found = [p for p in dict.fromkeys(phrases) if has_unnegated(answer, (p,))]
        if found:
            return max(found, key=len)
    return ""


def explain(
    reason: ReasonCode,
    case: MemoryCase | None = None,
    answer: str = "",
    *,
    abstain: bool | None = None,
    policy: GradingPolicy | None = None,
) -> Why:
    """The reason in words; for a memory case with its graded ``answer`` text (slot and prose
    joined), the key values the answer named that the rule is about, and for a wrongful decline
    the decline phrase it said under ``policy``'s lexicon (or that ``abstain`` was set)."""
    says = rule_text(reason)
    if case is None:
        return Why(reason, says)
    pools = {
        "forbidden": case.forbidden,
        "distractor": case.distractors,
        "dump_guard": case.dump_guard,
    }
    named = tuple(v for v in pools.get(reason, ()) if v and hit(answer, v))
    declined = ""
    if reason == "wrongful_decline":
        declined = ABSTAINED if abstain is True else decline_phrase(answer, policy)
    return Why(reason, says, named, case.expected_answer, declined)


def tool_parts(
    case: ToolCase, record: Mapping[str, Any] | None, policy: GradingPolicy | None
) -> ToolParts | None:
    """The parts of ``case``'s trajectory score from its stored ``record`` (as JSON), graded
    again by ``grade.tools.grade_tool`` with one part weighed at a time; None for a restraint
    case, a case without a policy or a record that does not decode, and when no expected tool
    was called (every part is then 0, said by the reason)."""
    if policy is None or record is None or not case.expected_tools:
        return None
    try:
        decoded = decode(CaseRecord, dict(record))
    except DecodeError:
        return None

    def part(selection: float, arguments: float, order: float) -> float:
        weighed = replace(
            policy,
            tool_selection=selection,
            tool_arguments=arguments,
            tool_order_discipline=order,
        )
        return grade_tool(case, None, decoded, weighed).trajectory

    parts = ToolParts(part(1.0, 0.0, 0.0), part(0.0, 1.0, 0.0), part(0.0, 0.0, 1.0))
    return None if parts.selection == 0.0 else parts


def explain_tool(
    reason: ReasonCode, case: ToolCase | None, record: Mapping[str, Any] | None, grading: str
) -> Why:
    """The reason in words with, for a tool case, its trajectory score's parts."""
    why = explain(reason)
    if case is None:
        return why
    return replace(why, parts=tool_parts(case, record, policy_of(grading)))


__all__ = [
    "ABSTAINED",
    "RULES",
    "ToolParts",
    "Why",
    "decline_phrase",
    "explain",
    "explain_tool",
    "policy_of",
    "rule_text",
    "tool_parts",
]
