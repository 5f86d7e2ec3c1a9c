"""A harness that answers from a file: the replies written offline for a blind folder
(``engine.blind``), served over real HTTP so a run scores them like any harness's.

It speaks the harness protocol (docs/protocol.md) on a loopback port. ``/seed`` tells it the ids
this run shows for each pair (found by the pair's text and time, which the answers' placeholders
need); each ``/seed`` adds the pairs it carries, so a wave sent whole or in parts is learnt alike;
``/run`` finds the case by its message, makes the reply's tool calls for real against the
run's tool endpoint (so the engine observes them), reports them, and returns the reply. A case
with no reply in the file gets an empty one.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

from dittobench.engine.blind import Answers, BlindLabels, Reply, fill_placeholders
from dittobench.spec.dataset import Dataset

TOOL_CALL_TIMEOUT_S = 30.0
MAX_BODY = 64 * 1024 * 1024


class ReplayHarness:
    """The replies of ``answers`` for the cases of ``dataset``, by the message each case sends."""

    def __init__(self, dataset: Dataset, answers: Answers) -> None:
        labels = BlindLabels.of(dataset)
        self._answers = answers
        self._by_message: dict[str, list[str]] = {}
        for case_id, _kind, _user, question, _wave in dataset.asked():
            self._by_message.setdefault(question, []).append(labels.case[case_id])
        for tool_case in dataset.tool_cases:
            self._by_message.setdefault(tool_case.prompt, []).append(labels.case[tool_case.id])
        self._pair_label = {
            (p.prompt, p.timestamp): labels.pair[p.pair_id]
            for wave in dataset.memory_waves
            for p in wave.pairs
        }
        self._shown_pairs: dict[str, str] = {}
        self._served: set[str] = set()
        self._lock = threading.Lock()

    def seed(self, body: dict[str, Any]) -> dict[str, int]:
        pairs = body.get("pairs") or []
        with self._lock:
            for pair in pairs:
                label = self._pair_label.get((pair.get("prompt"), pair.get("timestamp")))
                if label is not None:
                    self._shown_pairs[label] = str(pair.get("pair_id", ""))
        return {"pairs": len(pairs), "subjects": len(body.get("subjects") or []), "links": 0}

    def reply_for(self, message: str) -> Reply | None:
        """The reply of the case sending ``message`` (of two cases with one message, the first
        not yet served)."""
        with self._lock:
            labels = self._by_message.get(message, [])
            label = next((x for x in labels if x not in self._served), labels[0] if labels else "")
            self._served.add(label)
        return self._answers.replies.get(label)

    def run(self, body: dict[str, Any]) -> dict[str, Any]:
        reply = self.reply_for(str(body.get("user_input", "")))
        if reply is None:
            return {"final_text": ""}
        endpoint = str(body.get("tool_endpoint", ""))
        made = []
        with httpx.Client(timeout=TOOL_CALL_TIMEOUT_S) as client:
            for hop, (name, args) in enumerate(reply.calls):
                with self._lock:
                    filled = fill_placeholders(args, dict(self._shown_pairs))
                if endpoint:
                    call = {"case_id": body.get("case_id", ""), "name": name, "hop": hop}
                    call.update({"args": filled, "user_id": body.get("user_id", "")})
                    with contextlib.suppress(httpx.HTTPError):
                        client.post(endpoint, json=call)
                made.append({"name": name, "args": filled, "hop": hop})
        out: dict[str, Any] = {"final_text": reply.final_text, "tool_calls": made}
        if reply.answer is not None:
            out["answer"] = reply.answer
        if reply.abstain is not None:
            out["abstain"] = reply.abstain
        return out


def _handler(harness: ReplayHarness) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the run's progress is the engine's to show."""

        def _send(self, status: int, payload: Any) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/health":
                self._send(200, {"status": "ok", "harness": "dittobench-replay"})
            else:
                self._send(404, {"error": "not found"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 <= length <= MAX_BODY:
                self._send(413, {"error": "body too large"})
                return
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self._send(400, {"error": "not JSON"})
                return
            if not isinstance(body, dict):
                self._send(400, {"error": "expected an object"})
            elif self.path.rstrip("/") == "/seed":
                self._send(200, harness.seed(body))
            elif self.path.rstrip("/") == "/run":
                self._send(200, harness.run(body))
            else:
                self._send(404, {"error": "not found"})

    return Handler


@contextlib.contextmanager
def replay_harness(dataset: Dataset, answers: Answers) -> Iterator[str]:
    """Serve ``answers`` on a free loopback port for as long as the block runs; yields the URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(ReplayHarness(dataset, answers)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


__all__ = ["ReplayHarness", "replay_harness"]
