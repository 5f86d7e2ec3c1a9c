"""``dittobench serve`` for real: a service process on a real port scoring a real harness
process (the built-in baseline, or the test harness where a run must be slow).

A submitted run's report equals ``dittobench run``'s for the same seed and harness; runs are
cancelled (queued, running, already over) and a submitter cannot touch another's; a service killed
with ``kill -9`` mid-run finishes the run after a restart with the per-case scores of an
uninterrupted run; enforce mode refuses to start without a token.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import socket
from pathlib import Path
from typing import Any

from dittobench.engine.launcher import builtin_harness
from tests.helpers.cli import dittobench
from tests.helpers.harness_process import harness
from tests.helpers.service_process import ADMIN, ALICE, BOB, start_service

PRIVATE = "--allow-private-harness"


def scores(report: dict[str, Any]) -> dict[str, float]:
    return {case["case_id"]: case["score"] for case in report["per_case"]}


def cli_report(tmp: Path, url: str, seed: int, size: str) -> dict[str, Any]:
    """``dittobench run`` against the same harness, for comparison."""
    out = tmp / "cli-report.json"
    result = dittobench(
        "run", "--harness", url, "--seed", str(seed), "--run-size", size,
        "--db", str(tmp / "cli.db"), "--out-dir", str(tmp / "cli-out"), "--json", str(out),
        cwd=tmp,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return report


def test_a_submitted_run_reports_what_dittobench_run_reports(tmp_path: Path) -> None:
    service = start_service(tmp_path / "svc", PRIVATE)
    try:
        with builtin_harness(tmp_path / "harness.db") as url:
            status, accepted = service.json(
                "POST", "/v1/submit", ALICE, {"harness_url": url, "seed": 11}
            )
            assert status == 202 and accepted["status"] == "queued", accepted
            run_id = accepted["run_id"]
            again, refused = service.json("POST", "/v1/submit", ALICE, {"harness_url": url})
            assert again == 409 and run_id in refused["error"]  # one active run per submitter
            job = service.wait_for(run_id, lambda j: j["status"] in ("done", "failed"), token=ALICE)
            expected = cli_report(tmp_path, url, 11, "small")
        assert job["status"] == "done", job
        assert scores(job["report"]) == scores(expected)
        assert job["report"]["composite"] == expected["composite"]
        # 6 tool and 6 memory cases graded, 2 open questions asked for the nuance score
        assert job["progress"] == {"stage": "done", "done": 14, "total": 14}
        _check_files(service, tmp_path, run_id, job)
        _, events_headers, events = service.call("GET", f"/v1/runs/{run_id}/events", ALICE)
        assert events_headers["content-type"].startswith("text/event-stream")
        assert b'event: end\ndata: {"status":"done"}' in events
        listed = service.json("GET", "/v1/runs?status=done", BOB)[1]
        assert listed["runs"] == [] and listed["total"] == 0  # bob sees only his own
        assert service.json("GET", f"/v1/runs/{run_id}", BOB)[0] == 404
    finally:
        service.stop()


def _check_files(service: Any, tmp: Path, run_id: str, job: dict[str, Any]) -> None:
    """The transcript's bytes hash to its header and the report's hash; the receipt verifies
    against the transcript and is signed as verified."""
    status, headers, transcript = service.call("GET", f"/v1/runs/{run_id}/transcript", ALICE)
    assert status == 200
    digest = hashlib.sha256(transcript).hexdigest()
    assert headers["x-transcript-sha256"] == digest == job["transcript_sha256"]
    status, _, receipt = service.call("GET", f"/v1/runs/{run_id}/receipt", ALICE)
    assert status == 200 and json.loads(receipt)["manifest"]["trust_tier"] == "verified"
    (tmp / "receipt.json").write_bytes(receipt)
    (tmp / "transcript.json").write_bytes(transcript)
    status, _, keys = service.call("GET", "/v1/keys", None)  # the service's published keys
    assert status == 200
    (tmp / "keys.json").write_bytes(keys)
    verified = dittobench(
        "verify", str(tmp / "receipt.json"), "--transcript", str(tmp / "transcript.json"),
        "--regrade", "--trusted-keys", str(tmp / "keys.json"),
    )  # fmt: skip
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_cancelling_queued_running_and_finished_runs(tmp_path: Path) -> None:
    slow = {"DITTOBENCH_RUN_CONCURRENCY": "1", "DITTOBENCH_MAX_ACTIVE_RUNS": "1"}
    service = start_service(tmp_path / "svc", PRIVATE, env=slow)
    try:
        with harness("slow", "--delay-ms", "300") as url:
            first = service.json("POST", "/v1/submit", ALICE, {"harness_url": url})[1]["run_id"]
            queued = service.json("POST", "/v1/submit", BOB, {"harness_url": url})[1]["run_id"]
            service.wait_for(first, lambda j: j["status"] == "running" and j["partial"])
            # A submitter cannot cancel (or even see) another's run.
            assert service.json("DELETE", f"/v1/runs/{first}", BOB)[0] == 404
            status, job = service.json("DELETE", f"/v1/runs/{queued}", BOB)
            assert status == 202 and job["status"] == "cancelled"
            status, job = service.json("DELETE", f"/v1/runs/{first}", ALICE)
            assert status == 202 and job["cancelled_by"] == "alice"
            job = service.wait_for(first, lambda j: j["status"] in ("cancelled", "failed", "done"))
            assert job["status"] == "cancelled", job
            assert 0 < job["progress"]["done"] < job["progress"]["total"]
            status, job = service.json("DELETE", f"/v1/runs/{first}", ALICE)
            assert status == 200 and job["status"] == "cancelled"  # already over
            assert service.json("DELETE", "/v1/runs/r-20260101-000000-abcdef", ADMIN)[0] == 404
            listed = service.json("GET", "/v1/runs?status=cancelled&limit=1", ADMIN)[1]
            assert listed["total"] == 2 and listed["next_offset"] == 1
    finally:
        service.stop()


def test_kill_9_mid_run_then_restart_finishes_with_the_same_scores(tmp_path: Path) -> None:
    one_at_a_time = {"DITTOBENCH_RUN_CONCURRENCY": "1"}
    folder = tmp_path / "svc"
    service = start_service(folder, PRIVATE, env=one_at_a_time)
    with builtin_harness(tmp_path / "harness.db") as url:
        try:
            body = {"harness_url": url, "seed": 23, "run_size": "medium"}
            run_id = service.json("POST", "/v1/submit", ALICE, body)[1]["run_id"]
            service.wait_for(run_id, lambda j: j["progress"]["done"] >= 12)
            midway = service.json("GET", f"/v1/runs/{run_id}")[1]
            assert midway["status"] in ("seeding", "running"), midway
            assert len(midway["partial"]) >= 12  # provisional scores of the cases so far
        finally:
            service.kill()
        service = start_service(folder, PRIVATE)
        try:
            job = service.wait_for(run_id, lambda j: j["status"] in ("done", "failed"))
            expected = cli_report(tmp_path, url, 23, "medium")
        finally:
            service.stop()
    assert job["status"] == "done", job
    assert scores(job["report"]) == scores(expected)


def test_enforce_refuses_to_start_without_a_token(tmp_path: Path) -> None:
    result = dittobench("serve", "--db", str(tmp_path / "runs.db"), cwd=tmp_path)
    assert result.returncode == 2
    assert "needs a token" in result.stderr and "Traceback" not in result.stderr
    wrong = dittobench("serve", "--auth-mode", "loose", cwd=tmp_path)
    assert wrong.returncode == 2 and "enforce or shadow" in wrong.stderr


def test_a_request_head_over_the_limit_is_cut_before_it_is_read(tmp_path: Path) -> None:
    """max_header_bytes (64 KiB) holds for a request still arriving: a 1 MiB header on a public
    route gets no reply, and the service goes on answering."""
    service = start_service(tmp_path / "svc")
    try:
        with socket.create_connection(("127.0.0.1", service.port), timeout=10) as conn:
            head = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1024 * 1024)
            with contextlib.suppress(OSError):
                conn.sendall(head + b"\r\n\r\n")
            reply = b""
            with contextlib.suppress(OSError):
                reply = conn.recv(4096)
        assert not reply.startswith(b"HTTP/1.1 200"), reply[:80]
        assert service.json("GET", "/health", token=None) == (200, {"status": "ok"})
    finally:
        service.stop()
