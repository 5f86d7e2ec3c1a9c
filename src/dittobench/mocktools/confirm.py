"""Confirmations served by the action tools: short, tool-specific, and free of figures.

Each tool has a few phrasings in the pack's replies (``packs/replies.py``: ``confirm``, the
generic ``lists.generic`` for a tool without its own); the case's stream picks one. Arguments
are echoed as text (see ``echo``). Image addresses are built from the digest of the call's
arguments, so the same request always yields the same address. ``execute_agent_job`` hands out
the fixture's job id, the one a later status call must carry.
"""

from __future__ import annotations

from collections.abc import Mapping

from dittobench.core import codes
from dittobench.core.prng import Stream
from dittobench.core.text import contains_phrase
from dittobench.mocktools.echo import arg_text
from dittobench.packs import Replies
from dittobench.spec.dataset import ToolFixture

IMAGE_HOST = "https://img.dittobench.test"
_TICKET_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"


class _Values(dict[str, str]):
    """Template values; a placeholder with no value renders as empty text."""

    def __missing__(self, key: str) -> str:
        return ""


def confirmation(
    stream: Stream,
    fixture: ToolFixture,
    name: str,
    args: Mapping[str, object],
    digest: str,
    replies: Replies,
) -> str:
    """The confirmation text of action tool ``name`` (arguments already checked)."""
    template = stream.choice(replies.confirmations(name))
    values = _Values({key: arg_text(args, key) for key in sorted(args)})
    values["job_id"] = fixture.job_id
    values["image"] = f"{IMAGE_HOST}/{'edits' if name == 'edit_image' else 'images'}/{digest}.png"
    values["ref"] = codes.coin_string(stream, 6, alphabet=_TICKET_ALPHABET)
    subject = arg_text(args, "subject")
    values["about"] = replies.lines["about"].format(subject=subject) if subject else ""
    return template.format_map(values)


def calendar_event(stream: Stream, asked: str, args: Mapping[str, object], replies: Replies) -> str:
    """Bench 5.0 (``fixtures_about_request``): the calendar holds the event the request names; a
    query naming it finds it, any other query finds nothing."""
    name, query = "calendar_search_events", arg_text(args, "query")
    if not (contains_phrase(query, asked) or (query.strip() and contains_phrase(asked, query))):
        return stream.choice(replies.confirmations(name)).format(query=query)
    template = stream.choice(replies.lists["event_found"])
    day, time = (
        stream.choice(replies.lists["event_days"]),
        stream.choice(replies.lists["event_times"]),
    )
    title = query.strip() if contains_phrase(query, asked) else asked
    return template.format(query=query, title=title, day=day, time=time)
