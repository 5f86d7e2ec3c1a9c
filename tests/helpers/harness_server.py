"""A configurable harness for the engine's integration tests: a real HTTP process on loopback.

Standalone and stdlib only, so it runs with any Python >= 3.11 without installing dittobench::

    python tests/helpers/harness_server.py --mode MODE [--answers FILE] [--port 0]
        [--die-after N] [--delay-ms N] [--pause-ms N] [--reply FILE] [--calls FILE]
        [--max-seed-bytes N] [--exit-on-stdin-eof]

It binds 127.0.0.1 (port 0 picks a free port), prints exactly one line ``PORT <n>`` to stdout once
listening and nothing else there, and serves until killed (SIGTERM and SIGINT exit at once).

Routes, in every mode: ``GET /health`` (200 ``{"status": "ok"}``), ``POST /seed`` (a SeedRequest,
or one part of a wave sent in parts: every ``/seed`` is an upsert of the pairs it carries;
Content-Length required, else 400; replies with the counts), ``GET /stats`` (``{"seeds": [wave
numbers received, in order], "runs": n, "pairs": {user_id: distinct pair ids}, "events": [...]}``),
``GET /wire`` (``{"endpoint_port": the port of the last ``tool_endpoint`` received, 0 before any,
"tool_statuses": [HTTP status of each ``scripted`` tool call, in order]}``)
and ``POST /run``, whose behaviour is the mode's. ``events`` is what happened, in order: ``["seed",
user_id, wave]`` for each /seed (``["seed", user_id, wave, part, parts]`` for a part), and in
``slow`` mode ``["start", case_id]`` and ``["end", case_id]`` around each /run's wait, so tests
can check the order cases and seeds arrive in.

``oracle``     answers from the answer keys of ``--answers FILE`` (a dataset written by
               ``dittobench generate --out``), calling the expected tools on ``tool_endpoint``.
               It is shown only the run's wire ids, never the dataset's, so it finds a case by
               what it was asked (``user_input``, and for a memory question the user, learned
               from the /seed whose pairs are that user's wave in the file) and names a pair by
               the id its /seed carried; a request it cannot place gets 400. With
               ``--retrieved`` each memory answer also lists the case's evidence pairs, by the
               ids /seed carried, as ``retrieved`` (perfect retrieval)
``nothing``    ``{"final_text": ""}``
``slow``       sleeps ``--delay-ms`` (default 100), then ``{"final_text": "ok"}`` (logged in events)
``error500``   HTTP 500 ``{"error": "boom"}``
``flaky``      503 on the first attempt of each case id, then ``{"final_text": "ok"}``
``malformed``  200 with a truncated JSON body
``huge``       200 with a valid JSON body of about 6 MiB
``verbose``    200 with a ``final_text`` one character over the engine's limit (64 KiB of text)
``drip``       a small valid body (with a correct Content-Length) sent one byte every 0.5 s
``reset``      the connection is reset (SO_LINGER 0, then close) without a response
``hang``       never answers
``cross``      calls ``search_web`` on the tool endpoint under another case id, then "Done."
``scripted``   posts each line of ``--calls FILE`` (raw JSON bodies; ``@CASE_ID@`` is replaced by
               the case id) to ``tool_endpoint``, then answers the raw bytes of ``--reply FILE``
               (default ``{"final_text": "ok"}``): hostile replies and calls, byte for byte
``drip-seed``  ``/seed`` sends its headers (Content-Length 4096), then one body byte every 0.5 s
``drip-health`` ``GET /health`` sends its whole reply, status line included, one byte every 0.5 s;
               ``/run`` answers ``{"final_text": "ok"}``
``twice``      answers ``{"final_text": <its user_input>}``, then writes a second, unasked reply
               ``{"final_text": "stale"}`` on the same connection (keep-alive)
``gzip-bomb``  200 ``Content-Encoding: gzip``: 64 MiB of zeros in about 64 KB

``--pause-ms N`` makes every ``/run`` wait N ms before doing anything else (any mode), so cases
stay in flight long enough for a test to act meanwhile.

``--max-seed-bytes N`` declares ``"max_seed_bytes": N`` in ``GET /health`` (the engine then sends a
wave whose body is larger in parts).

``--record FILE`` appends every ``/seed`` and ``/run`` body it receives to FILE, one JSON line
each (``{"path": "/seed", "body": <the body's JSON>}``), for tests of what crosses the wire.

``--die-after N`` makes the process exit (status 3) while handling the N-th ``/run``, before
answering. ``--exit-on-stdin-eof`` (used by ``harness_process``) exits when stdin reaches end of
file, so the process dies with whoever launched it even if that launcher is killed outright.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import signal
import socket
import struct
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODES = (
    "oracle",
    "nothing",
    "slow",
    "error500",
    "flaky",
    "malformed",
    "huge",
    "verbose",
    "drip",
    "reset",
    "hang",
    "cross",
    "scripted",
    "drip-seed",
    "drip-health",
    "twice",
    "gzip-bomb",
)

DIE_EXIT_CODE = 3
HUGE_BYTES = 6 * 1024 * 1024
VERBOSE_CHARS = 65_537
DRIP_BODY = b'{"final_text": "ok"}'
DRIP_INTERVAL_S = 0.5
DRIP_SEED_LENGTH = 4096
DRIP_HEALTH_REPLY = (
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 15\r\n\r\n"
    b'{"status":"ok"}'
)
CASE_PLACEHOLDER = b"@CASE_ID@"
GZIP_BOMB_BYTES = 64 * 1024 * 1024
MAX_BODY_BYTES = 64 * 1024 * 1024
TOOL_TIMEOUT_S = 10.0
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
"""Talks to the tool endpoint directly: proxy settings in the environment must not reroute it."""

LIST_ARGS = frozenset({"urls", "queries", "pairIds", "steps"})
"""Arguments that are arrays of strings in the catalog: a pinned value is wrapped in a list."""

SAMPLE_ARGS: dict[str, Any] = {
    "queries": ["latest figures"],
    "urls": ["https://example.org/"],
    "pairIds": ["p-1"],
    "steps": ["one"],
    "prompt": "a lighthouse at dusk",
    "image_url": "https://img.example/1.png",
    "instruction": "make it autumn",
    "task": "research the topic",
    "goal": "plan the work",
    "job_id": "job-x",
    "subject_id": "subj-1",
    "pair_id": "p-1",
    "content": "a note",
    "spec": "a one-page site",
    "message": "hello",
    "theme": "dark",
    "color": "teal",
    "font": "Inter",
    "model": "default",
    "effort": "low",
    "preferences": "no preference",
    "schedule": "every day at 9am",
    "name": "routine",
    "title": "meeting",
    "when": "tomorrow at 10am",
    "remind_at": "tomorrow at 8am",
    "query": "anything",
    "to": "someone@example.org",
    "body": "hi",
    "code": "print(1)",
}
"""A plausible value for each required argument an expected call does not pin."""


class State:
    """Everything the handlers share; one lock guards the counters."""

    def __init__(self, mode: str, answers: dict[str, Any] | None, die_after: int, delay_ms: int):
        self.mode = mode
        self.die_after = die_after
        self.delay_s = delay_ms / 1000
        self.pause_s = 0.0
        self.reply = b'{"final_text": "ok"}'
        self.calls: list[bytes] = []
        self.endpoint_port = 0
        self.tool_statuses: list[int] = []
        self.lock = threading.Lock()
        self.runs = 0
        self.seeds: list[int] = []
        self.events: list[list[Any]] = []
        self.pairs: dict[str, set[str]] = {}
        self.attempts: dict[str, int] = {}
        self.huge_body = b""
        self.record = ""
        self.retrieved = False
        self.health: dict[str, Any] = {"status": "ok"}
        answers = answers or {}
        self.fixtures = {f["case_id"]: f for f in answers.get("tool_fixtures", [])}
        self.tool_by_prompt: dict[str, dict[str, Any]] = {}
        for case in answers.get("tool_cases", []):
            self.tool_by_prompt.setdefault(str(case.get("prompt")), case)
        self.memory_by_question: dict[tuple[str, str], dict[str, Any]] = {}
        for case in answers.get("memory_cases", []):
            key = (str(case.get("user_id")), str(case.get("question")))
            self.memory_by_question.setdefault(key, case)
        self.waves = [
            (
                w["user_id"],
                w.get("wave", 0),
                {_pair_key(p): p["pair_id"] for p in w.get("pairs", [])},
            )
            for w in answers.get("memory_waves", [])
        ]
        self.users: dict[str, str] = {}
        """Each user id /seed carried -> the file's user whose wave it was."""
        self.shown_pairs: dict[str, str] = {}
        """Each pair id of the file -> the id /seed carried for it."""

    def learn(self, request: dict[str, Any]) -> None:
        """Which of the file's waves a /seed is (by its pairs' texts): its user and pair ids."""
        pairs = [p for p in request.get("pairs") or [] if isinstance(p, dict)]
        keys = {_pair_key(p) for p in pairs}
        for user, wave, by_text in self.waves:
            if keys and wave == request.get("wave", 0) and keys <= by_text.keys():
                with self.lock:
                    self.users[str(request.get("user_id") or "")] = user
                    for pair in pairs:
                        self.shown_pairs[by_text[_pair_key(pair)]] = str(pair.get("pair_id"))
                return

    def placed(self, request: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
        """``("memory", case)`` or ``("tool", case)`` for what the request asks, or None. A
        question for a user no /seed named (a harness restarted since) is the first case of
        that wording."""
        text = str(request.get("user_input", ""))
        user = self.users.get(str(request.get("user_id") or ""))
        found = self.memory_by_question.get((user, text)) if user is not None else None
        if found is None and user is None:
            found = next((c for (_, q), c in self.memory_by_question.items() if q == text), None)
        if found is not None:
            return "memory", found
        tool = self.tool_by_prompt.get(text)
        return ("tool", tool) if tool is not None else None

    def huge(self) -> bytes:
        with self.lock:
            if not self.huge_body:
                self.huge_body = json.dumps({"final_text": "x" * HUGE_BYTES}).encode()
            return self.huge_body


@functools.cache
def gzip_bomb() -> bytes:
    return gzip.compress(bytes(GZIP_BOMB_BYTES), 9)


class BadRequest(Exception):
    """Turned into a 400 reply carrying the message."""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body are separate writes; without this each reply waits on a delayed ACK.
    disable_nagle_algorithm = True
    server_version = "dittobench-test-harness/1"
    state: State  # set on the subclass made in ``serve``

    def log_message(self, format: str, *args: Any) -> None:
        """Silent: stdout carries only the PORT line, and tests do not want stderr noise."""

    # Plumbing ------------------------------------------------------------------------------

    def reply(self, status: int, payload: Any) -> None:
        self.send_bytes(status, json.dumps(payload).encode())

    def send_bytes(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def read_body(self, required: bool) -> bytes:
        length = self.headers.get("Content-Length")
        if length is None:
            self.close_connection = True  # any body left unread would be taken for a request
            if required:
                raise BadRequest("Content-Length header required")
            return b""
        try:
            size = int(length)
        except ValueError:
            self.close_connection = True
            raise BadRequest("bad Content-Length") from None
        if size < 0 or size > MAX_BODY_BYTES:
            self.close_connection = True
            raise BadRequest("bad Content-Length")
        data: bytes = self.rfile.read(size)
        if self.state.record and self.path in ("/seed", "/run"):
            self.record(data)
        return data

    def record(self, data: bytes) -> None:
        """Append the body to ``--record`` as one JSON line."""
        try:
            body = json.loads(data)
        except (ValueError, UnicodeDecodeError):
            body = data.decode("utf-8", "replace")
        line = json.dumps({"path": self.path, "body": body}) + "\n"
        with self.state.lock, open(self.state.record, "a", encoding="utf-8") as handle:
            handle.write(line)

    def read_json(self, required: bool) -> dict[str, Any]:
        raw = self.read_body(required)
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise BadRequest("body is not JSON") from None
        if not isinstance(data, dict):
            raise BadRequest("body is not a JSON object")
        return data

    def guarded(self, action: Callable[[], None]) -> None:
        try:
            action()
        except BadRequest as exc:
            self.reply(400, {"error": str(exc)})

    # Routes --------------------------------------------------------------------------------

    def do_GET(self) -> None:
        if self.path == "/health" and self.state.mode == "drip-health":
            self.drip_raw(DRIP_HEALTH_REPLY)
        elif self.path == "/health":
            self.reply(200, self.state.health)
        elif self.path == "/stats":
            with self.state.lock:
                stats = {
                    "seeds": list(self.state.seeds),
                    "runs": self.state.runs,
                    "pairs": {user: len(ids) for user, ids in sorted(self.state.pairs.items())},
                    "events": list(self.state.events),
                }
            self.reply(200, stats)
        elif self.path == "/wire":
            with self.state.lock:
                wire = {
                    "endpoint_port": self.state.endpoint_port,
                    "tool_statuses": list(self.state.tool_statuses),
                }
            self.reply(200, wire)
        else:
            self.reply(404, {"error": f"no route {self.path}"})

    def do_POST(self) -> None:
        if self.path == "/seed":
            self.guarded(self.seed)
        elif self.path == "/run":
            self.guarded(self.run)
        else:
            self.close_connection = True
            self.reply(404, {"error": f"no route {self.path}"})

    def seed(self) -> None:
        request = self.read_json(required=True)
        if self.state.mode == "drip-seed":
            self.drip_seed()
            return
        self.state.learn(request)
        user = str(request.get("user_id") or "miner")
        wave = request.get("wave", 0)
        pairs = _array(request, "pairs")
        subjects = _array(request, "subjects")
        links = _array(request, "links")
        event = ["seed", user, wave]
        if "parts" in request:
            event += [request.get("part"), request.get("parts")]
        with self.state.lock:
            self.state.seeds.append(wave if isinstance(wave, int) else 0)
            self.state.events.append(event)
            known = self.state.pairs.setdefault(user, set())
            known.update(str(p.get("pair_id", "")) for p in pairs if isinstance(p, dict))
        self.reply(200, {"pairs": len(pairs), "subjects": len(subjects), "links": len(links)})

    def run(self) -> None:
        state = self.state
        with state.lock:
            state.runs += 1
            number = state.runs
        if state.die_after and number >= state.die_after:
            os._exit(DIE_EXIT_CODE)
        if state.pause_s:
            time.sleep(state.pause_s)
        mode = state.mode
        if mode == "oracle":
            self.reply(200, self.oracle(self.read_json(required=False)))
        elif mode == "cross":
            self.reply(200, self.cross(self.read_json(required=False)))
        elif mode == "nothing":
            self.read_body(required=False)
            self.reply(200, {"final_text": ""})
        elif mode == "slow":
            self.slow()
        elif mode == "error500":
            self.read_body(required=False)
            self.reply(500, {"error": "boom"})
        elif mode == "flaky":
            self.flaky()
        elif mode in ("malformed", "huge", "verbose", "twice", "gzip-bomb"):
            self.odd_reply(mode)
        elif mode == "drip":
            self.read_body(required=False)
            self.drip()
        elif mode == "reset":
            self.reset()
        elif mode == "scripted":
            self.scripted(self.read_json(required=False))
        elif mode in ("drip-seed", "drip-health"):
            self.read_body(required=False)
            self.reply(200, {"final_text": "ok"})
        else:  # hang
            threading.Event().wait()

    # Modes ---------------------------------------------------------------------------------

    def odd_reply(self, mode: str) -> None:
        if mode == "twice":
            asked = str(self.read_json(required=False).get("user_input", ""))
            self.reply(200, {"final_text": asked})
            self.reply(200, {"final_text": "stale"})
            return
        self.read_body(required=False)
        if mode == "malformed":
            self.send_bytes(200, b'{"final_text": ')
        elif mode == "huge":
            self.send_bytes(200, self.state.huge())
        elif mode == "verbose":
            self.reply(200, {"final_text": "I remember. " * (VERBOSE_CHARS // 12) + "x" * 5})
        else:  # gzip-bomb
            bomb = gzip_bomb()
            self.send_response(200)
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(bomb)))
            self.end_headers()
            self.wfile.write(bomb)

    def slow(self) -> None:
        request = self.read_json(required=False)
        case_id = str(request.get("case_id", ""))
        self.note_endpoint(str(request.get("tool_endpoint", "")))
        with self.state.lock:
            self.state.events.append(["start", case_id])
        time.sleep(self.state.delay_s)
        with self.state.lock:
            self.state.events.append(["end", case_id])
        self.reply(200, {"final_text": "ok"})

    def flaky(self) -> None:
        raw = self.read_body(required=False)
        try:
            case_id = str(json.loads(raw).get("case_id", ""))
        except (ValueError, AttributeError, UnicodeDecodeError):
            case_id = ""
        with self.state.lock:
            seen = self.state.attempts.get(case_id, 0)
            self.state.attempts[case_id] = seen + 1
        if seen == 0:
            self.reply(503, {"error": "unavailable, try again"})
        else:
            self.reply(200, {"final_text": "ok"})

    def drip(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(DRIP_BODY)))
        self.end_headers()
        try:
            self.wfile.flush()
            for byte in DRIP_BODY:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(DRIP_INTERVAL_S)
        except OSError:
            self.close_connection = True  # the client gave up: exactly what drip is for

    def drip_seed(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(DRIP_SEED_LENGTH))
        self.end_headers()
        self.close_connection = True
        self.drip_raw(b" " * DRIP_SEED_LENGTH)

    def drip_raw(self, data: bytes) -> None:
        """Write ``data`` one byte every ``DRIP_INTERVAL_S`` until done or the client leaves."""
        self.close_connection = True
        try:
            self.wfile.flush()
            for byte in data:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(DRIP_INTERVAL_S)
        except OSError:
            pass  # the client gave up: exactly what a drip is for

    def scripted(self, request: dict[str, Any]) -> None:
        case_id = json.dumps(str(request.get("case_id", "")))[1:-1].encode()
        endpoint = str(request.get("tool_endpoint", ""))
        self.note_endpoint(endpoint)
        for template in self.state.calls if endpoint else []:
            body = template.replace(CASE_PLACEHOLDER, case_id)
            status = _post_raw(endpoint, body)
            with self.state.lock:
                self.state.tool_statuses.append(status)
        self.send_bytes(200, self.state.reply)

    def note_endpoint(self, endpoint: str) -> None:
        """Keep the tool endpoint's port (never its path) for ``/stats``."""
        port = urllib.parse.urlsplit(endpoint).port if endpoint else None
        if port:
            with self.state.lock:
                self.state.endpoint_port = port

    def reset(self) -> None:
        """Close the socket abruptly: SO_LINGER 0 makes the kernel send RST instead of FIN."""
        sock = self.connection
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        # ``sock.close()`` would wait for rfile/wfile to close too; detaching hands over the
        # descriptor now and leaves those file objects on a socket that is already gone.
        os.close(sock.detach())

    def cross(self, request: dict[str, Any]) -> dict[str, Any]:
        other = _other_case_id(str(request.get("case_id", "")))
        endpoint = str(request.get("tool_endpoint", ""))
        call = {"name": "search_web", "args": {"queries": ["latest figures"]}, "hop": 0}
        if endpoint:
            _call_tool(endpoint, other, str(request.get("user_id", "")), call)
        return {"final_text": "Done.", "tool_calls": [call]}

    def oracle(self, request: dict[str, Any]) -> dict[str, Any]:
        case_id = str(request.get("case_id", ""))
        self.note_endpoint(str(request.get("tool_endpoint", "")))
        placed = self.state.placed(request)
        if placed is None:
            raise BadRequest(f"no case of the answers file was asked in case {case_id!r}")
        kind, case = placed
        if kind == "memory":
            answer = _memory_answer(case, self.state.shown_pairs)
            evidence = [str(p) for p in case.get("evidence_pair_ids", [])]
            if self.state.retrieved and evidence:
                answer["retrieved"] = [self.state.shown_pairs.get(p, p) for p in evidence]
            return answer
        fixture = self.state.fixtures.get(case["id"], {})
        schemas = {
            t.get("name"): t.get("parameters", {})
            for t in request.get("tools") or []
            if isinstance(t, dict)
        }
        endpoint = str(request.get("tool_endpoint", ""))
        user_id = str(request.get("user_id", ""))
        calls: list[dict[str, Any]] = []
        for hop, expected in enumerate(case.get("expected_tools", [])):
            name = expected["name"]
            args = _oracle_args(name, expected.get("required_args", {}), fixture, schemas)
            call = {"name": name, "args": args, "hop": hop}
            calls.append(call)
            if not endpoint:
                continue
            reply = _call_tool(endpoint, case_id, user_id, call)
            if "retry" in str(reply.get("error") or ""):
                calls.append(dict(call))
                _call_tool(endpoint, case_id, user_id, call)
        if case.get("group") == "result_usage":
            text = f"It reached {fixture.get('needle_figure', '')}."
        elif not case.get("expected_tools"):
            text = "Happy to help without tools."
        else:
            text = "Done."
        return {"final_text": text, "tool_calls": calls}


def _array(request: dict[str, Any], key: str) -> list[Any]:
    value = request.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise BadRequest(f"{key} must be an array")
    return value


def _other_case_id(case_id: str) -> str:
    """The same id with its last hex digit changed (or one appended when there is none)."""
    if case_id and case_id[-1].lower() in "0123456789abcdef":
        digit = (int(case_id[-1], 16) + 1) % 16
        return case_id[:-1] + format(digit, "x")
    return case_id + "0"


def _plausible(arg: str, schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    if arg in SAMPLE_ARGS:
        return SAMPLE_ARGS[arg]
    if schema.get("enum"):
        return schema["enum"][0]
    if kind == "array":
        return ["example"]
    if kind == "integer":
        return 1
    if kind == "boolean":
        return False
    return "example"


def _oracle_args(
    name: str, pinned: dict[str, str], fixture: dict[str, Any], schemas: dict[Any, Any]
) -> dict[str, Any]:
    schema = schemas.get(name) or {}
    properties = schema.get("properties") or {}
    args: dict[str, Any] = {
        arg: _plausible(arg, properties.get(arg) or {}) for arg in schema.get("required") or []
    }
    if name == "search_web":
        args["queries"] = [fixture.get("subject", "")]
    elif name == "read_links":
        args["urls"] = [fixture.get("link", "")]
    elif name == "get_agent_job_status":
        args["job_id"] = fixture.get("job_id", "")
    for arg, value in pinned.items():
        is_list = arg in LIST_ARGS or (properties.get(arg) or {}).get("type") == "array"
        args[arg] = [value] if is_list else value
    return args


def _pair_key(pair: dict[str, Any]) -> tuple[str, str, str]:
    return (str(pair.get("timestamp")), str(pair.get("prompt")), str(pair.get("response")))


def _memory_answer(case: dict[str, Any], shown: dict[str, str]) -> dict[str, Any]:
    kind = case.get("answer_kind")
    expected = str(case.get("expected_answer", ""))
    items = [str(i) for i in case.get("answer_items", [])]
    item = items[0] if items else expected
    if kind in ("value", "number"):
        return {"final_text": f"It is {expected}.", "answer": expected}
    if kind in ("list", "ordered_list"):
        joined = ", ".join(items)
        return {"final_text": joined, "answer": joined}
    if kind == "tally":  # the count and the day of the first (ISO, which the grader reads)
        return {"final_text": f"{expected}; the first on {item}.", "answer": expected}
    if kind == "duration":
        return {"final_text": f"About {expected} days."}
    if kind == "reversal":
        return {"final_text": f"You gave up {item}; you no longer do it."}
    if kind == "persistence":
        return {"final_text": f"Yes, you still do {item} regularly."}
    if kind == "decline":
        if items:  # the subject it declines about (bench 2.0)
            return {"final_text": f"I have no record of {items[0]}.", "abstain": True}
        question = case.get("question", "")
        return {"final_text": f"I have no record of that. You asked: {question}", "abstain": True}
    calls = _write_calls(case, shown)
    return {"final_text": "Done, I've saved that.", **({"tool_calls": calls} if calls else {})}


def _write_calls(case: dict[str, Any], shown: dict[str, str]) -> list[dict[str, Any]]:
    """The memory-tool call a write instruction asks for (bench 2.0 keys name it), naming a
    pair by the id its /seed carried (``shown``)."""
    op = case.get("write_op", "")
    pairs = [shown.get(str(p), str(p)) for p in case.get("evidence_pair_ids", [])]
    codes = [str(c) for c in case.get("answer_items", [])]
    if op == "save" and codes:
        return [{"name": "save_memory", "args": {"content": codes[0]}, "hop": 0}]
    if op == "update" and codes and pairs:
        args = {"pair_id": pairs[0], "content": codes[0]}
        return [{"name": "update_memory", "args": args, "hop": 0}]
    if op == "delete" and pairs:
        return [{"name": "delete_memory", "args": {"pair_id": pairs[0]}, "hop": 0}]
    return []


def _call_tool(endpoint: str, case_id: str, user_id: str, call: dict[str, Any]) -> dict[str, Any]:
    """POST one ToolExecRequest; any failure becomes ``{"error": ...}`` rather than a crash."""
    payload = {
        "case_id": case_id,
        "user_id": user_id,
        "name": call["name"],
        "args": call["args"],
        "hop": call["hop"],
    }
    request = urllib.request.Request(
        endpoint,
        data=json.dumps(payload).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with OPENER.open(request, timeout=TOOL_TIMEOUT_S) as response:
            data = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        with exc:
            return {"error": f"tool endpoint answered HTTP {exc.code}"}
    except (OSError, ValueError) as exc:
        return {"error": f"tool endpoint failed: {exc}"}
    return data if isinstance(data, dict) else {"error": "tool endpoint reply is not an object"}


def _post_raw(endpoint: str, body: bytes) -> int:
    """POST ``body`` as is; the HTTP status, or 0 when no reply came."""
    request = urllib.request.Request(
        endpoint, data=body, headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with OPENER.open(request, timeout=TOOL_TIMEOUT_S) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as exc:
        with exc:
            return int(exc.code)
    except OSError:
        return 0


def _watch_stdin() -> None:
    """Exit once stdin closes: the launcher holds the other end, so this dies with it."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    except (OSError, ValueError):
        pass
    os._exit(0)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mode", required=True, choices=MODES)
    parser.add_argument("--answers", help="dataset JSON from `dittobench generate --out` (oracle)")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--die-after", type=int, default=0, metavar="N")
    parser.add_argument("--delay-ms", type=int, default=100, metavar="N")
    parser.add_argument("--pause-ms", type=int, default=0, metavar="N")
    parser.add_argument("--reply", help="scripted: the raw /run reply body")
    parser.add_argument("--calls", help="scripted: raw tool-call bodies, one a line")
    parser.add_argument("--record", help="append every /seed and /run body to this file")
    parser.add_argument(
        "--max-seed-bytes", type=int, default=0, metavar="N", help="declared in GET /health"
    )
    parser.add_argument(
        "--retrieved", action="store_true", help="oracle: list the evidence pairs as retrieved"
    )
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    args = parser.parse_args(argv)
    if args.mode == "oracle" and not args.answers:
        parser.error("--mode oracle needs --answers FILE")
    if args.die_after < 0 or args.delay_ms < 0 or args.pause_ms < 0:
        parser.error("--die-after, --delay-ms and --pause-ms must not be negative")
    return args


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    # socketserver's listen backlog is 5: with more clients reconnecting at once (after resets,
    # say) the kernel drops their SYNs and each waits a second to retry.
    request_queue_size = 128


def main(argv: list[str] | None = None) -> None:
    args = _parse(argv)
    answers = None
    if args.answers:
        with open(args.answers, encoding="utf-8") as handle:
            answers = json.load(handle)
    state = State(args.mode, answers, args.die_after, args.delay_ms)
    state.pause_s = args.pause_ms / 1000
    state.record = args.record or ""
    state.retrieved = args.retrieved
    if args.max_seed_bytes:
        state.health["max_seed_bytes"] = args.max_seed_bytes
    if args.reply:
        with open(args.reply, "rb") as handle:
            state.reply = handle.read()
    if args.calls:
        with open(args.calls, "rb") as handle:
            state.calls = [line.strip() for line in handle if line.strip()]
    handler = type("BoundHandler", (Handler,), {"state": state})

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: os._exit(0))
    if args.exit_on_stdin_eof:
        threading.Thread(target=_watch_stdin, name="stdin-watch", daemon=True).start()

    server = _Server(("127.0.0.1", args.port), handler)
    sys.stdout.write(f"PORT {server.server_address[1]}\n")
    sys.stdout.flush()
    server.serve_forever(poll_interval=0.1)


if __name__ == "__main__":
    main()
