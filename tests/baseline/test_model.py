"""Model mode against a scripted OpenAI-compatible server: the tool loop, local memory tools,
forwarded tools, hops, token sums, the step budget, the reference date and endpoint failures."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from dittobench.catalog import CATALOG
from dittobench.spec.wire import Pair, RunRequest, RunResponse, SeedRequest, to_wire
from dittobench_baseline.__main__ import main as module_main
from dittobench_baseline.agent import HttpToolCaller
from dittobench_baseline.model import (
    ModelAgent,
    ModelEndpointError,
    api_key_from,
    is_decline,
    openai_tools,
)
from dittobench_baseline.store import MemoryStore
from tests.baseline.conftest import ToolEndpoint, start_live

Reply = tuple[int, Any]
"""An HTTP status and a JSON body (a ``str`` body is sent as raw text)."""


@dataclass
class ScriptedModel:
    """A loopback OpenAI-compatible server: records each chat request and answers the n-th one
    with ``script(n, body)``."""

    base_url: str
    script: Callable[[int, dict[str, Any]], Reply] = field(
        default=lambda n, body: (200, completion("done"))
    )
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    delay_s: float = 0.0

    def tool_messages(self, n: int) -> list[dict[str, Any]]:
        return [m for m in self.requests[n]["messages"] if m["role"] == "tool"]


def completion(
    text: str | None = None,
    calls: list[tuple[str, Any]] | None = None,
    usage: tuple[int, int] = (10, 2),
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = [
            {
                "id": f"call-{name}-{i}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": args if isinstance(args, str) else json.dumps(args),
                },
            }
            for i, (name, args) in enumerate(calls)
        ]
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1]},
    }


def scripted(*replies: dict[str, Any]) -> Callable[[int, dict[str, Any]], Reply]:
    return lambda n, body: (200, replies[min(n, len(replies) - 1)])


@pytest.fixture
def model_server() -> Iterator[ScriptedModel]:
    model = ScriptedModel(base_url="")
    lock = threading.Lock()

    class Handle(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            with lock:
                n = len(model.requests)
                model.requests.append(body)
                model.headers.append(dict(self.headers))
            if self.path != "/v1/chat/completions":
                status, reply = 404, {"error": {"message": f"no route {self.path}"}}
            else:
                status, reply = model.script(n, body)
            time.sleep(model.delay_s)
            data = reply.encode() if isinstance(reply, str) else json.dumps(reply).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except OSError:  # the client gave up (timeout test)
                pass

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handle)
    server.daemon_threads = True
    model.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    thread = threading.Thread(target=server.serve_forever, args=(0.01,), daemon=True)
    thread.start()
    try:
        yield model
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def seed(store: MemoryStore, *facts: tuple[str, str], user: str = "miner") -> None:
    store.upsert(
        SeedRequest(
            user_id=user,
            pairs=tuple(
                Pair(f"p-{i}", f"s-{i}", ts, prompt, "Noted.")
                for i, (ts, prompt) in enumerate(facts)
            ),
        )
    )


def request(text: str, endpoint: str = "", *, user: str = "miner") -> RunRequest:
    return RunRequest("case-7", "You are a helpful assistant.", text, CATALOG, endpoint, user)


def run(agent: ModelAgent, req: RunRequest) -> RunResponse:
    caller = HttpToolCaller(timeout=5)
    try:
        return agent.answer(req, caller)
    finally:
        caller.close()


@pytest.fixture
def make_agent(
    store: MemoryStore, model_server: ScriptedModel
) -> Iterator[Callable[..., ModelAgent]]:
    made: list[ModelAgent] = []

    def make(**kwargs: Any) -> ModelAgent:
        kwargs.setdefault("timeout_s", 5.0)
        agent = ModelAgent(store, model_server.base_url, "test-model", **kwargs)
        made.append(agent)
        return agent

    yield make
    for agent in made:
        agent.close()


DENTIST = ("2024-03-10T10:00:00Z", "My dentist is Dr. Amara Patel on Quay Street.")
OLDER = ("2024-01-02T08:30:00Z", "I started learning the cello.")


# The loop -------------------------------------------------------------------------------------


def test_memory_local_other_tools_forwarded_hops_and_tokens(
    store: MemoryStore,
    model_server: ScriptedModel,
    tool_endpoint: ToolEndpoint,
    make_agent: Callable[..., ModelAgent],
) -> None:
    seed(store, OLDER, DENTIST)
    tool_endpoint.reply = lambda body: {"result": "Quay Street Dental opens at 8am."}
    model_server.script = scripted(
        completion(None, [("search_memories", {"queries": ["dentist"]})], usage=(100, 10)),
        completion(
            "Let me check.", [("search_web", {"queries": ["Amara Patel hours"]})], (120, 12)
        ),
        completion("Dr. Amara Patel on Quay Street; it opens at 8am.", usage=(150, 20)),
    )
    agent = make_agent(api_key="sk-test")
    reply = run(agent, request("When does my dentist open?", tool_endpoint.url))

    assert len(model_server.requests) == 3
    first = model_server.requests[0]
    assert first["model"] == "test-model"
    assert first["tool_choice"] == "auto"
    assert first["tools"] == openai_tools(CATALOG)
    assert first["tools"][0]["type"] == "function"
    assert set(first["tools"][0]["function"]) == {"name", "description", "parameters"}
    system, user = first["messages"]
    assert system["role"] == "system" and user == {
        "role": "user",
        "content": "When does my dentist open?",
    }
    assert system["content"].startswith("You are a helpful assistant.")
    assert "March 10, 2024" in system["content"]
    assert "2024-03-10T10:00:00Z" in system["content"]
    assert "search_memories" in system["content"]
    assert model_server.headers[0]["Authorization"] == "Bearer sk-test"

    # search_memories ran here, on the store: its result went back to the model.
    (memory_result,) = model_server.tool_messages(1)
    assert memory_result["tool_call_id"] == "call-search_memories-0"
    assert "Amara Patel" in memory_result["content"]
    echoed = model_server.requests[1]["messages"][2]
    assert echoed["role"] == "assistant"
    assert echoed["tool_calls"][0]["function"]["name"] == "search_memories"

    # search_web went to the tool endpoint, and only it did.
    assert tool_endpoint.names() == ["search_web"]
    sent = tool_endpoint.calls[0]
    assert sent == {
        "case_id": "case-7",
        "name": "search_web",
        "args": {"queries": ["Amara Patel hours"]},
        "hop": 1,
        "user_id": "miner",
    }
    assert model_server.tool_messages(2)[-1]["content"] == "Quay Street Dental opens at 8am."

    assert reply.final_text == "Dr. Amara Patel on Quay Street; it opens at 8am."
    assert [(c.name, c.args, c.hop) for c in reply.tool_calls] == [
        ("search_memories", {"queries": ["dentist"]}, 0),
        ("search_web", {"queries": ["Amara Patel hours"]}, 1),
    ]
    assert (reply.prompt_tokens, reply.output_tokens) == (370, 42)
    assert reply.abstain is None


def test_step_budget_ends_an_endless_tool_loop(
    store: MemoryStore, model_server: ScriptedModel, make_agent: Callable[..., ModelAgent]
) -> None:
    seed(store, DENTIST)
    model_server.script = lambda n, body: (
        200,
        completion(f"still looking ({n})", [("search_memories", {"queries": [f"q{n}"]})]),
    )
    reply = run(make_agent(max_steps=3), request("Where is my dentist?"))
    assert len(model_server.requests) == 3
    assert [c.hop for c in reply.tool_calls] == [0, 1, 2]
    assert reply.final_text == "still looking (2)"
    assert (reply.prompt_tokens, reply.output_tokens) == (30, 6)


def test_several_calls_in_one_turn_get_their_own_hops(
    store: MemoryStore, model_server: ScriptedModel, make_agent: Callable[..., ModelAgent]
) -> None:
    seed(store, OLDER, DENTIST)
    model_server.script = scripted(
        completion(
            None,
            [("search_memories", {"queries": ["cello"]}), ("fetch_memories", {"pairIds": ["p-1"]})],
        ),
        completion("Done."),
    )
    reply = run(make_agent(), request("What do I play, and who is my dentist?"))
    assert [(c.name, c.hop) for c in reply.tool_calls] == [
        ("search_memories", 0),
        ("fetch_memories", 1),
    ]
    cello, dentist = model_server.tool_messages(1)
    assert "cello" in cello["content"] and "Amara Patel" in dentist["content"]
    assert cello["tool_call_id"] != dentist["tool_call_id"]


def test_write_tools_change_the_store(
    store: MemoryStore, model_server: ScriptedModel, make_agent: Callable[..., ModelAgent]
) -> None:
    model_server.script = scripted(
        completion(None, [("save_memory", {"content": "My gym locker is number 48."})]),
        completion("Saved."),
    )
    reply = run(make_agent(), request("Remember that my gym locker is number 48."))
    assert reply.final_text == "Saved."
    assert "saved as mem-" in model_server.tool_messages(1)[0]["content"]
    assert [h.prompt for h in store.search("miner", "gym locker", 5)] == [
        "My gym locker is number 48."
    ]
    assert store.search("colleague", "gym locker", 5) == []


def test_memory_is_per_user(
    store: MemoryStore, model_server: ScriptedModel, make_agent: Callable[..., ModelAgent]
) -> None:
    seed(store, DENTIST, user="colleague")
    model_server.script = scripted(
        completion(None, [("search_memories", {"queries": ["dentist"]})]), completion("?")
    )
    run(make_agent(), request("Who is my dentist?", user="miner"))
    assert "Amara" not in model_server.tool_messages(1)[0]["content"]
    assert "unknown" in model_server.requests[0]["messages"][0]["content"]


def test_bad_arguments_are_reported_back_not_executed(
    store: MemoryStore,
    model_server: ScriptedModel,
    tool_endpoint: ToolEndpoint,
    make_agent: Callable[..., ModelAgent],
) -> None:
    model_server.script = scripted(
        completion(None, [("search_web", '{"queries": ["unterminated')]), completion("Sorry.")
    )
    reply = run(make_agent(), request("Search the web for kites.", tool_endpoint.url))
    assert tool_endpoint.calls == []
    assert "not a valid JSON object" in model_server.tool_messages(1)[0]["content"]
    assert reply.tool_calls[0].name == "search_web"


def test_tool_endpoint_errors_go_back_to_the_model(
    store: MemoryStore, model_server: ScriptedModel, make_agent: Callable[..., ModelAgent]
) -> None:
    model_server.script = scripted(
        completion(None, [("search_web", {"queries": ["kites"]})]), completion("It failed.")
    )
    reply = run(make_agent(), request("Search the web for kites.", "http://127.0.0.1:9/none"))
    assert model_server.tool_messages(1)[0]["content"].startswith("error: tool endpoint")
    assert reply.final_text == "It failed."


def test_reference_date_is_unknown_without_stored_pairs(
    model_server: ScriptedModel, make_agent: Callable[..., ModelAgent]
) -> None:
    agent = make_agent()
    prompt = agent.system_prompt(request("Hello"))
    assert "Reference date: unknown" in prompt
    assert agent.system_prompt(RunRequest("c", "", "Hi")).startswith("Reference date")


def test_reasoning_blocks_are_dropped_and_declines_flagged(
    store: MemoryStore, model_server: ScriptedModel, make_agent: Callable[..., ModelAgent]
) -> None:
    model_server.script = scripted(
        completion("<think>Nothing stored.</think>I don't have a record of your blood type.")
    )
    reply = run(make_agent(), request("What is my blood type?"))
    assert reply.final_text == "I don't have a record of your blood type."
    assert reply.abstain is True
    assert reply.tool_calls == ()


@pytest.mark.parametrize(
    ("text", "declined"),
    [
        ("I don't have a record of that.", True),
        ("I couldn't find anything about your blood type in our conversations.", True),
        ("You haven't told me your blood type. Would you like me to remember it?", True),
        ("Sorry, I don't know what your blood type is.", True),
        ("I couldn't find the exact date, but you moved to Porto in March.", False),
        ("You live in Porto.", False),
        ("I don't have a record of that. You did say you moved. It was March. Porto.", False),
        ("", False),
    ],
)
def test_is_decline(text: str, declined: bool) -> None:
    assert is_decline(text) is declined


def test_api_key_comes_from_the_environment_mapping() -> None:
    assert api_key_from({}) is None
    assert api_key_from({"OPENAI_API_KEY": "sk-o"}) == "sk-o"
    assert api_key_from({"OPENAI_API_KEY": "sk-o", "DITTOBENCH_MODEL_API_KEY": "sk-d"}) == "sk-d"
    assert api_key_from({"DITTOBENCH_MODEL_API_KEY": " ", "OPENAI_API_KEY": "sk-o"}) == "sk-o"


# Endpoint failures ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "fragment"),
    [
        ((500, {"error": {"message": "model crashed"}}), "HTTP 500: model crashed"),
        ((404, {"error": "model 'test-model' not found"}), "HTTP 404: model 'test-model' not"),
        ((200, "not json"), "malformed reply: the body is not JSON"),
        ((200, {"choices": []}), "malformed reply: no choices"),
        ((200, {"choices": [{"text": "legacy"}]}), "no message"),
        (
            (200, {"choices": [{"message": {"content": None, "tool_calls": [{"id": "x"}]}}]}),
            "a tool call has no function",
        ),
    ],
)
def test_endpoint_failures_raise(
    model_server: ScriptedModel,
    make_agent: Callable[..., ModelAgent],
    reply: Reply,
    fragment: str,
) -> None:
    model_server.script = lambda n, body: reply
    with pytest.raises(ModelEndpointError) as caught:
        run(make_agent(), request("Hello?"))
    assert str(caught.value).startswith("model endpoint: ")
    assert fragment in str(caught.value)


def test_timeout_and_unreachable_raise(
    store: MemoryStore, model_server: ScriptedModel, make_agent: Callable[..., ModelAgent]
) -> None:
    model_server.delay_s = 0.5
    with pytest.raises(ModelEndpointError, match=r"no reply within 0\.1 s"):
        run(make_agent(timeout_s=0.1), request("Hello?"))
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        free = sock.getsockname()[1]
    agent = ModelAgent(store, f"http://127.0.0.1:{free}/v1", "m", timeout_s=2)
    try:
        with pytest.raises(ModelEndpointError, match="unreachable"):
            run(agent, request("Hello?"))
    finally:
        agent.close()


# Through the server ---------------------------------------------------------------------------


def test_end_to_end_over_http(
    store: MemoryStore,
    model_server: ScriptedModel,
    tool_endpoint: ToolEndpoint,
    make_agent: Callable[..., ModelAgent],
) -> None:
    model_server.script = scripted(
        completion(None, [("search_memories", {"queries": ["kayak"]})], usage=(40, 4)),
        completion(None, [("search_web", {"queries": ["kayak storage"]})], usage=(50, 5)),
        completion("You own a sea kayak; storage racks are an option.", usage=(60, 6)),
    )
    url, stop = start_live(store, make_agent())
    try:
        with httpx.Client(timeout=10, trust_env=False) as http:
            seeded = http.post(
                f"{url}/seed",
                json=to_wire(
                    SeedRequest(
                        pairs=(
                            Pair("p-k", "s-k", "2024-06-01T12:00:00Z", "I own a sea kayak.", ""),
                        )
                    )
                ),
            )
            assert seeded.status_code == 200
            body = to_wire(request("Where could I keep my kayak?", tool_endpoint.url))
            reply = http.post(f"{url}/run", json=body)
            model_server.script = lambda n, b: (503, {"error": {"message": "overloaded"}})
            failed = http.post(f"{url}/run", json=body)
    finally:
        stop()
    assert reply.status_code == 200
    out = reply.json()
    assert out["final_text"] == "You own a sea kayak; storage racks are an option."
    assert out["tool_calls"] == [
        {"name": "search_memories", "args": {"queries": ["kayak"]}, "hop": 0},
        {"name": "search_web", "args": {"queries": ["kayak storage"]}, "hop": 1},
    ]
    assert (out["prompt_tokens"], out["output_tokens"]) == (150, 15)
    assert "sea kayak" in model_server.tool_messages(1)[0]["content"]
    assert "June 1, 2024" in model_server.requests[0]["messages"][0]["content"]
    assert tool_endpoint.names() == ["search_web"]
    assert failed.status_code == 502
    assert failed.json() == {"error": "model endpoint: HTTP 503: overloaded"}


def test_module_entry_point_in_llm_mode_reads_the_key(model_server: ScriptedModel) -> None:
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env["DITTOBENCH_MODEL_API_KEY"] = "sk-from-env"
    model_server.script = scripted(completion("Hello from the model."))
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "dittobench_baseline",
            "--port",
            "0",
            "--mode",
            "llm",
            "--base-url",
            model_server.base_url,
            "--model",
            "scripted",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:")
        with httpx.Client(timeout=10, trust_env=False) as http:
            reply = http.post(
                f"{line.removeprefix('listening on ')}/run",
                json=to_wire(RunRequest("c-1", "", "Hi!")),
            )
    finally:
        process.terminate()
        process.communicate(timeout=10)
    assert reply.json()["final_text"] == "Hello from the model."
    assert model_server.requests[0]["model"] == "scripted"
    assert model_server.headers[0]["Authorization"] == "Bearer sk-from-env"


def test_module_entry_point_needs_url_and_model(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        module_main(["--mode", "llm", "--model", "m"])
    assert exited.value.code == 2
    assert "--base-url and --model" in capsys.readouterr().err
