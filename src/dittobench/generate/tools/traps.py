"""Routing traps: requests worded to invite a neighbouring tool while needing another.

The categories live in ``traps_recall`` (memory versus the web, saving versus searching) and
``traps_actions`` (jobs, pictures, workflows, automations); this module fixes their order.

Each grammar leans on the wrong tool's vocabulary on purpose while keeping the expected tool's own
words out of the prompt.
"""

from __future__ import annotations

from dittobench.generate.tools import traps_actions, traps_recall
from dittobench.generate.tools.category import Category

CATEGORIES: tuple[Category, ...] = (
    traps_recall.ROUTE_MEMORY_NOT_WEB,
    traps_recall.ROUTE_WEB_NOT_MEMORY,
    traps_actions.AGENT_RUN_NOT_READ,
    traps_actions.AGENT_READ_NOT_RUN,
    traps_actions.IMAGE_EDIT_NOT_CREATE,
    traps_actions.WORKFLOW_NOT_JOB,
    traps_actions.AUTOMATION_NOT_JOB,
    traps_recall.MEMORY_SAVE_NOT_SEARCH,
)
