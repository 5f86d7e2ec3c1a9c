"""A scoring window through a real ``dittobench serve`` process, the built-in baseline harness
and ``dittobench verify``: a copy of the public pack is refused (a parser of it would read the
window), a sealed pack written anew is committed when the window opens, a run in the window uses
it on a seed the service draws, a public-pack run made meanwhile is practice, the reveal
publishes a pack that hashes to the commitment, and ``verify --log`` checks the receipt's
inclusion under a signed tree head, consistency with a head kept earlier, and the revealed pack.
An edited, removed or back-dated entry and a pack that is not the commitment are each caught, by
name."""

from __future__ import annotations

import io
import json
import re
import shutil
import sqlite3
import tarfile
from pathlib import Path
from typing import Any

import pytest

from dittobench.engine.launcher import builtin_harness
from dittobench.receipts.keys import PRIVATE_KEY_NAME, load_private_key, trusted_entry
from dittobench.receipts.logentries import entry_bytes, run_signed
from dittobench.receipts.logtree import entry_hash, tree_root
from dittobench.receipts.treehead import sign_tree_head
from tests.helpers.cli import dittobench
from tests.helpers.service_process import ADMIN, ALICE, ServiceProcess, start_service

INDEPENDENT = Path(__file__).resolve().parents[1] / "packs" / "independent"


def near_copy(folder: Path, word: str) -> str:
    """A pack made with ``pack new`` (the public pack's words) and one word of its system prompt
    changed; its sha256."""
    made = dittobench("pack", "new", str(folder), "--id", "sealed-w", cwd=folder.parent)
    assert made.returncode == 0, made.stderr
    return _changed(folder, word)


def sealed_pack(folder: Path, word: str) -> str:
    """A pack whose wording was written anew (the independently authored one), one word of its
    system prompt changed so it is no pack a test ships; its sha256."""
    shutil.copytree(INDEPENDENT, folder, ignore=shutil.ignore_patterns("*.py"))
    return _changed(folder, word)


def _changed(folder: Path, word: str) -> str:
    path = folder / "system.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert " the " in data["system_prompt"]
    data["system_prompt"] = data["system_prompt"].replace(" the ", f" {word} ", 1)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return pack_sha(folder)


def pack_sha(folder: Path) -> str:
    hashed = dittobench("pack", "hash", str(folder))
    assert hashed.returncode == 0, hashed.stderr
    return hashed.stdout.split()[0]


def finished(service: ServiceProcess, run_id: str) -> dict[str, Any]:
    job = service.wait_for(run_id, lambda j: j["status"] in ("done", "failed"), 180, ALICE)
    assert job["status"] == "done", job
    return dict(job)


def verify(*args: str) -> tuple[int, str]:
    done = dittobench("verify", *args, timeout=300)
    return done.returncode, done.stdout + done.stderr


def test_a_window_opened_run_revealed_and_verified_through_the_log(tmp_path: Path) -> None:
    folder = tmp_path / "svc"
    service = start_service(folder, "--allow-private-harness")
    try:
        commitment = sealed_pack(tmp_path / "sealed", "that")
        window = _open(service, tmp_path / "sealed", commitment)
        wid = window["window_id"]
        kept = tmp_path / "head-1.json"
        kept.write_bytes(service.call("GET", "/v1/log/head", None)[2])  # public, no token
        with builtin_harness(tmp_path / "harness.db") as url:
            pinned = {"harness_url": url, "window_id": wid, "seed": 5}
            refused = service.json("POST", "/v1/submit", ALICE, pinned)
            assert refused[0] == 400 and "seeds the service draws" in refused[1]["error"]
            status, accepted = service.json(
                "POST", "/v1/submit", ALICE, {"harness_url": url, "window_id": wid}
            )
            assert status == 202 and accepted["window_id"] == wid, accepted
            job = finished(service, accepted["run_id"])
            public = service.json("POST", "/v1/submit", ALICE, {"harness_url": url})[1]
            beside = finished(service, public["run_id"])
        assert job["seed_source"] == "operator" and job["report"]["pack"]["sha256"] == commitment
        assert beside["window_id"] == "" and beside["seed_source"] == "operator"
        case = f"/runs/{job['run_id']}/cases/{job['report']['per_case'][0]['case_id']}"
        _sealed_until_revealed(service, job, case, sealed=True)
        _reveal(service, wid, commitment, tmp_path / "revealed")
        _sealed_until_revealed(service, job, case, sealed=False)
        late = {"harness_url": "http://127.0.0.1:9", "window_id": wid}
        again = service.json("POST", "/v1/submit", ALICE, late)
        assert again[0] == 409 and "closed" in again[1]["error"]
        _check_pages(service, wid, commitment, job, beside)
        receipt = tmp_path / "receipt.json"
        receipt.write_bytes(service.call("GET", f"/v1/runs/{job['run_id']}/receipt", ALICE)[2])
        trusted = _trusted(folder, tmp_path)
        _verify_honest(service, tmp_path, receipt, trusted, kept)
        _verify_tampered(folder, tmp_path, receipt, trusted, kept)
    finally:
        service.stop()
    db = sqlite3.connect(folder / "runs.db")
    try:
        for change in ("UPDATE log_entries SET entry_json = '{}'", "DELETE FROM log_entries"):
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                db.execute(change)
    finally:
        db.close()


def _open(service: ServiceProcess, pack: Path, commitment: str) -> dict[str, Any]:
    body = {"pack_path": str(pack), "run_size": "small"}
    assert service.json("POST", "/v1/windows", ALICE, body)[0] == 403  # admins only
    assert service.call("POST", "/v1/windows", None, body)[0] == 401  # reads only are public
    public = {"pack_path": str(pack.parent / "nowhere"), "run_size": "small"}
    status, said = service.json("POST", "/v1/windows", ADMIN, public)
    assert status == 400 and "sealed pack" in said["error"], said
    near_copy(pack.parent / "near", "which")  # the public pack's wording: a parser reads it
    near = {"pack_path": str(pack.parent / "near"), "run_size": "small"}
    status, said = service.json("POST", "/v1/windows", ADMIN, near)
    assert status == 400 and "may share at most" in said["error"], said
    status, window = service.json("POST", "/v1/windows", ADMIN, body)
    assert status == 201, window
    assert window["state"] == "open" and window["pack_sha256"] == commitment
    assert window["pack_url"] == ""
    status, listed = service.json("GET", "/v1/windows", None)
    assert status == 200 and [w["window_id"] for w in listed["windows"]] == [window["window_id"]]
    status, entries = service.json("GET", "/v1/log/entries", None)
    assert status == 200 and entries["entries"][0]["pack_sha256"] == commitment
    assert service.call("GET", f"/v1/windows/{window['window_id']}/pack.tar.gz", None)[0] == 404
    return dict(window)


def _sealed_until_revealed(
    service: ServiceProcess, job: dict[str, Any], case: str, sealed: bool
) -> None:
    """Before the reveal only the run's submitter, whose harness answered them, reads its cases:
    they are the sealed pack's words. Its scores are public all along."""
    page = service.call("GET", f"/runs/{job['run_id']}", ADMIN)[2].decode()
    assert ("Cases sealed:" in page) is sealed
    assert str(job["report"]["composite"])[:4] in page
    assert service.call("GET", case, ADMIN)[0] == (403 if sealed else 200)
    assert service.call("GET", case, ALICE)[0] == 200


def _reveal(service: ServiceProcess, wid: str, commitment: str, into: Path) -> None:
    assert service.json("POST", f"/v1/windows/{wid}/reveal", ALICE)[0] == 403
    status, window = service.json("POST", f"/v1/windows/{wid}/reveal", ADMIN)
    assert status == 200 and window["state"] == "revealed", window
    assert service.json("POST", f"/v1/windows/{wid}/reveal", ADMIN)[0] == 409  # once
    status, _, archive = service.call("GET", window["pack_url"], None)
    assert status == 200
    into.mkdir()
    with tarfile.open(fileobj=io.BytesIO(archive), mode="r:gz") as tar:
        tar.extractall(into, filter="data")
    assert pack_sha(into) == commitment


def _check_pages(
    service: ServiceProcess,
    wid: str,
    commitment: str,
    job: dict[str, Any],
    beside: dict[str, Any],
) -> None:
    status, _, page = service.call("GET", "/windows", ADMIN)
    assert status == 200 and wid in page.decode() and commitment in page.decode()
    assert "revealed" in page.decode()
    board = service.call("GET", "/leaderboard", ADMIN)[2].decode()
    (table,) = re.findall(r'<table id="leaderboard-small">.*?</table>', board, re.S)
    assert job["run_id"] in table and f'href="/windows#{wid}">{wid}</a> ×1' in table
    assert beside["run_id"] not in table  # the public pack while the window was open
    run_page = service.call("GET", f"/runs/{job['run_id']}", ADMIN)[2].decode()
    assert f'Scoring window: <a href="/windows#{wid}">{wid}</a>' in run_page
    assert "1 practice run (a seed the submitter chose, or the public pack" in board


def _trusted(folder: Path, tmp: Path) -> Path:
    key = load_private_key(folder / "keys" / PRIVATE_KEY_NAME)
    path = tmp / "trusted.json"
    entry = trusted_entry(key, "2000-01-01T00:00:00Z").to_json()
    path.write_text(json.dumps({"keys": [entry]}), encoding="utf-8")
    return path


def _verify_honest(
    service: ServiceProcess, tmp: Path, receipt: Path, trusted: Path, kept: Path
) -> None:
    later = tmp / "head-2.json"
    code, out = verify(
        str(receipt), "--trusted-keys", str(trusted), "--log", service.url,
        "--old-head", str(kept), "--save-head", str(later),
        "--pack", str(tmp / "revealed"), "--regrade",
    )  # fmt: skip
    assert code == 0, out
    for name in ("tree head", "log root", "log order", "consistency", "receipt in log"):
        assert re.search(rf"ok +{name} ", out), (name, out)
    assert re.search(r"ok +window pack +the pack is window w-", out), out
    assert "verdict: VERIFIED" in out
    assert json.loads(later.read_text())["tree_size"] == 4  # opened, 2 runs, revealed
    exported = tmp / "log.json"
    exported.write_bytes(service.call("GET", "/v1/log", None)[2])
    code, out = verify(str(receipt), "--trusted-keys", str(trusted), "--log", str(exported),
                       "--old-head", str(kept))  # fmt: skip
    assert code == 0 and "verdict: VERIFIED" in out, out


def _verify_tampered(folder: Path, tmp: Path, receipt: Path, trusted: Path, kept: Path) -> None:
    honest = json.loads((tmp / "log.json").read_text())
    key = load_private_key(folder / "keys" / PRIVATE_KEY_NAME)

    def check(name: str, log: dict[str, Any], *extra: str) -> str:
        path = tmp / f"{name}.json"
        path.write_text(json.dumps(log), encoding="utf-8")
        args = ["--trusted-keys", str(trusted), "--log", str(path), *extra]
        code, out = verify(str(receipt), *args)
        assert code == 1 and "verdict: NOT VERIFIED" in out, out
        return out

    def resigned(entries: list[dict[str, Any]]) -> dict[str, Any]:
        """What a dishonest operator holding the key would publish."""
        root = tree_root([entry_hash(entry_bytes(e)) for e in entries])
        head = sign_tree_head(len(entries), root, honest["tree_head"]["timestamp"], key)
        return {"tree_head": head, "entries": entries}

    entries = honest["entries"]
    edited = [*entries[:1], {**entries[1], "composite": "0.999999"}, *entries[2:]]
    out = check("edited", {**honest, "entries": edited})
    assert re.search(r"FAIL +log root +the entries hash to \w+, not the signed root", out)
    out = check("removed", {**honest, "entries": entries[1:]})
    assert "FAIL  log entries  the head signs 4 entries but 3 were given" in out
    saved = tmp / "never.json"
    heads = ("--old-head", str(kept), "--save-head", str(saved))
    out = check("removed-resigned", resigned(entries[1:]), *heads)
    assert "--save-head: not written" in out and not saved.exists()
    assert re.search(r"FAIL +consistency +.*entries before 1 were changed or removed", out), out
    late = run_signed("", "r-20000101-000000-000000", json.loads(receipt.read_text()),
                      "2000-01-01T00:00:00Z")  # fmt: skip
    out = check("backdated", resigned([*entries, late]))
    assert re.search(r"FAIL +log order +entry 4 \(run_signed\) is dated 2000-01-01T00:00:00Z", out)
    other = tmp / "other-pack"
    other.mkdir()
    for file in (tmp / "revealed").iterdir():
        (other / file.name).write_bytes(file.read_bytes())
    system = json.loads((other / "system.json").read_text())
    system["system_prompt"] += " Thanks."
    (other / "system.json").write_text(json.dumps(system), encoding="utf-8")
    out = check("pack", honest, "--pack", str(other))
    assert re.search(r"FAIL +window pack +the pack given has sha256 \w+, not window w-", out), out
