"""All tool categories of the current content version, in group order."""

from __future__ import annotations

from dittobench.generate.tools import (
    direct_agents,
    direct_calendar_mail,
    direct_content,
    direct_memory,
    direct_personal,
    direct_settings,
    multistep,
    restraint,
    result_usage,
    traps,
)
from dittobench.generate.tools.category import Category
from dittobench.spec.dataset import TOOL_GROUPS

CATEGORIES: tuple[Category, ...] = (
    *direct_memory.CATEGORIES,
    *direct_content.CATEGORIES,
    *direct_agents.CATEGORIES,
    *direct_personal.CATEGORIES,
    *direct_calendar_mail.CATEGORIES,
    *direct_settings.CATEGORIES,
    *traps.CATEGORIES,
    *restraint.CATEGORIES,
    *multistep.CATEGORIES,
    *result_usage.CATEGORIES,
)

BY_NAME: dict[str, Category] = {category.name: category for category in CATEGORIES}


def by_group() -> dict[str, tuple[Category, ...]]:
    """Categories of each group, in registry order, groups in ``TOOL_GROUPS`` order."""
    return {group: tuple(c for c in CATEGORIES if c.group == group) for group in TOOL_GROUPS}
