"""A harness that answers memory questions without reading the history, for red-team runs.

    python tests/helpers/strategy_harness.py --strategy NAME [--port 0]

It prints ``PORT <n>`` once listening and serves ``/health``, ``/seed`` (pairs are kept, for
``dump`` only) and ``/run``. Tool cases get "Done." with no call. Memory questions get the
strategy's answer, built from the question's wording and the public content alone:

``echo1``, ``echo3``   the question, once or three times
``decline_echo``       a decline followed by the question (``abstain`` set)
``decline_values``     a decline offering every public value of the question's attribute
``hedge``              several numbers, a duration and an acknowledgement at once
``attribute_values``   every public value of the attribute the question's words point to
``dump``               every prompt stored for the user
"""

from __future__ import annotations

import argparse
import json
import re
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from dittobench.generate.texts import texts_of
from dittobench.packs import public_pack
from dittobench.spec.versions import CURRENT_VERSION, get_policy

STRATEGIES = (
    "echo1",
    "echo3",
    "decline_echo",
    "decline_values",
    "hedge",
    "attribute_values",
    "dump",
)
_WORD = re.compile(r"[a-z]+")


@cache
def _attribute_words() -> list[tuple[frozenset[str], tuple[str, ...]]]:
    out = []
    library = texts_of(public_pack(get_policy(CURRENT_VERSION).pack_id)).library
    for attribute in library.attributes:
        texts = [t for symbol, alts in attribute.grammar.items() if "ask" in symbol for t in alts]
        texts += list(attribute.grammar.get("topic", ()))
        words = frozenset(w for t in texts for w in _WORD.findall(t.lower()) if len(w) > 3)
        out.append((words, tuple(c.text for c in attribute.values)))
    return out


def attribute_values(question: str) -> list[str]:
    """The public values of the attribute whose questions share most words with this one."""
    asked = frozenset(w for w in _WORD.findall(question.lower()) if len(w) > 3)
    _words, values = max(_attribute_words(), key=lambda a: len(a[0] & asked))
    return list(values)


def answer(strategy: str, question: str, stored: list[str]) -> dict[str, Any]:
    if strategy == "echo1":
        return {"final_text": question}
    if strategy == "echo3":
        return {"final_text": " ".join([question] * 3)}
    if strategy == "decline_echo":
        return {"final_text": f"I don't have any record of that: {question}", "abstain": True}
    if strategy == "decline_values":
        values = ", ".join(attribute_values(question))
        return {"final_text": f"I don't have any record of that. Maybe one of: {values}"}
    if strategy == "hedge":
        return {"final_text": "1, 2, 3, 4, 5, 6, 7. 67 days. Done, saved. You still do it."}
    if strategy == "attribute_values":
        return {"final_text": ", ".join(attribute_values(question))}
    return {"final_text": "\n".join(stored)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--strategy", choices=STRATEGIES, required=True)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    prompts: dict[str, list[str]] = {}

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *rest: Any) -> None:
            pass

        def reply(self, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self.reply({"status": "ok"})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or "{}")
            if self.path == "/seed":
                pairs = body.get("pairs") or []
                prompts.setdefault(body.get("user_id") or "miner", []).extend(
                    str(p.get("prompt", "")) for p in pairs
                )
                self.reply({"pairs": len(pairs)})
                return
            if not body.get("user_id"):
                self.reply({"final_text": "Done."})
                return
            stored = prompts.get(body["user_id"], [])
            self.reply(answer(args.strategy, str(body.get("user_input", "")), stored))

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
