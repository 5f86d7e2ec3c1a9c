"""Which catalog tools return information (content) rather than perform an action.

The mock tool endpoint serves invented figures only from content tools, and the generator picks a
case's figure-bearing tool among them.
"""

from __future__ import annotations

from typing import Final

CONTENT_TOOLS: Final = frozenset(
    {
        "search_web",
        "read_links",
        "get_agent_job_status",
        "execute_agent_workflow",
        "list_agent_jobs",
    }
)
