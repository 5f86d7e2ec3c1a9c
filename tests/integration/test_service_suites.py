"""Suites through ``dittobench serve`` (runs driven in the service's own process, two at once):
``POST /v1/submit {"seeds": 3}`` answers with the suite and its runs, the suite object shows each
run beside the mean composite and interval of their reports, and once every run is done a suite
receipt that verifies with the service's key against the runs' receipts. The capabilities show
the queue live. Wrong suites are refused; another submitter cannot read the suite."""

from __future__ import annotations

import json
from pathlib import Path

from dittobench.engine.launcher import builtin_harness
from dittobench.receipts.keys import load_private_key
from dittobench.receipts.suite import SuiteRun, check_suite_receipt, summarise
from tests.helpers.service_process import ALICE, BOB, start_service


def test_a_suite_submitted_to_the_service(tmp_path: Path) -> None:
    folder = tmp_path / "svc"
    service = start_service(
        folder, "--allow-private-harness", env={"DITTOBENCH_MAX_ACTIVE_RUNS": "2"}
    )
    try:
        with builtin_harness(tmp_path / "harness.db") as url:
            status, accepted = service.json(
                "POST", "/v1/submit", ALICE, {"harness_url": url, "seeds": 3}
            )
            assert status == 202, accepted
            # the operator's seeds are shown once their runs are over: nobody builds the key
            assert len(accepted["run_ids"]) == 3 and accepted["seeds"] == ["", "", ""]
            running = service.json("GET", accepted["poll"], ALICE)[1]
            assert all(r["seed"] == "" for r in running["runs"] if r["status"] != "done")
            poll = accepted["poll"]
            again = service.json("POST", "/v1/submit", ALICE, {"harness_url": url})
            assert again[0] == 409  # a suite is the submitter's one active submission
            fleet = service.json("GET", "/v1/capabilities", None)[1]["fleet"]
            assert fleet["queue"] == "local" and fleet["workers_alive"] == 0
            assert fleet["queue_depth"] + fleet["in_process_runs"] >= 1
            for run_id in accepted["run_ids"]:
                service.wait_for(run_id, lambda j: j["status"] == "done", token=ALICE)
            suite = service.json("GET", poll, ALICE)[1]
            assert service.json("GET", poll, BOB)[0] == 404
        assert suite["status"] == "done", suite
        runs = [
            SuiteRun(r["run_id"], int(r["seed"]), r["composite"], r["composite_stderr"])
            for r in suite["runs"]
        ]
        assert [r.run_id for r in runs] == accepted["run_ids"]
        assert len({r.seed for r in runs}) == 3
        expected = summarise(runs).to_json()
        assert suite["summary"] == expected
        receipts = [
            json.loads(service.call("GET", f"/v1/runs/{r.run_id}/receipt", ALICE)[2]) for r in runs
        ]
        key = load_private_key(folder / "keys" / "dittobench-ed25519.pem").public_key()
        assert check_suite_receipt(suite["receipt"], key, receipts) == []
        # The service drew every seed of the suite: its runs are the operator's, signed so.
        jobs = [service.json("GET", f"/v1/runs/{r.run_id}", ALICE)[1] for r in runs]
        assert {job["seed_source"] for job in jobs} == {"operator"}
        assert {r["manifest"]["seed_source"] for r in receipts} == {"operator"}
        assert service.json("GET", poll, ALICE)[1]["receipt"] == suite["receipt"]  # signed once
        fleet = service.json("GET", "/v1/capabilities", None)[1]["fleet"]
        assert fleet["queue_depth"] == 0 and fleet["in_process_runs"] == 0
    finally:
        service.stop()


def test_wrong_suites_are_refused(tmp_path: Path) -> None:
    service = start_service(tmp_path / "svc", "--allow-private-harness")
    try:
        url = "http://127.0.0.1:9"
        for body, said in [
            ({"harness_url": url, "seeds": 2, "seed": 4}, "drop seed"),
            ({"harness_url": url, "seeds": 0}, "seeds"),
            ({"harness_url": url, "seeds": 101}, "seeds"),
        ]:
            status, answer = service.json("POST", "/v1/submit", ALICE, body)
            assert status == 400 and said in answer["error"], answer
        assert service.json("GET", "/v1/suites/s-20260101-000000-abcdef", ALICE)[0] == 404
        assert service.json("GET", "/v1/suites/../x", ALICE)[0] in (400, 404)
    finally:
        service.stop()
