"""Harnesses with state, for the engine's schedule and lifecycle tests: each behaves like a real
harness the engine must not break. A real HTTP process on loopback, stdlib only::

    python tests/helpers/stateful_harness.py --mode MODE --answers FILE [--delay-ms N]
        [--seed-ms N] [--seed-failures N] [--die-after N] [--capabilities A,B]
        [--exit-on-stdin-eof] [--port N] [--serial] [--max-concurrency N]

It prints exactly one line ``PORT <n>`` to stdout once listening. Every mode answers from the
answer keys of ``--answers`` (a dataset written by ``dittobench generate --out``) as
``harness_server.py``'s ``oracle`` does, calling the expected tools on ``tool_endpoint``, so an
undisturbed run earns full marks; each ``/run`` takes ``--delay-ms`` (default 30) first.

``seed-lock``  as a harness whose store reindexes under a lock a running case holds: ``/seed``
               answers 500 "reindex lock is held" while any ``/run`` is in flight
``rebuild``    as a harness that closes and rebuilds its database on every ``/seed`` (taking
               ``--seed-ms``, default 30): a ``/run`` in flight meanwhile loses its search and
               answers "Search failed" with no tool calls
``memory``     keeps what was seeded in process memory only: a memory question is answered only
               when every evidence pair it rests on was seeded into this process, else declined;
               write instructions act on that memory (a delete or an update drops the old pair,
               a save or an update keeps the new code), and a read-back is right only when the
               memory shows the write: a deleted pair seeded again is read back as still there
``plain``      none of that (a reference for the same answers)

``--seed-failures N`` answers 500 to the first N ``/seed`` requests (then behaves);
``--seed-status S`` answers them with status S instead, and a long multi-line error body.
``--report-memory-tools`` adds a ``search_memories`` call to each memory answer's ``tool_calls``.
``--serial`` answers one ``/run`` at a time (the others wait their turn, as a harness with one
agent does); ``--max-concurrency N`` declares it in ``GET /health``. ``--die-after N`` exits
(status 3) while handling the N-th ``/run``. ``--capabilities`` lists strings under
``capabilities`` in ``GET /health``. ``GET /stats`` returns ``{"seeds": n, "refused_seeds": n,
"broken_runs": n, "runs": n, "declined": n, "pairs": n, "peak": n}`` (``peak``: the most
``/run`` requests in flight at once).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

if TYPE_CHECKING:
    from tests.helpers import harness_server as base
else:
    import harness_server as base  # beside this file, found once the path is set

MODES = ("seed-lock", "rebuild", "memory", "plain")


class Stateful(base.State):
    def __init__(self, args: argparse.Namespace, answers: dict[str, Any]) -> None:
        super().__init__("oracle", answers, args.die_after, args.delay_ms)
        self.kind = args.mode
        self.seed_s = args.seed_ms / 1000
        self.seed_failures = args.seed_failures
        self.seed_status = args.seed_status
        self.capabilities = [c for c in args.capabilities.split(",") if c]
        self.in_flight = 0
        self.seeding = 0
        self.generation = 0
        self.seed_count = 0
        self.refused = 0
        self.broken = 0
        self.declined = 0
        self.known: set[str] = set()
        self.carried_out: set[str] = set()
        """Read-backs whose write instruction this process carried out."""
        self.dropped: dict[str, set[str]] = {}
        """Read-back case id -> the wire ids of the pairs its delete or update dropped."""
        self.report_memory_tools = args.report_memory_tools
        self.serial = threading.Lock() if args.serial else None
        self.max_concurrency = args.max_concurrency
        self.peak = 0


class Handler(base.Handler):
    state: Stateful

    def do_GET(self) -> None:
        state = self.state
        if self.path == "/health":
            health: dict[str, Any] = {"status": "ok", "capabilities": state.capabilities}
            if state.max_concurrency:
                health["max_concurrency"] = state.max_concurrency
            self.reply(200, health)
        elif self.path == "/stats":
            with state.lock:
                stats = {
                    "seeds": state.seed_count,
                    "refused_seeds": state.refused,
                    "broken_runs": state.broken,
                    "runs": state.runs,
                    "declined": state.declined,
                    "pairs": len(state.known),
                    "peak": state.peak,
                }
            self.reply(200, stats)
        else:
            self.reply(404, {"error": f"no route {self.path}"})

    def seed(self) -> None:
        state = self.state
        request = self.read_json(required=True)
        with state.lock:
            state.seed_count += 1
            if state.seed_failures > 0:
                state.seed_failures -= 1
                refusal = "transient failure"
            elif state.kind == "seed-lock" and state.in_flight:
                refusal = "Memory reindex lock is held: another reindex is active"
            else:
                refusal = ""
            if refusal:
                state.refused += 1
            else:
                state.seeding += 1
                state.generation += 1
        if refusal and state.seed_status != 500:
            lines = [f"refused: {refusal}"]
            lines += [f"  at /var/lib/harness/store/shard-{i:04d}/index.db" for i in range(40)]
            self.send_bytes(state.seed_status, "\n".join(lines).encode())
            return
        if refusal:
            self.reply(500, {"error": refusal})
            return
        try:
            if state.kind == "rebuild":
                time.sleep(state.seed_s)  # the database is closed while it is rebuilt
            pairs = [p for p in base._array(request, "pairs") if isinstance(p, dict)]
            state.learn(request)
            with state.lock:
                state.known.update(str(p.get("pair_id", "")) for p in pairs)
        finally:
            with state.lock:
                state.seeding -= 1
        self.reply(200, {"pairs": len(pairs)})

    def run(self) -> None:
        state = self.state
        with state.lock:
            state.runs += 1
            number = state.runs
            state.in_flight += 1
            state.peak = max(state.peak, state.in_flight)
            generation, seeding = state.generation, state.seeding
        try:
            if state.die_after and number >= state.die_after:
                os._exit(base.DIE_EXIT_CODE)
            request = self.read_json(required=False)
            with state.serial or contextlib.nullcontext():  # one answer at a time
                time.sleep(state.delay_s)
            with state.lock:
                broken = state.kind == "rebuild" and (
                    seeding or state.seeding or state.generation != generation
                )
                state.broken += bool(broken)
            if broken:
                answer: dict[str, Any] = {"final_text": "Search failed: the database was closed"}
            else:
                answer = self.answer(request)
        finally:
            with state.lock:
                state.in_flight -= 1
        self.reply(200, answer)

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        state = self.state
        placed = state.placed(request)
        case = placed[1] if placed is not None and placed[0] == "memory" else None
        if case is not None and state.kind == "memory":
            if case.get("write_op") or case.get("question_type") == "write_readback":
                if not self.writes(case):
                    return {"final_text": "It is still the old one, 0000-0000."}
            else:
                with state.lock:
                    # The evidence by the ids this process was seeded with (none after a restart).
                    evidence = {state.shown_pairs.get(str(p)) for p in case["evidence_pair_ids"]}
                    missing = evidence - state.known
                    state.declined += bool(missing)
                if missing:
                    return {"final_text": "I have no record of that.", "abstain": True}
        answer = self.oracle(request)
        if case is not None and state.report_memory_tools:
            search = {"name": "search_memories", "args": {"query": "the question"}, "hop": 0}
            answer["tool_calls"] = [search, *answer.get("tool_calls", [])]
        return answer

    def writes(self, case: dict[str, Any]) -> bool:
        """Carry out a write instruction on this process's memory; for a read-back, whether the
        memory shows its write."""
        state = self.state
        readback = str(case.get("confirmed_by", ""))
        with state.lock:
            if case.get("write_op"):
                if case["write_op"] in ("delete", "update"):
                    old = {state.shown_pairs.get(str(p), "") for p in case["evidence_pair_ids"]}
                    state.known -= old
                    state.dropped[readback] = old
                state.carried_out.add(readback)
                return True
            stale = state.dropped.get(case["id"], set()) & state.known
            return case["id"] in state.carried_out and not stale


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--mode", required=True, choices=MODES)
    parser.add_argument("--answers", required=True)
    parser.add_argument("--delay-ms", type=int, default=30)
    parser.add_argument("--seed-ms", type=int, default=30)
    parser.add_argument("--seed-failures", type=int, default=0)
    parser.add_argument("--seed-status", type=int, default=500)
    parser.add_argument("--die-after", type=int, default=0)
    parser.add_argument("--capabilities", default="")
    parser.add_argument("--report-memory-tools", action="store_true")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free one")
    parser.add_argument("--serial", action="store_true")
    parser.add_argument("--max-concurrency", type=int, default=0)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = _parse(argv)
    with open(args.answers, encoding="utf-8") as handle:
        answers = json.load(handle)
    state = Stateful(args, answers)
    handler = type("BoundHandler", (Handler,), {"state": state})
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: os._exit(0))
    if args.exit_on_stdin_eof:
        threading.Thread(target=base._watch_stdin, name="stdin-watch", daemon=True).start()
    server = base._Server(("127.0.0.1", args.port), handler)
    sys.stdout.write(f"PORT {server.server_address[1]}\n")
    sys.stdout.flush()
    server.serve_forever(poll_interval=0.1)


if __name__ == "__main__":
    main()
