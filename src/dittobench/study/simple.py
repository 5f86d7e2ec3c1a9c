"""The regex parser of issue 13 as a study strategy (``regex``): one pattern per wording, the
last mention wins, the pools and the coined-value shapes known.

Built from the public pack alone (no answer key): every statement wording of every attribute
becomes one regular expression (literals case-insensitive, symbols and other slots as
wildcards, ``{value}`` as the attribute's listed values and accepted forms, or, for an
attribute whose values are coined per run, a run of capitalised words, the shape of a coined
value); the pairs the user stored before the question are scanned in order and the last
mention of an attribute wins. A question is routed by matching it against the attribute
question wordings, or (bench 3.0) against the shared families of questions.json ``asking``
with the subject phrase looked up in ``subjects``, after any aside. Counts count mentions,
lists list them, order and duration questions order the events they name, activities read
the last step of the activity they name, declines name the attribute's topic. The write path
(instructions and read-backs) is answered as the study's ``parser`` answers it, from the wire
(``writes``).

It is stronger than the study's ``parser`` on bench 3.0 (issue 13 measured its twin at
0.48-0.59 memory mean on full runs), so ``dittobench study`` reports it as the honest worst
case of a harness without a language model. ``tests/helpers/history.py`` uses the same class.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date

from dittobench.core.dates import MONTH_NAMES, spoken_date
from dittobench.core.text import normalize
from dittobench.generate.grammar import Grammar
from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.texts import Texts, texts_of
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.wire import Pair, RunResponse
from dittobench.study.index import pack_of
from dittobench.study.parser import MemoryParser

WRITE_SYMBOLS = frozenset({"save", "update", "delete"})
WriteAnswer = Callable[[MemoryCase, Dataset], "RunResponse | None"]
"""The write path: a response when the case is a write instruction or read-back, else None."""

_SYMBOL = re.compile(r"#([a-z_][a-z0-9_]*)#")
_PIECE = re.compile(r"#[a-z_][a-z0-9_]*#|\{[a-z_][a-z0-9_]*\}")
CAPITALISED = r"[A-Z0-9][\w'’&+.-]*(?:\s+(?:of|and|for|[A-Z0-9][\w'’&+.-]*))*"
STATEMENTS = ("state", "change", "event", "start", "quit", "still", "mention")
QUESTIONS = ("ask", "ask_then", "ask_count", "ask_list", "apply", "ask_lure")
_DATE = re.compile(
    r"(January|February|March|April|May|June|July|August|September|October|November|"
    r"December) (\d{1,2}), (\d{4})"
)
_LURE = re.compile(r"(?<=\b(?:of|in|to) )[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)*")


def _regex(
    template: str, value: str, *, whole: bool = False, loose: bool = False
) -> re.Pattern[str] | None:
    """One wording as a regular expression: literals (case-insensitive), symbols as
    wildcards, ``{value}`` as the group ``v``, other slots as wildcards. Without ``whole`` the
    pattern is cut after the first wildcard that follows the value (``loose``: right after the
    value)."""
    parts: list[str] = []
    position, seen_value = 0, False
    for match in _PIECE.finditer(template):
        literal = template[position : match.start()]
        if literal and not (seen_value and loose):
            parts.append(f"(?i:{re.escape(literal)})")
        piece = match.group(0)
        if piece == "{value}":
            parts.append(f"(?P<v>{value})")
            seen_value = True
            if loose:
                break
        elif seen_value and not whole:
            break
        else:
            parts.append(r"(?:.*?)")
        position = match.end()
    else:
        tail = template[position:]
        if tail:
            parts.append(f"(?i:{re.escape(tail)})")
    if not whole and not seen_value:
        return None
    while parts and parts[0] == r"(?:.*?)":
        parts.pop(0)
    body = "".join(parts)
    return re.compile(rf"^\s*{body}\s*$" if whole else body)


def _value_pattern(attribute: Attribute) -> str:
    forms = sorted(
        {f for c in attribute.values for f in (c.text, *c.aliases)}, key=len, reverse=True
    )
    return "|".join(re.escape(f) for f in forms) if forms else CAPITALISED


@dataclass(frozen=True)
class _Mention:
    attribute: str
    role: str
    value: str
    day: date
    order: int
    wave: int


class SimpleParser:
    """The parser of issue 13 over one pack (see the module docstring)."""

    def __init__(self, texts: Texts, writes: WriteAnswer, *, loose: bool = False) -> None:
        self._writes = writes
        self._library = texts.library
        self._second = texts.questions.second_person
        self._statements: list[tuple[str, str, re.Pattern[str]]] = []
        self._questions: list[tuple[str, str, re.Pattern[str]]] = []
        self._canonical: dict[str, dict[str, str]] = {}
        for attribute in texts.library.attributes:
            value = _value_pattern(attribute)
            self._canonical[attribute.name] = {
                normalize(f): c.text for c in attribute.values for f in (c.text, *c.aliases)
            }
            grammar = attribute.grammar
            for role in (*STATEMENTS, "recommend"):
                for template in grammar.get(role, ()):
                    pattern = _regex(template, value, loose=loose)
                    if pattern is not None:
                        self._statements.append((attribute.name, role, pattern))
            for symbol in QUESTIONS:
                for template in _expansions(grammar, symbol):
                    pattern = _regex(template, r".+?", whole=True)
                    if pattern is not None:
                        self._questions.append((attribute.name, symbol, pattern))
        self._families = _family_patterns(texts)
        self._token = [
            p
            for t in texts.chatter["token"]["origin"]
            if (p := _regex(t, r"VK-[A-Z0-9]+")) is not None
        ]
        self._parsed: dict[tuple[int, str], list[_Mention]] = {}
        subjects = texts.pack.file("questions").get("subjects", {})
        self._subjects = {p.lower(): a for a, ps in subjects.items() for p in ps}

    def mentions(self, dataset: Dataset, user: str) -> list[_Mention]:
        key = (dataset.seed, user)
        if key not in self._parsed:
            pairs = [
                (p, w.wave) for w in dataset.memory_waves if w.user_id == user for p in w.pairs
            ]
            pairs.sort(key=lambda item: item[0].timestamp)
            self._parsed[key] = [
                m for i, (p, wave) in enumerate(pairs) for m in self._scan(p, i, wave)
            ]
        return self._parsed[key]

    def _scan(self, pair: Pair, order: int, wave: int) -> Iterable[_Mention]:
        day = date.fromisoformat(pair.timestamp[:10])
        for attribute, role, pattern in self._statements:
            text = pair.response if role == "recommend" else pair.prompt
            for match in pattern.finditer(text):
                found = self._canonical[attribute].get(normalize(match.group("v")))
                yield _Mention(attribute, role, found or match.group("v"), day, order, wave)
        for pattern in self._token:
            for match in pattern.finditer(pair.prompt):
                yield _Mention("integrity_token", "token", match.group("v"), day, order, wave)

    def route(self, question: str) -> tuple[str, str]:
        """(attribute, question symbol) of the first question wording the question matches;
        bench 3.0: a shared family's subject phrase names the attribute, and a question that
        opens with an aside is read after its first sentence."""
        for text in (question, question.split(". ", 1)[-1]):
            for attribute, symbol, pattern in self._questions:
                if pattern.match(text):
                    return attribute, symbol
            for family, pattern in self._families:
                found = pattern.match(text)
                if found and found.group("s").lower() in self._subjects:
                    symbol = FAMILY_SYMBOLS.get(family, family)
                    return self._subjects[found.group("s").lower()], symbol
        return "", ""

    def answer(self, case: MemoryCase, dataset: Dataset) -> RunResponse:
        written = self._writes(case, dataset)
        if written is not None:
            return written
        found = [m for m in self.mentions(dataset, case.user_id) if m.wave <= case.run_after_wave]
        if "verification token" in case.question.lower():
            return _say([m.value for m in found if m.role == "token"][-1:])
        attribute, symbol = self.route(case.question)
        own = [m for m in found if m.attribute == attribute]
        if not attribute:
            return _events_answer(case.question, [m for m in found if m.role == "event"])
        if symbol in ("ask_count",):
            first = f", the first on {spoken_date(min(m.day for m in own))}" if own else ""
            return RunResponse(final_text=f"{len(own)} times{first}.")
        if symbol == "ask_list":
            return _say(list(dict.fromkeys(m.value for m in own)))
        if symbol == "ask_lure":
            named = [m for m in own if m.value.lower() in case.question.lower()]
            lure = _LURE.search(case.question)
            subject = f"a visit to {lure.group(0)}" if lure else "that trip"
            return _say(["I loved it"] if named else [], subject)
        if self._library.get(attribute).kind == "activity":
            return _activity(case.question, own)
        if symbol == "ask_then":
            asked = _asked_date(case.question)
            own = [m for m in own if asked is None or m.day <= asked]
        subject = f"{self._subject(attribute)} ({case.question})"
        return _say([m.value for m in own][-1:], subject)

    def _subject(self, attribute: str) -> str:
        """What a decline is about: the attribute's first topic phrase, in the second person."""
        topics = self._library.get(attribute).grammar.get("topic", ("that",))
        return " ".join(self._second.get(w, w) for w in topics[0].split(" "))


FAMILY_SYMBOLS = {
    "value": "ask",
    "current": "ask",
    "then": "ask_then",
    "then_event": "ask",
    "count": "ask_count",
    "mentions": "ask_count",
    "list": "ask_list",
}
"""Bench 3.0's shared families read as the attribute question they stand for; the others
(orders, activities, combined questions) have no rule of their own here."""
_SUBJECT = re.compile(r"\{(subject|things|theme)\}")


def _family_patterns(texts: Texts) -> list[tuple[str, re.Pattern[str]]]:
    """Each expansion of each family of questions.json ``asking`` (bench 3.0), the first
    subject slot as group ``s`` and every other slot a wildcard."""
    data = texts.pack.file("questions")
    grammar = data.get("asking")
    if not isinstance(grammar, dict):
        return []
    out = []
    for family in grammar:
        if family in ("lead", "lead_person", "lead_date", "aside", "now"):
            continue
        for template in _expansions(grammar, family):
            found = _SUBJECT.search(template)
            if found is None:
                continue
            head, tail = template[: found.start()], template[found.end() :]
            pattern = rf"^\s*{_loose(head)}(?P<s>.+?){_loose(tail)}\s*$"
            out.append((family, re.compile(pattern)))
    return out


def _loose(template: str) -> str:
    """Literals case-insensitive, every slot a wildcard."""
    pieces = re.split(r"\{[a-z_]+\}", template)
    return "(?:.+?)".join(f"(?i:{re.escape(p)})" for p in pieces)


def _expansions(grammar: Grammar, symbol: str, depth: int = 0) -> list[str]:
    """Every expansion of ``symbol`` (slots kept), for the question wordings."""
    out: list[str] = []
    for alternative in grammar.get(symbol, ()):
        pieces = [""]
        position = 0
        for match in _SYMBOL.finditer(alternative):
            literal = alternative[position : match.start()]
            subs = _expansions(grammar, match.group(1), depth + 1) if depth < 4 else [""]
            pieces = [p + literal + s for p in pieces for s in subs]
            position = match.end()
        out.extend(p + alternative[position:] for p in pieces)
    return out


def _say(values: list[str], subject: str = "that") -> RunResponse:
    if not values:
        return RunResponse(final_text=f"I don't have a record of {subject}.", abstain=True)
    return RunResponse(final_text=", ".join(values), answer=", ".join(values))


def _asked_date(question: str) -> date | None:
    match = _DATE.search(question)
    if match is None:
        return None
    return date(int(match.group(3)), MONTH_NAMES.index(match.group(1)) + 1, int(match.group(2)))


def _activity(question: str, own: list[_Mention]) -> RunResponse:
    named = [m for m in own if m.value.lower() in question.lower()]
    if not named:
        return _say([])
    last = named[-1]
    if last.role == "quit":
        return RunResponse(final_text=f"You gave up {last.value}; you no longer do it.")
    return RunResponse(final_text=f"Yes, you still do {last.value} regularly.")


def _events_answer(question: str, events: list[_Mention]) -> RunResponse:
    """Order and duration questions name their events: order them, or count the days."""
    named = [m for m in events if m.value.lower() in question.lower()]
    firsts: dict[str, _Mention] = {}
    for m in named:
        firsts.setdefault(m.value, m)
    ordered = sorted(firsts.values(), key=lambda m: m.order)
    if "days" in question.lower() and len(ordered) >= 2:
        return RunResponse(final_text=f"{(ordered[-1].day - ordered[0].day).days} days.")
    return _say([m.value for m in ordered])


def parser_writes(reader: MemoryParser) -> WriteAnswer:
    """The write path as the study's ``parser`` answers it (from the wire): a question it reads
    as a write instruction (save, update, delete) or as a read-back of a written code."""

    def writes(case: MemoryCase, _dataset: Dataset) -> RunResponse | None:
        seen = [m for m in reader.mentions.get(case.user_id, ()) if m.wave <= case.run_after_wave]
        asked = reader.parse(case, seen)
        if asked is None:
            return None
        symbol = asked.wording.symbol
        names = {a.name: a.kind for a in reader.index.texts.library.attributes}
        is_write = names.get(asked.attribute or "") == "write"
        if symbol in WRITE_SYMBOLS or is_write:
            return reader.handlers[symbol](asked)
        return None

    return writes


def regex_reader(dataset: Dataset) -> Callable[[MemoryCase, Dataset], RunResponse]:
    """The ``regex`` strategy's memory answers for one dataset."""
    texts = texts_of(pack_of(dataset))
    parser = SimpleParser(texts, parser_writes(MemoryParser(dataset)))
    return parser.answer
