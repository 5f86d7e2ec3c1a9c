"""The baseline lists what its memory retrieved: the answer's pair first, by the ids /seed
showed it; nothing for a write or a tool request; the memory tools remember what they returned."""

from __future__ import annotations

from dittobench.spec.wire import (
    Pair,
    RunRequest,
    RunResponse,
    SeedRequest,
    ToolExecRequest,
    ToolExecResponse,
)
from dittobench_baseline.agent import MemoryTools, OfflineAgent
from dittobench_baseline.recall import retrieved_pairs
from dittobench_baseline.store import MemoryStore

PAIRS = (
    ("2026-03-01T09:00:00Z", "I adopted a cat named Biscuit last week.", "Lovely name!"),
    ("2026-03-02T09:00:00Z", "The weather is grey again today.", "Sounds gloomy."),
    ("2026-03-03T09:00:00Z", "My sister's cat is called Mochi.", "Cute."),
    ("2026-03-04T09:00:00Z", "I started learning the cello this spring.", "Great!"),
)


def seeded(store: MemoryStore) -> None:
    pairs = tuple(
        Pair(f"p-shown-{i}", f"s-{i}", ts, prompt, reply)
        for i, (ts, prompt, reply) in enumerate(PAIRS)
    )
    store.upsert(SeedRequest(user_id="u-1", wave=0, pairs=pairs))


def no_tools(endpoint: str, request: ToolExecRequest) -> ToolExecResponse:
    return ToolExecResponse(error="no tools here")


def ask(store: MemoryStore, text: str) -> RunResponse:
    request = RunRequest("c-1", "You are helpful.", text, (), "", "u-1")
    return OfflineAgent(store).answer(request, no_tools)


def test_a_memory_answer_lists_the_pair_it_quotes_first(store: MemoryStore) -> None:
    seeded(store)
    response = ask(store, "What is the name of the cat I adopted?")
    assert "Biscuit" in response.final_text
    assert response.retrieved[0] == "p-shown-0"
    assert "p-shown-2" in response.retrieved  # the other cat pair, found but ranked after
    assert len(set(response.retrieved)) == len(response.retrieved)
    assert set(response.retrieved) <= {f"p-shown-{i}" for i in range(len(PAIRS))}


def test_a_decline_still_lists_what_the_search_found(store: MemoryStore) -> None:
    seeded(store)
    response = ask(store, "Which cello teacher did my cat recommend in Reykjavik?")
    assert response.abstain is True
    assert response.retrieved == retrieved_pairs(
        store, "u-1", "Which cello teacher did my cat recommend in Reykjavik?"
    )
    assert response.retrieved  # BM25 found the cat and cello pairs


def test_an_empty_store_and_a_write_list_nothing(store: MemoryStore) -> None:
    assert ask(store, "What is the name of the cat I adopted?").retrieved == ()
    seeded(store)
    assert ask(store, "Please remember that my locker code is 4471.").retrieved == ()


def test_the_memory_tools_keep_what_they_returned_in_order(store: MemoryStore) -> None:
    seeded(store)
    tools = MemoryTools(store, "u-1")
    tools.execute("fetch_memories", {"pairIds": ["p-shown-3", "p-shown-1"]})
    tools.execute("search_memories", {"queries": ["cat"]})
    tools.execute("fetch_memories", {"pairIds": ["p-shown-3"]})
    found = list(tools.found)
    assert found[:2] == ["p-shown-3", "p-shown-1"]
    assert set(found[2:]) == {"p-shown-0", "p-shown-2"}
