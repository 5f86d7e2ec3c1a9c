"""A complete harness in about 50 lines, stdlib only (docs/protocol.md, "A harness in 50 lines").

Run it with `python examples/minimal_harness.py 8080`, then `dittobench harness check
http://127.0.0.1:8080` and `dittobench run --harness http://127.0.0.1:8080`. Its memory is every
pair it was seeded, per user id; a question is answered with the seeded reply that shares the most
words with it, and any other request becomes one web search on the run's tool endpoint.
"""

import json
import os
import re
import sys
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MEMORY: dict[str, dict[str, dict]] = {}  # user_id -> pair_id -> pair
INSTANCE = os.urandom(8).hex()  # memory is in RAM: a restart is a new instance


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def call_tool(run: dict, name: str, args: dict) -> dict:
    """POST one call to the run's tool endpoint; its reply is {"result": ...} or has "error"."""
    call = {"case_id": run["case_id"], "name": name, "args": args, "hop": 0}
    headers = {"Content-Type": "application/json"}
    sent = urllib.request.Request(run["tool_endpoint"], json.dumps(call).encode(), headers)  # noqa: S310
    with urllib.request.urlopen(sent, timeout=30) as reply:  # noqa: S310
        return json.load(reply)


def answer(run: dict) -> dict:
    asked = words(run["user_input"])
    pairs = MEMORY.get(run.get("user_id", ""), {}).values()
    best = max(pairs, key=lambda p: len(asked & words(p["prompt"])), default=None)
    if best is not None and asked & words(best["prompt"]):
        return {"final_text": best["response"]}
    if run.get("tool_endpoint") and any(t["name"] == "search_web" for t in run["tools"]):
        args = {"queries": [run["user_input"]]}
        found = call_tool(run, "search_web", args)
        return {"final_text": found.get("result") or "The search found nothing.",
                "tool_calls": [{"name": "search_web", "args": args, "hop": 0}]}  # fmt: skip
    return {"final_text": "I don't know.", "abstain": True}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        found = self.path == "/health"
        self.reply(200 if found else 404, {"status": "ok", "instance": INSTANCE} if found else {})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if self.path == "/seed":  # an idempotent upsert by pair_id
            memory = MEMORY.setdefault(body.get("user_id", ""), {})
            memory.update({pair["pair_id"]: pair for pair in body.get("pairs", [])})
            self.reply(200, {"pairs": len(body.get("pairs", [])), "subjects": 0, "links": 0})
        else:
            self.reply(200, answer(body)) if self.path == "/run" else self.reply(404, {})

    def reply(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:  # quiet
        pass


if __name__ == "__main__":
    server = ThreadingHTTPServer(
        ("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 8080), Handler
    )
    print(f"listening on http://127.0.0.1:{server.server_port}", flush=True)  # noqa: T201
    server.serve_forever()
