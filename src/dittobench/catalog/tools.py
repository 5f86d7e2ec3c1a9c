"""The tool catalog sent to harnesses, as data.

Thirty-three tools mirror the reference catalog (same names, argument names, JSON types and
required sets); ``create_reminder`` is our own 34th. Each tool's ``parameters`` is a Draft
2020-12 object schema that rejects unknown arguments. ``CATALOG`` order is the order sent to
harnesses and must stay fixed.
"""

from __future__ import annotations

from dittobench.spec.wire import MEMORY_TOOLS, JSONValue, ToolDefinition

_Arg = tuple[str, dict[str, JSONValue], bool]


def _arg(
    name: str, description: str, *, kind: str = "string", required: bool = True, **extra: JSONValue
) -> _Arg:
    return name, {"type": kind, "description": description, **extra}, required


def _list(name: str, description: str, *, required: bool = True) -> _Arg:
    return _arg(
        name, description, kind="array", required=required, items={"type": "string"}, minItems=1
    )


def _tool(name: str, description: str, *args: _Arg) -> ToolDefinition:
    return ToolDefinition(
        name=name,
        description=description,
        parameters={
            "type": "object",
            "properties": {arg: schema for arg, schema, _ in args},
            "required": [arg for arg, _, required in args if required],
            "additionalProperties": False,
        },
    )


CATALOG: tuple[ToolDefinition, ...] = (
    # Memory: served by the assistant's own store.
    _tool(
        "search_memories",
        "Search the user's past conversations for anything relevant to the given queries. "
        "Use it whenever the answer may depend on something the user said before.",
        _list("queries", "One or more short search phrases."),
    ),
    _tool(
        "search_subjects",
        "Find topics (subjects) that group the user's past conversations. Use it to narrow a "
        "question to one area of the user's life before searching inside it.",
        _list("queries", "One or more short topic phrases."),
    ),
    _tool(
        "search_memories_in_subjects",
        "Search past conversations, restricted to one subject found earlier. Use it once a "
        "subject ID is known and the search should stay inside that topic.",
        _arg("subject_id", "ID of the subject to search within."),
        _list("queries", "One or more short search phrases."),
    ),
    _tool(
        "fetch_memories",
        "Retrieve the full text of stored conversation pairs by their IDs. Use it when a pair "
        "ID is already known and its complete content is needed.",
        _list("pairIds", "IDs of the stored pairs to retrieve."),
        _arg(
            "stripImages", "Leave images out of the returned text.", kind="boolean", required=False
        ),
    ),
    _tool(
        "save_memory",
        "Store a new fact or note in long-term memory. Use it when the user asks you to "
        "remember something.",
        _arg("content", "The text to remember."),
    ),
    _tool(
        "update_memory",
        "Replace the content of one stored memory. Use it when the user corrects or changes "
        "something already remembered.",
        _arg("pair_id", "ID of the memory to change."),
        _arg("content", "The new text that replaces the old."),
    ),
    _tool(
        "delete_memory",
        "Permanently remove one stored memory. Use it when the user asks you to forget something.",
        _arg("pair_id", "ID of the memory to remove."),
    ),
    # Web.
    _tool(
        "search_web",
        "Search the public internet. Use it for current events, facts about the world and "
        "anything not in the user's own history.",
        _list("queries", "One or more search phrases."),
        _arg(
            "num_results",
            "How many results to return per query.",
            kind="integer",
            required=False,
            minimum=1,
        ),
        _arg(
            "search_mode",
            "Kind of search to run.",
            required=False,
            enum=["general", "news", "research"],
        ),
    ),
    _tool(
        "read_links",
        "Download and read the contents of specific web pages. Use it when the user gives a "
        "URL or a search result needs reading in full.",
        _list("urls", "Addresses of the pages to read."),
    ),
    # Media and documents.
    _tool(
        "create_image",
        "Generate a new picture from a text description. Use it when the user wants an image "
        "made from scratch.",
        _arg("prompt", "Description of the picture to generate."),
    ),
    _tool(
        "edit_image",
        "Modify an existing picture according to an instruction. Use it when the user wants "
        "changes to an image that already exists.",
        _arg("image_url", "Address of the picture to modify."),
        _arg("instruction", "What to change in the picture."),
    ),
    _tool(
        "artifacts",
        "Produce a standalone document, app or other file-like deliverable from a "
        "specification. Use it when the user wants something built rather than just "
        "described.",
        _arg("spec", "What to build, in enough detail to produce it."),
    ),
    # Background agents.
    _tool(
        "execute_agent_job",
        "Start a background agent on one multi-step task and return its job ID. Use it for "
        "work too long or involved for a single reply.",
        _arg("task", "The task for the agent to carry out."),
    ),
    _tool(
        "execute_agent_workflow",
        "Break a large goal into parallel agent tasks and run them together. Use it when the "
        "goal splits naturally into independent pieces.",
        _arg("goal", "The overall outcome to achieve."),
        _arg(
            "max_parallel",
            "Upper bound on agents running at once.",
            kind="integer",
            required=False,
            minimum=1,
        ),
    ),
    _tool(
        "get_agent_job_status",
        "Report the progress or result of one background job. Use it after a job has been "
        "started and its outcome is needed.",
        _arg("job_id", "ID returned when the job was started."),
    ),
    _tool(
        "list_agent_jobs",
        "Show background jobs that were started earlier. Use it when the user asks what jobs "
        "exist or how they are going.",
        _arg("status", "Only show jobs in this state, e.g. running or done.", required=False),
        _arg("limit", "Largest number of jobs to show.", kind="integer", required=False, minimum=1),
    ),
    # Settings.
    _tool(
        "set_theme",
        "Switch the app between visual themes such as light or dark. Use it when the user "
        "asks for a different look.",
        _arg("theme", "Name of the theme to apply."),
    ),
    _tool(
        "set_accent_color",
        "Change the highlight color used across the app. Use it when the user picks a new "
        "accent color.",
        _arg("color", "Color name or hex code."),
    ),
    _tool(
        "set_chat_font",
        "Change the typeface used in the chat. Use it when the user asks for a different font.",
        _arg("font", "Name of the font to use."),
    ),
    _tool(
        "set_main_model",
        "Choose which language model answers in this chat. Use it when the user asks to "
        "switch models.",
        _arg("model", "Name of the model to switch to."),
    ),
    _tool(
        "set_reasoning_effort",
        "Set how much thinking the model does before answering. Use it when the user wants "
        "faster or more careful replies.",
        _arg("effort", "Desired amount of reasoning.", enum=["low", "medium", "high"]),
    ),
    _tool(
        "set_chat_tool_preferences",
        "Turn particular assistant tools on or off for this chat. Use it when the user says "
        "which tools to use or avoid.",
        _arg("preferences", "The requested tool settings, in plain words."),
    ),
    # Automations and recipes.
    _tool(
        "create_automation",
        "Schedule a task to run automatically, once or on a repeating basis. Use it when the "
        "user wants something done at set times without asking again.",
        _arg("schedule", "When to run, e.g. 'every Monday at 9am'."),
        _arg("task", "What to do each time it runs."),
    ),
    _tool(
        "list_automations",
        "Show the scheduled tasks already set up. Use it when the user asks what runs "
        "automatically.",
    ),
    _tool(
        "create_recipe",
        "Save a named, reusable sequence of steps. Use it when the user wants a routine they "
        "can replay later by name.",
        _arg("name", "Name to save the routine under."),
        _list("steps", "The steps, in order."),
    ),
    _tool(
        "apply_recipe",
        "Run a previously saved routine by name. Use it when the user asks to repeat a routine "
        "they set up before.",
        _arg("name", "Name of the saved routine."),
    ),
    # Calendar, email and reminders.
    _tool(
        "calendar_create_event",
        "Add an event to the user's calendar. Use it when the user wants a meeting or "
        "appointment booked.",
        _arg("title", "Short name of the event."),
        _arg("when", "Date and time of the event, exact or in natural language."),
    ),
    _tool(
        "calendar_search_events",
        "Look up events on the user's calendar. Use it when the user asks what is scheduled.",
        _arg("query", "Words, dates or names to look for."),
    ),
    _tool(
        "gmail_send",
        "Send an email from the user's account. Use it when the user asks to email someone.",
        _arg("to", "Recipient email address."),
        _arg("subject", "Subject line.", required=False),
        _arg("body", "Text of the message."),
    ),
    _tool(
        "create_reminder",
        "Set a one-off reminder that notifies the user at a given time. Use it when the user "
        "says 'remind me'.",
        _arg("message", "What to remind the user about."),
        _arg("remind_at", "When to remind: a date and time or a phrase like 'tomorrow at 8'."),
    ),
    # Code and meta.
    _tool(
        "run_code",
        "Execute a short program in a sandbox and return its output. Use it for calculations "
        "or data processing that need exact results.",
        _arg("code", "Source code to run."),
    ),
    _tool(
        "search_tools",
        "Find tools beyond those listed here that match a need. Use it when no listed tool "
        "fits the request.",
        _arg("query", "What the needed tool should do."),
    ),
    _tool(
        "discover_capabilities",
        "Describe what the assistant can do. Use it when the user asks about the assistant's "
        "abilities or features.",
        _arg("query", "Optional area of interest.", required=False),
    ),
    _tool(
        "file_feedback_for_team",
        "Pass the user's feedback, bug report or feature request to the product team. Use it "
        "when the user wants the developers to hear something.",
        _arg("message", "The feedback to pass on."),
    ),
)

TOOL_NAMES: tuple[str, ...] = tuple(tool.name for tool in CATALOG)

"""Tools answered by the assistant's own memory store, never by the benchmark's mock server."""

_BY_NAME: dict[str, ToolDefinition] = {tool.name: tool for tool in CATALOG}


def get_tool(name: str) -> ToolDefinition:
    """The catalog entry called ``name``; ``KeyError`` if there is none."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise KeyError(f"unknown tool {name!r}: not in the catalog") from None


def required_args(name: str) -> tuple[str, ...]:
    """The required argument names of tool ``name``, in declared order."""
    return tuple(get_tool(name).parameters["required"])


def is_known_tool(name: str) -> bool:
    return name in _BY_NAME


__all__ = [
    "CATALOG",
    "MEMORY_TOOLS",
    "TOOL_NAMES",
    "get_tool",
    "is_known_tool",
    "required_args",
]
