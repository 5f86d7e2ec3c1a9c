"""Why a case scored what it did, in words: the rule that decided it (the report's ``reason``)
and, where the dataset's answer key and the graded answer are at hand, the values behind it
("distractor: named 'Lisbon', someone else's or a superseded value")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from dittobench.grade.match import hit
from dittobench.spec.memory import MemoryCase
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

    def line(self) -> str:
        """One line: ``distractor: named someone else's ... ('Lisbon')``; a failed typed check
        names what was expected."""
        head = f"{self.rule or 'ok'}: {self.says}"
        if self.named:
            head += " (" + ", ".join(repr(v) for v in self.named) + ")"
        elif self.expected and self.rule in ("typed", "partial", "wrongful_decline"):
            head += f" (expected {self.expected!r})"
        return head


def rule_text(reason: str) -> str:
    return _TEXT.get(reason, reason.replace("_", " "))


def explain(reason: str, case: MemoryCase | None = None, answer: str = "") -> Why:
    """The reason in words; for a memory case with its graded ``answer`` text (slot and prose
    joined), the key values the answer named that the rule is about."""
    says = rule_text(reason)
    if case is None:
        return Why(reason, says)
    pools = {
        "forbidden": case.forbidden,
        "distractor": case.distractors,
        "dump_guard": case.dump_guard,
    }
    named = tuple(v for v in pools.get(reason, ()) if v and hit(answer, v))
    return Why(reason, says, named, case.expected_answer)


__all__ = ["RULES", "Why", "explain", "rule_text"]
