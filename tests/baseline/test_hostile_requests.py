"""The built-in harness, as a real process on loopback, against requests no engine sends: lone
surrogates in ``/run`` text, bodies over the 8 MiB cap, JSON nested past the depth limit, and
``tool_endpoint`` URLs that point away from this machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest

from dittobench.catalog import CATALOG
from dittobench.spec.repair import MAX_DEPTH
from dittobench.spec.wire import RunRequest, RunResponse, ToolCall, to_wire
from dittobench_baseline.agent import OfflineAgent, ToolCaller
from dittobench_baseline.server import MAX_BODY_BYTES, loopback_http
from dittobench_baseline.store import MemoryStore
from tests.baseline.conftest import ToolEndpoint, start_live


def start(*extra: str) -> tuple[subprocess.Popen[str], str]:
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    process = subprocess.Popen(
        [sys.executable, "-m", "dittobench_baseline", "--port", "0", *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    assert line.startswith("listening on http://127.0.0.1:"), line
    return process, line.removeprefix("listening on ")


@pytest.fixture
def baseline() -> Iterator[str]:
    process, url = start()
    try:
        yield url
    finally:
        process.terminate()
        process.communicate(timeout=10)


def client() -> httpx.Client:
    return httpx.Client(timeout=30, trust_env=False)


def body(text: str, endpoint: str = "", case: str = "c-1") -> bytes:
    return json.dumps(to_wire(RunRequest(case, "Be brief.", text, CATALOG, endpoint))).encode()


@pytest.mark.parametrize(
    "text",
    [
        "What did I say about \udfff?",  # a memory question: the decline echoed it
        "When did I last visit \ud800?",
        "Remember that my locker code is \udfff42.",
        "Search the web for \ud83d turbines",
    ],
)
def test_a_lone_surrogate_in_run_gets_a_json_reply(baseline: str, text: str) -> None:
    with client() as http:
        reply = http.post(f"{baseline}/run", content=body(text))  # json.dumps escapes it
    assert reply.headers["content-type"].startswith("application/json")
    assert reply.status_code == 200, reply.text
    assert isinstance(reply.json()["final_text"], str)


def test_a_lone_surrogate_in_a_key_or_seed_is_repaired_too(baseline: str) -> None:
    seed = {
        "user_id": "miner",
        "wave": 0,
        "pairs": [
            {
                "pair_id": "p-\ud800",
                "session_id": "s-1",
                "timestamp": "2024-05-01T09:00:00Z",
                "prompt": "I keep koi \udc00.",
                "response": "Noted.",
            }
        ],
    }
    with client() as http:
        seeded = http.post(f"{baseline}/seed", content=json.dumps(seed).encode())
        assert (seeded.status_code, seeded.json()["pairs"]) == (200, 1)
        request = json.loads(body("What fish do I keep?"))
        request["extra\udfff"] = {"k\ud800": 1}
        reply = http.post(f"{baseline}/run", content=json.dumps(request).encode())
    assert reply.status_code == 200 and reply.headers["content-type"] == "application/json"


def test_a_body_over_8_mib_is_a_json_413(baseline: str) -> None:
    assert MAX_BODY_BYTES == 8 * 1024 * 1024
    big = b'{"case_id": "c", "system_prompt": "", "user_input": "' + b"x" * MAX_BODY_BYTES + b'"}'
    with client() as http:
        declared = http.post(f"{baseline}/run", content=big)
        streamed = http.post(f"{baseline}/run", content=iter([big[:4096], big[4096:]]))
    for reply in (declared, streamed):
        assert reply.status_code == 413
        assert "body larger than" in reply.json()["error"]


def test_json_nested_past_the_limit_is_a_json_400(baseline: str) -> None:
    request = json.loads(body("hello"))
    nested = "{" + '"a":{' * MAX_DEPTH + "}" * MAX_DEPTH + "}"
    text = json.dumps(request)[:-1] + ', "extra": ' + nested + "}"
    with client() as http:
        reply = http.post(f"{baseline}/run", content=text.encode())
    assert reply.status_code == 400
    assert f"nested deeper than {MAX_DEPTH}" in reply.json()["error"]


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("http://127.0.0.1:9/tool", True),
        ("http://127.3.4.5:9/t/x/tool", True),
        ("http://[::1]:9/tool", True),
        ("http://localhost:9/tool", True),
        ("https://127.0.0.1/tool", False),
        ("http://10.0.0.1/tool", False),
        ("http://169.254.169.254/latest/meta-data/", False),
        ("http://example.org/tool", False),
        ("http://127.0.0.1.example.org/tool", False),
        ("file:///etc/passwd", False),
        ("http://[::1/tool", False),
        ("not a url", False),
    ],
)
def test_only_loopback_http_tool_endpoints_count(url: str, ok: bool) -> None:
    assert loopback_http(url) is ok


def test_a_remote_tool_endpoint_is_refused_unless_allowed(tool_endpoint: ToolEndpoint) -> None:
    """A ``/run`` naming a tool endpoint elsewhere gets a JSON 400; a loopback one is called;
    ``--allow-remote-tools`` lifts the refusal."""
    remote = "http://192.0.2.1:9/tool"  # TEST-NET-1: never routed
    prompt = "Switch the app to the dark theme."
    process, url = start()
    try:
        with client() as http:
            refused = http.post(f"{url}/run", content=body(prompt, remote))
            allowed = http.post(f"{url}/run", content=body(prompt, tool_endpoint.url))
    finally:
        process.terminate()
        process.communicate(timeout=10)
    assert refused.status_code == 400
    assert "not a loopback http URL" in refused.json()["error"]
    assert allowed.status_code == 200 and tool_endpoint.names()
    process, url = start("--allow-remote-tools")
    try:
        with client() as http:
            lifted = http.post(f"{url}/run", content=body("hello there", remote))
    finally:
        process.terminate()
        process.communicate(timeout=10)
    assert lifted.status_code == 200


class Surrogates(OfflineAgent):
    def answer(self, request: RunRequest, call_tool: ToolCaller) -> RunResponse:
        return RunResponse(final_text="echo \ud800", answer="\udfff")


class Unencodable(OfflineAgent):
    def answer(self, request: RunRequest, call_tool: ToolCaller) -> RunResponse:
        return RunResponse(tool_calls=(ToolCall("x", {1, 2}),))  # a set is not JSON


def test_whatever_the_agent_returns_the_reply_is_json() -> None:
    with MemoryStore(":memory:") as store:
        for agent, status in ((Surrogates(store), 200), (Unencodable(store), 500)):
            url, stop = start_live(store, agent)
            try:
                with client() as http:
                    reply = http.post(f"{url}/run", content=body("hello"))
            finally:
                stop()
            assert reply.status_code == status
            assert reply.headers["content-type"] == "application/json"
            if status == 200:
                assert (reply.json()["final_text"], reply.json()["answer"]) == ("echo ?", "?")
            else:
                assert reply.json() == {"error": "internal error"}
