"""Driving an external suite over the protocol: every wave seeded, in order, before any question;
ids keyed by the run's nonce; each question with the memory tools and its date as today; a busy
``/seed`` sent again; what ``/health`` declares kept in the transcript."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from dittobench.engine.client import ClientLimits
from dittobench.engine.external import ExternalOptions, run_external, system_prompt
from dittobench.generate.external import load_external
from dittobench.spec.wire import MEMORY_TOOLS
from tests.helpers.transport import streamed_transport

MINI = Path(__file__).resolve().parents[1] / "data" / "external" / "longmemeval-mini.json"
NONCE = "ab" * 32


class FakeHarness:
    """Records every request; answers each question with its own text; the first ``/seed``
    answers 503 once."""

    def __init__(self) -> None:
        self.log: list[tuple[str, dict[str, Any]]] = []
        self.busy_once = True

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/health":
            return httpx.Response(200, json={"status": "ok", "identity": {"system": "fake"}})
        body = json.loads(request.content)
        if path == "/seed":
            if self.busy_once:
                self.busy_once = False
                return httpx.Response(503, json={"error": "busy"})
            self.log.append(("seed", body))
            return httpx.Response(200, json={"pairs": len(body.get("pairs", []))})
        self.log.append(("run", body))
        return httpx.Response(200, json={"final_text": f"You asked: {body['user_input']}"})


def _drive() -> tuple[Any, FakeHarness, Any]:
    suite = load_external(MINI, "longmemeval", allow_unknown=True)
    fake = FakeHarness()
    options = ExternalOptions(
        "http://harness.test",
        "fake",
        concurrency=3,
        limits=ClientLimits(health_wait_s=5, run_deadline_s=5),
        wire_nonce=NONCE,
        transport=lambda: streamed_transport(fake),
        seed_backoff_s=(0.0,),
    )
    return suite, fake, run_external(suite, options)


def test_waves_in_order_before_any_question_with_keyed_ids() -> None:
    suite, fake, transcript = _drive()
    kinds = [kind for kind, _body in fake.log]
    assert kinds == ["seed"] * kinds.count("seed") + ["run"] * len(suite.questions)
    assert kinds.count("seed") == sum(len(u.waves) for u in suite.users)
    seeds = [body for kind, body in fake.log if kind == "seed"]
    users = [s["user_id"] for s in seeds]
    assert all(re.fullmatch(r"u-[0-9a-f]{12}", u) for u in users)
    for user in dict.fromkeys(users):
        assert [s["wave"] for s in seeds if s["user_id"] == user] == list(range(users.count(user)))
    pair_ids = [p["pair_id"] for s in seeds for p in s["pairs"]]
    assert all(re.fullmatch(r"p-[0-9a-f]{12}", p) for p in pair_ids)
    runs = [body for kind, body in fake.log if kind == "run"]
    assert all(re.fullmatch(r"c[0-9a-f]{16}", r["case_id"]) for r in runs)
    assert {r["user_id"] for r in runs} == set(users)  # each question to its own seeded user
    assert "tool_endpoint" not in runs[0]
    assert {t["name"] for t in runs[0]["tools"]} == set(MEMORY_TOOLS)
    assert transcript.wire_nonce == NONCE and transcript.identity == {"system": "fake"}


def test_each_question_states_its_date_as_today() -> None:
    suite, fake, transcript = _drive()
    runs = {body["user_input"]: body for kind, body in fake.log if kind == "run"}
    asked = runs["What degree did I graduate with?"]
    assert asked["system_prompt"].endswith("Today is Tuesday, May 30, 2023, 23:40 (UTC).")
    assert system_prompt("") and "Today" not in system_prompt("")
    records = {r.case_id: r for r in transcript.records}
    assert [r.case_id for r in transcript.records] == [q.id for q in suite.questions]
    reply = records["mini-ssu-1"].response
    assert reply is not None and reply.final_text == "You asked: What degree did I graduate with?"
    assert transcript.suite_sha256 == suite.sha256 and transcript.judge is None
