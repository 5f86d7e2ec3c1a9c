"""The words of the mock tools' replies, as pack data (``docs/packs.md``, "Tool replies").

What the mock tool endpoint serves around a case's figures (confirmations of action tools,
search headings, page leads, job lines, the needle and decoy frames of bench 1.x and 2.0) is read
from a ``replies`` file, never from code. A pack of format ``dittobench-pack-1`` (every pack so
far) serves its format's replies, ``packs/replies/dittobench-pack-1.json``: the format is part of
``pack.json``, so ``pack_sha256`` commits to them, and ``tests/unit/test_mocktools_golden.py``
pins the bytes they serve.

A reply is a template: ``{name}`` slots are filled with ``str.format`` (a value is inserted
verbatim, never read as a template), lists are drawn from with the case's stream.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from dittobench.core.errors import DittobenchError

REPLY_LISTS: Final = (
    "generic",
    "event_found",
    "event_days",
    "event_times",
    "needle_frames",
    "decoy_frames",
    "first_titles",
    "other_titles",
    "other_snippets",
    "page_leads",
    "job_leads",
    "workflow_leads",
    "link_tlds",
    "link_sections",
)
"""The phrase lists a replies file holds under ``lists``, each non-empty (docs/packs.md)."""

REPLY_LINES: Final = (
    "search_heading",
    "quoted",
    "joined",
    "topic",
    "page",
    "unreachable",
    "job_status",
    "workflow",
    "jobs",
    "unnamed_job",
    "other_job",
    "about",
)
"""The single templates a replies file holds under ``lines``."""

_FOLDER: Final = Path(__file__).parent / "replies"


class RepliesError(DittobenchError, ValueError):
    """A replies file that does not read; the message names the file and the key at fault."""


@dataclass(frozen=True, slots=True)
class Replies:
    """The reply words of one pack."""

    source: str
    """The file they were read from (for messages)."""
    confirm: Mapping[str, tuple[str, ...]]
    """Action tool -> its confirmations; a tool without any gets ``lists["generic"]``."""
    lists: Mapping[str, tuple[str, ...]]
    lines: Mapping[str, str]

    def confirmations(self, tool: str) -> tuple[str, ...]:
        """The phrasings of ``tool``'s confirmation (the generic ones when it has none)."""
        return self.confirm.get(tool) or self.lists["generic"]


def replies_from(data: Any, where: str) -> Replies:
    """``data`` (a parsed replies file) checked: ``confirm`` maps tool names to non-empty lists
    of strings, ``lists`` holds exactly ``REPLY_LISTS``, ``lines`` exactly ``REPLY_LINES``."""
    if not isinstance(data, dict):
        raise RepliesError(f"{where}: must hold one JSON object")
    confirm = _string_lists(data.get("confirm"), where, "confirm", None)
    lists = _string_lists(data.get("lists"), where, "lists", REPLY_LISTS)
    lines = data.get("lines")
    if not isinstance(lines, dict) or sorted(lines) != sorted(REPLY_LINES):
        raise RepliesError(f"{where}: key 'lines' must give exactly {list(REPLY_LINES)}")
    for name, line in lines.items():
        if not isinstance(line, str):
            raise RepliesError(f"{where}: key lines.{name} must be a string")
    return Replies(where, confirm, lists, MappingProxyType(dict(lines)))


def _string_lists(
    value: Any, where: str, key: str, names: tuple[str, ...] | None
) -> Mapping[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise RepliesError(f"{where}: key {key!r} must be an object of string lists")
    if names is not None and sorted(value) != sorted(names):
        raise RepliesError(f"{where}: key {key!r} must give exactly {list(names)}")
    out: dict[str, tuple[str, ...]] = {}
    for name, items in value.items():
        if not (isinstance(items, list) and items and all(isinstance(i, str) for i in items)):
            raise RepliesError(f"{where}: key {key}.{name} must be a non-empty list of strings")
        out[name] = tuple(items)
    return MappingProxyType(out)


def format_replies_ids() -> tuple[str, ...]:
    """The pack formats whose replies ship in this package."""
    return tuple(sorted(p.stem for p in _FOLDER.glob("*.json")))


@cache
def format_replies(pack_format: str) -> Replies:
    """The replies every pack of ``pack_format`` serves, read once per process."""
    path = _FOLDER / f"{pack_format}.json"
    if not path.is_file():
        known = ", ".join(format_replies_ids())
        raise RepliesError(f"no replies for pack format {pack_format!r}; this build has: {known}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RepliesError(f"{path}: not valid JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != pack_format:
        raise RepliesError(f"{path}: key 'format' must be {pack_format!r}")
    return replies_from(data, str(path))
