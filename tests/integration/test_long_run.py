"""A ``long`` run through the service, for real: ``dittobench serve`` drives the built-in
baseline harness (a real process on a real port) over a history of more than 10,000 pairs, seeded
in parts, and signs a receipt that ``dittobench verify --regrade`` checks against the service's
published keys. Memory and speed figures are ``benchmarks/long_run.py``'s, not asserted here.
"""

from __future__ import annotations

import json
from pathlib import Path

from dittobench.engine.launcher import builtin_harness
from tests.helpers.cli import dittobench
from tests.helpers.service_process import ALICE, start_service


def test_a_long_run_through_the_service_verifies(tmp_path: Path) -> None:
    service = start_service(tmp_path / "svc", "--allow-private-harness")
    try:
        with builtin_harness(tmp_path / "harness.db") as url:
            status, accepted = service.json(
                "POST", "/v1/submit", ALICE, {"harness_url": url, "seed": 7, "run_size": "long"}
            )
            assert status == 202, accepted
            run_id = accepted["run_id"]
            job = service.wait_for(
                run_id, lambda j: j["status"] in ("done", "failed"), timeout=900, token=ALICE
            )
        assert job["status"] == "done", job
        report = job["report"]
        assert report["run_size"] == "long"
        assert len(report["per_case"]) == 84 + 195  # full's tool and memory cases
        for name in ("receipt", "transcript"):
            status, _, body = service.call("GET", f"/v1/runs/{run_id}/{name}", ALICE)
            assert status == 200, name
            (tmp_path / f"{name}.json").write_bytes(body)
        status, _, keys = service.call("GET", "/v1/keys", None)
        (tmp_path / "keys.json").write_bytes(keys)
        manifest = json.loads((tmp_path / "receipt.json").read_bytes())["manifest"]
        assert manifest["run_size"] == "long"
    finally:
        service.stop()
    verified = dittobench(
        "verify", str(tmp_path / "receipt.json"), "--transcript", str(tmp_path / "transcript.json"),
        "--regrade", "--trusted-keys", str(tmp_path / "keys.json"),
    )  # fmt: skip
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "VERIFIED" in verified.stdout
