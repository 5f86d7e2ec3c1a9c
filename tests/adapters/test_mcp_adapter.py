"""The ``mcp`` adapter against real MCP servers: ``@modelcontextprotocol/server-memory`` from npm
(run with node, each test its own memory file) and, for the shapes that server has not (a text
memory, tools with names no one guesses, no recall tool, streamable HTTP), a small text-memory
server written with the ``mcp`` SDK and run as a process of its own.

server-memory is found through ``DITTOBENCH_MCP_MEMORY_SERVER`` (the path of its
``dist/index.js``) or under ``.cache/npm`` at the repository's root, where
``tests/adapters/install_mcp_memory_server.sh`` puts it; without it those tests skip.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp", reason="the mcp adapter needs the mcp SDK: pip install mcp")

from mcp.types import Tool

from dittobench_adapters.contract import (
    AdapterConfigError,
    AdapterError,
    Capability,
    Memory,
    MemoryAdapter,
    Turn,
)
from dittobench_adapters.registry import load_adapter
from dittobench_adapters.systems.mcp import McpAdapter, fill, find_text_tools, query_words

REPO = Path(__file__).resolve().parents[2]
PACKAGE = "@modelcontextprotocol/server-memory"
DEFAULT_SERVER = REPO / ".cache/npm/node_modules" / PACKAGE / "dist/index.js"
EXAMPLE_CONFIG = REPO / "docs/adapters/mcp-memory.json"
INSTALL = "bash tests/adapters/install_mcp_memory_server.sh"


def memory_server_js() -> Path:
    """server-memory's entry point, or a skip saying how to install it."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: apt-get install nodejs npm, then " + INSTALL)
    configured = os.environ.get("DITTOBENCH_MCP_MEMORY_SERVER")
    path = Path(configured) if configured else DEFAULT_SERVER
    if not path.is_file():
        where = f"DITTOBENCH_MCP_MEMORY_SERVER={configured}" if configured else str(DEFAULT_SERVER)
        pytest.skip(f"{PACKAGE} is not installed at {where}: run {INSTALL}")
    return path


def memory_config(memory_file: Path, **extra: Any) -> dict[str, Any]:
    node = shutil.which("node")
    assert node is not None
    return {
        "command": [node, str(memory_server_js())],
        "env": {"MEMORY_FILE_PATH": str(memory_file)},
        **extra,
    }


@pytest.fixture
def memory_file(tmp_path: Path) -> Path:
    return tmp_path / "memory.jsonl"


@pytest.fixture
def adapter(memory_file: Path) -> Iterator[McpAdapter]:
    built = McpAdapter(memory_config(memory_file))
    yield built
    built.close()


def stored(memory_file: Path) -> list[dict[str, Any]]:
    """The entities server-memory keeps in its file, read beside it."""
    if not memory_file.exists():
        return []
    lines = memory_file.read_text().splitlines()
    return [item for item in map(json.loads, filter(None, lines)) if item["type"] == "entity"]


def turn(user: str, pair: str, prompt: str, response: str = "Noted.", day: int = 1) -> Turn:
    return Turn(user, "s1", f"2025-03-{day:02d}T10:00:00Z", pair, prompt, response)


DIARY = [
    turn("alice", "p1", "I finally adopted a greyhound called Biscuit last spring.", "Lovely!", 1),
    turn("alice", "p2", "My sister moved to Lisbon for her new job.", "Exciting.", 2),
    turn("alice", "p3", "I am training for the Porto half marathon in May.", "Good luck!", 3),
]


# server-memory: the knowledge-graph mapping


def test_describe_names_the_server_and_its_transport(adapter: McpAdapter) -> None:
    assert isinstance(adapter, MemoryAdapter)
    described = adapter.describe()
    assert described["system"] == "memory-server"
    assert described["system_version"]
    assert described["transport"] == "stdio"
    assert adapter.capabilities == {Capability.SAVE, Capability.UPDATE, Capability.DELETE}


def test_recall_finds_a_turn_by_a_word_in_the_middle_of_a_sentence(adapter: McpAdapter) -> None:
    adapter.ingest(DIARY)
    found = adapter.recall("alice", "What breed of dog did I adopt, the greyhound?", 5)
    assert found[0] == Memory(
        text=DIARY[0].prompt,
        id="alice|p1",
        timestamp=DIARY[0].timestamp,
        reply="Lovely!",
        score=found[0].score,
    )
    assert [memory.id for memory in adapter.recall("alice", "Where does my sister live?", 5)] == [
        "alice|p2"
    ]
    assert adapter.recall("alice", "what about the weather?", 5) == []


def test_recall_ranks_by_words_matched_then_by_recency_and_returns_at_most_k(
    adapter: McpAdapter,
) -> None:
    adapter.ingest(
        [
            turn("alice", "old", "Coffee in the morning.", day=1),
            turn("alice", "new", "Coffee after lunch.", day=5),
            turn("alice", "both", "Coffee with oat milk.", day=2),
            turn("alice", "none", "Tea at night.", day=9),
        ]
    )
    found = adapter.recall("alice", "Do I take my coffee with milk?", 5)
    assert [memory.id for memory in found] == ["alice|both", "alice|new", "alice|old"]
    assert found[0].score > found[1].score
    assert len(adapter.recall("alice", "coffee", 2)) == 2
    assert adapter.recall("alice", "coffee", 0) == []


def test_query_words_drop_stopwords_and_keep_the_longest() -> None:
    assert query_words("What did I tell you about my greyhound Biscuit?", 8) == [
        "greyhound",
        "biscuit",
    ]
    assert query_words("is it 42 or 7 in the a-b user's turn", 8) == ["42"]
    assert query_words("alpha beta gamma delta epsilon", 2) == ["alpha", "epsilon"]


def test_users_are_isolated(adapter: McpAdapter, memory_file: Path) -> None:
    adapter.ingest(
        [
            turn("alice", "p1", "My greyhound is called Biscuit."),
            turn("bob", "p1", "My greyhound is called Rocket."),
            turn("ann|x", "p1", "My greyhound is called Pixel."),
            turn("ann", "p1", "My greyhound is called Pepper."),
        ]
    )
    assert len(stored(memory_file)) == 4
    for user, name in (("alice", "Biscuit"), ("bob", "Rocket"), ("ann", "Pepper")):
        found = adapter.recall(user, "greyhound", 10)
        assert [memory.text for memory in found] == [f"My greyhound is called {name}."]
    assert [memory.text for memory in adapter.recall("ann|x", "greyhound", 10)] == [
        "My greyhound is called Pixel."
    ]
    assert adapter.recall("carol", "greyhound", 10) == []


def test_reset_forgets_everything_of_one_user_only(adapter: McpAdapter, memory_file: Path) -> None:
    adapter.ingest([*DIARY, turn("bob", "p1", "My greyhound is called Rocket.")])
    adapter.ingest(
        [turn("ann", "p1", "I also own a greyhound."), turn("ann|x", "p1", "Greyhound.")]
    )
    saved = adapter.save("alice", "Alice's greyhound is allergic to chicken.", "")
    adapter.reset("alice")
    adapter.reset("ann")
    assert adapter.recall("alice", "greyhound sister marathon", 10) == []
    assert adapter.recall("ann", "greyhound", 10) == []
    assert [memory.id for memory in adapter.recall("bob", "greyhound", 10)] == ["bob|p1"]
    assert [memory.id for memory in adapter.recall("ann|x", "greyhound", 10)] == ["ann%7Cx|p1"]
    assert saved not in {entity["name"] for entity in stored(memory_file)}
    assert len(stored(memory_file)) == 2
    adapter.reset("nobody")


def test_delete_removes_one_memory_of_that_user(adapter: McpAdapter) -> None:
    adapter.ingest([*DIARY, turn("bob", "p1", "My sister lives in Lisbon too.")])
    assert not adapter.delete("bob", "alice|p2")
    assert adapter.delete("alice", "alice|p2")
    assert adapter.recall("alice", "sister Lisbon", 5) == []
    assert not adapter.delete("alice", "alice|p2")
    assert [memory.id for memory in adapter.recall("bob", "sister Lisbon", 5)] == ["bob|p1"]
    assert [memory.id for memory in adapter.recall("alice", "greyhound marathon", 5)] == [
        "alice|p3",
        "alice|p1",
    ]


def test_save_makes_a_new_recallable_note_each_time(adapter: McpAdapter) -> None:
    first = adapter.save("alice", "Alice is allergic to peanuts.", "2025-04-01T09:00:00Z")
    second = adapter.save("alice", "Alice is allergic to peanuts.", "2025-04-01T09:00:00Z")
    assert first != second
    assert first.startswith("alice|saved-") and second.startswith("alice|saved-")
    found = adapter.recall("alice", "Am I allergic to anything?", 5)
    assert {memory.id for memory in found} == {first, second}
    assert found[0].text == "Alice is allergic to peanuts."
    assert found[0].timestamp == "2025-04-01T09:00:00Z"
    assert found[0].reply == ""
    assert adapter.recall("bob", "allergic peanuts", 5) == []
    assert adapter.delete("alice", first)
    assert [memory.id for memory in adapter.recall("alice", "peanuts", 5)] == [second]


def test_update_replaces_what_a_memory_says(adapter: McpAdapter) -> None:
    note = adapter.save("alice", "Alice drives a red Fiat.", "2025-04-01T09:00:00Z")
    assert adapter.update("alice", note, "Alice sold the Fiat and drives a blue Volvo.")
    [found] = adapter.recall("alice", "volvo", 5)
    assert (found.id, found.text) == (note, "Alice sold the Fiat and drives a blue Volvo.")
    assert adapter.recall("alice", "red", 5) == []
    adapter.ingest(DIARY)
    assert adapter.update("alice", "alice|p2", "My sister moved to Madrid.")
    [moved] = adapter.recall("alice", "sister", 5)
    assert (moved.text, moved.reply) == ("My sister moved to Madrid.", "Exciting.")
    assert not adapter.update("bob", note, "Bob's car")
    assert not adapter.update("alice", "alice|missing", "nothing")


def test_a_re_ingested_pair_is_not_stored_twice(adapter: McpAdapter, memory_file: Path) -> None:
    adapter.ingest(DIARY)
    adapter.ingest(DIARY)
    adapter.ingest([turn("alice", "p1", "A different text for the same pair.")])
    names = [entity["name"] for entity in stored(memory_file)]
    assert sorted(names) == ["alice|p1", "alice|p2", "alice|p3"]
    [first] = [entity for entity in stored(memory_file) if entity["name"] == "alice|p1"]
    assert first["observations"].count(f"user: {DIARY[0].prompt}") == 1
    assert len(adapter.recall("alice", "greyhound", 5)) == 1


def test_writes_from_many_threads_lose_nothing(adapter: McpAdapter, memory_file: Path) -> None:
    def write(user: str) -> None:
        for n in range(5):
            adapter.ingest([turn(user, f"p{n}", f"{user} keeps a diary, page {n}.")])
        adapter.save(user, f"{user} likes concurrency.", "")

    users = [f"user{n}" for n in range(4)]
    threads = [threading.Thread(target=write, args=(user,)) for user in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(stored(memory_file)) == 4 * 6
    for user in users:
        assert len(adapter.recall(user, "diary concurrency", 10)) == 6


def test_memories_outlive_the_adapter_in_the_server_file(memory_file: Path) -> None:
    first = McpAdapter(memory_config(memory_file))
    first.ingest(DIARY)
    first.close()
    second = McpAdapter(memory_config(memory_file))
    try:
        assert [memory.id for memory in second.recall("alice", "marathon", 5)] == ["alice|p3"]
    finally:
        second.close()


def test_a_closed_adapter_says_so(memory_file: Path) -> None:
    built = McpAdapter(memory_config(memory_file))
    built.close()
    built.close()
    with pytest.raises(AdapterError, match="closed"):
        built.recall("alice", "greyhound", 5)


# Starting: clear errors


def test_a_wrong_command_is_a_clear_config_error(tmp_path: Path) -> None:
    with pytest.raises(AdapterConfigError, match=r"no-such-mcp-server.*not a program on PATH"):
        McpAdapter({"command": ["no-such-mcp-server", "--stdio"]})


def test_a_server_that_dies_at_start_is_named_with_its_stderr(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    missing = tmp_path / "missing.js"
    with pytest.raises(AdapterError, match=r"failed at start.*stderr says:") as caught:
        McpAdapter({"command": [node, str(missing)], "start_timeout_s": 20})
    assert str(missing) in str(caught.value) or "missing.js" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_server_that_never_answers_times_out_at_start() -> None:
    silent = [sys.executable, "-c", "import time; time.sleep(60)"]
    started = time.monotonic()
    with pytest.raises(AdapterError, match=r"did not complete the MCP handshake in 1s"):
        McpAdapter({"command": silent, "start_timeout_s": 1})
    assert time.monotonic() - started < 20


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({}, "exactly one of command"),
        ({"command": ["x"], "url": "http://127.0.0.1:9/mcp"}, "exactly one of command"),
        ({"command": []}, "non-empty list"),
        ({"command": ["x"], "colour": "red"}, "unknown config key 'colour'"),
        ({"url": "ftp://example"}, "http:// or https://"),
        ({"url": "http://127.0.0.1:9/mcp", "env": {}}, "env applies to a command"),
        ({"command": ["x"], "headers": {}}, "headers apply to a url"),
        ({"command": ["x"], "timeout_s": "soon"}, "timeout_s: expected float"),
        ({"command": ["x"], "env": {"TOKEN": "${DITTOBENCH_NO_SUCH_VAR}"}}, "is not set"),
        ({"command": ["x"], "tools": {"remember": {"tool": "t"}}}, "unknown role 'remember'"),
        ({"command": ["x"], "tools": {"recall": {"tool": "t", "args": {}}}}, "unknown config key"),
        (
            {"command": ["x"], "tools": {"recall": {"tool": "t", "arguments": {"q": "{prompt}"}}}},
            r"unknown placeholder \{prompt\}",
        ),
    ],
)
def test_a_wrong_config_is_refused_before_anything_starts(
    config: dict[str, Any], message: str
) -> None:
    with pytest.raises(AdapterConfigError, match=message):
        McpAdapter(config)


# Mapping by hand, and errors of the server's tools


def test_a_tool_mapping_in_the_config_replaces_the_built_in_one(memory_file: Path) -> None:
    entity = {
        "name": "{user}/{pair_id}",
        "entityType": "exchange",
        "observations": ["user: {prompt}", "assistant: {response}", "timestamp: {timestamp}"],
    }
    tools = {
        "ingest": {"tool": "create_entities", "arguments": {"entities": [entity]}},
        "recall": {"tool": "search_nodes", "arguments": {"query": "{query}"}},
        "reset": {"tool": "delete_entities", "arguments": {"entityNames": ["{user}/p1"]}},
    }
    built = McpAdapter(memory_config(memory_file, tools=tools))
    try:
        built.ingest(DIARY[:2])
        assert sorted(entity["name"] for entity in stored(memory_file)) == ["alice/p1", "alice/p2"]
        assert {entity["entityType"] for entity in stored(memory_file)} == {"exchange"}
        [found] = built.recall("alice", "Lisbon", 5)
        assert (found.id, found.text, found.reply) == ("alice/p2", DIARY[1].prompt, "Exciting.")
        assert found.timestamp == DIARY[1].timestamp
        built.reset("alice")
        assert [entity["name"] for entity in stored(memory_file)] == ["alice/p2"]
        assert built.capabilities == {Capability.SAVE, Capability.UPDATE, Capability.DELETE}
    finally:
        built.close()


def test_a_mapping_to_a_tool_the_server_has_not_is_refused(memory_file: Path) -> None:
    tools = {"recall": {"tool": "search_memories", "arguments": {"query": "{query}"}}}
    with pytest.raises(AdapterConfigError, match=r"no tool 'search_memories'.*search_nodes"):
        McpAdapter(memory_config(memory_file, tools=tools))


def test_an_error_reply_raises_one_line_naming_the_tool(memory_file: Path) -> None:
    tools = {"recall": {"tool": "search_nodes", "arguments": {"query": "{k}"}}}
    built = McpAdapter(memory_config(memory_file, tools=tools))
    try:
        with pytest.raises(AdapterError, match=r"^mcp: search_nodes replied with an error: ") as e:
            built.recall("alice", "greyhound", 5)
        assert "\n" not in str(e.value)
    finally:
        built.close()


def test_a_reply_of_the_wrong_shape_raises_naming_the_tool(memory_file: Path) -> None:
    tools = {"recall": {"tool": "delete_entities", "arguments": {"entityNames": []}}}
    built = McpAdapter(memory_config(memory_file, tools=tools))
    try:
        with pytest.raises(AdapterError, match=r"^mcp: delete_entities: reply of the wrong shape"):
            built.recall("alice", "greyhound", 5)
    finally:
        built.close()


# The zero-code path: a JSON file only


def test_the_example_json_config_runs_server_memory_with_no_code(memory_file: Path) -> None:
    config = json.loads(EXAMPLE_CONFIG.read_text())
    assert config["command"][:2] == ["npx", "-y"]
    assert config["command"][2].startswith(PACKAGE)
    local = memory_config(memory_file)
    config["command"] = local["command"]
    config["env"] = {**config.get("env", {}), **local["env"]}
    built = load_adapter("mcp", config)
    try:
        assert built.describe()["system"] == "memory-server"
        built.reset("alice")
        built.ingest(DIARY)
        assert [memory.id for memory in built.recall("alice", "Porto half marathon?", 3)] == [
            "alice|p3"
        ]
    finally:
        built.close()


# Other servers: a text memory written with the SDK, over stdio and streamable HTTP

TEXT_SERVER = """
import re
import sys

from mcp.server.mcpserver import MCPServer

kind = sys.argv[1]
server = MCPServer("text-memory-test", version="9.9.9")
notes: dict[str, str] = {}
counter = iter(range(1, 1_000_000))


def search(text: str, limit: int, owner: str = "") -> list[dict[str, object]]:
    words = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2]
    hits = []
    for note_id, note in notes.items():
        if owner and not note.startswith(owner + "::"):
            continue
        score = sum(word in note.lower() for word in words)
        if score:
            hits.append({"id": note_id, "text": note.removeprefix(owner + "::"), "score": score})
    hits.sort(key=lambda hit: -hit["score"])
    return hits[:limit]


if kind in ("text", "norecall"):
    @server.tool()
    def add_memory(content: str) -> dict[str, str]:
        note_id = f"m{next(counter)}"
        notes[note_id] = content
        return {"id": note_id}

if kind == "text":
    @server.tool()
    def search_memories(query: str, limit: int = 5) -> list[dict[str, object]]:
        return search(query, limit)

    @server.tool()
    def delete_memory(memory_id: str) -> bool:
        return notes.pop(memory_id, None) is not None

if kind == "norecall":
    @server.tool()
    def ping() -> str:
        return "pong"

if kind == "scoped":
    @server.tool()
    def add_memories(text: str, user_id: str) -> str:
        note_id = f"m{next(counter)}"
        notes[note_id] = user_id + "::" + text
        return note_id

    @server.tool()
    def search_memory(query: str, user_id: str, limit: int = 10) -> dict[str, object]:
        return {"results": search(query, limit, user_id)}

    @server.tool()
    def delete_all_memories(user_id: str) -> int:
        gone = [key for key, note in notes.items() if note.startswith(user_id + "::")]
        for key in gone:
            del notes[key]
        return len(gone)

if kind == "odd":
    @server.tool()
    def jot(entry: str, who: str) -> str:
        note_id = f"m{next(counter)}"
        notes[note_id] = who + "::" + entry
        return note_id

    @server.tool()
    def lookup(words: str, who: str, most: int) -> list[dict[str, object]]:
        return search(words, most, who)

if len(sys.argv) > 2:
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
else:
    server.run()
"""


@pytest.fixture
def text_server(tmp_path: Path) -> Path:
    script = tmp_path / "text_memory_server.py"
    script.write_text(TEXT_SERVER)
    return script


def text_config(script: Path, kind: str, **extra: Any) -> dict[str, Any]:
    return {"command": [sys.executable, str(script), kind], **extra}


def check_text_memory(built: McpAdapter) -> None:
    built.reset("alice")
    built.ingest([*DIARY, turn("bob", "p1", "My greyhound is called Rocket.", "Fast!")])
    [found] = built.recall("alice", "Which greyhound?", 5)
    assert (found.text, found.reply, found.timestamp) == (
        DIARY[0].prompt,
        "Lovely!",
        DIARY[0].timestamp,
    )
    assert found.id and found.score > 0
    [bobs] = built.recall("bob", "greyhound", 5)
    assert (bobs.text, bobs.reply) == ("My greyhound is called Rocket.", "Fast!")
    note = built.save("alice", "Alice hates olives.", "2025-04-01T00:00:00Z")
    assert note
    [olives] = built.recall("alice", "olives", 5)
    assert (olives.id, olives.text, olives.timestamp) == (
        note,
        "Alice hates olives.",
        "2025-04-01T00:00:00Z",
    )
    assert built.delete("alice", note)
    assert not built.delete("alice", note)
    assert built.recall("alice", "olives", 5) == []
    built.reset("alice")
    assert built.recall("alice", "greyhound sister marathon", 5) == []
    assert [memory.text for memory in built.recall("bob", "greyhound", 5)] == [bobs.text]


def test_a_text_memory_server_is_mapped_without_config(text_server: Path) -> None:
    built = McpAdapter(text_config(text_server, "text"))
    try:
        assert built.describe() == {
            "system": "text-memory-test",
            "system_version": "9.9.9",
            "transport": "stdio",
        }
        assert built.capabilities == {Capability.SAVE, Capability.DELETE}
        check_text_memory(built)
        with pytest.raises(AdapterError, match="cannot update"):
            built.update("alice", "m1", "text")
    finally:
        built.close()


def test_a_text_memory_server_that_scopes_by_user_gets_the_user(text_server: Path) -> None:
    built = McpAdapter(text_config(text_server, "scoped"))
    try:
        assert built.capabilities == {Capability.SAVE}
        built.ingest([*DIARY, turn("bob", "p1", "My greyhound is called Rocket.", "Fast!")])
        [found] = built.recall("alice", "Which greyhound?", 5)
        assert (found.text, found.reply) == (DIARY[0].prompt, "Lovely!")
        [bobs] = built.recall("bob", "greyhound", 5)
        assert bobs.text == "My greyhound is called Rocket."
        assert len(built.recall("alice", "sister marathon greyhound", 2)) == 2
        built.reset("alice")
        assert built.recall("alice", "greyhound sister marathon", 5) == []
        assert [memory.text for memory in built.recall("bob", "greyhound", 5)] == [bobs.text]
    finally:
        built.close()


def tool(name: str, properties: dict[str, str], required: tuple[str, ...] = ()) -> Tool:
    schema = {
        "type": "object",
        "properties": {arg: {"type": kind} for arg, kind in properties.items()},
        "required": list(required),
    }
    return Tool(name=name, input_schema=schema)


def test_text_tools_are_found_by_name_and_input_schema() -> None:
    found = find_text_tools(
        [
            tool("delete_all_memories", {"user_id": "string"}, ("user_id",)),
            tool("forgetAll", {}),
            tool("memoryAdd", {"content": "string", "userId": "string", "tags": "array"}),
            tool("search_notes", {"query": "string", "user": "string", "topK": "integer"}),
            tool("remove_memory", {"memory_id": "integer"}, ("memory_id",)),
            tool("update_memory", {"id": "string", "text": "string"}, ("id", "text")),
            tool("search_web", {"query": "string"}),
        ]
    )
    assert found.ingest is not None and found.ingest.name == "memoryAdd"
    assert (found.ingest.text_arg, found.ingest.user_arg) == ("content", "userId")
    assert found.recall is not None and found.recall.name == "search_notes"
    assert found.recall.arguments(text="q", user="u", limit=3) == {
        "query": "q",
        "user": "u",
        "topK": 3,
    }
    assert found.delete is not None and found.delete.name == "remove_memory"
    assert found.delete.arguments(memory_id="7") == {"memory_id": 7}
    assert found.update is not None and found.update.arguments(text="t", memory_id="a") == {
        "text": "t",
        "id": "a",
    }
    assert found.reset is not None and found.reset.name == "delete_all_memories"


def test_tools_that_do_not_fit_are_not_taken() -> None:
    found = find_text_tools(
        [
            tool(
                "add_memory", {"content": "string", "category": "string"}, ("content", "category")
            ),
            tool("search", {"query": "string", "filters": "object"}, ("query", "filters")),
            tool("clear_memories", {}),
            tool("create_entities", {"entities": "array"}, ("entities",)),
        ]
    )
    assert found == type(found)(None, None, None, None, None)


def test_templates_fill_strings_at_any_depth_and_keep_a_lone_placeholder_s_type() -> None:
    template = {"a": ["{user} said {text}", {"n": "{k}", "lit": "{{user}}"}], "b": 3, "c": None}
    values = {"user": "alice", "text": "hi", "k": 5}
    assert fill(template, values) == {
        "a": ["alice said hi", {"n": 5, "lit": "{user}"}],
        "b": 3,
        "c": None,
    }
    assert fill("{text}", {"text": "{user} {0.__class__}"}) == "{user} {0.__class__}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def http_server(text_server: Path) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(text_server), "text", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("the streamable HTTP test server did not start")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_a_server_over_streamable_http(http_server: str) -> None:
    built = McpAdapter({"url": http_server, "headers": {"X-Test": "${PATH}"}})
    try:
        assert built.describe()["transport"] == "streamable-http"
        assert built.describe()["system"] == "text-memory-test"
        check_text_memory(built)
    finally:
        built.close()


def test_a_server_without_a_recall_tool_is_refused(text_server: Path) -> None:
    with pytest.raises(AdapterConfigError, match=r"no recall tool.*its tools: add_memory, ping"):
        McpAdapter(text_config(text_server, "norecall"))


def test_tools_no_one_could_guess_are_refused_then_mapped_by_hand(text_server: Path) -> None:
    with pytest.raises(AdapterConfigError, match=r"no ingest tool.*its tools: jot, lookup"):
        McpAdapter(text_config(text_server, "odd"))
    tools = {
        "ingest": {"tool": "jot", "arguments": {"entry": "{text}", "who": "{user}"}},
        "recall": {
            "tool": "lookup",
            "arguments": {"words": "{query}", "who": "{user}", "most": "{k}"},
        },
    }
    built = McpAdapter(text_config(text_server, "odd", tools=tools))
    try:
        assert built.capabilities == frozenset()
        built.ingest([*DIARY, turn("bob", "p1", "My greyhound is called Rocket.")])
        [found] = built.recall("alice", "greyhound?", 5)
        assert (found.text, found.reply) == (DIARY[0].prompt, "Lovely!")
        assert len(built.recall("alice", "sister marathon greyhound", 2)) == 2
        assert [memory.text for memory in built.recall("bob", "greyhound", 5)] == [
            "My greyhound is called Rocket."
        ]
        with pytest.raises(AdapterError, match="cannot save"):
            built.save("alice", "text", "")
    finally:
        built.close()
