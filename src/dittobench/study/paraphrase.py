"""The honest paraphrase oracle: correct answers in the words people and models use.

Every answer comes from the key, phrased in another sentence frame: numbers as words, weeks and
days, past values named as past, declines that name what is unknown in other words. The grader
must keep crediting these (``tests/unit/test_grade_redteam.py`` wants memory mean >= 0.97); the
study uses it as the honest ceiling of every category.
"""

from __future__ import annotations

from datetime import date
from typing import TypeVar

from dittobench.core.dates import MONTH_NAMES, ordinal
from dittobench.core.hashing import canonical_sha256
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.wire import RunResponse
from dittobench.study.oracle import write_calls

_T = TypeVar("_T")

_UNITS = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen"),
)
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: int) -> str:
    """0..99 in words ("forty-two"); digits beyond."""
    if n < 20:
        return _UNITS[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return _TENS[tens - 2] + (f"-{_UNITS[unit]}" if unit else "")
    return str(n)


def _pick(case: MemoryCase, options: list[_T]) -> _T:
    """One phrasing per case, spread over the options by the case id (no randomness)."""
    return options[int(canonical_sha256({"id": case.id})[:8], 16) % len(options)]


def _yours(subject: str) -> str:
    """A first-person subject as the assistant says it ("my sister" -> "your sister")."""
    words = subject.split(" ")
    swap = {"my": "your", "I": "you", "I'm": "you're", "me": "you", "mine": "yours"}
    return " ".join(swap.get(w, w) for w in words)


def _days(days: int, case: MemoryCase) -> str:
    weeks, rest = divmod(days, 7)
    forms = [f"{days} days", f"It was {number_words(days)} days.", f"{days} days in all."]
    if weeks and rest:
        forms.append(f"{weeks} weeks and {rest} days")
    elif weeks:
        forms.append(f"exactly {number_words(weeks)} weeks")
    return _pick(case, forms)


def _value(case: MemoryCase) -> str:
    value = case.expected_answer
    old = case.distractors[0] if case.distractors else ""
    frames = [
        f"You switched to {value} a while back.",
        f"It's {value} these days.",
        f"{value}, if I remember right.",
        f"That would be {value}.",
        f"You told me it was {value}.",
    ]
    if case.accepted:
        frames.append(f"You told me: {case.accepted[-1]}.")
    if case.question_type == "knowledge_update" and old:
        frames.append(f"You moved from {old} to {value}.")
        frames.append(f"Not {old} any more: it's {value} now.")
        frames.append(f"You had {old} before; these days it's {value}.")
    return _pick(case, frames)


def _number(case: MemoryCase) -> str:
    n = int(case.expected_answer)
    frames = [
        f"{number_words(n).capitalize()} times, by my count.",
        f"I count {n}.",
        f"That's come up {number_words(n)} times so far.",
        f"{n} in total.",
    ]
    return _pick(case, frames)


def _tally(case: MemoryCase) -> str:
    n, day = int(case.expected_answer), date.fromisoformat(case.answer_items[0])
    month = MONTH_NAMES[day.month - 1]
    frames = [
        f"{number_words(n).capitalize()} times, by my count; the first was on {month} {day.day}.",
        f"I count {n}, starting on the {ordinal(day.day)} of {month}.",
        f"That's {number_words(n)} so far, the first on {day.isoformat()}.",
        f"{n} in total. The earliest: {month[:3]}. {ordinal(day.day)}, {day.year}.",
        f"{n} since {day.day} {month}, when it first came up.",
    ]
    return _pick(case, frames)


def _listed(case: MemoryCase) -> str:
    items = case.answer_items
    if case.answer_kind == "ordered_list":
        *first, last = items
        middle = ", then ".join(first[1:])
        followed = f", followed by {middle}" if middle else ""
        return _pick(
            case,
            [
                f"First {', then '.join(first)}, and finally {last}.",
                f"{first[0]} came first{followed}, with {last} last.",
                " -> ".join(items),
            ],
        )
    listed = ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else items[0]
    return _pick(case, [listed, f"So far: {listed}.", f"Let me see: {'; '.join(items)}."])


def _activity(case: MemoryCase) -> str:
    x = case.answer_items[0]
    if case.answer_kind == "reversal":
        return _pick(
            case,
            [
                f"You stopped doing {x} a while ago.",
                f"{x} is behind you now: you gave it up.",
                f"No, you quit {x}.",
                f"You're no longer into {x}.",
            ],
        )
    return _pick(
        case,
        [
            f"Yes, you're still doing {x}.",
            f"You keep at {x}; it's ongoing.",
            f"{x} is still part of your week.",
            f"You haven't given up {x}.",
        ],
    )


def paraphrase_memory(case: MemoryCase, dataset: Dataset) -> RunResponse:
    """Correct answers phrased the way people and models phrase them: other sentence frames,
    numbers as words, weeks and days, past values named as past, declines that name what is
    unknown in other words. The grader must keep crediting these."""
    kind = case.answer_kind
    if kind == "value":
        return RunResponse(final_text=_value(case))
    if kind == "number":
        return RunResponse(final_text=_number(case))
    if kind == "tally":
        return RunResponse(final_text=_tally(case))
    if kind in ("list", "ordered_list"):
        return RunResponse(final_text=_listed(case))
    if kind == "duration":
        return RunResponse(final_text=_days(int(case.expected_answer), case))
    if kind in ("reversal", "persistence"):
        return RunResponse(final_text=_activity(case))
    if kind == "decline":
        items = case.answer_items
        subject = _yours(items[0]) if items else "that"
        frames = [
            f"I don't have anything about {subject} in my notes.",
            f"You've never told me about {subject}.",
            f"I can't find {subject} anywhere in what you've shared.",
        ]
        return RunResponse(final_text=_pick(case, frames), abstain=_pick(case, [True, None]))
    text = _pick(case, ["Got it, done.", "Sure, that's taken care of.", "All set."])
    return RunResponse(final_text=text, tool_calls=write_calls(case))
