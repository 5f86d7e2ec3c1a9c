"""A board that cannot be bought with a seed, through a real ``dittobench serve`` process and a
real harness process. The harness (``tests/helpers/answer_key_harness.py``) is told the seed its
owner will submit with, builds that dataset with the public generator and replays its answer key:
submitted with that ``seed`` (or through ``POST /v2/score``, which always names one) it scores
near 1.0, and the run is practice: its job, its page and its signed receipt say the submitter
chose the seed, and the leaderboard never lists it. Submitted without a seed, the service draws
one, the same harness knows no case, and that run is the one the board ranks."""

from __future__ import annotations

import hashlib
import json
import re
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset
from dittobench.receipts.keys import TrustedKeys, load_public_key, trusted_entry
from dittobench.spec.versions import CURRENT_VERSION
from tests.helpers.cli import dittobench
from tests.helpers.harness_process import script_harness
from tests.helpers.service_process import ADMIN, ALICE, ServiceProcess, start_service

SCRIPT = Path(__file__).resolve().parent.parent / "helpers" / "answer_key_harness.py"
PINNED = 4_242_424_242


def answer_key_harness(seed: int) -> AbstractContextManager[str]:
    return script_harness(SCRIPT, "--seed", str(seed), "--run-size", "small")


def _finished(service: ServiceProcess, accepted: dict[str, Any]) -> dict[str, Any]:
    job = service.wait_for(
        accepted["run_id"], lambda j: j["status"] in ("done", "failed"), 120, ALICE
    )
    assert job["status"] == "done", job
    return dict(job)


def _board(service: ServiceProcess) -> str:
    status, _, body = service.call("GET", f"/leaderboard?bench_version={CURRENT_VERSION}", ADMIN)
    assert status == 200
    return body.decode()


def test_a_seed_pinning_answer_key_harness_never_reaches_the_board(tmp_path: Path) -> None:
    folder = tmp_path / "svc"
    service = start_service(folder, "--allow-private-harness")
    try:
        with answer_key_harness(PINNED) as url:
            pinned = _finished(service, _submit(service, {"harness_url": url, "seed": PINNED}))
            assert pinned["seed_source"] == "submitter"
            assert pinned["report"]["composite"] >= 0.9  # the answer key bought the score ...
            board = _board(service)
            assert pinned["run_id"] not in board  # ... and nothing on the board
            assert "No harness has a finished run on a seed the operator drew" in board
            scored = _finished(service, _score(service, url))
            assert scored["seed_source"] == "submitter" and scored["mode"] == "score"
            drawn = _finished(service, _submit(service, {"harness_url": url}))
        assert drawn["seed_source"] == "operator" and drawn["seed"] not in ("", str(PINNED))
        assert drawn["report"]["composite"] < 0.5 < pinned["report"]["composite"]
        board = _board(service)
        _check_board(board, url, drawn, [pinned, scored])
        _check_listings(service, drawn, [pinned, scored])
        _check_receipts(service, folder, tmp_path, pinned, drawn)
    finally:
        service.stop()


def _submit(service: ServiceProcess, body: dict[str, Any]) -> dict[str, Any]:
    status, accepted = service.json("POST", "/v1/submit", ALICE, {**body, "run_size": "small"})
    assert status == 202, accepted
    expected = "submitter" if "seed" in body else "operator"
    assert accepted["seed_source"] == expected
    if expected == "operator":  # told before the run, the seed would buy the answer key
        assert accepted["seed"] == ""
        live = service.json("GET", accepted["poll"], ALICE)[1]
        assert live["seed"] == "" or live["status"] in ("done", "failed", "cancelled"), live
    return dict(accepted)


def _score(service: ServiceProcess, url: str) -> dict[str, Any]:
    dataset = build_dataset(PINNED, CURRENT_VERSION, "small")
    sha = hashlib.sha256(canonical_bytes(dataset.to_json())).hexdigest()
    body: dict[str, object] = {
        "harness_url": url,
        "bench_version": CURRENT_VERSION,
        "run_size": "small",
    }
    body |= {"seed": PINNED, "dataset_sha256": sha}
    status, accepted = service.json("POST", "/v2/score", ALICE, body)
    assert status == 202 and accepted["seed_source"] == "submitter", accepted
    return dict(accepted)


def _check_board(
    board: str, url: str, drawn: dict[str, Any], practice: list[dict[str, Any]]
) -> None:
    """One row: the harness at its operator-seeded run's composite; the practice runs counted
    under the board, never listed in it."""
    (table,) = re.findall(r'<table id="leaderboard-small">.*?</table>', board, re.S)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.split("<tbody>")[1], re.S)
    assert len(rows) == 1, rows
    report = drawn["report"]
    assert url in rows[0] and drawn["run_id"] in rows[0]
    assert f"{report['composite']:.4f} ± {report['composite_stderr']:.4f}" in rows[0]
    assert "the run's own (1 run)" in rows[0]
    assert "1 of 1 verify" in rows[0] and "receipt-verified" in rows[0]
    for job in practice:
        assert job["run_id"] not in board
    assert (
        "2 practice runs (a seed the submitter chose, or the public pack while a scoring "
        "window was open) left off this board" in board
    )


def _check_listings(
    service: ServiceProcess, drawn: dict[str, Any], practice: list[dict[str, Any]]
) -> None:
    """The job list and the runs page say who chose each seed."""
    listed = service.json("GET", "/v1/runs", ALICE)[1]["runs"]
    sources = {job["run_id"]: job["seed_source"] for job in listed}
    assert sources == {
        drawn["run_id"]: "operator",
        **{job["run_id"]: "submitter" for job in practice},
    }
    _, _, runs_page = service.call("GET", "/", ADMIN)
    for job in practice:
        row = re.search(rf"<tr><td><a href=\"/runs/{job['run_id']}\">.*?</tr>", runs_page.decode())
        assert row is not None and ">practice</span>" in row.group(0)
    _, _, page = service.call("GET", f"/runs/{practice[0]['run_id']}", ADMIN)
    assert "<dt>Seed chosen by</dt><dd><span class=warn>practice</span>" in page.decode()


def _check_receipts(
    service: ServiceProcess,
    folder: Path,
    tmp: Path,
    pinned: dict[str, Any],
    drawn: dict[str, Any],
) -> None:
    """Formats 4 and 5 (a run with open questions) bind who chose the seed: verify reports it,
    and a practice receipt edited to say the operator drew the seed no longer verifies."""
    key = load_public_key(folder / "keys" / "dittobench-ed25519.pub.pem")
    trusted = TrustedKeys((trusted_entry(key, "2000-01-01T00:00:00Z"),))
    (tmp / "trusted.json").write_text(json.dumps(trusted.to_json()), encoding="utf-8")
    for job, said in ((pinned, "chosen by the submitter"), (drawn, "drawn by the operator")):
        receipt = json.loads(service.call("GET", f"/v1/runs/{job['run_id']}/receipt", ALICE)[2])
        assert receipt["manifest"]["format"] == "dittobench-receipt-5"
        assert receipt["manifest"]["seed_source"] == job["seed_source"]
        path = tmp / f"{job['run_id']}.json"
        path.write_text(json.dumps(receipt), encoding="utf-8")
        checked = dittobench("verify", str(path), "--trusted-keys", str(tmp / "trusted.json"))
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert said in checked.stdout
    receipt = json.loads((tmp / f"{pinned['run_id']}.json").read_text(encoding="utf-8"))
    receipt["manifest"]["seed_source"] = "operator"
    (tmp / "promoted.json").write_text(json.dumps(receipt), encoding="utf-8")
    promoted = dittobench(
        "verify", str(tmp / "promoted.json"), "--trusted-keys", str(tmp / "trusted.json")
    )
    assert promoted.returncode == 1
    assert re.search(r"FAIL\s+signature", promoted.stdout), promoted.stdout
