"""The ``mem0`` adapter against the real mem0 OSS: its model calls go to a scripted model server
(tests/helpers/scripted_llm.py) that extracts the user's statements as facts and embeds with
wordllama, its vectors to a local Qdrant folder, and nothing leaves the machine."""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import socket
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mem0", reason="mem0ai is not installed (the mem0 extra)")
pytest.importorskip("wordllama", reason="wordllama is not installed (the scripted model embeds)")

from dittobench.spec.wire import DEFAULT_USER_ID
from dittobench_adapters.contract import (
    AdapterConfigError,
    AdapterError,
    MemoryAdapter,
    Turn,
)
from dittobench_adapters.registry import load_adapter
from dittobench_adapters.systems.mem0 import Mem0Adapter, mem0_user
from tests.helpers.scripted_llm import ModelScript, scripted_llm

LOOPBACK = ("127.0.0.1", "::1", "localhost")
Build = Callable[..., Mem0Adapter]


@pytest.fixture(autouse=True)
def no_outside_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every connection out of the machine is refused and recorded (telemetry included, which
    mem0 would swallow): only the scripted model server on loopback may be called."""
    attempts: list[Any] = []
    connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> None:
        if isinstance(address, tuple) and address[0] not in LOOPBACK:
            attempts.append(address)
            raise OSError(f"test: no network ({address!r})")
        connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    for name in ("OPENROUTER_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    yield attempts
    assert attempts == []


def mem0_settings(url: str, folder: Path) -> dict[str, Any]:
    """mem0 on the scripted model server, with a local Qdrant folder and history file."""
    return {
        "llm": {
            "provider": "openai",
            "config": {"model": "scripted", "api_key": "scripted", "openai_base_url": url},
        },
        "embedder": {
            "provider": "openai",
            "config": {
                "model": "wordllama",
                "api_key": "scripted",
                "openai_base_url": url,
                "embedding_dims": 256,
            },
        },
        "vector_store": {
            "provider": "qdrant",
            "config": {
                "path": str(folder / "qdrant"),
                "collection_name": "dittobench",
                "embedding_model_dims": 256,
            },
        },
        "history_db_path": str(folder / "history.db"),
    }


@pytest.fixture
def model() -> Iterator[tuple[str, ModelScript]]:
    with scripted_llm() as running:
        yield running


@pytest.fixture
def build(tmp_path: Path, model: tuple[str, ModelScript]) -> Iterator[Build]:
    """Builds adapters on the scripted model (or another URL), each in its own folder, and
    closes them after the test."""
    built: list[Mem0Adapter] = []

    def make(url: str | None = None, **config: Any) -> Mem0Adapter:
        folder = tmp_path / f"mem0-{len(built)}"
        adapter = Mem0Adapter({"mem0": mem0_settings(url or model[0], folder), **config})
        built.append(adapter)
        return adapter

    yield make
    for adapter in built:
        adapter.close()


def turn(user: str, pair: str, prompt: str, response: str = "Noted.", day: int = 1) -> Turn:
    return Turn(user, "s1", f"2025-03-{day:02d}T10:00:00Z", pair, prompt, response)


ALICE = [
    turn("alice", "a1", "My dog is called Rex. Any tips for a rainy walk?", "Try a raincoat.", 1),
    turn("alice", "a2", "I moved to Lyon last spring.", "Lyon is lovely.", 2),
    turn("alice", "a3", "I play the cello in an orchestra.", "What a nice hobby.", 3),
]
BOB = [turn("bob", "b1", "My dog is called Bolt.", "Cute name!", 2)]


def texts(adapter: Mem0Adapter, user: str, query: str, k: int = 10) -> list[str]:
    return [m.text for m in adapter.recall(user, query, k)]


def test_recall_finds_the_extracted_fact_with_its_timestamp(
    build: Build, model: tuple[str, ModelScript]
) -> None:
    adapter = build()
    adapter.ingest(ALICE)
    top = adapter.recall("alice", "what is my dog called?", 3)[0]
    assert top.text == "My dog is called Rex."
    assert top.timestamp == ALICE[0].timestamp
    assert uuid.UUID(top.id)
    assert 0 < top.score <= 1
    assert texts(adapter, "alice", "which instrument do I play?", 1) == [
        "I play the cello in an orchestra."
    ]
    every = texts(adapter, "alice", "tell me about me", 10)
    assert "Any tips for a rainy walk?" not in every  # a question is not a fact
    assert "Try a raincoat." not in every  # nor is the assistant's reply, for this model
    paths = [path for path, _ in model[1].requests]
    assert paths.count("/v1/chat/completions") == len(ALICE)


def test_without_inference_both_messages_are_kept_as_said(build: Build) -> None:
    adapter = build(infer=False)
    adapter.ingest(ALICE[:1])
    found = adapter.recall("alice", "tips for a rainy walk with my dog", 5)
    assert {m.text for m in found} == {ALICE[0].prompt, ALICE[0].response}
    assert {m.timestamp for m in found} == {ALICE[0].timestamp}
    assert adapter.describe()["infer"] == "false"


def test_one_users_facts_never_come_back_for_another(build: Build) -> None:
    adapter = build()
    adapter.ingest([*ALICE, *BOB])
    assert texts(adapter, "bob", "what is my dog called?") == ["My dog is called Bolt."]
    assert "My dog is called Bolt." not in texts(adapter, "alice", "my dog Bolt")
    assert adapter.recall("carol", "what is my dog called?", 5) == []


def test_user_ids_mem0_would_trim_or_refuse_stay_distinct(build: Build) -> None:
    adapter = build(infer=False)
    adapter.ingest(
        [
            turn("a b", "x1", "My dog is called Rex.", ""),
            turn("a%20b", "x2", "My dog is called Fido.", ""),
            turn(" a b ", "x3", "My dog is called Bolt.", ""),
        ]
    )
    assert texts(adapter, "a b", "dog") == ["My dog is called Rex."]
    assert texts(adapter, "a%20b", "dog") == ["My dog is called Fido."]
    assert texts(adapter, " a b ", "dog") == ["My dog is called Bolt."]
    assert len({mem0_user(u) for u in ("a b", "a%20b", " a b ")}) == 3
    assert mem0_user("") == mem0_user(DEFAULT_USER_ID) == DEFAULT_USER_ID


def test_reset_forgets_one_user_only(build: Build) -> None:
    adapter = build()
    adapter.ingest([*ALICE, *BOB])
    adapter.reset("alice")
    assert adapter.recall("alice", "dog", 10) == []
    assert texts(adapter, "bob", "dog") == ["My dog is called Bolt."]


def test_delete_removes_only_the_users_own_memory(build: Build) -> None:
    adapter = build()
    adapter.ingest([*ALICE, *BOB])
    rex = adapter.recall("alice", "what is my dog called?", 1)[0]
    assert adapter.delete("bob", rex.id) is False
    assert adapter.delete("alice", "not-a-mem0-id") is False
    assert adapter.delete("alice", str(uuid.uuid4())) is False
    assert adapter.delete("alice", rex.id) is True
    assert rex.text not in texts(adapter, "alice", "what is my dog called?")
    assert adapter.delete("alice", rex.id) is False
    assert texts(adapter, "bob", "dog") == ["My dog is called Bolt."]


def test_save_keeps_the_note_as_is_and_update_rewrites_it(
    build: Build, model: tuple[str, ModelScript]
) -> None:
    adapter = build()
    adapter.ingest(ALICE)
    chats = len(model[1].requests)
    saved = adapter.save("alice", "My locker code is 4512.", "2025-05-01T08:00:00Z")
    assert uuid.UUID(saved)
    assert not any(p.endswith("/chat/completions") for p, _ in model[1].requests[chats:])
    top = adapter.recall("alice", "what is my locker code?", 1)[0]
    assert (top.id, top.text, top.timestamp) == (
        saved,
        "My locker code is 4512.",
        "2025-05-01T08:00:00Z",
    )
    assert adapter.update("bob", saved, "My locker code is 0000.") is False
    assert adapter.update("alice", saved, "My locker code is 9981.") is True
    top = adapter.recall("alice", "what is my locker code?", 1)[0]
    assert (top.id, top.text) == (saved, "My locker code is 9981.")
    assert top.timestamp > "2025-05-01T08:00:00Z"  # restamped as said now
    assert adapter.update("alice", "not-a-mem0-id", "x") is False
    fresh = adapter.save("alice", "I bought a red bicycle.", "")
    assert adapter.recall("alice", "what bicycle did I buy?", 1)[0].id == fresh


def test_describe_names_mem0_and_its_parts(build: Build) -> None:
    assert build().describe() == {
        "system": "mem0",
        "system_version": importlib.metadata.version("mem0ai"),
        "llm": "openai/scripted",
        "embedder": "openai/wordllama",
        "vector_store": "qdrant",
        "infer": "true",
    }


def test_telemetry_is_off() -> None:
    assert os.environ["MEM0_TELEMETRY"] == "False"
    assert importlib.import_module("mem0.memory.telemetry").MEM0_TELEMETRY is False
    assert importlib.import_module("mem0.memory.main").MEM0_TELEMETRY is False


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"infer": "yes"}, r"^infer: expected bool, got str$"),
        ({"inference": False}, r"^mem0: unknown config key 'inference' \(known: mem0, infer, "),
        ({"mem0": []}, r"^mem0: expected dict, got list$"),
        ({"timeout": 0}, r"^timeout: expected a positive number of seconds$"),
        ({"retries": -1}, r"^retries: expected 0 or more$"),
    ],
)
def test_bad_adapter_config_is_refused_by_name(config: dict[str, Any], message: str) -> None:
    with pytest.raises(AdapterConfigError, match=message):
        Mem0Adapter(config)


def test_bad_mem0_config_is_refused_by_name(tmp_path: Path) -> None:
    settings = mem0_settings("http://127.0.0.1:9/v1", tmp_path)
    misspelt = {**settings, "vectorstore": settings.pop("vector_store")}
    with pytest.raises(AdapterConfigError, match=r"unknown key 'vectorstore' in config 'mem0'"):
        Mem0Adapter({"mem0": misspelt})
    settings = mem0_settings("http://127.0.0.1:9/v1", tmp_path)
    settings["vector_store"]["config"]["colection_name"] = "x"
    with pytest.raises(AdapterConfigError, match=r"^mem0: config 'mem0' refused: .*colection_name"):
        Mem0Adapter({"mem0": settings})


def test_the_registry_builds_it(tmp_path: Path, model: tuple[str, ModelScript]) -> None:
    built = load_adapter("mem0", {"mem0": mem0_settings(model[0], tmp_path)})
    try:
        assert isinstance(built, MemoryAdapter)
        assert built.capabilities == {"save", "update", "delete"}
    finally:
        built.close()


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_a_model_server_that_is_down_is_an_adapter_error(build: Build) -> None:
    adapter = build(closed_port_url(), timeout=2.0, retries=1)
    started = time.monotonic()
    with pytest.raises(AdapterError, match=r"^mem0: add failed: APIConnectionError"):
        adapter.ingest(ALICE[:1])
    with pytest.raises(AdapterError, match=r"^mem0: search failed: APIConnectionError"):
        adapter.recall("alice", "dog", 3)
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("mode", ["refuse", "hang"])
def test_a_model_that_fails_or_hangs_is_an_adapter_error_in_bounded_time(
    build: Build, mode: str
) -> None:
    with scripted_llm(mode) as (url, _):
        adapter = build(url, timeout=1.0, retries=0)
        started = time.monotonic()
        with pytest.raises(AdapterError, match=r"^mem0: add failed: LLMError: LLM extraction"):
            adapter.ingest(ALICE[:1])
        assert time.monotonic() - started < 15
        adapter.save("alice", "Embeddings still work.", "")  # no model call: still served
        assert texts(adapter, "alice", "what still works?") == ["Embeddings still work."]


def test_threads_may_share_it(build: Build) -> None:
    adapter = build(infer=False)

    def work(n: int) -> list[str]:
        user = f"user{n}"
        adapter.ingest([turn(user, f"{user}-{i}", f"Fact {i} about {user}.", "") for i in range(3)])
        return texts(adapter, user, "fact", 10)

    with ThreadPoolExecutor(4) as pool:
        found = list(pool.map(work, range(6)))
    for n, said in enumerate(found):
        assert sorted(said) == [f"Fact {i} about user{n}." for i in range(3)]


@pytest.mark.parametrize("infer", [True, False])
def test_a_pair_sent_again_is_not_stored_twice(
    build: Build, model: tuple[str, ModelScript], infer: bool
) -> None:
    adapter = build(infer=infer)

    def stored() -> list[str]:
        found = adapter.memory.get_all(filters={"user_id": "alice"}, top_k=100)["results"]
        return sorted(item["memory"] for item in found)

    adapter.ingest(ALICE)
    before = stored()
    assert len(before) == (3 if infer else 6)
    calls = len(model[1].requests)
    adapter.ingest(ALICE)
    assert stored() == before
    assert not any(p.endswith("/chat/completions") for p, _ in model[1].requests[calls:])
