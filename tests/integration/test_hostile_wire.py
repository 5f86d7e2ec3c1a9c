"""Hostile harnesses and neighbours, through real processes and loopback sockets: a second
process cannot add tool calls to a run, replies and tool calls a harness sends are repaired or
refused per case (huge numbers, lone surrogates, deep nesting, floods of calls, liberal optional
fields) and never sink the run, dripping ``/seed`` and ``/health`` replies end at their deadlines,
and slow connections to the tool endpoint are cut while a run completes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from itertools import count
from pathlib import Path
from typing import Any

import httpx
import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.engine.client import ClientLimits, HarnessClient, HarnessError
from dittobench.engine.runner import RunOptions, RunOutcome, resume_run, start_run
from dittobench.engine.tool_endpoint import HEAD_LIMIT, REQUEST_TIMEOUT_S, ToolEndpoint
from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.spec.repair import CALLS_KEPT, MAX_DEPTH
from dittobench.spec.transcript import Transcript
from dittobench.spec.versions import get_policy
from dittobench.spec.wire import SeedRequest, ToolCall
from dittobench.store import RunStore
from tests.helpers.harness_process import harness, start_harness

SEED = 11
LIMITS = ClientLimits(
    health_wait_s=10, health_interval_s=0.1, run_deadline_s=20.0, backoff_s=(0.05, 0.1)
)
_ids = count()


def clock() -> str:
    return "2026-12-01T00:00:00Z"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    with RunStore(RunStore.sqlite_url(tmp_path / "runs.db")) as opened:
        yield opened


def options(url: str, tmp: Path, limits: ClientLimits = LIMITS) -> RunOptions:
    return RunOptions(url, SEED, "small", "1.1.0", 8, tmp / "out", limits)


def run(
    store: RunStore, url: str, tmp: Path, limits: ClientLimits = LIMITS, run_id: str = ""
) -> RunOutcome:
    run_id = run_id or f"r-hostile-{next(_ids)}"
    return start_run(store, run_id, options(url, tmp, limits), clock, lambda progress: None)


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:  # loopback only
        return json.loads(reply.read())


def records(store: RunStore, run_id: str) -> list[dict[str, Any]]:
    transcript = store.transcript(run_id)
    assert transcript is not None
    return list(transcript["cases"])


# 1. Injection by another local process -------------------------------------------------------

INJECTOR = r"""
import json, sys, time, urllib.error, urllib.request
from dittobench.generate.assemble import build_dataset

port, seed, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
data = build_dataset(seed, "1.1.0", "small")
opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
paths = ["/tool", "/t/tool", "/t//tool", "/t/x/tool", "/t/%s/tool" % seed, "/tool/"]
statuses = {}
end = time.monotonic() + seconds
while time.monotonic() < end:
    for case in data.tool_cases:
        for hop, expected in enumerate(case.expected_tools):
            body = {"case_id": case.id, "name": expected.name, "hop": hop,
                    "args": dict(expected.required_args)}
            for path in paths:
                request = urllib.request.Request(
                    "http://127.0.0.1:%d%s" % (port, path), data=json.dumps(body).encode(),
                    headers={"Content-Type": "application/json"}, method="POST")
                try:
                    with opener.open(request, timeout=5) as reply:
                        status = reply.status
                except urllib.error.HTTPError as exc:
                    status = exc.code
                    exc.close()
                statuses[str(status)] = statuses.get(str(status), 0) + 1
    time.sleep(0.05)
print(json.dumps(statuses))
"""


def test_another_process_cannot_add_tool_calls_to_a_run(store: RunStore, tmp_path: Path) -> None:
    """The run's harness makes no calls and cases stay in flight for 4 s each; meanwhile
    another process posts every in-flight case's expected calls to the endpoint's port on every
    path it can guess. None is recorded: the URL's secret is told only to the harness."""
    result: dict[str, RunOutcome] = {}
    # Each case stays in flight 4 s: the injector (a fresh interpreter, slow to start on a
    # loaded machine) does its 2.5 s of guessing while the first cases are still open.
    with harness("slow", "--delay-ms", "4000") as url:
        runner = threading.Thread(target=lambda: result.update(o=run(store, url, tmp_path)))
        runner.start()
        port = 0
        for _ in range(200):  # bounded: the first case reaches the harness within seconds
            port = get_json(f"{url}/wire")["endpoint_port"]
            if port:
                break
            time.sleep(0.05)
        assert port, "the harness never received a tool endpoint"
        injector = subprocess.run(
            [sys.executable, "-c", INJECTOR, str(port), str(SEED), "2.5"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        runner.join(timeout=120)
    assert injector.returncode == 0, injector.stderr
    statuses = json.loads(injector.stdout)
    assert set(statuses) == {"404"}, statuses  # every guess refused
    outcome = result["o"]
    assert all(r["observed"] == [] for r in records(store, outcome.run_id))
    assert outcome.report.details.observed_tool_cases == 0
    expects_calls = {
        c.id for c in build_dataset(SEED, "1.1.0", "small").tool_cases if c.expected_tools
    }
    assert all(s.score == 0 for s in outcome.report.per_case if s.case_id in expects_calls)


# 2, 3, 4, 8, 16. Replies and tool calls a harness sends --------------------------------------


def deep(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


HOSTILE_CALLS = [
    b'{"case_id": "@CASE_ID@", "name": "search_web", "args": {"queries": ["x"]}, "hop": 9007199254740993}',  # noqa: E501
    b'{"case_id": "@CASE_ID@", "name": "search_web\\ud800", "args": {}, "hop": 1}',
    b'{"case_id": "@CASE_ID@", "name": "search_web", "args": {"k\\udfff": "v\\ud800"}, "hop": 2}',
    b'{"case_id": "@CASE_ID@", "name": "read_links", "args": '
    + deep(500).encode()
    + b', "hop": 3}',
    b'{"case_id": "@CASE_ID@", "name": "read_links", "args": '
    + deep(20).encode()
    + b', "hop": 4.0}',
    b'{"case_id": "@CASE_ID@", "name": "read_links", "args": {"n": 1e400}, "hop": "5"}',
]
"""Tool calls no build before this one survived: a hop beyond 2**53, lone surrogates in a name
and in a key, args nested 500 deep (refused: 400), and liberal hops (a float, a string)."""


def test_hostile_tool_calls_are_repaired_or_refused_and_the_run_finishes(
    store: RunStore, tmp_path: Path
) -> None:
    calls = tmp_path / "calls.txt"
    calls.write_bytes(b"\n".join(HOSTILE_CALLS) + b"\n")
    with harness("scripted", "--calls", str(calls)) as url:
        outcome = run(store, url, tmp_path)
        statuses = get_json(f"{url}/wire")["tool_statuses"]
    # Cases run concurrently, so their calls interleave: one 400 (the deep one) per case.
    assert sorted(statuses) == [200] * 5 * 12 + [400] * 12
    run_row = store.get_run(outcome.run_id)
    assert run_row.status == "done"
    for record in records(store, outcome.run_id):
        observed = record["observed"]
        assert [c["hop"] for c in observed] == [2**53 - 1, 1, 2, 4, 5]
        assert observed[1]["name"] == "search_web?"
        assert observed[2]["args"] == {"k?": "v?"}
        assert observed[4]["args"] == {"n": "inf"}
    transcript = json.loads(outcome.transcript_path.read_bytes())
    assert canonical_bytes(transcript) == outcome.transcript_path.read_bytes()


HOSTILE_REPLY = {
    "final_text": "Done \ud800",
    "latency_ms": 12.5,
    "prompt_tokens": 3.0,
    "output_tokens": None,
    "confidence": "0.5",
    "tool_calls": [
        {"name": "search_web", "args": {"queries": ["x"]}, "hop": 2**53 + 1},
        {"name": "read\udfff", "args": {"key\ud800": ["v\udc00"]}, "hop": 1.0},
        {"name": "read_links", "args": {"urls": ["https://example.org/"]}},
    ],
}
"""A reply every earlier build discarded or crashed on: a float ``latency_ms`` (ignored by the
protocol), token counts as a float and null, a confidence as text, a hop beyond 2**53, lone
surrogates in text, a tool name and an argument key, a missing hop."""


def test_a_hostile_reply_is_repaired_and_graded(store: RunStore, tmp_path: Path) -> None:
    reply = tmp_path / "reply.json"
    reply.write_bytes(json.dumps(HOSTILE_REPLY).encode())  # surrogates escaped as \\udxxx
    with harness("scripted", "--reply", str(reply)) as url:
        outcome = run(store, url, tmp_path)
    assert store.get_run(outcome.run_id).status == "done"
    for record in records(store, outcome.run_id):
        assert record["execution"]["outcome"] == "ok"
        response = record["response"]
        assert response["final_text"] == "Done ?"
        assert (response["prompt_tokens"], response["output_tokens"]) == (3, 0)
        assert response["confidence"] == 0.5
        assert [c["hop"] for c in response["tool_calls"]] == [2**53 - 1, 1, 0]
        assert response["tool_calls"][1] == {"name": "read?", "args": {"key?": ["v?"]}, "hop": 1}
        assert "tool_calls_dropped" not in record["execution"]


def test_a_reply_nested_too_deep_is_bad_json_for_that_case(store: RunStore, tmp_path: Path) -> None:
    reply = tmp_path / "reply.json"
    nested = '{"final_text": "x", "tool_calls": [{"name": "search_web", "args": %s}]}'
    reply.write_text(nested % deep(500), encoding="utf-8")  # about 3 KB
    with harness("scripted", "--reply", str(reply)) as url:
        outcome = run(store, url, tmp_path)
    assert store.get_run(outcome.run_id).status == "done"
    cases = records(store, outcome.run_id)
    assert len(cases) == 12
    assert {r["execution"]["outcome"] for r in cases} == {"bad_json"}
    assert all(r["response"] is None for r in cases)
    # The limit sits well above any honest reply: args nested MAX_DEPTH - 4 deep still pass.
    reply.write_text(nested % deep(MAX_DEPTH - 4), encoding="utf-8")
    with harness("scripted", "--reply", str(reply)) as url:
        accepted = run(store, url, tmp_path)
    assert {r["execution"]["outcome"] for r in records(store, accepted.run_id)} == {"ok"}


def test_a_flood_of_reported_calls_is_cut_to_the_cap_and_says_so(
    store: RunStore, tmp_path: Path
) -> None:
    sent = 50_000
    call: dict[str, Any] = {"name": "search_web", "args": {"queries": ["x"]}, "hop": 0}
    reply = tmp_path / "reply.json"
    reply.write_text(json.dumps({"final_text": "ok", "tool_calls": [call] * sent}), "utf-8")
    with harness("scripted", "--reply", str(reply)) as url:
        outcome = run(store, url, tmp_path)
    dataset = build_dataset(SEED, "1.1.0", "small")
    for record in records(store, outcome.run_id):
        assert len(record["response"]["tool_calls"]) == CALLS_KEPT
        assert record["execution"]["tool_calls_dropped"] == sent - CALLS_KEPT
    # Graded as the discipline rule grades any excess: the kept calls are far over every
    # budget, so no tool case counts as correct; grading every call sent gives the same
    # verdicts, and scores that differ only in the selection term's precision (kept/sent).
    transcript = Transcript.from_json(json.loads(outcome.transcript_path.read_bytes()))
    flooded = replace(
        transcript,
        cases=tuple(
            replace(c, response=replace(c.response, tool_calls=(ToolCall(**call),) * sent))
            if c.response is not None
            else c
            for c in transcript.cases
        ),
    )
    everything = {s.case_id: s for s in grade_run(dataset, flooded).report.per_case}
    for score in outcome.report.per_case:
        if score.kind != "tool":
            continue
        assert not score.correct
        assert everything[score.case_id].correct is False
        assert abs(everything[score.case_id].score - score.score) <= 0.4 * 3 * 2 / CALLS_KEPT


def test_a_record_stored_with_a_huge_hop_by_an_older_build_still_resumes(
    store: RunStore, tmp_path: Path
) -> None:
    """An older build stored hops beyond 2**53 as they came and then failed at scoring, on
    every resume. Such a stored record is clamped when the transcript is built."""
    run_id = "r-hostile-poisoned"
    with harness("nothing", "--die-after", "3") as url, pytest.raises(HarnessError):
        # One case at a time: the first two are answered before the third stops the harness.
        one_at_a_time = replace(options(url, tmp_path), concurrency=1)
        start_run(store, run_id, one_at_a_time, clock, lambda progress: None)
    kept = next(r for r in store.recorded_cases(run_id).values() if r["response"] is not None)
    poisoned = json.loads(json.dumps(kept))
    poisoned["response"]["tool_calls"] = [{"name": "search_web", "args": {}, "hop": 2**60}]
    poisoned["observed"] = [{"name": "search_web", "args": {}, "hop": 2**62}]
    store.record_case(run_id, kept["case_id"], kept["kind"], poisoned, updated_at=clock())
    with harness("nothing") as url:
        outcome = resume_run(store, run_id, options(url, tmp_path), clock, lambda p: None)
    assert store.get_run(run_id).status == "done"
    record = next(r for r in records(store, outcome.run_id) if r["case_id"] == kept["case_id"])
    assert record["observed"][0]["hop"] == 2**53 - 1


# 7. Dripping /seed and /health ---------------------------------------------------------------


def within(seconds: float, coro: Any) -> Any:
    """Run ``coro``, failing the test (rather than hanging) if it takes longer than seconds."""
    return asyncio.run(asyncio.wait_for(coro, seconds))


def test_a_dripping_health_reply_ends_at_the_wait() -> None:
    limits = ClientLimits(health_wait_s=2, health_interval_s=0.1, probe_timeout_s=1)

    async def go() -> None:
        async with HarnessClient(url, limits) as client:
            await client.wait_healthy()

    with harness("drip-health") as url, pytest.raises(HarnessError, match="never answered 2xx"):
        within(30, go())


def test_a_dripping_seed_reply_ends_at_its_deadline() -> None:
    limits = ClientLimits(seed_timeout_s=2)

    async def go() -> None:
        async with HarnessClient(url, limits) as client:
            await client.wait_healthy()
            await client.seed(SeedRequest(wave=0))

    late = "no complete reply within 2 s"
    with harness("drip-seed") as url, pytest.raises(HarnessError, match=late):
        within(30, go())


def test_run_wait_is_enforced_against_a_dripping_health(tmp_path: Path) -> None:
    with harness("drip-health") as url:
        started = time.monotonic()
        result = subprocess.run(
            [
                *(sys.executable, "-m", "dittobench", "run", "--harness", url, "--wait", "2"),
                *("--db", str(tmp_path / "runs.db"), "--out-dir", str(tmp_path / "out")),
            ],
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
    assert result.returncode != 0
    assert "never answered 2xx" in result.stderr + result.stdout
    assert time.monotonic() - started < 90


# 9. Slow connections to the tool endpoint ----------------------------------------------------

SLOWLORIS = r"""
import json, socket, sys, time
port, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
head = b"POST /tool HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
socks, refused = [], 0
for _ in range(count):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
    except OSError:
        refused += 1
        continue
    s.setblocking(False)
    socks.append(s)
open_at = {id(s): time.monotonic() for s in socks}
cut = {}
end = time.monotonic() + seconds
position = 0
while time.monotonic() < end and len(cut) < len(socks):
    for s in socks:
        if id(s) in cut:
            continue
        try:
            s.send(head[position % len(head):position % len(head) + 1])
            data = s.recv(1)
            if data == b"":
                cut[id(s)] = time.monotonic() - open_at[id(s)]
        except BlockingIOError:
            pass
        except OSError:
            cut[id(s)] = time.monotonic() - open_at[id(s)]
    position += 1
    time.sleep(0.25)
print(json.dumps({"opened": len(socks), "refused": refused, "cut": len(cut),
                  "longest": max(cut.values(), default=0.0)}))
"""


def test_slow_connections_are_cut_and_the_run_completes(tmp_path: Path) -> None:
    """A neighbour opens 300 connections to the tool endpoint and drips request headers a byte
    at a time, while the engine (its open-file limit lowered to 200) runs an oracle harness
    whose cases wait 1.5 s each. Every slow connection is cut within seconds, the
    engine never runs out of file handles, prints no traceback, and the run scores in full."""
    dataset_path = tmp_path / "answers.json"
    dataset = build_dataset(SEED, run_size="small")  # the version `run` uses by default
    dataset_path.write_bytes(canonical_bytes(dataset.to_json()))
    engine_code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200)); "
        "from dittobench.cli.app import main; sys.argv[0] = 'dittobench'; main()"
    )
    handle = start_harness("oracle", "--answers", str(dataset_path), "--pause-ms", "1500")
    with handle:
        engine = subprocess.Popen(
            [
                *(sys.executable, "-c", engine_code, "run", "--harness", handle.url),
                *("--seed", str(SEED), "--run-size", "small", "--concurrency", "2"),
                *("--db", str(tmp_path / "runs.db"), "--out-dir", str(tmp_path / "out")),
                *("--json", str(tmp_path / "report.json")),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            port = 0
            for _ in range(600):  # bounded: the first case reaches the harness within seconds
                port = get_json(f"{handle.url}/wire")["endpoint_port"]
                if port or engine.poll() is not None:
                    break
                time.sleep(0.05)
            assert port, "the harness never received a tool endpoint"
            neighbour = subprocess.run(
                [sys.executable, "-c", SLOWLORIS, str(port), "300", str(REQUEST_TIMEOUT_S * 4)],
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            out, err = engine.communicate(timeout=180)
        finally:
            if engine.poll() is None:
                engine.kill()
                engine.wait()
    assert neighbour.returncode == 0, neighbour.stderr
    seen = json.loads(neighbour.stdout)
    assert seen["cut"] == seen["opened"] > 0, seen
    assert seen["longest"] <= REQUEST_TIMEOUT_S * 3, seen
    assert engine.returncode == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["composite"] >= 0.99, out


def test_a_request_that_arrives_too_slowly_is_cut_and_not_recorded() -> None:
    """On the real path, with the secret: a body that drips, a head that never ends, and an idle
    connection are each closed within seconds; a prompt call beside them is answered."""
    dataset = build_dataset(SEED, "1.1.0", "small")
    case = dataset.tool_cases[0]
    call = json.dumps({"case_id": case.id, "name": "search_web", "args": {"queries": ["x"]}})

    async def closed_within(reader: asyncio.StreamReader, seconds: float) -> float:
        began = time.monotonic()
        while await asyncio.wait_for(reader.read(4096), seconds):
            pass
        return time.monotonic() - began

    async def go() -> None:
        endpoint = ToolEndpoint(dataset, get_policy(dataset.bench_version).content_version)
        url = httpx.URL(await endpoint.start())
        try:
            endpoint.open_case(case.id)
            head = f"POST {url.path} HTTP/1.1\r\nHost: x\r\nContent-Length: {len(call)}\r\n\r\n"
            slow_body = await asyncio.open_connection("127.0.0.1", url.port)
            slow_body[1].write(head.encode() + call[:5].encode())
            slow_head = await asyncio.open_connection("127.0.0.1", url.port)
            slow_head[1].write(b"POST " + url.path.encode() + b" HTTP/1.1\r\nHo")
            idle = await asyncio.open_connection("127.0.0.1", url.port)
            async with httpx.AsyncClient() as client:
                prompt = await client.post(str(url), content=call)
            assert prompt.status_code == 200
            for reader, writer in (slow_body, slow_head, idle):
                assert await closed_within(reader, REQUEST_TIMEOUT_S * 4) <= REQUEST_TIMEOUT_S * 3
                writer.close()
            assert [c.name for c in endpoint.close_case(case.id)] == ["search_web"]
        finally:
            await endpoint.stop()

    asyncio.run(go())


def test_a_head_that_keeps_growing_is_cut() -> None:
    """Header lines sent as fast as loopback takes them: the connection is closed once the head
    passes HEAD_LIMIT, long before memory matters; the endpoint goes on answering."""
    dataset = build_dataset(SEED, "1.1.0", "small")

    async def go() -> None:
        endpoint = ToolEndpoint(dataset, get_policy(dataset.bench_version).content_version)
        url = httpx.URL(await endpoint.start())
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", url.port)
            writer.write(b"POST " + url.path.encode() + b" HTTP/1.1\r\nHost: x\r\n")
            with contextlib.suppress(ConnectionError):
                for _ in range(HEAD_LIMIT // 1024 * 8):  # bounded: eight times the limit
                    writer.write(b"X-Filler: " + b"a" * 1012 + b"\r\n")
                    await writer.drain()
            try:
                tail = await asyncio.wait_for(reader.read(), 10)
            except ConnectionError:
                tail = b""  # reset
            assert tail == b""  # closed, and no reply
            writer.close()
            async with httpx.AsyncClient() as client:
                assert (await client.get(str(url))).status_code == 204
        finally:
            await endpoint.stop()

    asyncio.run(go())


# 9. Replies a harness sends that it was not asked for, and compression bombs ------------------


def test_a_reply_nobody_asked_for_never_lands_on_another_case(
    store: RunStore, tmp_path: Path
) -> None:
    """After each answer the harness writes a second reply on the same connection. Were the
    connection used again, that stale reply would be read as the next case's answer."""
    with harness("twice") as url:
        outcome = run(store, url, tmp_path)
    assert store.get_run(outcome.run_id).status == "done"
    dataset = build_dataset(SEED, "1.1.0", "small")
    asked = {c.id: c.prompt for c in dataset.tool_cases}
    asked |= {c.id: c.question for c in dataset.memory_cases}
    cases = records(store, outcome.run_id)
    assert len(cases) == len(asked)
    for record in cases:
        assert record["response"]["final_text"] == asked[record["case_id"]], record["case_id"]


def test_a_compression_bomb_is_too_large_and_the_run_goes_on(
    store: RunStore, tmp_path: Path
) -> None:
    with harness("gzip-bomb") as url:
        outcome = run(store, url, tmp_path)
    assert store.get_run(outcome.run_id).status == "done"
    outcomes = {r["execution"]["outcome"] for r in records(store, outcome.run_id)}
    assert outcomes == {"too_large"}
