"""The web pages of a real ``dittobench serve`` process, read the way a browser reads them
(cookies, forms, redirects): sign-in and its cookie, scopes, CSRF, every page, 404 pages, the
receipt download verified with ``dittobench verify --trusted-keys``, and public pages."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dittobench.engine.launcher import builtin_harness
from dittobench.receipts.keys import TrustedKeys, load_public_key, trusted_entry
from tests.helpers.cli import dittobench
from tests.helpers.page_client import PageClient
from tests.helpers.service_process import ADMIN, ALICE, BOB, ServiceProcess, start_service

UNKNOWN = "r-20200101-000000-abcdef"


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ServiceProcess, dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("pages")
    service = start_service(folder / "svc", "--allow-private-harness")
    try:
        with builtin_harness(folder / "harness.db") as url:
            jobs = {}
            # alice and admin on seed 9 (practice: paired, with failed cases), bob on a seed the
            # service draws (the one run the leaderboard ranks).
            for who, token, seed in (("alice", ALICE, 9), ("admin", ADMIN, 9), ("bob", BOB, None)):
                body = {"harness_url": url} if seed is None else {"harness_url": url, "seed": seed}
                status, accepted = service.json("POST", "/v1/submit", token, body)
                assert status == 202, accepted
                jobs[who] = service.wait_for(
                    accepted["run_id"], lambda j: j["status"] in ("done", "failed"), timeout=120
                )
                assert jobs[who]["status"] == "done", jobs[who]
        yield service, {"folder": folder, **jobs}
    finally:
        service.stop()


def test_pages_need_a_sign_in_and_the_session_cookie_is_strict(served: Any) -> None:
    service, _ = served
    client = PageClient(service.url)
    first = client.get("/leaderboard?bench_version=2.0.0")
    assert first.status == 303
    assert first.headers["location"] == "/sign-in?next=%2Fleaderboard%3Fbench_version%3D2.0.0"
    assert client.sign_in("not-a-token-0123456789").status == 401
    signed = client.sign_in(ALICE)
    assert signed.status == 303 and signed.headers["location"] == "/"
    (cookie,) = [c for c in signed.set_cookies if c.startswith("dittobench_session=")]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    page = client.get("/")
    assert page.status == 200 and "alice" in page.body
    assert "default-src 'none'" in page.headers["content-security-policy"]


def test_forms_without_their_csrf_token_or_from_another_site_are_refused(served: Any) -> None:
    service, _ = served
    client = PageClient(service.url)
    form = client.get("/sign-in")
    token = client.form_token(form.body)
    assert client.post("/sign-in", {"csrf": "forged", "token": ALICE}).status == 403
    other = client.post("/sign-in", {"csrf": token, "token": ALICE}, origin="http://evil.test")
    assert other.status == 403
    bare = PageClient(service.url)  # no sign-in cookie at all
    assert bare.post("/sign-in", {"csrf": token, "token": ALICE}).status == 403
    assert client.sign_in(ADMIN).status == 303
    assert client.post("/sign-out", {"csrf": "forged"}).status == 403
    page = client.get("/")
    assert client.post("/sign-out", {"csrf": client.form_token(page.body)}).status == 303
    assert client.get("/").status == 303  # signed out


def test_the_run_page_shows_the_summary_chart_and_every_case(served: Any) -> None:
    service, jobs = served
    job = jobs["alice"]
    report = job["report"]
    client = PageClient(service.url)
    client.sign_in(ALICE)
    page = client.get(f"/runs/{job['run_id']}")
    assert page.status == 200
    assert f"{report['composite']:.4f} ± {report['composite_stderr']:.4f}" in page.body
    assert "<svg" in page.body and "receipt-verified" in page.body
    assert "<dt>Seed chosen by</dt><dd><span class=warn>practice</span>" in page.body
    rows = re.findall(r'<tr data-kind="(\w+)"[^>]*data-passed="(\w+)"', page.body)
    assert len(rows) == len(report["per_case"])
    failed = [c for c in report["per_case"] if not c["correct"]]
    only_failed = client.get(f"/runs/{job['run_id']}?passed=no")
    assert len(re.findall(r"<tr data-kind=", only_failed.body)) == len(failed)
    memory = client.get(f"/runs/{job['run_id']}?kind=memory&q=")
    kinds = set(re.findall(r'<tr data-kind="(\w+)"', memory.body))
    assert kinds == {"memory"}


def test_a_failed_case_page_shows_its_rule(served: Any) -> None:
    service, jobs = served
    job = jobs["alice"]
    failed = [c for c in job["report"]["per_case"] if not c["correct"] and c["reason"]]
    assert failed, "the baseline fails some cases on seed 9"
    client = PageClient(service.url)
    client.sign_in(ALICE)
    for case in failed[:3]:
        page = client.get(f"/runs/{job['run_id']}/cases/{case['case_id']}")
        assert page.status == 200
        assert f"<code>{case['reason']}</code>" in page.body
        assert "Answer as graded" in page.body and "Observed by the endpoint" in page.body
    missing = client.get(f"/runs/{job['run_id']}/cases/c0000000000000000")
    assert missing.status == 404 and "c0000000000000000" in missing.body


def test_scopes_and_unknown_runs_are_404_pages(served: Any) -> None:
    service, jobs = served
    bob = PageClient(service.url)
    bob.sign_in(BOB)
    hidden = bob.get(f"/runs/{jobs['alice']['run_id']}")
    assert hidden.status == 404 and hidden.headers["content-type"].startswith("text/html")
    assert jobs["alice"]["run_id"] not in bob.get("/").body
    admin = PageClient(service.url)
    admin.sign_in(ADMIN)
    gone = admin.get(f"/runs/{UNKNOWN}")
    assert gone.status == 404 and UNKNOWN in gone.body
    assert jobs["alice"]["run_id"] in admin.get("/").body


def test_compare_leaderboard_datasets_and_the_receipt(served: Any, tmp_path: Path) -> None:
    service, jobs = served
    a, b = jobs["alice"]["run_id"], jobs["admin"]["run_id"]
    client = PageClient(service.url)
    client.sign_in(ADMIN)
    compared = client.get(f"/compare?a={a}&b={b}")
    assert compared.status == 200 and "Paired" in compared.body
    cases = len(jobs["alice"]["report"]["per_case"])
    counts = re.search(r"<strong>(\d+)</strong> wins, <strong>(\d+)</strong> losses, "
                       r"<strong>(\d+)</strong> ties", compared.body)  # fmt: skip
    assert counts and sum(int(n) for n in counts.groups()) == cases
    board = client.get("/leaderboard?bench_version=" + jobs["alice"]["bench_version"])
    assert board.status == 200 and "1 of 1 verify" in board.body
    assert "receipt-verified" in board.body and jobs["bob"]["run_id"] in board.body
    assert a not in board.body and b not in board.body  # practice: a seed the submitter chose
    assert (
        "2 practice runs (a seed the submitter chose, or the public pack while a scoring "
        "window was open) left off this board" in board.body
    )
    listed = client.get("/")
    assert listed.body.count(">practice</span>") == 2
    data = client.get("/datasets?seed=9&run_size=small")
    assert data.status == 200 and "Tool cases (" in data.body
    bad = client.get("/datasets?seed=-3&run_size=small")
    assert bad.status == 400
    download = client.get(f"/runs/{a}/receipt.json")
    assert download.status == 200 and "attachment" in download.headers["content-disposition"]
    assert json.loads(download.body) == json.loads(service.call("GET", f"/v1/runs/{a}/receipt")[2])
    (tmp_path / "receipt.json").write_text(download.body, encoding="utf-8")
    key = load_public_key(jobs["folder"] / "svc" / "keys" / "dittobench-ed25519.pub.pem")
    trusted = TrustedKeys((trusted_entry(key, "2000-01-01T00:00:00Z"),))
    (tmp_path / "trusted.json").write_text(json.dumps(trusted.to_json()), encoding="utf-8")
    verified = dittobench(
        "verify", str(tmp_path / "receipt.json"), "--trusted-keys", str(tmp_path / "trusted.json")
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr


def test_report_html_of_a_service_run_names_its_trust_tier(served: Any, tmp_path: Path) -> None:
    """The receipt is checked against the key kept beside the store (the service's own)."""
    _, jobs = served
    out = tmp_path / "report.html"
    store = jobs["folder"] / "svc" / "runs.db"
    made = dittobench("report", jobs["alice"]["run_id"], "--html", str(out), "--db", str(store))
    assert made.returncode == 0, made.stderr
    assert "<dd>receipt-verified</dd>" in out.read_text(encoding="utf-8")


def test_public_pages_need_no_sign_in(tmp_path: Path) -> None:
    service = start_service(tmp_path / "svc", "--public-pages")
    try:
        client = PageClient(service.url)
        assert client.get("/").status == 200
        assert client.get("/leaderboard").status == 200
        assert client.get(f"/runs/{UNKNOWN}").status == 404
        assert service.call("GET", "/v1/runs", None)[0] == 401  # the API is still protected
    finally:
        service.stop()
