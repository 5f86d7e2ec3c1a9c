"""Every word the generator uses, read from a content pack (``docs/packs.md``).

``texts_of(pack)`` turns a pack's files into the typed pieces the generator draws from: the
persona library, the people around the user, chatter, question wordings, tool categories and
value pools. It checks each piece as it goes and raises ``PackError`` naming the file and key at
fault. The result is cached per pack (by its SHA-256), so a build pays for it once per process.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any, TypeVar

from dittobench.core.prng import Stream
from dittobench.core.text import words as words_of
from dittobench.generate.grammar import Grammar, GrammarError
from dittobench.generate.memory.overlap import stop_words
from dittobench.generate.persona.attribute import Attribute, Choice, check_attribute
from dittobench.generate.persona.coin import CoinError, CoinSpec, parse_coin
from dittobench.generate.persona.library import Library, People
from dittobench.generate.tools.category import Category, Pin, SlotMaker
from dittobench.generate.tools.makers import MAKERS, Maker, ValueWords
from dittobench.packs import Pack, PackError, public_pack
from dittobench.spec.vocab import TOOL_GROUPS, VocabularyError, member

M = TypeVar("M", bound=str)

_SYMBOL = re.compile(r"#([a-z_][a-z0-9_]*)#")
_CHATTER = (
    "reply",
    "small_talk",
    "small_talk_reply",
    "noise_open",
    "token",
    "token_decoy",
    "injection",
    "injection_reply",
)
_CATEGORY_FLAGS = ("unordered", "allow_extra_tools", "carries_job_id", "fail_first", "uses_result")


@dataclass(frozen=True, slots=True)
class Questions:
    """Wording of the question types that no attribute owns."""

    order_ask: Grammar
    days_ask: Grammar
    duration_ask: Grammar
    token_ask: Grammar
    special_titles: Mapping[str, str]
    wave_description: str
    second_person: Mapping[str, str]
    overlap_stop_words: frozenset[str]
    """The shared stop words plus the pack's (for the word-overlap measure)."""


@dataclass(frozen=True, slots=True)
class Texts:
    """A pack, typed for the generator."""

    pack_id: str
    pack_sha256: str
    pack: Pack
    """The pack itself, for readers of keys the generator's newer parts add."""
    library: Library
    work_talk: Mapping[str, Grammar]
    work_reply: Grammar
    chatter: Mapping[str, Grammar]
    questions: Questions
    categories: tuple[Category, ...]
    describe: Mapping[str, str]
    words: ValueWords

    def category(self, name: str) -> Category:
        for category in self.categories:
            if category.name == name:
                return category
        raise KeyError(f"no tool category {name!r}")


_CACHE: dict[str, Texts] = {}


def texts_of(pack: Pack) -> Texts:
    """The typed texts of ``pack`` (cached by the pack's SHA-256)."""
    cached = _CACHE.get(pack.sha256)
    if cached is None:
        cached = _CACHE[pack.sha256] = _build(pack)
    return cached


def public_texts() -> Texts:
    """The texts of the default public pack."""
    return texts_of(public_pack())


def _build(pack: Pack) -> Texts:
    people_file = _Reader(pack, "people")
    professions = people_file.strings("professions")
    people = People(
        contact_names=people_file.strings("contact_names"),
        relations=people_file.strings("relations"),
        kin_relations=frozenset(people_file.strings("kin_relations")),
        contact=people_file.text("contact"),
    )
    talk = people_file.mapping("work_talk")
    work_talk = MappingProxyType(
        {p: people_file.grammar(f"work_talk.{p}", talk.get(p)) for p in professions}
    )
    chatter_file = _Reader(pack, "chatter")
    chatter = MappingProxyType({name: chatter_file.grammar(name) for name in _CHATTER})
    words = _value_words(_Reader(pack, "values"))
    tools_file = _Reader(pack, "tools")
    return Texts(
        pack_id=pack.pack_id,
        pack_sha256=pack.sha256,
        pack=pack,
        library=_library(_Reader(pack, "attributes"), professions, people),
        work_talk=work_talk,
        work_reply=people_file.grammar("work_reply"),
        chatter=chatter,
        questions=_questions(_Reader(pack, "questions")),
        categories=_categories(tools_file, words),
        describe=MappingProxyType(
            {k: tools_file.text(f"describe.{k}", v) for k, v in tools_file.get("describe").items()}
        ),
        words=words,
    )


class _Reader:
    """Typed reads from one pack file; every failure names the file and the key."""

    def __init__(self, pack: Pack, name: str) -> None:
        self.data: Mapping[str, Any] = pack.file(name)
        self.where = f"{pack.path / name}.json"

    def fail(self, key: str, problem: str) -> PackError:
        return PackError(f"{self.where}: key {key!r}: {problem}")

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise self.fail(key, "missing")
        return self.data[key]

    def text(self, key: str, value: Any = None) -> str:
        value = self.get(key) if value is None else value
        if not isinstance(value, str):
            raise self.fail(key, "must be a string")
        return value

    def member(self, key: str, vocabulary: tuple[M, ...], value: Any = None) -> M:
        """A string of a closed vocabulary (``spec.vocab``)."""
        text = self.text(key, value)
        try:
            return member(vocabulary, text, key)
        except VocabularyError:
            raise self.fail(key, f"must be one of {', '.join(vocabulary)}") from None

    def strings(self, key: str, value: Any = None, *, empty: bool = False) -> tuple[str, ...]:
        value = self.get(key) if value is None else value
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail(key, "must be a list of strings")
        if not value and not empty:
            raise self.fail(key, "must not be empty")
        return tuple(value)

    def mapping(self, key: str, value: Any = None) -> Mapping[str, Any]:
        value = self.get(key) if value is None else value
        if not isinstance(value, dict):
            raise self.fail(key, "must be an object")
        return value

    def grammar(self, key: str, value: Any = None) -> dict[str, tuple[str, ...]]:
        raw = self.mapping(key, value)
        return {s: self.strings(f"{key}.{s}", alts) for s, alts in raw.items()}


def _merged(
    own: Mapping[str, tuple[str, ...]], shared: Grammar, reaches: dict[str, list[str]]
) -> dict[str, tuple[str, ...]]:
    """``own`` plus every shared symbol it reaches (its own symbols win). ``reaches`` remembers
    the symbols each shared symbol names, so a file's grammars scan the shared ones once."""
    merged = dict(own)
    pending = [s for alts in own.values() for text in alts for s in _SYMBOL.findall(text)]
    while pending:
        symbol = pending.pop()
        if symbol in merged or symbol not in shared:
            continue
        merged[symbol] = tuple(shared[symbol])
        if symbol not in reaches:
            reaches[symbol] = [s for text in shared[symbol] for s in _SYMBOL.findall(text)]
        pending.extend(reaches[symbol])
    return merged


def _choice(reader: _Reader, key: str, raw: Any) -> Choice:
    if isinstance(raw, str):
        return Choice(raw)
    forms = reader.strings(key, raw)
    return Choice(forms[0], forms[1:])


def _library(reader: _Reader, professions: tuple[str, ...], people: People) -> Library:
    shared = reader.grammar("shared")
    reaches: dict[str, list[str]] = {}
    attributes = []
    for index, raw in enumerate(reader.get("attributes")):
        key = f"attributes[{index}]"
        record = reader.mapping(key, raw)
        name = reader.text(f"{key}.name", record.get("name"))
        key = f"attributes.{name}"
        raw_values = record.get("values")
        if not isinstance(raw_values, list):
            raise reader.fail(f"{key}.values", "must be a list of values")
        values = tuple(_choice(reader, f"{key}.values[{i}]", v) for i, v in enumerate(raw_values))
        attribute = Attribute(
            name=name,
            title=reader.text(f"{key}.title", record.get("title")),
            kind=reader.text(f"{key}.kind", record.get("kind")),
            values=values,
            grammar=_merged(
                reader.grammar(f"{key}.grammar", record.get("grammar")), shared, reaches
            ),
            profession=record.get("profession", ""),
            kin=record.get("kin", False) is True,
            coin=_coin(reader, key, record.get("coin")),
        )
        if attribute.profession and attribute.profession not in professions:
            raise reader.fail(f"{key}.profession", f"unknown profession {attribute.profession!r}")
        try:
            check_attribute(attribute)
        except GrammarError as exc:
            raise reader.fail(key, str(exc)) from None
        attributes.append(attribute)
    library = Library(tuple(attributes), professions, people)
    try:
        library.check()
    except ValueError as exc:
        raise reader.fail("attributes", str(exc)) from None
    return library


def _coin(reader: _Reader, key: str, raw: Any) -> CoinSpec | None:
    """An attribute's ``coin`` declaration (``persona/coin.py``), with the file's
    ``coin_parts``."""
    if raw is None:
        return None
    try:
        return parse_coin(raw, reader.mapping("coin_parts", reader.data.get("coin_parts", {})))
    except CoinError as exc:
        raise reader.fail(f"{key}.coin", str(exc)) from None


def _questions(reader: _Reader) -> Questions:
    return Questions(
        order_ask=reader.grammar("order_ask"),
        days_ask=reader.grammar("days_ask"),
        duration_ask=reader.grammar("duration_ask"),
        token_ask=reader.grammar("token_ask"),
        special_titles=MappingProxyType(
            {
                k: reader.text(f"special_titles.{k}", v)
                for k, v in reader.mapping("special_titles").items()
            }
        ),
        wave_description=reader.text("wave_description"),
        second_person=MappingProxyType(
            {
                k: reader.text(f"second_person.{k}", v)
                for k, v in reader.mapping("second_person").items()
            }
        ),
        overlap_stop_words=stop_words(frozenset(reader.strings("overlap_stop_words", empty=True))),
    )


def _value_words(reader: _Reader) -> ValueWords:
    pools = {k: reader.strings(f"pools.{k}", v) for k, v in reader.mapping("pools").items()}
    syllables = reader.mapping("syllables")
    formats = dict(reader.mapping("formats"))
    minutes = reader.strings("formats.minutes", formats.pop("minutes", None))
    return ValueWords(
        pools=MappingProxyType(pools),
        syllables=(
            reader.strings("syllables.onsets", syllables.get("onsets")),
            reader.strings("syllables.vowels", syllables.get("vowels")),
            reader.strings("syllables.codas", syllables.get("codas")),
        ),
        formats=MappingProxyType({k: reader.text(f"formats.{k}", v) for k, v in formats.items()}),
        minutes=minutes,
        schedules=MappingProxyType(
            {k: reader.text(f"schedules.{k}", v) for k, v in reader.mapping("schedules").items()}
        ),
    )


def _slot(
    reader: _Reader, key: str, raw: Any, words: ValueWords, banned: frozenset[str]
) -> SlotMaker:
    spec = reader.mapping(key, raw)
    if "pool" in spec:
        pool = reader.text(f"{key}.pool", spec["pool"])
        if pool not in words.pools:
            raise reader.fail(f"{key}.pool", f"no pool {pool!r} in values.json")
        for value in words.pools[pool]:  # a value is said as it is: it must be no cue either
            if said := sorted(banned.intersection(words_of(value))):
                raise reader.fail(
                    f"{key}.pool", f"pool {pool!r} holds {value!r}, which says banned {said[0]!r}"
                )
        return partial(_from_pool, words.pools[pool])
    name = reader.text(f"{key}.maker", spec.get("maker"))
    if name not in MAKERS:
        raise reader.fail(f"{key}.maker", f"unknown maker {name!r}; known: {', '.join(MAKERS)}")
    maker = _bound(MAKERS[name], words)
    if spec.get("clear_of_banned") is True:
        return partial(_clear_of, banned, maker)
    return maker


def _bound(maker: Maker, words: ValueWords) -> SlotMaker:
    def draw(stream: Stream) -> str:
        return maker(stream, words)

    return draw


def _from_pool(pool: tuple[str, ...], stream: Stream) -> str:
    return stream.choice(pool)


def _clear_of(banned: frozenset[str], maker: SlotMaker, stream: Stream) -> str:
    """``maker``'s value, drawn again until it carries none of ``banned`` (a coined word can,
    in rare draws, spell an ordinary word such as "File")."""
    while True:
        value = maker(stream)
        if not banned.intersection(words_of(value)):
            return value


def _categories(reader: _Reader, words: ValueWords) -> tuple[Category, ...]:
    shared = reader.grammar("shared")
    reaches: dict[str, list[str]] = {}
    categories = []
    for index, raw in enumerate(reader.get("categories")):
        record = reader.mapping(f"categories[{index}]", raw)
        name = reader.text(f"categories[{index}].name", record.get("name"))
        key = f"categories.{name}"
        banned = frozenset(reader.strings(f"{key}.banned", record.get("banned", []), empty=True))
        slots = reader.mapping(f"{key}.slots", record.get("slots", {}))
        pins = []
        for i, pin in enumerate(record.get("pins", [])):
            if not (isinstance(pin, list) and len(pin) == 3 and isinstance(pin[0], int)):
                raise reader.fail(f"{key}.pins[{i}]", "must be [tool index, argument, slot]")
            pins.append(
                Pin(
                    pin[0],
                    reader.text(f"{key}.pins[{i}]", pin[1]),
                    reader.text(f"{key}.pins[{i}]", pin[2]),
                )
            )
        categories.append(
            Category(
                name=name,
                group=reader.member(f"{key}.group", TOOL_GROUPS, record.get("group")),
                tools=reader.strings(f"{key}.tools", record.get("tools"), empty=True),
                grammar=_merged(
                    reader.grammar(f"{key}.grammar", record.get("grammar")), shared, reaches
                ),
                slots={
                    s: _slot(reader, f"{key}.slots.{s}", v, words, banned) for s, v in slots.items()
                },
                slot_makers={
                    s: v["maker"]
                    for s, v in slots.items()
                    if isinstance(v, dict) and isinstance(v.get("maker"), str)
                },
                pins=tuple(pins),
                banned=banned,
                allowed=frozenset(
                    reader.strings(f"{key}.allowed", record.get("allowed", []), empty=True)
                ),
                behavior=reader.text(f"{key}.behavior", record.get("behavior", "")),
                **{flag: record.get(flag, False) is True for flag in _CATEGORY_FLAGS},
            )
        )
    return tuple(categories)


__all__ = ["Maker", "Questions", "Texts", "public_texts", "texts_of"]
