"""What the parser knows: a public content pack's wordings compiled into patterns.

Everything here comes from the pack alone (``docs/packs.md``): every statement an attribute can
make (one pattern per wording, with ``{value}``/``{old}``/``{person}``/``{label}`` captures),
every question wording, the event labels order and duration questions quote, the chatter that
carries the integrity token, its look-alike and planted instructions, and the value pools. It is
built once per pack (cached by the pack's SHA-256).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from dittobench.generate.memory.asking import ASIDE, ASKING, FAMILIES, parse_asking
from dittobench.generate.persona.attribute import Attribute
from dittobench.generate.texts import Texts, texts_of
from dittobench.packs import Pack, PackError, own_pack, public_pack
from dittobench.spec.dataset import Dataset
from dittobench.study.patterns import Wording, compile_symbol

STATEMENT_ROLES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "fixed": ("state", "other"),
        "changing": ("state", "change", "other"),
        "preference": ("state", "other"),
        "event_list": ("event", "other", "with_note"),
        "activity": ("start", "quit", "still"),
        "assistant": ("recommend",),
        "recurring": ("mention",),
        "write": ("state",),
    }
)
"""The grammar symbols that voice an attribute in the history, per kind."""

QUESTION_SYMBOLS = ("ask", "ask_then", "ask_count", "ask_list", "ask_lure", "apply")
"""Attribute symbols a question is worded from (``write`` adds its instructions)."""
WRITE_SYMBOLS = ("save", "update", "delete")
SHARED_QUESTIONS = ("order_ask", "days_ask", "duration_ask", "token_ask")
"""Question grammars no attribute owns (``questions.json``)."""
CHATTER_ROLES = ("token", "token_decoy", "injection")


@dataclass(frozen=True, slots=True)
class Statement:
    """A wording that voices ``attribute`` (or chatter, attribute "") in ``role``; ``reply``
    when it is the assistant's turn that says it."""

    attribute: str
    role: str
    reply: bool
    wording: Wording


@dataclass(frozen=True, slots=True)
class QuestionWording:
    """A wording of question ``symbol`` about ``attribute`` ("" for the shared ones)."""

    attribute: str
    symbol: str
    wording: Wording


@dataclass(frozen=True, slots=True)
class PackIndex:
    """The parser's compiled view of one pack."""

    texts: Texts
    statements: tuple[Statement, ...]
    questions: tuple[QuestionWording, ...]
    pools: Mapping[str, frozenset[str]]
    """Per attribute, its values and accepted forms, lower-cased."""
    families: tuple[QuestionWording, ...] = ()
    """Bench 3.0: the shared question families (questions.json ``asking``), symbol = family."""
    asides: tuple[Wording, ...] = ()
    """Bench 3.0: the asides a question in an attribute's own words may open with."""
    subjects: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Bench 3.0: a subject phrase (lower-cased) -> the attributes it names."""

    def attribute(self, name: str) -> Attribute:
        return self.texts.library.get(name)

    def in_pool(self, attribute: str, value: str) -> bool:
        return value.lower() in self.pools.get(attribute, frozenset())


_CACHE: dict[str, PackIndex] = {}


_KNOWN: dict[str, Pack] = {}
"""Packs that are not shipped but were handed to the study (``remember_pack``), by SHA-256."""


def remember_pack(pack: Pack) -> None:
    """Let ``pack_of`` find ``pack`` (a study run on datasets of a pack that is not shipped)."""
    _KNOWN[pack.sha256] = pack


def pack_of(dataset: Dataset) -> Pack:
    """The pack a dataset was generated from: the one it names (shipped, or handed to the study
    with ``remember_pack``), or its bench version's own."""
    if dataset.pack is None:
        return own_pack(dataset.bench_version)
    known = _KNOWN.get(dataset.pack.sha256)
    if known is not None:
        return known
    pack = public_pack(dataset.pack.id)
    if pack.sha256 != dataset.pack.sha256:
        raise PackError(
            f"the dataset names pack {dataset.pack.id} with sha256 {dataset.pack.sha256[:12]}…, "
            f"but the shipped {pack.pack_id} is {pack.sha256[:12]}…; the study reads shipped "
            "public packs only"
        )
    return pack


def index_of(pack: Pack) -> PackIndex:
    """The compiled view of ``pack`` (cached by its SHA-256)."""
    cached = _CACHE.get(pack.sha256)
    if cached is None:
        cached = _CACHE[pack.sha256] = _build(texts_of(pack))
    return cached


def _build(texts: Texts) -> PackIndex:
    statements: list[Statement] = []
    questions: list[QuestionWording] = []
    for attribute in texts.library.attributes:
        slots = _slot_patterns(attribute)
        for role in STATEMENT_ROLES[attribute.kind]:
            reply = role == "recommend"
            for wording in compile_symbol(attribute.grammar, role, slots):
                statements.append(Statement(attribute.name, role, reply, wording))
        symbols = QUESTION_SYMBOLS + (WRITE_SYMBOLS if attribute.kind == "write" else ())
        for symbol in symbols:
            for wording in compile_symbol(attribute.grammar, symbol, slots):
                questions.append(QuestionWording(attribute.name, symbol, wording))
    for role in CHATTER_ROLES:
        for wording in compile_symbol(texts.chatter[role], "origin"):
            statements.append(Statement("", role, False, wording))
    for symbol in SHARED_QUESTIONS:
        for wording in compile_symbol(getattr(texts.questions, symbol), "origin"):
            questions.append(QuestionWording("", symbol, wording))
    pools = {
        a.name: frozenset(form.lower() for c in a.values for form in (c.text, *c.aliases))
        for a in texts.library.attributes
    }
    families, asides, subjects = _asking(texts)
    return PackIndex(texts, tuple(statements), tuple(questions), pools, families, asides, subjects)


SUBJECT_SLOTS = ("subject", "things", "things_b", "theme")


def _asking(
    texts: Texts,
) -> tuple[tuple[QuestionWording, ...], tuple[Wording, ...], Mapping[str, tuple[str, ...]]]:
    """The shared families, asides and subject phrases of a pack that has them (bench 3.0)."""
    data = texts.pack.file("questions")
    if ASKING not in data:
        return (), (), MappingProxyType({})
    asking = parse_asking(data)
    subjects: dict[str, list[str]] = {}
    for attribute, phrases in asking.subjects.items():
        for phrase in phrases:
            subjects.setdefault(phrase.lower(), []).append(attribute)
    every = sorted({p for ps in asking.subjects.values() for p in ps}, key=len, reverse=True)
    either = "(?:" + "|".join(re.escape(p) for p in every) + ")"
    slots = dict.fromkeys(SUBJECT_SLOTS, either)
    families = tuple(
        QuestionWording("", family, wording)
        for family in FAMILIES
        if family != ASIDE
        for wording in compile_symbol(asking.grammar, family, slots)
    )
    asides = compile_symbol(asking.grammar, ASIDE)
    return families, asides, MappingProxyType({k: tuple(v) for k, v in subjects.items()})


def _slot_patterns(attribute: Attribute) -> dict[str, str]:
    """A write attribute's values are labels ("locker combination"): its ``{label}`` slot is
    one of them, so a lazy capture cannot stop short."""
    labels = sorted((c.text for c in attribute.values), key=len, reverse=True)
    if attribute.kind != "write" or not labels:
        return {}
    return {"label": "(?:" + "|".join(re.escape(label) for label in labels) + ")"}
