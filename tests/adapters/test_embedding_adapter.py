"""The ``embedding`` adapter against the real wordllama: what it recalls, for whom, after which
changes and in which order, with the model loaded from its wheel and no call out of the machine."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("wordllama", reason="wordllama is not installed (the embedding extra)")

from dittobench_adapters.contract import AdapterConfigError, Memory, MemoryAdapter, Turn
from dittobench_adapters.registry import load_adapter
from dittobench_adapters.systems.embedding import EmbeddingAdapter, bundled_models

LOOPBACK = ("127.0.0.1", "::1", "localhost")


@pytest.fixture(autouse=True)
def no_outside_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every connection out of the machine is refused and recorded: the model is in the wheel."""
    attempts: list[Any] = []
    connect = socket.socket.connect

    def guarded(self: socket.socket, address: Any) -> None:
        if isinstance(address, tuple) and address[0] not in LOOPBACK:
            attempts.append(address)
            raise OSError(f"test: no network ({address!r})")
        connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    yield attempts
    assert attempts == []


@pytest.fixture
def adapter() -> Iterator[EmbeddingAdapter]:
    built = EmbeddingAdapter({})
    yield built
    built.close()


def turn(user: str, pair: str, prompt: str, response: str = "Noted.", day: int = 1) -> Turn:
    return Turn(user, "s1", f"2025-03-{day:02d}T10:00:00Z", pair, prompt, response)


ALICE = [
    turn("alice", "a1", "My dog is called Rex and he loves the beach.", "Rex sounds fun!", 1),
    turn("alice", "a2", "I moved to Lyon last spring for a new job.", "Lyon is lovely.", 2),
    turn("alice", "a3", "I play the cello in an amateur orchestra.", "What a nice hobby.", 3),
    turn("alice", "a4", "My favourite food is mushroom risotto.", "Delicious choice.", 4),
]
BOB = [turn("bob", "b1", "My cat is called Bolt and my dog is called Fido.", "Cute names!", 2)]


def ids(memories: list[Memory]) -> list[str]:
    return [m.id for m in memories]


def test_recall_finds_the_turn_that_answers(adapter: EmbeddingAdapter) -> None:
    adapter.ingest(ALICE)
    found = adapter.recall("alice", "what is the name of my dog?", 2)
    assert found[0] == Memory(
        ALICE[0].prompt, "a1", ALICE[0].timestamp, ALICE[0].response, found[0].score
    )
    assert 0 < found[0].score <= 1
    assert found[0].score > found[1].score
    assert ids(adapter.recall("alice", "which instrument do I play?", 1)) == ["a3"]
    assert ids(adapter.recall("alice", "where do I live now?", 1)) == ["a2"]
    assert len(adapter.recall("alice", "anything", 10)) == 4
    assert adapter.recall("alice", "anything", 0) == []


def test_one_users_turns_never_come_back_for_another(adapter: EmbeddingAdapter) -> None:
    adapter.ingest([*ALICE, *BOB])
    assert ids(adapter.recall("bob", "what is my dog called?", 10)) == ["b1"]
    assert "b1" not in ids(adapter.recall("alice", "my cat Bolt and my dog Fido", 10))
    assert adapter.recall("carol", "what is my dog called?", 10) == []


def test_reset_forgets_one_user_only(adapter: EmbeddingAdapter) -> None:
    adapter.ingest([*ALICE, *BOB])
    adapter.reset("alice")
    assert adapter.recall("alice", "dog", 10) == []
    assert ids(adapter.recall("bob", "dog", 10)) == ["b1"]


def test_delete_removes_only_the_users_own_memory(adapter: EmbeddingAdapter) -> None:
    adapter.ingest([*ALICE, *BOB])
    assert adapter.delete("bob", "a1") is False
    assert adapter.delete("alice", "a1") is True
    assert "a1" not in ids(adapter.recall("alice", "what is my dog called?", 10))
    assert adapter.delete("alice", "a1") is False
    assert ids(adapter.recall("bob", "dog", 1)) == ["b1"]


def test_save_then_update(adapter: EmbeddingAdapter) -> None:
    adapter.ingest(ALICE)
    saved = adapter.save("alice", "My sister Ana lives in Porto.", "")
    assert saved.startswith("mem-")
    top = adapter.recall("alice", "where does my sister live?", 1)[0]
    assert (top.id, top.text, top.reply) == (saved, "My sister Ana lives in Porto.", "")
    assert top.timestamp > ALICE[-1].timestamp  # a fresh note is the newest memory
    stamped = adapter.save("alice", "I bought a red bicycle.", "2025-01-05T08:00:00Z")
    assert adapter.recall("alice", "what bicycle did I buy?", 1)[0].timestamp == (
        "2025-01-05T08:00:00Z"
    )
    assert stamped != saved
    assert adapter.update("bob", "a1", "My dog is called Max.") is False
    assert adapter.update("alice", "a1", "My dog is now called Max.") is True
    top = adapter.recall("alice", "what is my dog called?", 1)[0]
    assert (top.id, top.text, top.reply) == ("a1", "My dog is now called Max.", "")
    assert adapter.update("alice", "nope", "x") is False


def test_reingesting_a_pair_replaces_it(adapter: EmbeddingAdapter) -> None:
    adapter.ingest(ALICE)
    adapter.ingest([turn("alice", "a1", "My parrot is called Kiwi.", "Lovely.", 1)])
    assert len(adapter.recall("alice", "anything", 10)) == 4
    assert adapter.recall("alice", "what is my parrot called?", 1)[0].text == (
        "My parrot is called Kiwi."
    )


def test_ties_go_to_the_newest_then_the_lowest_pair_id(adapter: EmbeddingAdapter) -> None:
    same = "I like green tea."
    adapter.ingest(
        [
            turn("alice", "t2", same, "Ok.", 3),
            turn("alice", "t9", same, "Ok.", 1),
            turn("alice", "t1", same, "Ok.", 3),
            turn("alice", "t5", same, "Ok.", 2),
        ]
    )
    found = adapter.recall("alice", "tea", 10)
    assert ids(found) == ["t1", "t2", "t5", "t9"]
    assert len({m.score for m in found}) == 1


def test_ranking_is_the_same_whatever_the_order_of_ingestion() -> None:
    turns = [*ALICE, *BOB, turn("alice", "a0", "Rex is a beagle.", "Nice.", 1)]
    first, second = EmbeddingAdapter({}), EmbeddingAdapter({})
    try:
        first.ingest(turns)
        second.ingest(list(reversed(turns)))
        for query in ("my dog", "music", "food I love", "", "Lyon"):
            assert first.recall("alice", query, 10) == second.recall("alice", query, 10)
        again = first.recall("alice", "my dog", 10)
        assert again == first.recall("alice", "my dog", 10)
    finally:
        first.close()
        second.close()


def test_an_empty_text_or_query_is_not_an_error(adapter: EmbeddingAdapter) -> None:
    adapter.ingest([turn("alice", "e1", "", "", 1), *ALICE])
    found = adapter.recall("alice", "", 2)
    assert ids(found) == ["a4", "a3"]  # nothing to compare: newest first
    assert all(m.score == 0 for m in found)
    assert "e1" in ids(adapter.recall("alice", "dog", 10))


def test_dim_truncates_and_is_described() -> None:
    small = EmbeddingAdapter({"dim": 64})
    try:
        assert small.describe()["dim"] == "64"
        small.ingest(ALICE)
        assert ids(small.recall("alice", "which instrument do I play?", 1)) == ["a3"]
    finally:
        small.close()


def test_describe_names_the_model_and_wordllama_version(adapter: EmbeddingAdapter) -> None:
    from importlib.metadata import version

    model = next(iter(bundled_models()))
    assert adapter.describe() == {
        "system": "wordllama-cosine",
        "model": model,
        "dim": str(bundled_models()[model]),
        "system_version": f"wordllama {version('wordllama')}",
    }


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"modle": "l2_supercat"}, "embedding: unknown config key 'modle' (known: model, dim, db)"),
        ({"dim": "64"}, "dim: expected int, got str"),
        ({"dim": 100}, "dim: Truncated dimension must be one of"),
        ({"dim": 1024}, "dim: Cannot truncate to a higher dimension"),
        ({"model": "l3_supercat"}, "model: 'l3_supercat' is not shipped in the wordllama wheel"),
        ({"db": 3}, "db: expected str, got int"),
    ],
)
def test_bad_config_is_refused_by_name(config: dict[str, Any], message: str) -> None:
    with pytest.raises(AdapterConfigError) as caught:
        EmbeddingAdapter(config)
    assert str(caught.value).startswith(message)


def test_a_store_file_keeps_its_turns_and_its_model(tmp_path: Path) -> None:
    path = str(tmp_path / "turns.db")
    first = EmbeddingAdapter({"db": path})
    first.ingest(ALICE)
    first.close()
    again = EmbeddingAdapter({"db": path})
    try:
        assert ids(again.recall("alice", "what is my dog called?", 1)) == ["a1"]
    finally:
        again.close()
    with pytest.raises(AdapterConfigError, match=r"db: built with .* at dim 256, not .* at dim 64"):
        EmbeddingAdapter({"db": path, "dim": 64})


def test_the_registry_builds_it() -> None:
    built = load_adapter("embedding", {"dim": 128})
    try:
        assert isinstance(built, MemoryAdapter)
        assert built.capabilities == {"save", "update", "delete"}
    finally:
        built.close()


def test_the_model_loads_offline_from_the_wheel_alone(tmp_path: Path) -> None:
    """In a fresh process with no network, no hub access, an empty home and no cache, the model
    loads and embeds, nothing is written to the home, and the host's logging is left alone."""
    script = """
import json, logging, socket
def refuse(*args, **kwargs):
    raise OSError("no network")
socket.socket.connect = refuse
socket.create_connection = refuse
level, handlers = logging.getLogger().level, len(logging.getLogger().handlers)
from dittobench_adapters.systems.embedding import EmbeddingAdapter
from dittobench_adapters.contract import Turn
adapter = EmbeddingAdapter({})
adapter.ingest([Turn("u", "s", "2025-01-01T00:00:00Z", "p1", "My dog is Rex.", "Ok.")])
print(json.dumps({
    "ids": [m.id for m in adapter.recall("u", "dog", 1)],
    "logging": [logging.getLogger().level == level, len(logging.getLogger().handlers) == handlers],
}))
"""
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **os.environ,
        "HOME": str(home),
        "HF_HUB_OFFLINE": "1",
        "HF_HOME": str(home / "hf"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"ids": ["p1"], "logging": [True, True]}
    assert list(home.iterdir()) == []


def test_threads_may_share_it(adapter: EmbeddingAdapter) -> None:
    def work(n: int) -> list[str]:
        user = f"user{n}"
        adapter.ingest([turn(user, f"{user}-{i}", f"Fact {i} about {user}.") for i in range(20)])
        return [m.id for m in adapter.recall(user, "fact", 50)]

    with ThreadPoolExecutor(4) as pool:
        found = list(pool.map(work, range(8)))
    for n, ids_of_user in enumerate(found):
        assert sorted(ids_of_user) == sorted(f"user{n}-{i}" for i in range(20))
