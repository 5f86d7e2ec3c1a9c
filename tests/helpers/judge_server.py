"""A scripted judge: a real HTTP server speaking the OpenAI chat completions shape, whose verdicts
follow a fixed rule instead of a model, so tests of judging are exact.

It reads the rubric the way the locked prompt renders it (``S1. about: value (also written:
…)``) and the answer between the markers, and says YES for an item when the answer names its value
or one of its forms (a containment rule: crude, which is why the real judge is a model). Modes:

- ``contains``: the rule above, as the JSON object the prompt asks for;
- ``lines``: the same verdicts as ``ID: YES`` lines;
- ``garbage``: a reply with no verdict lines (every call unparsed);
- ``flaky``: the first reply to each request body is garbage, the next ones follow the rule;
- ``refuse``: HTTP 500 for everything;
- ``deep``: a reply nested thousands of brackets deep; ``surrogate``: the right verdicts from a
  model whose name holds a lone surrogate; ``drip``: the right reply, one byte every 0.3 s.

``model`` is the model id it names in replies (the locked one by default). ``requests`` keeps
every request body received.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from dittobench.spec.judging import JUDGE_1

_ITEM = re.compile(r"^([SN]\d+)\. [^:]*: (.*?)(?: \(also written: (.*?)\))?(?:;.*)?$")
_ANSWER = re.compile(r"<<<ANSWER\n(.*)\nANSWER>>>", re.S)


@dataclass
class JudgeScript:
    mode: str = "contains"
    model: str = JUDGE_1.model
    requests: list[dict[str, Any]] = field(default_factory=list)
    _seen: set[str] = field(default_factory=set)

    def reply(self, body: dict[str, Any]) -> str:
        user = body["messages"][-1]["content"]
        key = json.dumps(body, sort_keys=True)
        first = key not in self._seen
        self._seen.add(key)
        if self.mode == "garbage" or (self.mode == "flaky" and first):
            return "I think the answer is quite good overall."
        if self.mode == "deep":
            return '{"S1": ' + "[" * 7000 + "}"
        lines = verdict_lines(user)
        if self.mode == "lines":
            return lines
        return json.dumps(dict(line.split(": ") for line in lines.splitlines()))


def verdict_lines(user: str) -> str:
    """One ``ID: YES|NO`` line per rubric item of a rendered request, by containment."""
    found = _ANSWER.search(user)
    answer = (found.group(1) if found else "").lower()
    lines = []
    for line in user.splitlines():
        match = _ITEM.match(line)
        if not match:
            continue
        forms = [match.group(2), *(match.group(3) or "").split(", ")]
        said = any(f and f.lower() in answer for f in forms)
        lines.append(f"{match.group(1)}: {'YES' if said else 'NO'}")
    return "\n".join(lines)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length", "0"))
        body = json.loads(self.rfile.read(length))
        script = self.server.script
        script.requests.append(body)
        if script.mode == "refuse" or not self.path.endswith("/chat/completions"):
            self._send(500, {"error": "no"})
            return
        text = script.reply(body)
        self._send(
            200,
            {
                "id": "chatcmpl-scripted",
                "object": "chat.completion",
                "model": "judge\ud800" if script.mode == "surrogate" else script.model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
            },
        )

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        if self.server.script.mode != "drip":
            self.wfile.write(data)
            return
        for byte in data:
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            time.sleep(0.3)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, script: JudgeScript) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script = script


@contextmanager
def scripted_judge(
    mode: str = "contains", model: str = JUDGE_1.model
) -> Iterator[tuple[str, JudgeScript]]:
    """A running scripted judge: (its base URL, ending in ``/v1``; its script)."""
    script = JudgeScript(mode, model)
    server = _Server(script)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", script
    finally:
        server.shutdown()
        server.server_close()
