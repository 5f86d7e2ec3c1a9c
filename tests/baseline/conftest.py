"""Fixtures for the baseline harness tests: a store, a tiny tool endpoint and a live server."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from dittobench_baseline.agent import Agent, OfflineAgent, ToolCaller
from dittobench_baseline.server import bind, create_app, make_server
from dittobench_baseline.store import MemoryStore

Handler = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class ToolEndpoint:
    """A loopback tool endpoint that records every ToolExecRequest and answers with ``reply``."""

    url: str
    calls: list[dict[str, Any]] = field(default_factory=list)
    reply: Handler = field(default=lambda body: {"result": "ok"})

    def names(self) -> list[str]:
        return [call["name"] for call in self.calls]


@pytest.fixture
def store() -> Iterator[MemoryStore]:
    with MemoryStore(":memory:") as memory:
        yield memory


@pytest.fixture
def tool_endpoint() -> Iterator[ToolEndpoint]:
    endpoint = ToolEndpoint(url="")
    lock = threading.Lock()

    class Handle(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length))
            with lock:
                endpoint.calls.append(body)
            data = json.dumps(endpoint.reply(body)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handle)
    server.daemon_threads = True
    endpoint.url = f"http://127.0.0.1:{server.server_address[1]}/tools/exec"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield endpoint
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@dataclass
class LiveHarness:
    url: str
    store: MemoryStore


def start_live(
    store: MemoryStore, agent: Agent, tool_caller: ToolCaller | None = None, **kwargs: Any
) -> tuple[str, Callable[[], None]]:
    """Run the app under uvicorn on a free loopback port in a thread; returns (url, stop)."""
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    ready = threading.Event()
    server = make_server(create_app(store, agent, tool_caller, **kwargs), sock, ready.set)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    if not ready.wait(timeout=10):
        raise RuntimeError("server did not start")

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()

    return f"http://127.0.0.1:{port}", stop


@pytest.fixture
def live(store: MemoryStore) -> Iterator[LiveHarness]:
    url, stop = start_live(store, OfflineAgent(store))
    try:
        yield LiveHarness(url=url, store=store)
    finally:
        stop()
