"""A run's own library: attributes that declare ``coin`` get values coined for this seed.

``coin_library`` replaces each coined attribute's values (``persona/coin.py``) with
``coin.count`` values drawn from one stream, attributes in library order, values in order. Both
users of a run draw from the same coined pools, so a value names one thing in the whole run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from dittobench.core import codes
from dittobench.core.prng import Stream
from dittobench.generate.persona.attribute import Attribute, Choice
from dittobench.generate.persona.coin import Registry, avoided_words, coin_values
from dittobench.generate.persona.library import Library


def coin_library(
    library: Library,
    stream: Stream,
    syllables: codes.Syllables,
    avoid: Iterable[str] = (),
    names: Iterable[str] = (),
) -> Library:
    """``library`` with every coined attribute's values drawn from ``stream``; clear of every
    listed value and accepted form, the contacts' names and ``names`` (e.g. nicknames)."""
    if not any(a.coin for a in library.attributes):
        return library
    registry = _listed_forms(library, tuple(names)).copy()
    banned = avoided_words(avoid)
    attributes: list[Attribute] = []
    for attribute in library.attributes:
        if attribute.coin:
            coined = coin_values(attribute.coin, stream, syllables, registry, banned)
            attribute = replace(attribute, values=tuple(Choice(c.text, c.aliases) for c in coined))
        attributes.append(attribute)
    return Library(tuple(attributes), library.professions, library.people)


_LISTED: dict[int, tuple[Library, tuple[str, ...], Registry]] = {}
"""The registry of a library's listed forms, by the library (the same object for every run of
a pack): building it is most of the coining's time."""


def _listed_forms(library: Library, names: tuple[str, ...]) -> Registry:
    cached = _LISTED.get(id(library))
    if cached is None or cached[0] is not library or cached[1] != names:
        forms = [
            *(
                form
                for a in library.attributes
                if not a.coin
                for c in a.values
                for form in (c.text, *c.aliases)
            ),
            *library.people.contact_names,
            *names,
        ]
        cached = _LISTED[id(library)] = (library, names, Registry(forms))
    return cached[2]


def uncoined_gap(library: Library) -> list[str]:
    """Attributes that must be coined to be used: they declare ``coin`` and list too few values
    (a pack for a bench version that coins, used with one that does not)."""
    return [a.name for a in library.attributes if a.coin and len(a.values) < 8]
