"""How much of one pack's wording occurs in another (``dittobench pack distance A B``).

Read from the raw pack files (``docs/packs.md``), nothing generated. Every grammar alternative of
pack B is sorted into one of five families:

- ``statements``: the attribute grammars' own symbols and ``shared`` symbols that voice a fact
  (``state``, ``change``, ``event``, ``twin_claim``, leads and tails, ...);
- ``lookalikes``: the look-alike frames (symbols named ``twin_*`` other than ``twin_claim``,
  ``suggest_*``);
- ``questions``: the attribute question symbols (``ask*``, ``apply``, ``save``, ``update``,
  ``delete``, ``topic``) and every grammar of ``questions.json`` with its subject phrases;
- ``tools``: ``tools.json`` (shared symbols, category grammars, results, describe);
- ``chatter``: ``chatter.json`` grammars and ``people.json`` ``work_talk``/``work_reply``.

Per family: **frames**, the share of B's distinct alternatives (``#symbol#`` and ``{slot}``
abstracted to ``#`` and ``{}``, lower case, spaces collapsed) found verbatim among A's of the same
family; **3-grams** and **5-grams**, the share of B's distinct word n-grams (words of the literal
text between symbols and slots, lower case) found among A's n-grams of that family. Then
**pools**: the share of B's distinct values (attribute values and accepted forms, ``values.json``
pools, contact names) found among A's; **coin**: the share of B's coined-value vocabulary (each
``coin`` form with its parts abstracted, each word of a listed part, ``coin_parts`` and the
syllables) found in A's. The **summary** is the mean of the five family figures, each the mean of
its frames, 3-gram and 5-gram shares: 1.0 for a pack against itself, near 0 for packs that share
no wording. A family B does not have counts as fully shared (nothing of B is new there).

Pure and deterministic: sorted iteration, no clock; a pack is read through ``Pack.file``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from dittobench.packs.load import Pack, PackError

FAMILIES = ("statements", "lookalikes", "questions", "tools", "chatter")
NGRAMS = (3, 5)
QUESTION_SYMBOLS = frozenset({"apply", "save", "update", "delete", "topic"})
_TOKEN = re.compile(r"#[a-z_][a-z0-9_]*#|\{[a-z_][a-z0-9_]*\}")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


@dataclass(frozen=True, slots=True)
class Share:
    """How many of B's distinct items A also has."""

    found: int
    total: int

    @property
    def share(self) -> float:
        return self.found / self.total if self.total else 1.0

    def to_json(self) -> dict[str, Any]:
        return {"found": self.found, "total": self.total, "share": round(self.share, 6)}


@dataclass(frozen=True, slots=True)
class FamilyDistance:
    family: str
    frames: Share
    grams: tuple[Share, ...]
    """One per ``NGRAMS`` size."""

    @property
    def figure(self) -> float:
        shares = [self.frames.share, *(g.share for g in self.grams)]
        return sum(shares) / len(shares)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"frames": self.frames.to_json()}
        for size, gram in zip(NGRAMS, self.grams, strict=True):
            out[f"{size}grams"] = gram.to_json()
        out["figure"] = round(self.figure, 6)
        return out


@dataclass(frozen=True, slots=True)
class PackDistance:
    """How much of pack ``b`` occurs in pack ``a``."""

    a: str
    b: str
    families: tuple[FamilyDistance, ...]
    pools: Share
    coin: Share

    @property
    def summary(self) -> float:
        return sum(f.figure for f in self.families) / len(self.families)

    def to_json(self) -> dict[str, Any]:
        return {
            "distance": "dittobench-pack-distance-1",
            "a": self.a,
            "b": self.b,
            "families": {f.family: f.to_json() for f in self.families},
            "pools": self.pools.to_json(),
            "coin": self.coin.to_json(),
            "summary": round(self.summary, 6),
        }


def pack_distance(a: Pack, b: Pack) -> PackDistance:
    """The share of ``b``'s wording found in ``a``. Raises ``PackError`` naming the file and
    key of a pack whose grammars are not maps of string lists."""
    wa, wb = _wording(a), _wording(b)
    families = tuple(
        FamilyDistance(
            family,
            _share(_frames(wb[family]), _frames(wa[family])),
            tuple(_share(_grams(wb[family], n), _grams(wa[family], n)) for n in NGRAMS),
        )
        for family in FAMILIES
    )
    return PackDistance(
        _name(a),
        _name(b),
        families,
        _share(_pool_values(b), _pool_values(a)),
        _share(_coin_items(b), _coin_items(a)),
    )


def _name(pack: Pack) -> str:
    return f"{pack.pack_id} ({pack.sha256[:12]})"


def _share(b: frozenset[str], a: frozenset[str]) -> Share:
    return Share(len(b & a), len(b))


def _frames(texts: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for text in texts:
        frame = _TOKEN.sub(lambda t: "#" if t.group(0)[0] == "#" else "{}", text.lower())
        out.add(" ".join(frame.split()))
    return frozenset(out)


def _grams(texts: Iterable[str], size: int) -> frozenset[str]:
    out: set[str] = set()
    for text in texts:
        for piece in _TOKEN.split(text.lower()):
            words = _WORD.findall(piece)
            out.update(" ".join(words[i : i + size]) for i in range(len(words) - size + 1))
    return frozenset(out)


def _wording(pack: Pack) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {family: [] for family in FAMILIES}
    attributes = _object(pack, "attributes")
    for symbol, alternatives in _grammar(pack, "attributes", "shared", attributes.get("shared")):
        out[_attribute_family(symbol)].extend(alternatives)
    for index, attribute in enumerate(_list(pack, "attributes", attributes.get("attributes"))):
        where = f"attributes[{index}].grammar"
        grammar = attribute.get("grammar") if isinstance(attribute, dict) else None
        for symbol, alternatives in _grammar(pack, "attributes", where, grammar):
            out[_attribute_family(symbol)].extend(alternatives)
    questions = _object(pack, "questions")
    for key, value in sorted(questions.items()):
        if key == "subjects":
            for _symbol, phrases in _grammar(pack, "questions", key, value):
                out["questions"].extend(phrases)
        elif key == "rubric" and isinstance(value, dict):  # labels, one string each
            out["questions"].extend(v for _k, v in sorted(value.items()) if isinstance(v, str))
        elif isinstance(value, dict) and key not in ("second_person", "special_titles"):
            out["questions"].extend(_alternatives(pack, "questions", key, value))
    tools = _object(pack, "tools")
    for key in ("shared", "results"):
        out["tools"].extend(_alternatives(pack, "tools", key, tools.get(key)))
    describe = tools.get("describe") or {}
    out["tools"].extend(v for _k, v in sorted(describe.items()) if isinstance(v, str))
    for index, category in enumerate(_list(pack, "tools", tools.get("categories"))):
        grammar = category.get("grammar") if isinstance(category, dict) else None
        out["tools"].extend(_alternatives(pack, "tools", f"categories[{index}].grammar", grammar))
    for key, value in sorted(_object(pack, "chatter").items()):
        if isinstance(value, dict):
            out["chatter"].extend(_alternatives(pack, "chatter", key, value))
    people = _object(pack, "people")
    out["chatter"].extend(_alternatives(pack, "people", "work_reply", people.get("work_reply")))
    talk = people.get("work_talk") or {}
    for profession, grammar in sorted(talk.items() if isinstance(talk, dict) else ()):
        out["chatter"].extend(_alternatives(pack, "people", f"work_talk.{profession}", grammar))
    return out


def _attribute_family(symbol: str) -> str:
    if symbol == "twin" or (symbol.startswith(("twin_", "suggest_")) and symbol != "twin_claim"):
        return "lookalikes"
    if symbol.startswith("ask") or symbol in QUESTION_SYMBOLS:
        return "questions"
    return "statements"


def _object(pack: Pack, name: str) -> dict[str, Any]:
    data = pack.file(name)
    if not isinstance(data, dict):  # pragma: no cover (Pack.file checks it)
        raise PackError(f"{pack.path / (name + '.json')}: must hold one JSON object")
    return data


def _list(pack: Pack, name: str, value: Any) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise PackError(f"{pack.path / (name + '.json')}: expected a list, got {_kind(value)}")
    return value


def _grammar(pack: Pack, name: str, where: str, value: Any) -> Iterator[tuple[str, list[str]]]:
    """The (symbol, alternatives) of a grammar, in sorted order."""
    if value is None:
        return
    if not isinstance(value, Mapping):
        raise PackError(
            f"{pack.path / (name + '.json')}: {where}: expected a grammar (an object of string "
            f"lists), got {_kind(value)}"
        )
    for symbol in sorted(value):
        alternatives = value[symbol]
        if not isinstance(alternatives, list) or not all(isinstance(a, str) for a in alternatives):
            raise PackError(
                f"{pack.path / (name + '.json')}: {where}.{symbol}: expected a list of strings"
            )
        yield symbol, alternatives


def _alternatives(pack: Pack, name: str, where: str, value: Any) -> list[str]:
    return [a for _symbol, alts in _grammar(pack, name, where, value) for a in alts]


def _kind(value: Any) -> str:
    return type(value).__name__


def _forms(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        yield from (v for v in value if isinstance(v, str))


def _pool_values(pack: Pack) -> frozenset[str]:
    out: set[str] = set()
    for attribute in _object(pack, "attributes").get("attributes") or []:
        for value in attribute.get("values") or [] if isinstance(attribute, dict) else []:
            out.update(f.lower() for f in _forms(value))
    for pool in (_object(pack, "values").get("pools") or {}).values():
        for value in pool if isinstance(pool, list) else []:
            out.update(f.lower() for f in _forms(value))
    out.update(n.lower() for n in _forms(_object(pack, "people").get("contact_names")))
    return frozenset(out)


def _coin_items(pack: Pack) -> frozenset[str]:
    """A pack's coined-value vocabulary: abstracted forms, listed part words, coin_parts words
    and syllables."""
    attributes = _object(pack, "attributes")
    out: set[str] = set()
    for attribute in attributes.get("attributes") or []:
        coin = attribute.get("coin") if isinstance(attribute, dict) else None
        if not isinstance(coin, dict):
            continue
        for form in _forms(coin.get("forms")):
            out.add("form:" + re.sub(r"\{[^}]*\}", "{}", form.lower()))
        for part in (coin.get("parts") or {}).values():
            out.update("word:" + w.lower() for w in _forms(part))
            if isinstance(part, dict):
                out.update("word:" + w.lower() for w in _forms(part.get("ends")))
    for words in (attributes.get("coin_parts") or {}).values():
        out.update("word:" + w.lower() for w in _forms(words))
    for kind, pieces in sorted((_object(pack, "values").get("syllables") or {}).items()):
        out.update(f"{kind}:{p.lower()}" for p in _forms(pieces))
    return frozenset(out)
