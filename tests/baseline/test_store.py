"""The memory store: upserts, waves, per-user isolation, safe FTS queries and the write path."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.spec.wire import Link, Pair, SeedRequest, SeedResponse, Subject
from dittobench_baseline.store import Hit, MemoryStore, fts_query


def pair(n: int, prompt: str, response: str = "Noted.", ts: str = "2024-01-01T10:00:00Z") -> Pair:
    return Pair(
        pair_id=f"p-{n}", session_id=f"s-{n}", timestamp=ts, prompt=prompt, response=response
    )


def ids(hits: list[Hit]) -> list[str]:
    return [h.pair_id for h in hits]


def test_upsert_counts_and_search(store: MemoryStore) -> None:
    reply = store.upsert(
        SeedRequest(
            user_id="miner",
            wave=0,
            pairs=(pair(1, "My cat Biscuit loves tuna."), pair(2, "I play the cello on Sundays.")),
            subjects=(Subject("sub-1", "Pets", "The user's animals"),),
            links=(Link("sub-1", "p-1"),),
        )
    )
    assert reply == SeedResponse(pairs=2, subjects=1, links=1)
    assert ids(store.search("miner", "what does the cat eat? tuna", 5))[0] == "p-1"
    assert ids(store.search("miner", "cello", 5)) == ["p-2"]


def test_upsert_is_idempotent(store: MemoryStore) -> None:
    wave = SeedRequest(user_id="miner", wave=0, pairs=(pair(1, "I grow tomatoes."),))
    store.upsert(wave)
    store.upsert(wave)
    assert store.count("miner") == 1
    assert len(store.search("miner", "tomatoes", 10)) == 1


def test_upsert_replaces_by_pair_id(store: MemoryStore) -> None:
    store.upsert(SeedRequest(pairs=(pair(1, "I grow tomatoes."),)))
    store.upsert(SeedRequest(pairs=(pair(1, "I grow peppers."),)))
    assert store.count("miner") == 1
    assert store.search("miner", "tomatoes", 5) == []
    assert ids(store.search("miner", "peppers", 5)) == ["p-1"]


def test_waves_merge(store: MemoryStore) -> None:
    store.upsert(SeedRequest(wave=0, pairs=(pair(1, "I grow tomatoes."),)))
    store.upsert(SeedRequest(wave=1, pairs=(pair(2, "I keep bees."),)))
    store.upsert(SeedRequest(wave=2))
    assert store.count("miner") == 2
    assert ids(store.search("miner", "bees", 5)) == ["p-2"]
    assert ids(store.search("miner", "tomatoes", 5)) == ["p-1"]


def test_subject_titles_are_indexed_and_links_may_precede_pairs(store: MemoryStore) -> None:
    store.upsert(
        SeedRequest(
            wave=0,
            subjects=(Subject("sub-home", "Where I live", "Home city and moves"),),
            links=(Link("sub-home", "p-9"),),
        )
    )
    store.upsert(SeedRequest(wave=1, pairs=(pair(9, "Moved to Ghent last week."),)))
    assert ids(store.search("miner", "where do I live", 5)) == ["p-9"]
    assert [s.id for s in store.search_subjects("miner", "live")] == ["sub-home"]
    assert ids(store.search_in_subject("miner", "sub-home", "Ghent")) == ["p-9"]
    assert ids(store.search_in_subject("miner", "sub-home", "")) == ["p-9"]
    assert store.search_in_subject("miner", "sub-other", "Ghent") == []


def test_users_are_isolated(store: MemoryStore) -> None:
    store.upsert(SeedRequest(user_id="miner", pairs=(pair(1, "My locker code is 1111."),)))
    store.upsert(SeedRequest(user_id="colleague", pairs=(pair(1, "My locker code is 2222."),)))
    mine = store.search("miner", "locker code", 5)
    theirs = store.search("colleague", "locker code", 5)
    assert [h.prompt for h in mine] == ["My locker code is 1111."]
    assert [h.prompt for h in theirs] == ["My locker code is 2222."]
    assert store.fetch("colleague", ["p-1"])[0].prompt.endswith("2222.")
    assert store.search("nobody", "locker", 5) == []


def test_empty_user_id_means_default_user(store: MemoryStore) -> None:
    store.upsert(SeedRequest(user_id="", pairs=(pair(1, "I like jazz."),)))
    assert ids(store.search("miner", "jazz", 5)) == ["p-1"]
    assert ids(store.search("", "jazz", 5)) == ["p-1"]


NASTY = [
    "",
    "   ",
    '"',
    '""""',
    "AND OR NOT",
    "NEAR(a b, 3)",
    "col:val",
    "prompt: x",
    "a* ^b -c +d",
    "(((",
    ")))",
    "{x y}",
    "what's my 'dog's' name?!",
    "'; DROP TABLE pairs; --",
    "\u0000\u0001",
    "ümlaut café — naïve 東京",
    "🙂🙂🙂",
    "x" * 5000,
    " ".join(f"w{i}" for i in range(500)),
]


@pytest.mark.parametrize("query", NASTY)
def test_any_text_is_a_safe_query(store: MemoryStore, query: str) -> None:
    store.upsert(SeedRequest(pairs=(pair(1, "NEAR the AND gate, my dog's name is Rex."),)))
    store.search("miner", query, 5)
    store.search_subjects("miner", query)
    store.search_in_subject("miner", "sub", query)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_fts_query_never_breaks_fts5(text: str) -> None:
    with MemoryStore() as memory:
        memory.upsert(SeedRequest(pairs=(pair(1, "alpha beta gamma"),)))
        memory.search("miner", text, 3)
    query = fts_query(text)
    assert query is None or query.count('"') % 2 == 0


def test_save_update_delete(store: MemoryStore) -> None:
    store.upsert(SeedRequest(pairs=(pair(1, "Old note about the garage code 1234."),)))
    pair_id = store.save("miner", "The garage code is 9876.")
    assert pair_id.startswith("mem-")
    saved = store.fetch("miner", [pair_id])[0]
    assert saved.prompt == "The garage code is 9876."
    assert saved.timestamp > "2024-01-01T10:00:00Z"
    assert store.update("miner", pair_id, "The garage code is 5555.")
    assert store.search("miner", "9876", 5) == []
    assert ids(store.search("miner", "5555", 5)) == [pair_id]
    assert store.delete("miner", pair_id)
    assert store.search("miner", "5555", 5) == []
    assert not store.delete("miner", pair_id)
    assert not store.update("miner", pair_id, "x")
    assert not store.delete("colleague", "p-1")
    assert store.count("miner") == 1


def test_save_stamps_after_the_newest_stored_pair(store: MemoryStore) -> None:
    store.upsert(SeedRequest(pairs=(pair(1, "From the future.", ts="2999-01-01T00:00:00Z"),)))
    pair_id = store.save("miner", "A new note.")
    assert store.fetch("miner", [pair_id])[0].timestamp == "2999-01-01T00:00:01Z"
    given_id = store.save("miner", "Dated note.", timestamp="2020-05-05T00:00:00Z")
    assert store.fetch("miner", [given_id])[0].timestamp == "2020-05-05T00:00:00Z"


def test_file_store_survives_reopen(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with MemoryStore(path) as first:
        first.upsert(SeedRequest(pairs=(pair(1, "I collect stamps."),)))
    with MemoryStore(path) as second:
        assert ids(second.search("miner", "stamps", 5)) == ["p-1"]


def test_concurrent_writes_and_reads_stay_per_user(store: MemoryStore) -> None:
    errors: list[BaseException] = []

    def work(user: str) -> None:
        try:
            for i in range(40):
                store.upsert(
                    SeedRequest(user_id=user, wave=i, pairs=(pair(i, f"{user} fact number{i}"),))
                )
                for hit in store.search(user, f"fact number{i}", 5):
                    assert hit.prompt.startswith(user)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(f"user{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert all(store.count(f"user{n}") == 40 for n in range(4))
