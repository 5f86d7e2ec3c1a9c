"""The test harness server itself: each mode started as a real process, driven over loopback."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from dittobench.catalog import CATALOG, MEMORY_TOOLS, required_args
from dittobench.core.canonical import canonical_bytes
from dittobench.mocktools import execute
from dittobench.spec.wire import RunRequest, to_wire
from tests.helpers.datasets import CONTENT_VERSION, dataset
from tests.helpers.harness_process import (
    SCRIPT,
    HarnessStartError,
    harness,
    start_harness,
)

TIMEOUT = 2.0
RETRY_ERROR = "transient upstream error (503); retry"


# Clients -----------------------------------------------------------------------------------


@dataclass
class Reply:
    status: int
    body: bytes
    headers: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.body)


def call(
    url: str,
    method: str,
    path: str,
    body: bytes | None = None,
    *,
    timeout: float = TIMEOUT,
    chunked: bool = False,
) -> Reply:
    """One request on a fresh connection (http.client ignores proxy settings)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"}
        if chunked and body is not None:
            connection.request(method, path, body=iter([body]), headers=headers)
        else:
            connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return Reply(response.status, response.read(), dict(response.getheaders()))
    finally:
        connection.close()


def post(url: str, path: str, payload: Any, **kwargs: Any) -> Reply:
    return call(url, "POST", path, json.dumps(payload).encode(), **kwargs)


def run(url: str, case_id: str = "c0123456789abcdef", **fields: Any) -> Reply:
    request = RunRequest(
        case_id=case_id,
        system_prompt="You are a helpful assistant.",
        user_input=fields.pop("user_input", "hello"),
        tools=CATALOG,
        tool_endpoint=fields.pop("tool_endpoint", ""),
        user_id=fields.pop("user_id", ""),
    )
    return post(url, "/run", to_wire(request), **fields)


# A tiny tool endpoint ----------------------------------------------------------------------


@dataclass
class ToolEndpoint:
    url: str
    calls: list[dict[str, Any]] = field(default_factory=list)
    fail_first: bool = False
    needle: str = "the Drouvelan turbine reached 4,242 tickets"


@pytest.fixture
def tool_endpoint() -> Iterator[ToolEndpoint]:
    """Records every ToolExecRequest; ``search_web`` results carry a needle figure. With
    ``fail_first`` set, the first call of each tool gets the mock's transient error."""
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with lock:
                first = all(c["name"] != body["name"] for c in endpoint.calls)
                endpoint.calls.append(body)
            if endpoint.fail_first and first:
                reply: dict[str, Any] = {"result": "", "error": RETRY_ERROR}
            elif body["name"] == "search_web":
                reply = {"result": f"1. {endpoint.needle} (https://example.org/a)"}
            else:
                reply = {"result": "ok"}
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    endpoint = ToolEndpoint(f"http://127.0.0.1:{server.server_address[1]}/tools/exec")
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    try:
        yield endpoint
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=TIMEOUT)


@pytest.fixture(scope="module")
def answers_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("answers") / "dataset.json"
    path.write_bytes(canonical_bytes(dataset(1, "small").to_json()))
    return path


# Process basics ----------------------------------------------------------------------------


def test_stdout_is_one_port_line_and_sigterm_exits_promptly() -> None:
    process = subprocess.Popen(
        [sys.executable, str(SCRIPT), "--mode", "nothing"],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline().decode()
        assert first.startswith("PORT ") and first.endswith("\n")
        url = f"http://127.0.0.1:{int(first.split()[1])}"
        assert call(url, "GET", "/health").status == 200
        assert run(url).status == 200
        started = time.monotonic()
        process.terminate()
        assert process.wait(timeout=TIMEOUT) == 0
        assert time.monotonic() - started < 1
        assert process.stdout.read() == b""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


def test_health_stats_and_unknown_routes() -> None:
    with harness("nothing") as url:
        health = call(url, "GET", "/health")
        assert (health.status, health.json()) == (200, {"status": "ok"})
        assert health.headers["Content-Type"] == "application/json"
        assert call(url, "GET", "/stats").json() == {
            "seeds": [],
            "runs": 0,
            "pairs": {},
            "events": [],
        }
        assert call(url, "GET", "/nope").status == 404
        assert post(url, "/nope", {}).status == 404


def test_seed_needs_content_length_and_counts_what_it_got() -> None:
    waves = dataset(1, "small").to_json()["memory_waves"]
    with harness("nothing") as url:
        refused = call(url, "POST", "/seed", json.dumps(waves[0]).encode(), chunked=True)
        assert refused.status == 400
        assert "Content-Length" in refused.json()["error"]
        assert post(url, "/seed", [1, 2]).status == 400
        assert call(url, "POST", "/seed", b"{not json").status == 400
        for wave in waves:
            reply = post(url, "/seed", wave)
            assert reply.status == 200
            expected = {key: len(wave.get(key, [])) for key in ("pairs", "subjects", "links")}
            assert reply.json() == expected
        assert post(url, "/seed", {"user_id": "colleague", "wave": 7}).json() == {
            "pairs": 0,
            "subjects": 0,
            "links": 0,
        }
        stats = call(url, "GET", "/stats").json()
    assert stats["seeds"] == [w["wave"] for w in waves] + [7]
    assert stats["pairs"]["miner"] == len({p["pair_id"] for w in waves for p in w["pairs"]})
    assert stats["runs"] == 0


# Simple modes ------------------------------------------------------------------------------


def test_nothing_answers_an_empty_text_and_counts_runs() -> None:
    with harness("nothing") as url:
        for _ in range(3):
            reply = run(url)
            assert (reply.status, reply.json()) == (200, {"final_text": ""})
        assert call(url, "GET", "/stats").json()["runs"] == 3


def test_slow_waits_the_delay_then_answers() -> None:
    with harness("slow", "--delay-ms", "300") as url:
        started = time.monotonic()
        reply = run(url)
        elapsed = time.monotonic() - started
    assert reply.json() == {"final_text": "ok"}
    assert 0.3 <= elapsed < 1.5


def test_slow_serves_requests_concurrently() -> None:
    with harness("slow", "--delay-ms", "400") as url:
        replies: list[Reply] = []
        threads = [threading.Thread(target=lambda: replies.append(run(url))) for _ in range(4)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=TIMEOUT)
        elapsed = time.monotonic() - started
    assert [r.status for r in replies] == [200] * 4
    assert elapsed < 1.2


def test_error500_always_fails() -> None:
    with harness("error500") as url:
        for _ in range(2):
            reply = run(url)
            assert (reply.status, reply.json()) == (500, {"error": "boom"})
        assert call(url, "GET", "/health").status == 200


def test_flaky_fails_the_first_attempt_of_each_case() -> None:
    with harness("flaky") as url:
        assert run(url, "ca").status == 503
        assert run(url, "ca").json() == {"final_text": "ok"}
        assert run(url, "ca").status == 200
        assert run(url, "cb").status == 503
        assert run(url, "cb").status == 200


def test_malformed_body_is_truncated_json() -> None:
    with harness("malformed") as url:
        reply = run(url)
    assert reply.status == 200
    assert reply.body == b'{"final_text": '
    with pytest.raises(json.JSONDecodeError):
        reply.json()


def test_huge_body_is_valid_json_of_about_six_mib() -> None:
    with harness("huge") as url:
        reply = run(url)
    assert reply.status == 200
    assert 6 * 1024 * 1024 <= len(reply.body) < 7 * 1024 * 1024
    assert int(reply.headers["Content-Length"]) == len(reply.body)
    assert set(reply.json()["final_text"]) == {"x"}


def test_drip_defeats_per_read_timeouts_so_only_a_deadline_cuts_it() -> None:
    with harness("drip") as url:
        parts = urlsplit(url)
        connection = http.client.HTTPConnection("127.0.0.1", parts.port, timeout=TIMEOUT)
        try:
            connection.request("POST", "/run", body=b"{}")
            response = connection.getresponse()
            assert response.status == 200
            length = int(response.headers["Content-Length"])
            got = b""
            deadline = time.monotonic() + 1.0
            while time.monotonic() < deadline and len(got) < length:
                got += response.read(1)
        finally:
            connection.close()
    assert 1 <= len(got) < length
    assert b'{"final_text": "ok"}'.startswith(got)


def test_reset_drops_the_connection_without_an_answer() -> None:
    with harness("reset") as url:
        with pytest.raises(ConnectionError):
            run(url)
        assert call(url, "GET", "/health").status == 200
        assert call(url, "GET", "/stats").json()["runs"] == 1


def test_hang_never_answers_and_still_stops_on_sigterm() -> None:
    handle = start_harness("hang")
    try:
        with pytest.raises(TimeoutError):
            run(handle.url, timeout=0.5)
        started = time.monotonic()
        assert handle.stop() == 0
        assert time.monotonic() - started < 1
    finally:
        handle.stop()


def test_die_after_exits_with_status_3_on_the_nth_run() -> None:
    handle = start_harness("nothing", "--die-after", "2")
    try:
        assert run(handle.url).status == 200
        with pytest.raises(ConnectionError):
            run(handle.url)
        assert handle.process.wait(timeout=TIMEOUT) == 3
        with pytest.raises(ConnectionError):
            call(handle.url, "GET", "/health")
    finally:
        handle.stop()


# Oracle and cross --------------------------------------------------------------------------


def test_oracle_calls_the_expected_tools_and_answers_from_the_keys(
    answers_file: Path, tool_endpoint: ToolEndpoint
) -> None:
    data = json.loads(answers_file.read_bytes())
    fixtures = {f.case_id: f for f in dataset(1, "small").tool_fixtures}
    cases = {c.id: c for c in dataset(1, "small").tool_cases}
    with harness("oracle", "--answers", str(answers_file)) as url:
        for case in data["tool_cases"]:
            tool_endpoint.calls.clear()
            reply = run(
                url,
                case["id"],
                tool_endpoint=tool_endpoint.url,
                user_id="miner",
                user_input=case["prompt"],
            )
            assert reply.status == 200
            body = reply.json()
            expected = case["expected_tools"]
            received = tool_endpoint.calls
            assert [c["name"] for c in received] == [e["name"] for e in expected]
            assert [c["hop"] for c in received] == list(range(len(expected)))
            assert {c["case_id"] for c in received} <= {case["id"]}
            assert {c["user_id"] for c in received} <= {"miner"}
            for sent, want in zip(received, expected, strict=True):
                for arg in required_args(want["name"]):
                    assert sent["args"][arg], (case["id"], arg)
                for arg, value in want["required_args"].items():
                    assert value in sent["args"][arg] or sent["args"][arg] == value
            served = [
                execute(
                    1,
                    CONTENT_VERSION,
                    cases[case["id"]],
                    fixtures[case["id"]],
                    c["name"],
                    c["args"],
                    [e["name"] for e in received[:i]],
                )
                for i, c in enumerate(received)
                if c["name"] not in MEMORY_TOOLS
            ]
            # The real mock accepts them, but for the transient error a recovery case's first
            # content call gets by design (this test's endpoint never sends it, so no retry).
            recovery = fixtures[case["id"]].fail_first
            assert all(r.error is None or (recovery and r.error == RETRY_ERROR) for r in served)
            assert [{k: c[k] for k in ("name", "args", "hop")} for c in received] == body[
                "tool_calls"
            ]
            if case["group"] == "result_usage":
                figure = fixtures[case["id"]].needle_figure
                assert body["final_text"] == f"It reached {figure}."
            elif not expected:
                assert body["final_text"] == "Happy to help without tools."
            else:
                assert body["final_text"] == "Done."
        for mcase in data["memory_cases"]:
            body = run(url, mcase["id"], user_input=mcase["question"]).json()
            if mcase["answer_kind"] == "decline":
                assert body["abstain"] is True
                subject = (mcase["answer_items"] or [mcase["question"]])[0]
                assert subject in body["final_text"]
            else:
                assert body["answer"] == mcase["expected_answer"]
        unknown = run(url, "cffffffffffffffff", user_input="a question no case asks")
        assert unknown.status == 400
        assert post(url, "/run", ["not", "an", "object"]).status == 400


def test_oracle_search_and_read_use_the_fixture_subject_and_link(
    tmp_path: Path, tool_endpoint: ToolEndpoint
) -> None:
    case = {
        "id": "c1",
        "prompt": "How far did the turbine get?",
        "group": "result_usage",
        "expected_tools": [
            {"name": "search_web", "required_args": {}},
            {"name": "read_links", "required_args": {}},
            {"name": "create_recipe", "required_args": {"name": "morning"}},
        ],
    }
    fixture: dict[str, Any] = {"case_id": "c1", "subject": "Drouvelan turbine"}
    fixture |= {"link": "https://x.test/a", "needle_figure": "4,242", "job_id": "job-1"}
    path = tmp_path / "answers.json"
    path.write_text(json.dumps({"tool_cases": [case], "tool_fixtures": [fixture]}))
    with harness("oracle", "--answers", str(path)) as url:
        body = run(url, "c1", tool_endpoint=tool_endpoint.url, user_input=case["prompt"]).json()
    args = [c["args"] for c in tool_endpoint.calls]
    assert args[0]["queries"] == ["Drouvelan turbine"]
    assert args[1] == {"urls": ["https://x.test/a"]}
    assert args[2]["name"] == "morning" and args[2]["steps"] and isinstance(args[2]["steps"], list)
    assert body["final_text"] == "It reached 4,242."


def test_oracle_retries_a_call_once_when_the_error_says_retry(
    answers_file: Path, tool_endpoint: ToolEndpoint
) -> None:
    data = json.loads(answers_file.read_bytes())
    case = next(c for c in data["tool_cases"] if len(c["expected_tools"]) == 2)
    tool_endpoint.fail_first = True
    with harness("oracle", "--answers", str(answers_file)) as url:
        body = run(
            url, case["id"], tool_endpoint=tool_endpoint.url, user_input=case["prompt"]
        ).json()
    first, second = (e["name"] for e in case["expected_tools"])
    assert [c["name"] for c in tool_endpoint.calls] == [first, first, second, second]
    assert [c["name"] for c in body["tool_calls"]] == [first, first, second, second]


def test_oracle_answers_every_memory_kind(tmp_path: Path) -> None:
    def mcase(
        kind: str, expected: str = "", items: tuple[str, ...] = (), name: str = ""
    ) -> dict[str, Any]:
        question = f"What about {name or kind}?"  # the oracle finds a case by its question
        return {
            "id": f"m-{name or kind}",
            "answer_kind": kind,
            "expected_answer": expected,
            "answer_items": list(items),
            "question": question,
        }

    cases = [
        mcase("value", "Edmund"),
        mcase("number", "4"),
        mcase("list", "", ("tea", "jam")),
        mcase("ordered_list", "", ("first", "second")),
        mcase("duration", "12"),
        mcase("reversal", "", ("pottery",)),
        mcase("persistence", "", ("running",)),
        mcase("decline"),
        mcase("acknowledge"),
        mcase("decline", "", ("your sister's name",), "subject"),
        {**mcase("acknowledge", "locker code", ("AB12-CD34",), "save"), "write_op": "save"},
        {
            **mcase("acknowledge", "gym code", name="delete"),
            "write_op": "delete",
            "evidence_pair_ids": ["p-1"],
        },
    ]
    path = tmp_path / "answers.json"
    path.write_text(json.dumps({"memory_cases": cases}))
    with harness("oracle", "--answers", str(path)) as url:
        got = {c["id"]: run(url, c["id"], user_input=c["question"]).json() for c in cases}
    assert got["m-value"] == {"final_text": "It is Edmund.", "answer": "Edmund"}
    assert got["m-number"] == {"final_text": "It is 4.", "answer": "4"}
    assert got["m-list"] == {"final_text": "tea, jam", "answer": "tea, jam"}
    assert got["m-ordered_list"]["answer"] == "first, second"
    assert got["m-duration"] == {"final_text": "About 12 days."}
    assert got["m-reversal"] == {"final_text": "You gave up pottery; you no longer do it."}
    assert got["m-persistence"] == {"final_text": "Yes, you still do running regularly."}
    assert got["m-decline"] == {
        "final_text": "I have no record of that. You asked: What about decline?",
        "abstain": True,
    }
    assert got["m-acknowledge"] == {"final_text": "Done, I've saved that."}
    assert got["m-subject"]["final_text"] == "I have no record of your sister's name."
    save = {"name": "save_memory", "args": {"content": "AB12-CD34"}, "hop": 0}
    assert got["m-save"]["tool_calls"] == [save]
    delete = {"name": "delete_memory", "args": {"pair_id": "p-1"}, "hop": 0}
    assert got["m-delete"]["tool_calls"] == [delete]


def test_cross_calls_the_tool_endpoint_under_another_case_id(tool_endpoint: ToolEndpoint) -> None:
    with harness("cross") as url:
        body = run(url, "c0123456789abcdef", tool_endpoint=tool_endpoint.url).json()
        run(url, "c012345678999999f", tool_endpoint=tool_endpoint.url)
    assert body["final_text"] == "Done."
    assert [c["name"] for c in tool_endpoint.calls] == ["search_web", "search_web"]
    assert [c["case_id"] for c in tool_endpoint.calls] == ["c0123456789abcde0", "c0123456789999990"]


# Launcher ----------------------------------------------------------------------------------


def test_launcher_stops_the_process_when_the_block_raises() -> None:
    address = ""
    with pytest.raises(RuntimeError, match="test body failed"), harness("nothing") as url:
        address = url
        raise RuntimeError("test body failed")
    with pytest.raises(ConnectionError):
        call(address, "GET", "/health", timeout=0.5)


@pytest.mark.parametrize(
    "args",
    [("oracle",), ("no-such-mode",), ("nothing", "--delay-ms", "-1")],
    ids=["oracle-without-answers", "unknown-mode", "negative-delay"],
)
def test_launcher_reports_a_failed_start(args: tuple[str, ...]) -> None:
    with pytest.raises(HarnessStartError, match="exit 2"):
        start_harness(*args, timeout=TIMEOUT)


def test_server_exits_when_the_launcher_goes_away() -> None:
    """Closing the server's stdin is what the launcher's death looks like to it."""
    handle = start_harness("hang")
    try:
        assert handle.process.stdin is not None
        handle.process.stdin.close()
        assert handle.process.wait(timeout=TIMEOUT) == 0
    finally:
        handle.stop()
