"""How much the history gives away: measures of a run's history and a simple parser.

``measure(seed, version, size)`` builds a dataset and the people behind it and reports

- ``single_fact_share``: of the pairs that state at least one fact as true, the share stating
  exactly one, from the generator's own record (``Beat.stated``: a slip of the tongue is stated
  by its correction, look-alikes are never stated, a contact's value is stated about the
  contact; ``one_fact_pairs`` gives the counts, which ``benchmarks/content_study.py`` pools);
- ``twinned_share``: of the user's fact mentions (own states, changes, events, activity
  steps, mentions), the share whose attribute also has a look-alike in the history: a
  negation, a plan that fell through, a hypothetical, a claim someone makes, or another
  person's value;
- ``coined_share``: of the distinct values the history voices for attributes, the share
  coined for the run rather than listed in the pack;
- ``parser_mean``: the memory mean of ``SimpleParser``, graded by the real grader.

``SimpleParser`` is what issue 13 measured: one regular expression per statement wording of the
public pack (the wording's symbols as wildcards, the value as the attribute's public values, or
a run of capitalised words where the pack lists none), the last mention wins; questions are
routed by matching them against the pack's question wordings. The write path is answered as the
oracle answers it (``write_answer``: it does not depend on how the history is worded).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date

from dittobench.core.dates import MONTH_NAMES
from dittobench.core.hashing import canonical_sha256
from dittobench.core.prng import Stream
from dittobench.core.text import normalize
from dittobench.generate.grammar import Grammar
from dittobench.generate.memory.build import MemorySide, build_memory
from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.persona.model import SELF
from dittobench.generate.texts import Texts, texts_of
from dittobench.grade.run import grade_run
from dittobench.packs import public_pack
from dittobench.spec.dataset import Dataset
from dittobench.spec.memory import MemoryCase
from dittobench.spec.transcript import Attempt, CaseRecord, Execution, Transcript
from dittobench.spec.versions import BENCHMARK_NAME, get_policy
from dittobench.spec.wire import Pair, RunResponse, ToolCall

MemoryAnswer = Callable[[MemoryCase, Dataset], RunResponse]

MENTION_ROLES = frozenset({"state", "change", "event", "start", "quit", "still", "mention"})
TWIN_ROLES = frozenset({"twin", "other"})
VALUE_ROLES = MENTION_ROLES | {"other", "recommend", "twin", "slip"}


def memory_side(seed: int, version: str, size: str) -> tuple[Dataset, MemorySide, Texts]:
    """The memory side of a run (people, haystacks, the run's library) and a dataset holding
    it (no tool cases: the measures are the memory side's)."""
    policy = get_policy(version)
    texts = texts_of(public_pack(policy.pack_id))
    side = build_memory(
        Stream.root(seed, policy.content_version),
        policy.epoch,
        policy.run_size(size),
        texts,
        policy.content,
    )
    dataset = Dataset(
        BENCHMARK_NAME,
        policy.version,
        seed,
        size,
        policy.epoch,
        (),
        side.waves,
        side.cases,
        (),
        tuple(sorted(side.telemetry.items())),
    )
    return dataset, side, texts


@dataclass(frozen=True)
class Figures:
    single_fact_share: float
    twinned_share: float
    coined_share: float


def figures(side: MemorySide) -> Figures:
    """The history measures of one run (both users)."""
    single, bearing = one_fact_pairs(side)
    mentions = twinned = 0
    voiced: dict[str, bool] = {}
    assert side.library is not None
    for person in side.persons.values():
        looks: dict[str, set[str]] = {}
        for f in person.facts:
            if f.role in TWIN_ROLES:
                looks.setdefault(f.attribute, set()).add(f.value)
            if f.role in VALUE_ROLES and f.attribute in {a.name for a in side.library.attributes}:
                coined = side.library.get(f.attribute).coin is not None
                voiced[f.value] = coined
        for f in person.facts:
            if f.holder == SELF and f.role in MENTION_ROLES:
                mentions += 1
                twinned += bool(looks.get(f.attribute, set()) - {f.value})
    return Figures(
        single / bearing,
        twinned / mentions,
        sum(voiced.values()) / len(voiced),
    )


def one_fact_pairs(side: MemorySide) -> tuple[int, int]:
    """(pairs stating exactly one fact as true, pairs stating at least one), both users, from
    the generator's record of what each pair states (``Beat.stated``)."""
    one = bearing = 0
    for person in side.persons.values():
        for beat in person.beats:
            if beat.stated:
                bearing += 1
                one += len(beat.stated) == 1
    return one, bearing


# The simple parser --------------------------------------------------------------------------

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


class SimpleParser:
    """The parser of issue 13 over one pack (see the module docstring)."""

    def __init__(self, texts: Texts, *, loose: bool = False) -> None:
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
            pairs = [p for w in dataset.memory_waves if w.user_id == user for p in w.pairs]
            pairs.sort(key=lambda p: p.timestamp)
            self._parsed[key] = [m for i, p in enumerate(pairs) for m in self._scan(p, i)]
        return self._parsed[key]

    def _scan(self, pair: Pair, order: int) -> Iterable[_Mention]:
        day = date.fromisoformat(pair.timestamp[:10])
        for attribute, role, pattern in self._statements:
            text = pair.response if role == "recommend" else pair.prompt
            for match in pattern.finditer(text):
                found = self._canonical[attribute].get(normalize(match.group("v")))
                yield _Mention(attribute, role, found or match.group("v"), day, order)
        for pattern in self._token:
            for match in pattern.finditer(pair.prompt):
                yield _Mention("integrity_token", "token", match.group("v"), day, order)

    def route(self, question: str) -> tuple[str, str]:
        """(attribute, question symbol) of the first question wording the question matches;
        bench 2.1: a shared family's subject phrase names the attribute, and a question that
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
        if case.question_type.startswith("write_"):
            return write_answer(case)
        found = self.mentions(dataset, case.user_id)
        if "verification token" in case.question.lower():
            return _say([m.value for m in found if m.role == "token"][-1:])
        attribute, symbol = self.route(case.question)
        own = [m for m in found if m.attribute == attribute]
        if not attribute:
            return _events_answer(case.question, [m for m in found if m.role == "event"])
        if symbol in ("ask_count",):
            return RunResponse(final_text=f"{len(own)} times.")
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
"""Bench 2.1's shared families read as the attribute question they stand for; the others
(orders, activities, combined questions) have no rule of their own here."""
_SUBJECT = re.compile(r"\{(subject|things|theme)\}")


def _family_patterns(texts: Texts) -> list[tuple[str, re.Pattern[str]]]:
    """Each expansion of each family of questions.json ``asking`` (bench 2.1), the first
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


# Grading -------------------------------------------------------------------------------------

_EXECUTION = Execution((Attempt(1, 40, "ok", 200),), 40, "ok")


def memory_mean(dataset: Dataset, answer: MemoryAnswer) -> float:
    """The memory mean a strategy earns (tool cases left unanswered)."""
    records = tuple(
        CaseRecord(c.id, "memory", c.user_id, answer(c, dataset), (), _EXECUTION)
        for c in dataset.memory_cases
    )
    transcript = Transcript(
        dataset.benchmark,
        dataset.bench_version,
        dataset.seed,
        dataset.run_size,
        canonical_sha256(dataset.to_json()),
        "parser",
        records,
    )
    return grade_run(dataset, transcript).report.memory_mean


def parser_mean(dataset: Dataset, texts: Texts, *, loose: bool = False) -> float:
    return memory_mean(dataset, SimpleParser(texts, loose=loose).answer)


def write_answer(case: MemoryCase) -> RunResponse:
    """The write path as the oracle answers it: the instruction carried out with the memory
    tool it asks for (reported), the read-back answered from what was written."""
    if case.question_type == "write_readback":
        if case.answer_kind == "decline":
            subject = case.answer_items[0] if case.answer_items else case.question
            return RunResponse(final_text=f"I have no record of {subject}.", abstain=True)
        return RunResponse(final_text=f"It is {case.expected_answer}.", answer=case.expected_answer)
    pair = case.evidence_pair_ids[0] if case.evidence_pair_ids else ""
    code = case.answer_items[0] if case.answer_items else ""
    calls = {
        "save": ToolCall("save_memory", {"content": f"{case.expected_answer}: {code}"}),
        "update": ToolCall("update_memory", {"pair_id": pair, "content": code}),
        "delete": ToolCall("delete_memory", {"pair_id": pair}),
    }
    call = calls.get(case.write_op)
    return RunResponse(final_text="Done, I've saved that.", tool_calls=(call,) if call else ())


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values)


def by_name(values: Mapping[str, float]) -> str:
    return ", ".join(f"{k} {v:.3f}" for k, v in values.items())
