"""A scripted model server: a real HTTP server speaking the OpenAI API, whose chat replies follow a
fixed rule instead of a model and whose embeddings come from wordllama (shipped in its wheel), so
a memory system that calls an OpenAI-compatible model (mem0) runs offline and exactly.

- ``POST /v1/chat/completions``: answers mem0's fact-extraction prompt (mem0ai 2.x's additive
  extraction: ``{"memory": [{"id", "text", "attributed_to"}]}``) with each statement the user
  made in the new messages as one fact, questions left out. A prompt it does not recognise gets
  HTTP 400 naming it, so a mem0 upgrade that changes its prompts fails loudly, not silently.
- ``POST /v1/embeddings``: unit vectors from wordllama, truncated to ``dimensions`` when asked;
  ``encoding_format`` float or base64.

Modes: ``facts`` (the rule above); ``refuse`` (chat answers HTTP 500); ``hang`` (chat never
answers until the server stops). Embeddings are served in every mode. ``requests`` keeps every
request body received, with its path.
"""

from __future__ import annotations

import base64
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from dittobench_adapters.systems.embedding import WordLlamaEncoder

EXTRACTION_MARK = "You are a Memory Extractor"
"""How mem0's additive extraction system prompt (``ADDITIVE_EXTRACTION_PROMPT``) opens."""

_SECTION = re.compile(r"^## New Messages\n(.*?)(?=^## |\Z)", re.S | re.M)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_encoders: dict[int | None, WordLlamaEncoder] = {}
_encoders_lock = threading.Lock()


def encoder(dim: int | None = None) -> WordLlamaEncoder:
    """The shipped wordllama model (loaded once per process and size)."""
    with _encoders_lock:
        if dim not in _encoders:
            _encoders[dim] = WordLlamaEncoder(None, dim)
        return _encoders[dim]


def user_statements(new_messages: str) -> list[str]:
    """The sentences of the user's lines in mem0's rendering of new messages (``user: ...`` and
    ``assistant: ...`` lines, a message's later lines following its first), questions left out."""
    said: list[str] = []
    role = ""
    for line in new_messages.splitlines():
        head, sep, rest = line.partition(": ")
        if sep and head in ("user", "assistant", "system"):
            role, line = head, rest
        if role == "user":
            said.extend(s.strip() for s in _SENTENCE_END.split(line))
    return [s for s in said if s and not s.endswith("?")]


def extraction_reply(user_prompt: str) -> dict[str, Any]:
    found = _SECTION.search(user_prompt)
    facts = user_statements(found.group(1) if found else "")
    return {
        "memory": [
            {"id": str(i), "text": fact, "attributed_to": "user"} for i, fact in enumerate(facts)
        ]
    }


@dataclass
class ModelScript:
    mode: str = "facts"
    model: str = "scripted-memory-model"
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def chat(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        messages = body.get("messages") or []
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        user = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
        if EXTRACTION_MARK not in system:
            opening = (system or user)[:80].strip().replace("\n", " ")
            return 400, {"error": {"message": f"scripted model: unknown prompt: {opening!r}"}}
        content = json.dumps(extraction_reply(user))
        return 200, {
            "id": "chatcmpl-scripted",
            "object": "chat.completion",
            "created": 0,
            "model": self.model,
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }

    def embeddings(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else texts
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            return 400, {"error": {"message": "scripted model: input must be text"}}
        vectors = encoder(body.get("dimensions")).encode(texts)
        data = []
        for i, vector in enumerate(vectors):
            if body.get("encoding_format") == "base64":
                value: Any = base64.b64encode(vector.astype("<f4").tobytes()).decode()
            else:
                value = [float(x) for x in vector]
            data.append({"object": "embedding", "index": i, "embedding": value})
        usage = {"prompt_tokens": 0, "total_tokens": 0}
        return 200, {"object": "list", "data": data, "model": self.model, "usage": usage}


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length", "0"))
        body = json.loads(self.rfile.read(length) or b"{}")
        script = self.server.script
        script.requests.append((self.path, body))
        if self.path.endswith("/embeddings"):
            self._send(*script.embeddings(body))
        elif not self.path.endswith("/chat/completions"):
            self._send(404, {"error": {"message": f"scripted model: no route {self.path}"}})
        elif script.mode == "refuse":
            self._send(500, {"error": {"message": "scripted model: refused"}})
        elif script.mode == "hang":
            script.stopping.wait()
        else:
            self._send(*script.chat(body))

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, script: ModelScript) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.script = script


@contextmanager
def scripted_llm(mode: str = "facts") -> Iterator[tuple[str, ModelScript]]:
    """A running scripted model server: (its base URL, ending in ``/v1``; its script)."""
    script = ModelScript(mode)
    server = _Server(script)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", script
    finally:
        script.stopping.set()
        server.shutdown()
        server.server_close()
