"""The red-team parser, memory side: answers read off the wire with the public pack's grammar.

It never sees an answer key. For each question it finds the wording it was asked in (an
attribute's ``ask``, ``ask_then``, ``ask_count``, ``ask_list``, ``ask_lure``, ``apply``, a
write instruction, or a shared order, duration or token question), reads the user's mentions of
that attribute seeded so far (``study.history``: one pattern per statement wording, the last
mention wins) and answers: the latest value, the value in force on a date, a count, a list, an
order, a number of days, ended or ongoing, a decline naming the subject when the user never
said it, and for write instructions the memory-tool call they ask for (the pair to update or
delete is the stored one naming the label). Read-backs replay the earlier instructions.

What it scores measures how parseable the content is: a harness with no language model reaches
it from the public pack alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date

from dittobench.core.dates import spoken_date
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.wire import RunResponse, ToolCall
from dittobench.study import families
from dittobench.study.asked import Asked, parse_day
from dittobench.study.history import Mention, read_history, stored_pairs
from dittobench.study.index import PackIndex, index_of, pack_of

UNKNOWN = RunResponse(final_text="I don't know.")
_VALUE_ROLES = ("state", "change")


class MemoryParser:
    """Answers one dataset's memory questions the way the parser harness would."""

    def __init__(
        self,
        dataset: Dataset,
        index: PackIndex | None = None,
        mentions: Mapping[str, Sequence[Mention]] | None = None,
    ) -> None:
        """``index`` and ``mentions`` default to the dataset's own pack and this parser's
        reading of the history; the grammar strategy (``study.grammar``) gives its own."""
        self.index = index if index is not None else index_of(pack_of(dataset))
        self.mentions = (
            mentions
            if mentions is not None
            else {u: read_history(self.index, p) for u, p in stored_pairs(dataset).items()}
        )
        self.cases = dataset.memory_cases
        self.position = {case.id: i for i, case in enumerate(dataset.memory_cases)}
        self.handlers: dict[str, Callable[[Asked], RunResponse]] = {
            "ask": self.ask,
            "ask_then": self.ask_then,
            "ask_count": self.ask_count,
            "ask_list": self.ask_list,
            "ask_lure": self.ask_lure,
            "apply": self.apply,
            "save": self.instruction,
            "update": self.instruction,
            "delete": self.instruction,
            "order_ask": self.order,
            "days_ask": self.days,
            "duration_ask": self.days,
            "token_ask": self.token,
            # bench 3.0's shared families (study.families)
            "value": self.ask,
            "current": self.ask,
            "then": self.ask_then,
            "then_event": lambda a: families.then_event(self, a),
            "count": self.ask_count,
            "mentions": self.ask_count,
            "list": self.ask_list,
            "order_all": lambda a: families.order_kinds(self, a),
            "order_first": lambda a: families.order_kinds(self, a),
            "order_last": lambda a: families.order_kinds(self, a),
            "order_mixed": lambda a: families.order_kinds(self, a),
            "activity": lambda a: families.activity_on(self, a),
            "with": lambda a: families.with_whom(self, a),
            "weekday": lambda a: families.weekday(self, a),
            "with_which": lambda a: families.with_which(self, a),
        }

    def __call__(self, case: MemoryCase, dataset: Dataset | None = None) -> RunResponse:
        seen = [m for m in self.mentions.get(case.user_id, ()) if m.wave <= case.run_after_wave]
        return self.answer_seen(case, seen)

    def answer_seen(self, case: MemoryCase, seen: list[Mention]) -> RunResponse:
        """The answer read from ``seen`` only: the user's mentions the reader is given (all
        those seeded by the time of the question, or a context window of them,
        ``study.window``)."""
        asked = self.parse(case, seen)
        if asked is None:
            return UNKNOWN
        return self.handlers[asked.wording.symbol](asked)

    def parse(self, case: MemoryCase, seen: list[Mention]) -> Asked | None:
        """The question's wording: among those that fit, one about an attribute the user has
        mentioned, else the pack's first; a question that opens with one of the pack's asides
        (bench 3.0) is read after it."""
        asked = self.fit(case, case.question, seen)
        text = case.question
        at = text.find(". ")
        while asked is None and at >= 0:
            head, rest = text[: at + 1], text[at + 2 :]
            if any(a.match(head) is not None for a in self.index.asides):
                asked = self.fit(case, rest, seen)
            at = text.find(". ", at + 1)
        return asked

    def fit(self, case: MemoryCase, text: str, seen: list[Mention]) -> Asked | None:
        lowered = text.lower()
        held = {m.attribute for m in seen}
        fits = []
        for q in (*self.index.questions, *self.index.families):
            slots = q.wording.match(text, lowered)
            if slots is not None:
                attribute = q.attribute or families.resolve(self, slots, held)
                fits.append((q, slots, attribute))
        if not fits:
            return None
        wording, slots, attribute = next((f for f in fits if f[2] in held), fits[0])
        asked = Asked(case, wording, slots, seen)
        asked.attribute = attribute
        return asked

    # -- values ---------------------------------------------------------------------------

    def ask(self, asked: Asked) -> RunResponse:
        kind = self.index.attribute(asked.attribute).kind
        if kind == "activity":
            return self.activity(asked)
        if kind == "write":
            return self.read_back(asked)
        role = ("recommend",) if kind == "assistant" else _VALUE_ROLES
        own = asked.own(role)
        if not own:
            return self.decline(self.subject(asked.attribute))
        return said(own[-1].value)

    def ask_then(self, asked: Asked) -> RunResponse:
        day = parse_day(asked.slots.get("date", ""))
        chain = asked.own(_VALUE_ROLES)
        before = [m for m in chain if day is not None and m.day <= day.isoformat()]
        if not before:
            return self.decline(self.subject(asked.attribute))
        return said(before[-1].value)

    def apply(self, asked: Asked) -> RunResponse:
        own = asked.own(("state",))
        if not own:
            return UNKNOWN
        return RunResponse(final_text=f"Keeping to what you like: {own[-1].value}.")

    def token(self, asked: Asked) -> RunResponse:
        tokens = [m for m in asked.seen if m.role == "token"]
        if not tokens:
            return UNKNOWN
        return RunResponse(final_text=f"Your verification token is {tokens[-1].value}.")

    def activity(self, asked: Asked) -> RunResponse:
        name = asked.slots.get("value", "")
        steps = [m for m in asked.own(("start", "quit", "still")) if same(m.value, name)]
        if not steps:
            return self.decline(name)
        if steps[-1].role == "quit":
            return RunResponse(final_text=f"You gave up {name}; you no longer do it.")
        return RunResponse(final_text=f"Yes, you still do {name} regularly.")

    # -- gathering ------------------------------------------------------------------------

    def ask_count(self, asked: Asked) -> RunResponse:
        """The count and (bench 3.0 asks it too) the day of the first: the day it took place
        (``Mention.day``: its timestamp's, unless a day note moved it)."""
        own = asked.own(("event", "mention"))
        day = min((m.day for m in own), default="")
        first = f", the first on {spoken_date(date.fromisoformat(day))}" if own else ""
        return RunResponse(final_text=f"I count {len(own)}{first}.")

    def ask_list(self, asked: Asked) -> RunResponse:
        values = list(dict.fromkeys(m.value for m in asked.own(("event",))))
        if not values:
            return UNKNOWN
        return RunResponse(final_text=", ".join(values))

    def ask_lure(self, asked: Asked) -> RunResponse:
        place = asked.slots.get("value", "")
        if any(same(m.value, place) for m in asked.own(("event",))):
            return RunResponse(final_text=f"You were in {place}, but you never said more.")
        return RunResponse(final_text=f"You never told me about going to {place}.", abstain=True)

    # -- time -----------------------------------------------------------------------------

    def quoted(self, asked: Asked, count: int) -> list[Mention] | None:
        """The user's events a question quotes ("my trip to Lisbon", "Ana and Tomas's wedding"),
        in the order it quotes them: every event value found in the question's text, longest
        first, without overlaps; None unless there are ``count``."""
        text = asked.case.question.lower()
        latest = {(m.attribute, m.value.lower()): m for m in asked.seen if m.role == "event"}
        spans: list[tuple[int, int, Mention]] = []
        for (_attribute, value), mention in sorted(latest.items(), key=lambda i: -len(i[0][1])):
            for start in _occurrences(text, value):
                end = start + len(value)
                if all(end <= s or start >= e for s, e, _m in spans):
                    spans.append((start, end, mention))
        if len(spans) != count:
            return None
        return [mention for _s, _e, mention in sorted(spans, key=lambda span: span[0])]

    def order(self, asked: Asked) -> RunResponse:
        events = self.quoted(asked, 3)
        if events is None:
            return UNKNOWN
        events.sort(key=lambda m: (m.day, m.timestamp))
        return RunResponse(final_text="First " + ", then ".join(m.value for m in events) + ".")

    def days(self, asked: Asked) -> RunResponse:
        events = self.quoted(asked, 2)
        if events is None:
            return UNKNOWN
        first, second = (date.fromisoformat(m.day) for m in events)
        return RunResponse(final_text=f"{abs((second - first).days)} days.")

    # -- writes ---------------------------------------------------------------------------

    def stored_code(self, asked: Asked, label: str) -> Mention | None:
        codes = [m for m in asked.own(("state",)) if same(m.slots.get("label", ""), label)]
        return codes[-1] if codes else None

    def instruction(self, asked: Asked) -> RunResponse:
        label, code = asked.slots.get("label", ""), asked.slots.get("value", "")
        op = asked.wording.symbol
        old = self.stored_code(asked, label)
        pair = old.pair_id if old else ""
        calls = {
            "save": ToolCall("save_memory", {"content": f"{label}: {code}"}),
            "update": ToolCall("update_memory", {"pair_id": pair, "content": code}),
            "delete": ToolCall("delete_memory", {"pair_id": pair}),
        }
        return RunResponse(final_text="Done, I've saved that.", tool_calls=(calls[op],))

    def read_back(self, asked: Asked) -> RunResponse:
        label = asked.slots.get("label", "")
        last = self.last_instruction(asked.case, label)
        if last is not None and last.wording.symbol == "delete":
            return self.decline(f"your {label}; it was deleted")
        if last is not None:
            return said(last.slots.get("value", ""))
        old = self.stored_code(asked, label)
        return said(old.value) if old else self.decline(f"your {label}")

    def last_instruction(self, case: MemoryCase, label: str) -> Asked | None:
        """The latest write instruction about ``label`` asked of the user before ``case``."""
        found = None
        for earlier in self.cases[: self.position[case.id]]:
            if earlier.user_id != case.user_id:
                continue
            asked = self.parse(earlier, [])
            writes = asked is not None and asked.wording.symbol in ("save", "update", "delete")
            if asked is not None and writes and same(asked.slots.get("label", ""), label):
                found = asked
        return found

    # -- declines -------------------------------------------------------------------------

    def decline(self, subject: str) -> RunResponse:
        return RunResponse(final_text=f"I have no record of {subject}.", abstain=True)

    def subject(self, attribute: str) -> str:
        """The attribute's topic as the assistant says it ("your partner"), choosing one that
        names no other fixed attribute's topic (a decline naming another subject is wrong)."""
        texts = self.index.texts
        table = texts.questions.second_person
        topics = self.index.attribute(attribute).grammar.get("topic", ())
        others = {
            t.lower()
            for a in texts.library.of_kind("fixed")
            if a.name != attribute
            for t in a.grammar.get("topic", ())
        }
        forms = [" ".join(table.get(w, w) for w in t.split(" ")) for t in topics]
        clean = [f for f in forms if not any(o in f.lower() for o in others)]
        return (clean or forms or ["that"])[0]


def said(value: str) -> RunResponse:
    return RunResponse(final_text=f"It's {value}.")


def same(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


def _occurrences(text: str, value: str) -> list[int]:
    """Where ``value`` occurs in ``text`` as whole words."""
    found = []
    at = text.find(value)
    while at >= 0:
        before, after = text[at - 1 : at], text[at + len(value) : at + len(value) + 1]
        if not before.isalnum() and not after.isalnum():
            found.append(at)
        at = text.find(value, at + 1)
    return found


__all__ = ["UNKNOWN", "Asked", "MemoryParser", "parse_day", "said", "same"]
