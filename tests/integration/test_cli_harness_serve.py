"""`dittobench harness serve` as a user starts it: a real process on a free loopback port that
serves the baseline harness, and refuses a remote tool endpoint unless told otherwise."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(*flags: str) -> Iterator[str]:
    port = free_port()
    command = [sys.executable, "-m", "dittobench", "harness", "serve", "--port", str(port)]
    process = subprocess.Popen(
        [*command, *flags], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    try:
        give_up = time.monotonic() + 30
        while True:
            try:
                with OPENER.open(f"{url}/health", timeout=1):
                    break
            except OSError:
                assert process.poll() is None, "harness serve exited"
                assert time.monotonic() < give_up, "harness serve never answered /health"
                time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


def run(url: str, tool_endpoint: str) -> tuple[int, dict[str, object]]:
    body = {"case_id": "c1", "system_prompt": "", "user_input": "Search the web for tides."}
    body["tool_endpoint"] = tool_endpoint
    request = urllib.request.Request(
        f"{url}/run", data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    try:
        with OPENER.open(request, timeout=30) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


@pytest.mark.parametrize("endpoint", ["http://203.0.113.9/tool", "https://example.test/t"])
def test_a_remote_tool_endpoint_is_refused_by_default(endpoint: str) -> None:
    with serving() as url:
        status, body = run(url, endpoint)
    assert status == 400
    assert "--allow-remote-tools" in str(body.get("error"))
