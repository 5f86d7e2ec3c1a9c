"""Confirmations served by the action tools: short, tool-specific, and free of figures.

Each tool has a few phrasings; the case's stream picks one. Arguments are echoed as text (see
``echo``). Image addresses are built from the digest of the call's arguments, so the same request
always yields the same address. ``execute_agent_job`` hands out the fixture's job id, the one a
later status call must carry.
"""

from __future__ import annotations

from collections.abc import Mapping

from dittobench.core import codes
from dittobench.core.prng import Stream
from dittobench.core.text import contains_phrase
from dittobench.mocktools.echo import arg_text
from dittobench.spec.dataset import ToolFixture

IMAGE_HOST = "https://img.dittobench.test"
_TICKET_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ"

_TEMPLATES: dict[str, tuple[str, ...]] = {
    "create_image": ("Image created: {image}", "Here is the generated image: {image}"),
    "edit_image": (
        "Edited image saved: {image} (from {image_url})",
        "The edit is done: {image}",
    ),
    "artifacts": (
        "Artifact {ref} is ready to open. Built from: {spec}",
        "Built the requested deliverable as artifact {ref}.",
    ),
    "execute_agent_job": ("Started job {job_id}; ask for its status with that id.",),
    "set_theme": ("Theme set to {theme}.", "Done: the app now uses the {theme} theme."),
    "set_accent_color": ("Accent color set to {color}.", "Done: the accent color is now {color}."),
    "set_chat_font": ("Chat font set to {font}.", "Done: the chat now uses {font}."),
    "set_main_model": ("Main model switched to {model}.", "Done: this chat now uses {model}."),
    "set_reasoning_effort": (
        "Reasoning effort set to {effort}.",
        "Done: reasoning effort is now {effort}.",
    ),
    "set_chat_tool_preferences": (
        "Tool preferences updated: {preferences}",
        "Saved your tool preferences for this chat: {preferences}",
    ),
    "create_automation": (
        "Automation created: {task} (runs {schedule}).",
        "Scheduled: {task}, {schedule}.",
    ),
    "list_automations": ("No automations are set up yet.", "There are no scheduled automations."),
    "create_recipe": (
        "Recipe '{name}' saved with the given steps.",
        "Saved the routine '{name}'; replay it by name any time.",
    ),
    "apply_recipe": ("Recipe '{name}' applied.", "Ran the saved routine '{name}'."),
    "calendar_create_event": (
        "Event '{title}' created for {when}.",
        "Added '{title}' to your calendar ({when}).",
    ),
    "calendar_search_events": (
        'No calendar events match "{query}".',
        'Nothing on the calendar matches "{query}".',
    ),
    "gmail_send": ("Email to {to}{about} queued for sending.", "Queued your email to {to}{about}."),
    "create_reminder": (
        "Reminder set for {remind_at}: {message}",
        "I will remind you {remind_at}: {message}",
    ),
    "run_code": (
        "The program ran to completion and printed nothing.",
        "Execution finished without errors; no output was produced.",
    ),
    "search_tools": (
        'No further tools match "{query}"; the listed tools are all that is available.',
        'Found no extra tool for "{query}".',
    ),
    "discover_capabilities": (
        "I can search the web, read pages, make and edit images, run background agent jobs, "
        "manage your calendar, email and reminders, and remember what you tell me.",
    ),
    "file_feedback_for_team": (
        "Feedback passed to the team (ticket {ref}). Thank you.",
        "Sent to the product team as ticket {ref}.",
    ),
}
_GENERIC = ("Done.",)


class _Values(dict[str, str]):
    """Template values; a placeholder with no value renders as empty text."""

    def __missing__(self, key: str) -> str:
        return ""


def confirmation(
    stream: Stream, fixture: ToolFixture, name: str, args: Mapping[str, object], digest: str
) -> str:
    """The confirmation text of action tool ``name`` (arguments already checked)."""
    template = stream.choice(_TEMPLATES.get(name, _GENERIC))
    values = _Values({key: arg_text(args, key) for key in sorted(args)})
    values["job_id"] = fixture.job_id
    values["image"] = f"{IMAGE_HOST}/{'edits' if name == 'edit_image' else 'images'}/{digest}.png"
    values["ref"] = codes.coin_string(stream, 6, alphabet=_TICKET_ALPHABET)
    subject = arg_text(args, "subject")
    values["about"] = f' about "{subject}"' if subject else ""
    return template.format_map(values)


_EVENT_FOUND = (
    'Found 1 event matching "{query}": {title}, {day} at {time}.',
    'One calendar event matches "{query}": {title} on {day}, {time}.',
)
_EVENT_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
_EVENT_TIMES = ("09:30", "10:00", "11:15", "13:00", "14:30", "16:00")


def calendar_event(stream: Stream, asked: str, args: Mapping[str, object]) -> str:
    """Bench 5.0 (``fixtures_about_request``): the calendar holds the event the request names; a
    query naming it finds it, any other query finds nothing."""
    query = arg_text(args, "query")
    if not (contains_phrase(query, asked) or (query.strip() and contains_phrase(asked, query))):
        return stream.choice(_TEMPLATES["calendar_search_events"]).format(query=query)
    template = stream.choice(_EVENT_FOUND)
    day, time = stream.choice(_EVENT_DAYS), stream.choice(_EVENT_TIMES)
    title = query.strip() if contains_phrase(query, asked) else asked
    return template.format(query=query, title=title, day=day, time=time)


def has_template(name: str) -> bool:
    """True when tool ``name`` has its own phrasings (not the generic "Done.")."""
    return name in _TEMPLATES
