"""The tool catalog: pinned names, argument contracts and schema validity."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no type information shipped

from dittobench.catalog import (
    CATALOG,
    MEMORY_TOOLS,
    TOOL_NAMES,
    get_tool,
    is_known_tool,
    required_args,
)
from dittobench.spec.wire import ToolDefinition

# The reference catalog (v2-v7): tool name -> sorted required argument names.
REFERENCE_REQUIRED: dict[str, list[str]] = {
    "create_image": ["prompt"],
    "edit_image": ["image_url", "instruction"],
    "read_links": ["urls"],
    "search_web": ["queries"],
    "search_memories": ["queries"],
    "search_subjects": ["queries"],
    "fetch_memories": ["pairIds"],
    "search_memories_in_subjects": ["queries", "subject_id"],
    "artifacts": ["spec"],
    "execute_agent_job": ["task"],
    "execute_agent_workflow": ["goal"],
    "get_agent_job_status": ["job_id"],
    "list_agent_jobs": [],
    "file_feedback_for_team": ["message"],
    "set_theme": ["theme"],
    "set_main_model": ["model"],
    "set_reasoning_effort": ["effort"],
    "set_chat_tool_preferences": ["preferences"],
    "create_automation": ["schedule", "task"],
    "list_automations": [],
    "create_recipe": ["name", "steps"],
    "apply_recipe": ["name"],
    "discover_capabilities": [],
    "save_memory": ["content"],
    "update_memory": ["content", "pair_id"],
    "delete_memory": ["pair_id"],
    "calendar_create_event": ["title", "when"],
    "calendar_search_events": ["query"],
    "gmail_send": ["body", "to"],
    "set_accent_color": ["color"],
    "set_chat_font": ["font"],
    "run_code": ["code"],
    "search_tools": ["query"],
}
REFERENCE_NAMES = list(REFERENCE_REQUIRED)

# Optional arguments from the reference table, per tool.
REFERENCE_OPTIONAL: dict[str, list[str]] = {
    "search_web": ["num_results", "search_mode"],
    "fetch_memories": ["stripImages"],
    "execute_agent_workflow": ["max_parallel"],
    "list_agent_jobs": ["limit", "status"],
    "discover_capabilities": ["query"],
    "gmail_send": ["subject"],
}

# Every argument not listed here is a plain string.
NON_STRING_TYPES: dict[tuple[str, str], str] = {
    ("read_links", "urls"): "array",
    ("search_web", "queries"): "array",
    ("search_web", "num_results"): "integer",
    ("search_memories", "queries"): "array",
    ("search_subjects", "queries"): "array",
    ("fetch_memories", "pairIds"): "array",
    ("fetch_memories", "stripImages"): "boolean",
    ("search_memories_in_subjects", "queries"): "array",
    ("execute_agent_workflow", "max_parallel"): "integer",
    ("list_agent_jobs", "limit"): "integer",
    ("create_recipe", "steps"): "array",
}

EXTRA_TOOL = "create_reminder"

# One plausible, valid argument object per tool.
SAMPLES: dict[str, dict[str, Any]] = {
    "search_memories": {"queries": ["dog's name"]},
    "search_subjects": {"queries": ["travel"]},
    "search_memories_in_subjects": {"subject_id": "subj-3", "queries": ["Lisbon trip"]},
    "fetch_memories": {"pairIds": ["p-12", "p-13"], "stripImages": True},
    "save_memory": {"content": "Locker code is 4471."},
    "update_memory": {"pair_id": "p-9", "content": "Moved to Porto."},
    "delete_memory": {"pair_id": "p-9"},
    "search_web": {"queries": ["weather Oslo"], "num_results": 3, "search_mode": "news"},
    "read_links": {"urls": ["https://example.com/a"]},
    "create_image": {"prompt": "a red kite over a beach"},
    "edit_image": {"image_url": "https://example.com/k.png", "instruction": "make it blue"},
    "artifacts": {"spec": "a one-page budget tracker"},
    "execute_agent_job": {"task": "compare three laptops"},
    "execute_agent_workflow": {"goal": "plan a conference", "max_parallel": 4},
    "get_agent_job_status": {"job_id": "job-01234"},
    "list_agent_jobs": {"status": "running", "limit": 5},
    "set_theme": {"theme": "dark"},
    "set_accent_color": {"color": "#ff8800"},
    "set_chat_font": {"font": "Inter"},
    "set_main_model": {"model": "gpt-large"},
    "set_reasoning_effort": {"effort": "high"},
    "set_chat_tool_preferences": {"preferences": "no web search"},
    "create_automation": {"schedule": "every Friday at noon", "task": "summarize my week"},
    "list_automations": {},
    "create_recipe": {"name": "morning", "steps": ["check weather", "list meetings"]},
    "apply_recipe": {"name": "morning"},
    "calendar_create_event": {"title": "Dentist", "when": "next Tuesday 3pm"},
    "calendar_search_events": {"query": "dentist"},
    "gmail_send": {"to": "ana@example.com", "subject": "Hi", "body": "See you soon."},
    "create_reminder": {"message": "call mom", "remind_at": "tomorrow at 8"},
    "run_code": {"code": "print(2 + 2)"},
    "search_tools": {"query": "convert currencies"},
    "discover_capabilities": {"query": "email"},
    "file_feedback_for_team": {"message": "The dark theme is too dim."},
}


def _props(tool: ToolDefinition) -> dict[str, dict[str, Any]]:
    props: dict[str, dict[str, Any]] = tool.parameters["properties"]
    return props


def test_catalog_has_34_unique_tools() -> None:
    assert len(CATALOG) == 34
    assert len(set(TOOL_NAMES)) == 34
    assert tuple(t.name for t in CATALOG) == TOOL_NAMES


def test_reference_tools_present_plus_one_extra() -> None:
    assert len(REFERENCE_NAMES) == 33
    assert set(TOOL_NAMES) == set(REFERENCE_NAMES) | {EXTRA_TOOL}


@pytest.mark.parametrize("name", REFERENCE_NAMES)
def test_reference_required_args_pinned(name: str) -> None:
    tool = get_tool(name)
    assert sorted(tool.parameters["required"]) == REFERENCE_REQUIRED[name]
    assert sorted(required_args(name)) == REFERENCE_REQUIRED[name]


@pytest.mark.parametrize("name", REFERENCE_NAMES)
def test_reference_argument_names_pinned(name: str) -> None:
    expected = sorted(REFERENCE_REQUIRED[name] + REFERENCE_OPTIONAL.get(name, []))
    assert sorted(_props(get_tool(name))) == expected


def test_extra_tool_contract() -> None:
    tool = get_tool(EXTRA_TOOL)
    assert required_args(EXTRA_TOOL) == ("message", "remind_at")
    assert sorted(_props(tool)) == ["message", "remind_at"]


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_argument_types(name: str) -> None:
    for arg, schema in _props(get_tool(name)).items():
        expected = NON_STRING_TYPES.get((name, arg), "string")
        assert schema["type"] == expected, (name, arg)
        if expected == "array":
            assert schema["items"] == {"type": "string"}, (name, arg)


def test_enums() -> None:
    assert _props(get_tool("set_reasoning_effort"))["effort"]["enum"] == ["low", "medium", "high"]
    assert all(isinstance(v, str) for v in _props(get_tool("search_web"))["search_mode"]["enum"])


@pytest.mark.parametrize("tool", CATALOG, ids=lambda t: t.name)
def test_schema_shape(tool: ToolDefinition) -> None:
    params = tool.parameters
    Draft202012Validator.check_schema(params)
    assert params["type"] == "object"
    assert params["additionalProperties"] is False
    assert set(params["required"]) <= set(params["properties"])
    assert len(set(params["required"])) == len(params["required"])
    # Required args are listed in declared (property) order.
    order = list(params["properties"])
    assert params["required"] == sorted(params["required"], key=order.index)
    for arg, schema in params["properties"].items():
        assert isinstance(schema.get("description"), str) and schema["description"].strip(), arg
    json.dumps(params)  # plain JSON, sendable as-is


def test_no_argument_tool() -> None:
    params = get_tool("list_automations").parameters
    assert params["properties"] == {}
    assert params["required"] == []
    assert required_args("list_automations") == ()


def test_samples_cover_catalog() -> None:
    assert set(SAMPLES) == set(TOOL_NAMES)


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_sample_validates(name: str) -> None:
    Draft202012Validator(get_tool(name).parameters).validate(SAMPLES[name])


@pytest.mark.parametrize("name", [n for n in TOOL_NAMES if required_args(n)])
def test_missing_required_arg_fails(name: str) -> None:
    validator = Draft202012Validator(get_tool(name).parameters)
    for arg in required_args(name):
        args = {k: v for k, v in SAMPLES[name].items() if k != arg}
        assert not validator.is_valid(args), (name, arg)


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_unknown_or_mistyped_arg_fails(name: str) -> None:
    validator = Draft202012Validator(get_tool(name).parameters)
    assert not validator.is_valid({**SAMPLES[name], "bogus_arg": "x"})
    for arg, schema in _props(get_tool(name)).items():
        wrong: Any = 12345 if schema["type"] != "integer" else "12345"
        assert not validator.is_valid({**SAMPLES[name], arg: wrong}), (name, arg)


@pytest.mark.parametrize("tool", CATALOG, ids=lambda t: t.name)
def test_description_mentions_no_other_tool(tool: ToolDefinition) -> None:
    assert tool.description.strip()
    texts = [tool.description, *(s["description"] for s in _props(tool).values())]
    for other in TOOL_NAMES:
        if other != tool.name:
            assert not any(other in text for text in texts), other


def test_get_tool_unknown_raises() -> None:
    with pytest.raises(KeyError, match="no_such_tool"):
        get_tool("no_such_tool")
    with pytest.raises(KeyError, match="no_such_tool"):
        required_args("no_such_tool")


def test_lookup_helpers() -> None:
    assert get_tool("gmail_send").name == "gmail_send"
    assert is_known_tool("save_memory")
    assert not is_known_tool("Save_Memory")
    assert not is_known_tool("")


def test_memory_tools() -> None:
    assert {
        "search_memories",
        "fetch_memories",
        "search_subjects",
        "search_memories_in_subjects",
        "save_memory",
        "update_memory",
        "delete_memory",
    } == MEMORY_TOOLS
    assert set(TOOL_NAMES) > MEMORY_TOOLS
