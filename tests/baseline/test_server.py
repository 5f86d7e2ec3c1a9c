"""The harness over real HTTP: health, seed and run round trips, validation, errors, concurrency
and the ``python -m dittobench_baseline`` entry point."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from dittobench.catalog import CATALOG
from dittobench.spec.wire import (
    Pair,
    RunRequest,
    RunResponse,
    SeedRequest,
    ToolExecRequest,
    ToolExecResponse,
    to_wire,
)
from dittobench_baseline.agent import OfflineAgent, ToolCaller
from dittobench_baseline.store import MemoryStore
from tests.baseline.conftest import LiveHarness, ToolEndpoint, start_live


def client() -> httpx.Client:
    return httpx.Client(timeout=10, trust_env=False)


def seed_body(user: str, wave: int, *facts: tuple[str, str]) -> dict[str, Any]:
    return to_wire(
        SeedRequest(
            user_id=user,
            wave=wave,
            pairs=tuple(
                Pair(pid, f"s-{pid}", "2024-05-01T09:00:00Z", prompt, "Got it.")
                for pid, prompt in facts
            ),
        )
    )


def run_body(text: str, *, user: str = "", endpoint: str = "", case: str = "c-1") -> dict[str, Any]:
    return to_wire(RunRequest(case, "Be brief.", text, CATALOG, endpoint, user))


def test_health(live: LiveHarness) -> None:
    with client() as http:
        reply = http.get(f"{live.url}/health")
    assert reply.status_code == 200
    body = reply.json()
    assert body["status"] == "ok" and re.fullmatch(r"[0-9a-f]{16}", body["instance"])
    assert set(body) == {"status", "instance"}


def test_the_instance_is_the_memory_s_lifetime(tmp_path: Path) -> None:
    """A store in RAM is new with each process; a store on disk keeps its instance."""
    assert MemoryStore().instance != MemoryStore().instance
    path = tmp_path / "memory.db"
    first = MemoryStore(path)
    kept = first.instance
    first.close()
    assert MemoryStore(path).instance == kept


def test_seed_then_run_round_trip(live: LiveHarness) -> None:
    with client() as http:
        seeded = http.post(
            f"{live.url}/seed",
            json=seed_body(
                "miner", 0, ("p-1", "My sister's name is Ilse."), ("p-2", "I own a kayak.")
            ),
        )
        assert seeded.status_code == 200
        assert seeded.json() == {"pairs": 2, "subjects": 0, "links": 0}
        again = http.post(
            f"{live.url}/seed", json=seed_body("miner", 1, ("p-3", "I own a canoe too."))
        )
        assert again.json()["pairs"] == 1
        reply = http.post(f"{live.url}/run", json=run_body("What is my sister's name?"))
    assert reply.status_code == 200
    body = reply.json()
    assert "Ilse" in body["final_text"]
    assert body["tool_calls"][0]["name"] == "search_memories"
    assert live.store.count("miner") == 3


def test_write_path_over_http(live: LiveHarness) -> None:
    with client() as http:

        def run(text: str) -> dict[str, Any]:
            reply = http.post(f"{live.url}/run", json=run_body(text, user="miner"))
            assert reply.status_code == 200
            return dict(reply.json())

        assert run("Please remember that my parking spot is level 3, bay 117.")[
            "final_text"
        ].startswith("Saved")
        assert "bay 117" in run("Where is my parking spot?")["final_text"]
        assert run("Update my parking spot to level 5, bay 208.")["final_text"].startswith(
            "Updated"
        )
        after_update = run("Where is my parking spot?")["final_text"]
        assert "bay 208" in after_update and "bay 117" not in after_update
        assert run("Forget my parking spot.")["final_text"].startswith("Deleted")
        declined = run("Where is my parking spot?")
        assert declined["abstain"] is True
        assert "208" not in declined["final_text"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "expected an object"),
        (b'{"system_prompt": "x", "user_input": "y"}', "$.case_id: missing"),
        (b'{"case_id": 7, "system_prompt": "x", "user_input": "y"}', "$.case_id: expected str"),
        (b'{"case_id": "c", "system_prompt": "", "user_input": "", "tools": {}}', "$.tools"),
        (b'{"case_id": "c", "system_prompt": "", "user_input": NaN}', "NaN"),
        (b"", "empty"),
        (b"\xff\xfe\x00", "run request"),
    ],
)
def test_malformed_run_bodies_are_400(live: LiveHarness, body: bytes, fragment: str) -> None:
    with client() as http:
        reply = http.post(f"{live.url}/run", content=body)
    assert reply.status_code == 400
    assert fragment in reply.json()["error"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (b'{"pairs": "nope"}', "$.pairs: expected an array"),
        (b'{"pairs": [{"pair_id": "p"}]}', "$.pairs[0].session_id: missing"),
        (b'{"wave": "0"}', "$.wave: expected int"),
        (b"{]", "not valid JSON"),
    ],
)
def test_malformed_seed_bodies_are_400(live: LiveHarness, body: bytes, fragment: str) -> None:
    with client() as http:
        reply = http.post(f"{live.url}/seed", content=body)
    assert reply.status_code == 400
    assert fragment in reply.json()["error"]


def test_oversized_body_is_413(store: MemoryStore) -> None:
    url, stop = start_live(store, OfflineAgent(store), max_body_bytes=1024)
    try:
        with client() as http:
            declared = http.post(f"{url}/seed", content=b"x" * 2048)
            assert declared.status_code == 413
            chunked = http.post(f"{url}/run", content=iter([b"x" * 600, b"y" * 600]))
            assert chunked.status_code == 413
            assert "error" in chunked.json()
            small = http.post(f"{url}/seed", json={"wave": 0})
            assert small.status_code == 200
    finally:
        stop()


class Exploding(OfflineAgent):
    def answer(self, request: RunRequest, call_tool: ToolCaller) -> RunResponse:
        raise RuntimeError("secret internal detail")


def test_internal_failure_is_a_500_without_a_traceback(store: MemoryStore) -> None:
    url, stop = start_live(store, Exploding(store))
    try:
        with client() as http:
            reply = http.post(f"{url}/run", json=run_body("hello"))
    finally:
        stop()
    assert reply.status_code == 500
    assert set(reply.json()) == {"error"}
    assert "Traceback" not in reply.text and "secret" not in reply.text


def test_unknown_route_and_wrong_method(live: LiveHarness) -> None:
    with client() as http:
        assert http.get(f"{live.url}/nope").status_code == 404
        assert http.get(f"{live.url}/run").status_code == 405


def test_url_request_reaches_the_tool_endpoint_over_http(
    live: LiveHarness, tool_endpoint: ToolEndpoint
) -> None:
    tool_endpoint.reply = lambda body: {
        "result": "The page says the Orvane dam holds 3,118,400 m3."
    }
    with client() as http:
        reply = http.post(
            f"{live.url}/run",
            json=run_body(
                "Please read https://example.org/orvane and tell me the Orvane dam figure.",
                endpoint=tool_endpoint.url,
                user="miner",
                case="case-77",
            ),
        )
    assert reply.status_code == 200
    body = reply.json()
    assert tool_endpoint.names() == ["read_links"]
    sent = tool_endpoint.calls[0]
    assert sent == {
        "case_id": "case-77",
        "name": "read_links",
        "args": {"urls": ["https://example.org/orvane"]},
        "hop": 0,
        "user_id": "miner",
    }
    assert body["answer"] == "3,118,400"
    assert "3,118,400" in body["final_text"]


def test_small_talk_over_http_calls_nothing(live: LiveHarness, tool_endpoint: ToolEndpoint) -> None:
    with client() as http:
        reply = http.post(
            f"{live.url}/run", json=run_body("Hey, thanks so much!", endpoint=tool_endpoint.url)
        )
    assert reply.status_code == 200
    assert reply.json().get("tool_calls", []) == []
    assert tool_endpoint.calls == []


def test_concurrent_users_never_see_each_other(live: LiveHarness) -> None:
    users = [f"user-{n}" for n in range(6)]
    with client() as http:
        for n, user in enumerate(users):
            code = f"{n}{n}{n}-{n + 40}"
            body = seed_body(user, 0, (f"p-{user}", f"My gym locker code is {code}."))
            assert http.post(f"{live.url}/seed", json=body).status_code == 200

    failures: list[str] = []
    lock = threading.Lock()

    def ask(n: int, user: str) -> None:
        with client() as http:
            for _ in range(4):
                reply = http.post(
                    f"{live.url}/run",
                    json=run_body("What is my gym locker code?", user=user, case=f"c-{user}"),
                )
                text = json.dumps(reply.json())
                mine = f"{n}{n}{n}-{n + 40}"
                others = [f"{m}{m}{m}-{m + 40}" for m in range(len(users)) if m != n]
                if reply.status_code != 200 or mine not in text or any(o in text for o in others):
                    with lock:
                        failures.append(f"{user}: {reply.status_code} {text}")

    threads = [threading.Thread(target=ask, args=(n, u)) for n, u in enumerate(users)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert failures == []


def test_slow_tools_do_not_block_other_requests(store: MemoryStore) -> None:
    gate = threading.Event()

    def slow_tool(endpoint: str, request: ToolExecRequest) -> ToolExecResponse:
        gate.wait(timeout=10)
        return ToolExecResponse(result="done")

    url, stop = start_live(store, OfflineAgent(store), slow_tool)
    try:
        results: list[int] = []
        body = run_body("Switch the app to the dark theme.", endpoint="http://127.0.0.1:9/tools")

        def post() -> None:
            with client() as http:
                results.append(http.post(f"{url}/run", json=body).status_code)

        thread = threading.Thread(target=post)
        thread.start()
        with client() as http:
            assert http.get(f"{url}/health", timeout=3).status_code == 200
        gate.set()
        thread.join(timeout=10)
        assert results == [200]
    finally:
        gate.set()
        stop()


def test_module_entry_point_prints_the_real_port(tmp_path: Any) -> None:
    env = {
        k: v for k, v in os.environ.items() if not k.endswith("_proxy") and not k.endswith("_PROXY")
    }
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "dittobench_baseline",
            "--port",
            "0",
            "--db",
            str(tmp_path / "m.db"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:")
        port = int(line.rsplit(":", 1)[1])
        assert port > 0
        with client() as http:
            assert http.get(f"http://127.0.0.1:{port}/health").json()["status"] == "ok"
            seeded = http.post(
                f"http://127.0.0.1:{port}/seed", json=seed_body("miner", 0, ("p-1", "I keep koi."))
            )
            assert seeded.json()["pairs"] == 1
    finally:
        process.terminate()
        process.communicate(timeout=10)
    assert (tmp_path / "m.db").exists()
