"""The persona library of the current content version: every attribute, the professions and
their work talk. Order matters (seeded picks sample from it), so append, never reorder, within
a content version."""

from __future__ import annotations

from dittobench.generate.persona import (
    attrs_assistant,
    attrs_changing,
    attrs_events,
    attrs_fixed_history,
    attrs_fixed_people,
    attrs_fixed_tastes,
    attrs_fixed_traits,
    attrs_recurring,
    attrs_tastes,
    attrs_tastes_leisure,
    professions,
)
from dittobench.generate.persona.library import Library

LIBRARY = Library(
    attributes=(
        *attrs_fixed_people.ATTRIBUTES,
        *attrs_fixed_traits.ATTRIBUTES,
        *attrs_fixed_tastes.ATTRIBUTES,
        *attrs_fixed_history.ATTRIBUTES,
        *attrs_changing.ATTRIBUTES,
        *attrs_tastes.ATTRIBUTES,
        *attrs_tastes_leisure.ATTRIBUTES,
        *attrs_events.ATTRIBUTES,
        *attrs_assistant.ATTRIBUTES,
        *attrs_recurring.ATTRIBUTES,
        *professions.ATTRIBUTES,
    ),
    professions=professions.PROFESSIONS,
)
LIBRARY.check()

WORK_TALK = professions.WORK_TALK
WORK_REPLY = professions.WORK_REPLY
