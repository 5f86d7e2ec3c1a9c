"""``dittobench pack lint``: every check a content pack must pass before anyone scores with it.

The rules (``docs/packs.md``, "Lint"):

- schema: every file reads into the generator's types (the first such error stops the lint);
- symbols: every ``#symbol#`` a grammar uses is defined, and every symbol defined is reached from
  a symbol the generator expands (its roots), shared symbols included;
- trigger words: every word of every expected tool's name is banned in its category (or allowed
  on purpose), and no banned word appears in the category's own wording;
- cue words (packs that declare ``cues`` in tools.json): every distinctive word of an expected
  tool's catalog description (``tools/cues.py``) is banned in its category, and no word of the
  category's wording has the stem of one;
- results (packs with a ``results`` grammar in tools.json): its symbols are defined and reached
  from ``finding``;
- shared questions (packs with ``asking`` or ``subjects`` in questions.json, bench 3.0): both
  read (every family root present), every symbol of ``asking`` defined and reached from a
  family, every attribute a family asks about (fixed, changing, event-list, recurring) given
  subject phrases, no ``subjects`` key naming an attribute the pack lacks, and no subject
  phrase naming one of its attribute's values;
- value classes: every attribute has at least 8 values (or, declaring ``coin``, parts for four
  times its count), every pool of ``values.json`` at least
  2, the open classes (names, nouns, kinds) at least 8, and enough contact names for the
  largest circle;
- answers: no question wording contains one of its attribute's values;
- overlap: for each question symbol, the mean share of its content words that also occur in the
  attribute's statements is at most 0.30.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from dittobench.catalog.shown import shown_by
from dittobench.core.text import phrases_in, words
from dittobench.generate.grammar import Grammar, strip_slots
from dittobench.generate.lint_lookalikes import lookalike_problems
from dittobench.generate.memory.asking import (
    ASKING,
    EVENT_WITH,
    FAMILIES,
    FAMILY_OF,
    SUBJECTS,
    AskingError,
    parse_asking,
)
from dittobench.generate.memory.open import OPEN_FAMILIES
from dittobench.generate.memory.overlap import content_words
from dittobench.generate.memory.writes import WRITE_ATTRIBUTE
from dittobench.generate.persona.attribute import ALLOWED_SLOTS, Attribute
from dittobench.generate.persona.coin import coin_space
from dittobench.generate.persona.talk import Talk, has_talk, talk_of
from dittobench.generate.texts import Texts, texts_of
from dittobench.generate.tools.cues import (
    CUES,
    MAX_SHARED,
    cue_words_in,
    distinctive_words,
    surface_forms,
)
from dittobench.generate.tools.findings import FINDING, FINDING_NEEDS, RESULTS, results_grammar
from dittobench.generate.tools.fixtures import FIXTURE_MAKERS, FIXTURE_NEEDS
from dittobench.generate.tools.makers import NEEDS, SCHEDULE_FORMS
from dittobench.packs import Pack, PackError
from dittobench.spec.versions import ContentPolicy, get_policy

MAX_OVERLAP = 0.30
MIN_VALUES = 8
MIN_POOL = 2
OPEN_POOLS = (
    "first_names",
    "routine_nouns",
    "meeting_kinds",
    "news_things",
    "topic_things",
    "fixture_nouns",
    "fixture_units",
)
MAX_CONTACTS = 9
"""The largest circle a person is drawn with (``persona/plan.py``)."""

ATTRIBUTE_ROOTS = tuple(ALLOWED_SLOTS)
"""Every symbol the generator may expand in an attribute's grammar."""
CHATTER_ROOTS: Mapping[str, tuple[str, ...]] = {"small_talk_reply": ("origin", "offer")}
QUESTION_SYMBOLS = ("ask", "ask_then", "ask_count", "ask_list")
EVIDENCE_SYMBOLS: tuple[str, ...] = (
    "state",
    "change",
    "event",
    "start",
    "quit",
    "still",
    "mention",
    "recommend",
)
EVIDENCE_SYMBOLS += ("implied",)  # bench 3.0: a change said only by implication
COIN_ROOM = 4
"""A coined attribute's parts must allow this many times its count of values."""
NEVER_VISITED = "trips"
"""The event list never-visited questions ask about (``persona/plan.py``, ``memory/gather.py``)."""
INTEGRITY_CLUSTER = "integrity_token"
"""The integrity token's cluster (``persona/plan.py``): its subject title is the pack's."""

_SYMBOL = re.compile(r"#([a-z_][a-z0-9_]*)#")


@dataclass(frozen=True, slots=True)
class Problem:
    """One lint finding: the pack file, the key in it, and what is wrong."""

    file: str
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.message}"


def lint_pack(pack: Pack, content: ContentPolicy | None = None) -> list[Problem]:
    """Every problem found in ``pack``, in file order; empty when it passes. ``content``: the
    content version the pack is for (default: the current version's), whose pack rules apply
    (``read_lookalikes``)."""
    content = content or get_policy().content
    try:
        texts = texts_of(pack)
        talk = talk_of(texts) if has_talk(pack) else None
        shown = shown_by(pack)
        results = results_grammar(pack) if RESULTS in pack.file("tools") else None
    except PackError as exc:
        return [Problem("(schema)", "", str(exc))]
    problems: list[Problem] = []
    shared_attrs = pack.file("attributes").get("shared", {})
    shared_tools = pack.file("tools").get("shared", {})
    problems += _required_problems(texts)
    problems += _attribute_problems(texts, shared_attrs)
    if content.read_lookalikes:
        problems += _lookalike_problems(texts, shared_attrs)
    problems += _unused_shared("attributes.json", shared_attrs, _grammars_of_attributes(pack))
    problems += _chatter_problems(texts)
    problems += _talk_problems(talk)
    problems += _tool_problems(texts)
    problems += _unused_shared("tools.json", shared_tools, _grammars_of_categories(pack))
    descriptions = {tool.name: tool.description for tool in shown.tools}
    problems += _cue_problems(texts, pack.file("tools").get(CUES), descriptions)
    if results is not None:
        own = set(results)
        problems += _symbol_problems("tools.json", RESULTS, results, (FINDING,), own)
    problems += _asking_problems(texts, pack.file("questions"), content.open_questions)
    problems += _pool_problems(texts)
    problems += _value_problems(texts, results is not None)
    return problems


def _required_problems(texts: Texts) -> Iterator[Problem]:
    """The names the generator asks for by name: without them a run fails half-way."""
    library, file = texts.library, "attributes.json"
    writes = library.of_kind("write")
    if [a.name for a in writes] != [WRITE_ATTRIBUTE]:
        yield Problem(
            file,
            "attributes",
            f"needs exactly one write attribute open to every profession, named "
            f"{WRITE_ATTRIBUTE!r} (the write path), has {[a.name for a in writes]}",
        )
    trips = next((a for a in library.attributes if a.name == NEVER_VISITED), None)
    if trips is None or trips.kind != "event_list" or not trips.grammar.get("ask_lure"):
        yield Problem(
            file,
            f"attributes.{NEVER_VISITED}",
            "needs an event_list attribute of this name with 'ask_lure' (never-visited questions)",
        )
    if not library.of_kind("activity"):
        yield Problem(file, "attributes", "needs an activity attribute open to every profession")
    named = {a.name for a in library.attributes} | set(texts.questions.special_titles)
    if INTEGRITY_CLUSTER not in named:
        yield Problem(
            "questions.json",
            f"special_titles.{INTEGRITY_CLUSTER}",
            "missing: the integrity token's subject title",
        )


def _walk(grammar: Grammar, roots: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """(symbols reached from ``roots``, symbols used but not defined)."""
    reached: set[str] = set()
    unknown: set[str] = set()
    pending = [r for r in roots if r in grammar]
    while pending:
        symbol = pending.pop()
        if symbol in reached:
            continue
        reached.add(symbol)
        for text in grammar[symbol]:
            for used in _SYMBOL.findall(text):
                if used in grammar:
                    pending.append(used)
                else:
                    unknown.add(used)
    return reached, unknown


def _symbol_problems(
    file: str, key: str, grammar: Grammar, roots: tuple[str, ...], own: set[str]
) -> Iterator[Problem]:
    reached, unknown = _walk(grammar, roots)
    for symbol in sorted(unknown):
        yield Problem(file, key, f"uses #{symbol}#, which is defined nowhere")
    for symbol in sorted(own - reached):
        yield Problem(
            file, f"{key}.{symbol}", "is never reached from a symbol the generator expands"
        )


def _attribute_problems(texts: Texts, shared: Mapping[str, object]) -> Iterator[Problem]:
    file = "attributes.json"
    for attribute, own in zip(texts.library.attributes, _own_symbols(texts, shared), strict=True):
        key = f"attributes.{attribute.name}.grammar"
        yield from _symbol_problems(file, key, attribute.grammar, ATTRIBUTE_ROOTS, own)
        yield from _answer_problems(attribute)
        yield from _overlap_problems(attribute, texts.questions.overlap_stop_words)


def _lookalike_problems(texts: Texts, shared: Mapping[str, object]) -> Iterator[Problem]:
    for attribute in texts.library.attributes:
        for found in lookalike_problems(attribute.grammar, shared):
            key = f"attributes.{attribute.name}.grammar.{found.symbol}"
            yield Problem("attributes.json", key, found.message)


def _own_symbols(texts: Texts, shared: Mapping[str, object]) -> Iterator[set[str]]:
    for attribute in texts.library.attributes:
        yield {s for s in attribute.grammar if s not in shared}


def _grammars_of_attributes(pack: Pack) -> list[Mapping[str, list[str]]]:
    return [a.get("grammar", {}) for a in pack.file("attributes").get("attributes", [])]


def _grammars_of_categories(pack: Pack) -> list[Mapping[str, list[str]]]:
    return [c.get("grammar", {}) for c in pack.file("tools").get("categories", [])]


def _unused_shared(
    file: str, shared: Mapping[str, object], grammars: list[Mapping[str, list[str]]]
) -> Iterator[Problem]:
    """A shared symbol no grammar (nor another used shared symbol) references."""
    used: set[str] = set()
    pending = [s for g in grammars for alts in g.values() for t in alts for s in _SYMBOL.findall(t)]
    while pending:
        symbol = pending.pop()
        if symbol in used or symbol not in shared:
            continue
        used.add(symbol)
        alternatives = shared[symbol]
        if isinstance(alternatives, list):
            pending.extend(
                s for t in alternatives if isinstance(t, str) for s in _SYMBOL.findall(t)
            )
    for symbol in sorted(set(shared) - used):
        yield Problem(file, f"shared.{symbol}", "is referenced by no grammar")


def _answer_problems(attribute: Attribute) -> Iterator[Problem]:
    if attribute.kind == "activity":
        return  # its question names the activity by design: the answer is ended or ongoing
    forms = {form.lower() for c in attribute.values for form in (c.text, *c.aliases)}
    patterns = {f: re.compile(rf"(?<!\w){re.escape(f)}(?!\w)") for f in forms}
    for symbol in QUESTION_SYMBOLS:
        for index, text in enumerate(attribute.grammar.get(symbol, ())):
            spoken = strip_slots(text).lower()
            hit = sorted(f for f, pattern in patterns.items() if pattern.search(spoken))
            if hit:
                key = f"attributes.{attribute.name}.grammar.{symbol}[{index}]"
                yield Problem("attributes.json", key, f"contains the answer {hit[0]!r}")


def _reachable_words(grammar: Grammar, symbol: str, stop: frozenset[str]) -> set[str]:
    reached, _ = _walk(grammar, (symbol,))
    found: set[str] = set()
    for name in reached:
        for text in grammar[name]:
            found |= content_words(strip_slots(_SYMBOL.sub(" ", text)), stop)
    return found


def _overlap_problems(attribute: Attribute, stop: frozenset[str]) -> Iterator[Problem]:
    grammar = attribute.grammar
    evidence: set[str] = set()
    for symbol in EVIDENCE_SYMBOLS:
        if symbol in grammar:
            evidence |= _reachable_words(grammar, symbol, stop)
    for symbol in QUESTION_SYMBOLS:
        alternatives = grammar.get(symbol, ())
        if not alternatives:
            continue
        shares = []
        for text in alternatives:
            asked = content_words(strip_slots(_SYMBOL.sub(" ", text)), stop)
            shares.append(len(asked & evidence) / len(asked) if asked else 0.0)
        mean = sum(shares) / len(shares)
        if mean > MAX_OVERLAP:
            key = f"attributes.{attribute.name}.grammar.{symbol}"
            yield Problem(
                "attributes.json",
                key,
                f"shares {mean:.2f} of its words with the statements (at most {MAX_OVERLAP})",
            )


def _chatter_problems(texts: Texts) -> Iterator[Problem]:
    for name, grammar in texts.chatter.items():
        roots = CHATTER_ROOTS.get(name, ("origin",))
        yield from _symbol_problems("chatter.json", name, grammar, roots, set(grammar))
    for profession, grammar in texts.work_talk.items():
        key = f"work_talk.{profession}"
        yield from _symbol_problems("people.json", key, grammar, ("origin",), set(grammar))
    reply = texts.work_reply
    yield from _symbol_problems("people.json", "work_reply", reply, ("origin",), set(reply))
    for name in ("order_ask", "days_ask", "duration_ask", "token_ask"):
        grammar = getattr(texts.questions, name)
        yield from _symbol_problems("questions.json", name, grammar, ("origin",), set(grammar))


def _tool_problems(texts: Texts) -> Iterator[Problem]:
    for category in texts.categories:
        key = f"categories.{category.name}"
        own = set(category.grammar)
        yield from _symbol_problems(
            "tools.json", f"{key}.grammar", category.grammar, ("origin",), own
        )
        needed = {w for tool in category.tools for w in tool.split("_")}
        for word in sorted(needed - category.banned - category.allowed):
            yield Problem(
                "tools.json", f"{key}.banned", f"must ban {word!r} (a word of an expected tool)"
            )
        spoken: set[str] = set()
        for alternatives in category.grammar.values():
            for text in alternatives:
                spoken |= set(words(strip_slots(_SYMBOL.sub(" ", text))))
        for word in sorted(spoken & category.banned):
            yield Problem("tools.json", f"{key}.grammar", f"says the banned word {word!r}")


def _cue_problems(
    texts: Texts, declared: object, descriptions: Mapping[str, str]
) -> Iterator[Problem]:
    if declared is None:
        return
    limit = declared.get(MAX_SHARED) if isinstance(declared, dict) else None
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        yield Problem("tools.json", CUES, f"must be {{{MAX_SHARED!r}: a whole number from 1}}")
        return
    cues = distinctive_words(descriptions, limit)
    for category in texts.categories:
        key = f"categories.{category.name}"
        for tool in category.tools:
            for word in sorted(surface_forms(descriptions[tool], cues[tool]) - category.banned):
                yield Problem(
                    "tools.json", f"{key}.banned", f"must ban {word!r} ({tool}'s description)"
                )
        said: dict[str, str] = {}
        for alternatives in category.grammar.values():
            for text in alternatives:
                spoken = strip_slots(_SYMBOL.sub(" ", text))
                for tool in category.tools:
                    for word in cue_words_in(spoken, cues[tool]):
                        said.setdefault(word, tool)
        for word, tool in sorted(said.items()):
            yield Problem(
                "tools.json",
                f"{key}.grammar",
                f"says {word!r}, a distinctive word of {tool}'s description",
            )


def _talk_problems(talk: Talk | None) -> Iterator[Problem]:
    """The 3.0 history's chatter grammars (``persona/talk.py``), when the pack has them."""
    for name, grammar in talk.grammars.items() if talk else ():
        yield from _symbol_problems("chatter.json", name, grammar, ("origin",), set(grammar))


def _open_problems(
    texts: Texts,
    questions: Mapping[str, object],
    grammar: Mapping[str, object],
    subjects: Mapping[str, tuple[str, ...]],
) -> Iterator[Problem]:
    """What open questions need of ``questions.json`` (``generate/memory/open.py``)."""
    file = "questions.json"
    for family in OPEN_FAMILIES:
        if not grammar.get(family):
            yield Problem(file, f"{ASKING}.{family}", "open questions need this family")
    rubric = questions.get("rubric")
    for label in ("when", "with"):
        text = rubric.get(label) if isinstance(rubric, dict) else None
        if not isinstance(text, str) or "{event}" not in text:
            yield Problem(file, f"rubric.{label}", "needs a label with an {event} slot")
    for attribute in texts.library.attributes:
        if attribute.kind == "preference" and not subjects.get(attribute.name):
            yield Problem(file, f"{SUBJECTS}.{attribute.name}", "a taste a task asks about")


def _asking_problems(
    texts: Texts, questions: Mapping[str, object], open_questions: bool = False
) -> Iterator[Problem]:
    """The shared question families and subject phrases (bench 3.0), when the pack has them;
    with ``open_questions`` (bench 8.0) the open families, the rubric labels and a subject for
    every taste too."""
    file = "questions.json"
    if ASKING not in questions and SUBJECTS not in questions:
        return
    try:
        asking = parse_asking(questions)
    except AskingError as exc:
        yield Problem(file, ASKING, str(exc))
        return
    grammar = dict(asking.grammar)
    opened = tuple(f for f in OPEN_FAMILIES if f in grammar)
    roots = (*FAMILIES, EVENT_WITH, *opened)
    yield from _symbol_problems(file, ASKING, grammar, roots, set(grammar))
    if open_questions:
        yield from _open_problems(texts, questions, grammar, asking.subjects)
    asked = {kind for kind, _symbol in FAMILY_OF}
    names = {a.name for a in texts.library.attributes}
    for attribute in texts.library.attributes:
        phrases = asking.subjects.get(attribute.name, ())
        if attribute.kind in asked and not phrases:
            yield Problem(file, f"{SUBJECTS}.{attribute.name}", "needs at least one phrase")
        values = [v.text for v in attribute.values]
        for phrase in phrases:
            if values and phrases_in(phrase, values):
                key = f"{SUBJECTS}.{attribute.name}"
                yield Problem(file, key, f"{phrase!r} names one of the attribute's values")
    for name in sorted(set(asking.subjects) - names):
        yield Problem(file, f"{SUBJECTS}.{name}", "names no attribute of the pack")


def _pool_problems(texts: Texts) -> Iterator[Problem]:
    for attribute in texts.library.attributes:
        if attribute.coin is not None and not attribute.values:
            space = coin_space(attribute.coin, texts.words.syllables)
            if space < COIN_ROOM * attribute.coin.count:
                key = f"attributes.{attribute.name}.coin"
                yield Problem(
                    "attributes.json", key, f"its parts make {space} values, fewer than 4x count"
                )
            continue
        if len(attribute.values) < MIN_VALUES:
            key = f"attributes.{attribute.name}.values"
            yield Problem("attributes.json", key, f"needs at least {MIN_VALUES} values")
    for name, pool in texts.words.pools.items():
        least = MIN_VALUES if name in OPEN_POOLS else MIN_POOL
        if len(pool) < least:
            yield Problem("values.json", f"pools.{name}", f"needs at least {least} values")
    if len(texts.library.people.contact_names) < MAX_CONTACTS:
        yield Problem(
            "people.json", "contact_names", f"needs at least {MAX_CONTACTS} names (largest circle)"
        )


def _value_problems(texts: Texts, findings: bool) -> Iterator[Problem]:
    """values.json pools, formats and timetable forms the makers, fixtures and findings read by
    name: without them a run fails half-way."""
    makers = sorted(
        {*FIXTURE_MAKERS, *(m for c in texts.categories for m in c.slot_makers.values())}
    )
    needs = [FIXTURE_NEEDS, *(NEEDS[m] for m in makers if m in NEEDS)]
    if findings:
        needs.append(FINDING_NEEDS)
    words = texts.words
    for pool in sorted({p for pools, _ in needs for p in pools} - set(words.pools)):
        yield Problem("values.json", f"pools.{pool}", "missing: the generator reads it")
    for form in sorted({f for _, forms in needs for f in forms} - set(words.formats)):
        yield Problem("values.json", f"formats.{form}", "missing: the generator reads it")
    if "schedule" in makers:
        for form in sorted(set(SCHEDULE_FORMS) - set(words.schedules)):
            yield Problem(
                "values.json", f"schedules.{form}", "missing: the schedule maker reads it"
            )
