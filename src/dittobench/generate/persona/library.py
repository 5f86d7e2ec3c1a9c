"""All persona attributes of the current content version, grouped by kind."""

from __future__ import annotations

from dataclasses import dataclass

from dittobench.generate.persona.attribute import ATTRIBUTE_KINDS, Attribute


@dataclass(frozen=True, slots=True)
class Library:
    """The attributes a person may be drawn from, in declaration order, and the professions."""

    attributes: tuple[Attribute, ...]
    professions: tuple[str, ...]

    def of_kind(self, kind: str, profession: str = "") -> tuple[Attribute, ...]:
        """Attributes of ``kind`` open to someone of ``profession`` (general ones included)."""
        return tuple(
            a for a in self.attributes if a.kind == kind and a.profession in ("", profession)
        )

    def get(self, name: str) -> Attribute:
        for attribute in self.attributes:
            if attribute.name == name:
                return attribute
        raise KeyError(f"no persona attribute {name!r}")

    def check(self) -> None:
        names = [a.name for a in self.attributes]
        if len(set(names)) != len(names):
            raise ValueError("persona attribute names must be unique")
        unknown = {a.kind for a in self.attributes} - set(ATTRIBUTE_KINDS)
        if unknown:
            raise ValueError(f"unknown attribute kinds: {sorted(unknown)}")
