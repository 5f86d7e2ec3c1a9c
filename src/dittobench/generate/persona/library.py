"""The persona library of a content pack: attributes, professions and the circle's names."""

from __future__ import annotations

from dataclasses import dataclass, field

from dittobench.generate.persona.attribute import ATTRIBUTE_KINDS, Attribute


@dataclass(frozen=True, slots=True)
class People:
    """The circle around the user: first names, relations (``kin_relations`` never hold a
    relative's detail: "my cousin's cousin" would be family too) and how the user names a
    contact (``contact``, with ``{relation}`` and ``{name}``: "my colleague Greta")."""

    contact_names: tuple[str, ...]
    relations: tuple[str, ...]
    kin_relations: frozenset[str]
    contact: str


@dataclass(frozen=True, slots=True)
class Library:
    """The attributes a person may be drawn from, in declaration order, the professions and the
    people who may surround them."""

    attributes: tuple[Attribute, ...]
    professions: tuple[str, ...]
    people: People
    _by_name: dict[str, Attribute] = field(init=False, repr=False, compare=False)
    """``get``'s index (built once: a run looks attributes up thousands of times)."""

    def __post_init__(self) -> None:
        by_name: dict[str, Attribute] = {}
        for attribute in self.attributes:
            by_name.setdefault(attribute.name, attribute)  # the first of a name, as a scan finds
        object.__setattr__(self, "_by_name", by_name)

    def of_kind(self, kind: str, profession: str = "") -> tuple[Attribute, ...]:
        """Attributes of ``kind`` open to someone of ``profession`` (general ones included)."""
        return tuple(
            a for a in self.attributes if a.kind == kind and a.profession in ("", profession)
        )

    def get(self, name: str) -> Attribute:
        attribute = self._by_name.get(name)
        if attribute is None:
            raise KeyError(f"no persona attribute {name!r}")
        return attribute

    def check(self) -> None:
        names = [a.name for a in self.attributes]
        if len(set(names)) != len(names):
            raise ValueError("persona attribute names must be unique")
        unknown = {a.kind for a in self.attributes} - set(ATTRIBUTE_KINDS)
        if unknown:
            raise ValueError(f"unknown attribute kinds: {sorted(unknown)}")
