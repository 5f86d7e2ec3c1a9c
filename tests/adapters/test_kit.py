"""The adapter kit without any outside system: the ledger, the extractive and model readers, the
identity a served adapter declares, and the locked reader's prompt."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from dittobench.catalog import CATALOG
from dittobench.spec.identity import identity_of
from dittobench.spec.reading import (
    EXTRACTIVE_1,
    READER_1,
    ReaderConfigError,
    locked_reader,
    reader_prompt,
)
from dittobench.spec.wire import Pair, RunRequest, SeedRequest
from dittobench.views.identity import identity_text
from dittobench_adapters.contract import (
    AdapterConfigError,
    BaseAdapter,
    Capability,
    Memory,
    MemoryAdapter,
    Turn,
)
from dittobench_adapters.extractive import ExtractiveReader
from dittobench_adapters.harness import ReaderChoice, build
from dittobench_adapters.harness import identity_of as harness_identity
from dittobench_adapters.ledger import Ledger
from dittobench_adapters.model_reader import ModelReader
from dittobench_adapters.registry import load_adapter
from dittobench_adapters.systems.lexical import LexicalAdapter
from tests.baseline.test_model import ScriptedModel, completion, scripted

DAY = "2025-03-0{}T10:00:00Z"


def _no_tools(endpoint: str, request: Any) -> Any:
    raise AssertionError("a memory question must not call the tool endpoint")


class Recording(BaseAdapter):
    """An adapter that keeps turns in a list and recalls the ones sharing a word: enough to see
    what the harness hands over, with no save, update or delete."""

    name = "recording"

    def __init__(self, config: Mapping[str, Any]) -> None:
        super().__init__()
        self.turns: list[Turn] = []
        self.resets: list[str] = []

    def ingest(self, turns: Sequence[Turn]) -> None:
        self.turns.extend(turns)

    def recall(self, user: str, query: str, k: int) -> list[Memory]:
        words = set(query.lower().split())
        mine = [t for t in self.turns if t.user == user and words & set(t.prompt.lower().split())]
        return [Memory(t.prompt, t.pair_id, t.timestamp, t.response) for t in mine[:k]]

    def reset(self, user: str) -> None:
        self.resets.append(user)
        self.turns = [t for t in self.turns if t.user != user]


def _wave(user: str, *said: str, wave: int = 0) -> SeedRequest:
    pairs = tuple(
        Pair(f"{user}-{wave}-{i}", f"s{wave}", DAY.format(wave + 1), text, "Noted.")
        for i, text in enumerate(said)
    )
    return SeedRequest(user_id=user, wave=wave, pairs=pairs)


def _ask(text: str, user: str = "ana") -> RunRequest:
    return RunRequest("case-1", "You are a helpful assistant.", text, CATALOG, "", user)


@pytest.fixture
def lexical() -> Iterator[LexicalAdapter]:
    adapter = LexicalAdapter({})
    yield adapter
    adapter.close()


def test_the_ledger_hands_each_pair_over_once_and_resets_a_new_user() -> None:
    adapter = Recording({})
    ledger = Ledger(adapter)
    wave = _wave("ana", "My dentist is Dr Okafor.", "I moved to Leeds.")
    assert ledger.upsert(wave).pairs == 2
    assert ledger.upsert(wave).pairs == 2  # a re-sent wave: nothing stored twice
    assert len(adapter.turns) == 2
    ledger.upsert(_wave("ana", "I moved to York.", wave=1))
    ledger.upsert(_wave("ben", "My dentist is Dr Hale."))
    assert adapter.resets == ["ana", "ben"]
    assert [t.pair_id for t in adapter.turns] == ["ana-0-0", "ana-0-1", "ana-1-0", "ben-0-0"]
    newest = ledger.newest("ana")
    assert newest is not None and newest.day == 2
    assert ledger.next_stamp("ana") == "2025-03-02T10:00:01Z"
    assert ledger.next_stamp("ana") == "2025-03-02T10:00:02Z"  # each note later than the last


def test_the_extractive_reader_answers_only_from_what_is_recalled(lexical: LexicalAdapter) -> None:
    ledger = Ledger(lexical)
    ledger.upsert(_wave("ana", "My dentist is Dr Okafor, on Mill Lane."))
    ledger.upsert(_wave("ben", "My dentist is Dr Hale."))
    reader = ExtractiveReader(lexical, ledger)
    reply = reader.answer(_ask("Who is my dentist?"), _no_tools)
    assert "Okafor" in reply.final_text and "Hale" not in reply.final_text
    assert [c.name for c in reply.tool_calls] == ["search_memories"]

    class Forgetful(Recording):
        def recall(self, user: str, query: str, k: int) -> list[Memory]:
            return []

    forgetful = Forgetful({})
    ledger = Ledger(forgetful)
    ledger.upsert(_wave("ana", "My dentist is Dr Okafor."))
    declined = ExtractiveReader(forgetful, ledger).answer(_ask("Who is my dentist?"), _no_tools)
    assert declined.abstain is True and "Okafor" not in declined.final_text


def test_the_extractive_reader_writes_through_the_adapter(lexical: LexicalAdapter) -> None:
    ledger = Ledger(lexical)
    ledger.upsert(_wave("ana", "My gym is Fitlab on Park Road."))
    reader = ExtractiveReader(lexical, ledger)
    saved = reader.answer(_ask("Please remember that my locker code is 4471."), _no_tools)
    assert [c.name for c in saved.tool_calls] == ["save_memory"]
    assert any("4471" in m.text for m in lexical.recall("ana", "locker code", 5))
    assert lexical.recall("ben", "locker code", 5) == []
    reader.answer(_ask("Forget my gym, Fitlab on Park Road."), _no_tools)
    assert not any("Fitlab" in m.text for m in lexical.recall("ana", "gym Fitlab", 5))


def test_a_system_that_cannot_delete_says_so_instead_of_claiming_it() -> None:
    adapter = Recording({})
    ledger = Ledger(adapter)
    ledger.upsert(_wave("ana", "My gym is Fitlab on Park Road."))
    reply = ExtractiveReader(adapter, ledger).answer(_ask("Forget my gym Fitlab."), _no_tools)
    assert reply.tool_calls == () and "can't" in reply.final_text
    saved = ExtractiveReader(adapter, ledger).answer(
        _ask("Please remember that my locker code is 4471."), _no_tools
    )
    assert [c.name for c in saved.tool_calls] == ["save_memory"]  # kept as a turn of its own
    assert adapter.turns[-1].prompt.endswith("4471") or "4471" in adapter.turns[-1].prompt
    assert adapter.turns[-1].timestamp == "2025-03-01T10:00:01Z"


def test_the_model_reader_sends_the_locked_settings_and_the_recalled_memories(
    lexical: LexicalAdapter, model_server: ScriptedModel
) -> None:
    ledger = Ledger(lexical)
    ledger.upsert(_wave("ana", "My dentist is Dr Okafor."))
    model_server.script = scripted(
        completion(calls=[("search_memories", {"queries": ["dentist"]})]),
        completion("Your dentist is Dr Okafor."),
    )
    reader = ModelReader(lexical, ledger, model_server.base_url)
    try:
        reply = reader.answer(_ask("Who is my dentist?"), _no_tools)
    finally:
        reader.close()
    assert reply.final_text == "Your dentist is Dr Okafor."
    assert [c.name for c in reply.tool_calls] == ["search_memories"]
    first = model_server.requests[0]
    assert (first["model"], first["temperature"], first["seed"], first["max_tokens"]) == (
        READER_1.model,
        0.0,
        READER_1.seed,
        READER_1.max_tokens,
    )
    system = first["messages"][0]["content"]
    assert "Dr Okafor" in system and "Today is March 1, 2025" in system
    assert "Okafor" in model_server.tool_messages(1)[0]["content"]


def test_served_adapters_declare_what_is_measured(model_server: ScriptedModel) -> None:
    offline = build("lexical", {}, ReaderChoice())
    try:
        assert offline.identity["adapter"] == "lexical"
        assert offline.identity["reader"] == EXTRACTIVE_1.id
        assert identity_of({"identity": offline.identity}) == offline.identity
        assert locked_reader(offline.identity) == EXTRACTIVE_1
        assert "reader dittobench-extractive-1, locked" in identity_text(offline.identity)
    finally:
        offline.close()
    other = build("lexical", {}, ReaderChoice(model_server.base_url, "some-small-model"))
    try:
        assert other.identity["reader_model"] == "some-small-model"
        assert locked_reader(other.identity) is None
        assert "not a locked reader" in identity_text(other.identity)
    finally:
        other.close()


@pytest.mark.parametrize(
    ("name", "config", "message"),
    [
        ("nope", {}, "not built in"),
        ("no.such.module:Adapter", {}, "cannot import"),
        ("dittobench_adapters.contract:NoSuchClass", {}, "has no NoSuchClass"),
        ("dittobench_adapters.contract:Turn", {}, ""),
        ("lexical", {"dbb": "x"}, "unknown config key 'dbb'"),
        ("lexical", {"db": 7}, "db: expected str"),
    ],
)
def test_bad_adapters_and_configs_are_refused_by_name(
    name: str, config: dict[str, Any], message: str
) -> None:
    with pytest.raises((AdapterConfigError, TypeError)) as caught:
        load_adapter(name, config)
    assert message in str(caught.value)


def test_a_module_class_adapter_loads_by_path() -> None:
    adapter = load_adapter("tests.adapters.test_kit:Recording", {})
    assert isinstance(adapter, MemoryAdapter) and adapter.capabilities == frozenset()
    assert Capability.SAVE not in adapter.capabilities


def test_the_locked_reader_prompt_is_checked_against_its_hash() -> None:
    assert "never guess" in reader_prompt(READER_1).system
    with pytest.raises(ReaderConfigError, match="a changed prompt is a new version"):
        reader_prompt(type(READER_1)(**{**READER_1.to_json(), "prompt_sha256": "0" * 64}))
    with pytest.raises(ReaderConfigError, match="has no prompt"):
        reader_prompt(EXTRACTIVE_1)


@pytest.mark.parametrize(
    ("health", "identity"),
    [
        ({"identity": {"adapter": "mem0", "reader": "r"}}, {"adapter": "mem0", "reader": "r"}),
        ({"identity": {"Adapter": "x", "a b": "x", "ok": 7, "n": "", "z": "x" * 201}}, {}),
        ({"identity": {"bad": "line\nbreak", "good": "fine"}}, {"good": "fine"}),
        ({"identity": ["adapter"]}, {}),
        (
            {"identity": {f"k{i:02d}": "v" for i in range(40)}},
            {f"k{i:02d}": "v" for i in range(24)},
        ),
        ("not an object", {}),
    ],
)
def test_only_a_flat_object_of_short_strings_is_kept(health: Any, identity: dict[str, str]) -> None:
    assert identity_of(json.loads(json.dumps(health))) == identity


def test_what_an_adapter_describes_is_declared_under_system_keys() -> None:
    class Described(Recording):
        def describe(self) -> Mapping[str, str]:
            return {"system": "x", "system_version": "2", "Model Name": "m" * 300, "empty": ""}

    declared = harness_identity(Described({}), EXTRACTIVE_1)
    assert (declared["system"], declared["system_version"]) == ("x", "2")
    assert declared["system_model_name"] == "m" * 200 and "system_empty" not in declared
    assert identity_of({"identity": declared}) == declared  # the engine keeps all of it
