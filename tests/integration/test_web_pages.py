"""The web pages of a real ``dittobench serve`` process, read the way a browser reads them
(cookies, forms, redirects): sign-in and its cookie, scopes, CSRF, every page, 404 pages, the
receipt download verified with ``dittobench verify --trusted-keys``, public pages, the run page
and the dataset page paged and sorted, and the cases a comparison lists (on the page and from
``dittobench compare --cases``)."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dittobench.engine.launcher import builtin_harness
from dittobench.receipts.keys import TrustedKeys, load_public_key, trusted_entry
from tests.helpers.cli import dittobench
from tests.helpers.harness_process import harness
from tests.helpers.page_client import PageClient
from tests.helpers.service_process import ADMIN, ALICE, BOB, ServiceProcess, start_service
from tests.integration.test_cli_run import interrupted_then_resumed

UNKNOWN = "r-20200101-000000-abcdef"


@pytest.fixture(scope="module")
def served(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ServiceProcess, dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("pages")
    service = start_service(folder / "svc", "--allow-private-harness")
    try:
        with builtin_harness(folder / "harness.db") as url, harness("nothing") as blank_url:
            jobs = {}
            # alice and admin on seed 9 (practice: paired, with failed cases), bob on a seed the
            # service draws (the one run the leaderboard ranks), and admin again on seed 9 with
            # a harness that answers nothing (paired with admin's first: many cases drop).
            for who, token, seed, where in (
                ("alice", ALICE, 9, url),
                ("admin", ADMIN, 9, url),
                ("bob", BOB, None, url),
                ("blank", ADMIN, 9, blank_url),
            ):
                body: dict[str, Any] = {"harness_url": where}
                if seed is not None:
                    body["seed"] = seed
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
    page = client.get(f"/runs/{job['run_id']}?per=200")
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
        "3 practice runs (a seed the submitter chose, or the public pack while a scoring "
        "window was open) left off this board" in board.body
    )
    listed = client.get("/")
    assert listed.body.count(">practice</span>") == 3
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


ROW = re.compile(r'<tr data-kind="\w+"')


def test_the_run_page_is_paged_and_sorted_keeping_the_filters(served: Any) -> None:
    service, jobs = served
    run_id, report = jobs["alice"]["run_id"], jobs["alice"]["report"]
    total = len(report["per_case"])
    assert total > 5
    client = PageClient(service.url)
    client.sign_in(ALICE)
    pages = -(-total // 5)
    first = client.get(f"/runs/{run_id}?per=5&sort=-score")
    assert first.status == 200 and len(ROW.findall(first.body)) == 5
    assert f"page 1 of {pages}" in first.body
    assert 'href="?per=5&amp;sort=-score&amp;page=2#cases" rel=next' in first.body  # sort, size
    assert 'aria-sort="descending"' in first.body
    seen = []
    for number in range(1, pages + 1):
        body = client.get(f"/runs/{run_id}?per=5&sort=-score&page={number}").body
        seen += [
            float(v)
            for v in re.findall(r"<td class=num>(\d\.\d{3})</td><td class=num>\d+ ms</td>", body)
        ]
    assert len(seen) == total and seen == sorted(seen, reverse=True)
    second = client.get(f"/runs/{run_id}?per=5&sort=-score&page=2").body
    link = re.findall(r'<a href="(/runs/[^"]+/cases/[^"]+)">', second)[0]
    case = client.get(html.unescape(link))
    assert case.status == 200
    assert f'<a id=back href="/runs/{run_id}?per=5&amp;sort=-score&amp;page=2#cases">' in case.body
    last = client.get(f"/runs/{run_id}?per=5&page=999")
    assert len(ROW.findall(last.body)) == total - 5 * (pages - 1)
    failed = sum(1 for c in report["per_case"] if not c["correct"])
    kept = client.get(f"/runs/{run_id}?passed=no&sort=case&per=200")
    assert len(ROW.findall(kept.body)) == failed
    assert "passed=no&amp;per=200&amp;sort=-case" in kept.body  # the header keeps the filter
    assert client.get(f"/runs/{run_id}?per=201").status in (400, 422)
    assert client.get(f"/runs/{run_id}?sort=nonsense").status == 200


def test_the_runs_list_shows_the_submitter(served: Any) -> None:
    service, jobs = served
    client = PageClient(service.url)
    client.sign_in(ADMIN)
    listed = client.get("/").body
    assert '<th scope="col">Submitter</th>' in listed and '<th scope="col">Worker</th>' in listed
    row = listed.split(f">{jobs['alice']['run_id']}</a>", 1)[1].split("</tr>", 1)[0]
    assert "<td>alice</td>" in row


def test_the_datasets_page_shows_one_section_a_page_at_a_time(served: Any) -> None:
    service, _ = served
    client = PageClient(service.url)
    client.sign_in(ADMIN)
    tools = client.get("/datasets?seed=9&run_size=small&per=2")
    assert tools.status == 200 and tools.body.count("<tr><td><code>") == 2
    assert "section=memory" in tools.body and "per=2&amp;section=tool&amp;page=2" in tools.body
    history = client.get("/datasets?seed=9&run_size=small&section=history&per=5&page=2")
    assert history.status == 200 and "page 2 of" in history.body
    assert len(re.findall(r"<tr><td>\d+</td>", history.body)) == 5
    assert client.get("/datasets?seed=9&section=nope").status in (400, 422)


def test_compare_lists_the_cases_that_changed_worst_first(served: Any) -> None:
    service, jobs = served
    a, b = jobs["admin"]["run_id"], jobs["blank"]["run_id"]
    client = PageClient(service.url)
    client.sign_in(ADMIN)
    page = client.get(f"/compare?a={a}&b={b}")
    assert page.status == 200
    table = page.body.split('id="case-changes"', 1)[1].split("</table>", 1)[0]
    deltas = [float(d) for d in re.findall(r'<tr data-delta="([-+0-9.]+)"', table)]
    scores_a = {c["case_id"]: c["score"] for c in jobs["admin"]["report"]["per_case"]}
    scores_b = {c["case_id"]: c["score"] for c in jobs["blank"]["report"]["per_case"]}
    changed = [i for i in scores_a if abs(scores_b.get(i, scores_a[i]) - scores_a[i]) > 1e-9]
    assert changed and len(deltas) == len(changed)
    assert deltas == sorted(deltas) and deltas[0] < 0
    worst = min(changed, key=lambda i: (scores_b[i] - scores_a[i], i))
    assert f'href="/runs/{a}/cases/{worst}"' in table and f'href="/runs/{b}/cases/{worst}"' in table
    every = client.get(f"/compare?a={a}&b={b}&cases=all").body
    listed = every.split('id="case-changes"', 1)[1].split("</table>", 1)[0]
    assert listed.count("<tr data-delta=") == len(scores_a.keys() & scores_b.keys())
    same = client.get(f"/compare?a={jobs['alice']['run_id']}&b={a}").body
    assert "Cases whose score changed" in same


def test_compare_cases_from_the_command_line(served: Any) -> None:
    _, jobs = served
    a, b = jobs["admin"]["run_id"], jobs["blank"]["run_id"]
    store = str(jobs["folder"] / "svc" / "runs.db")
    made = dittobench("compare", a, b, "--cases", "--db", store)
    assert made.returncode == 0, made.stderr
    assert "cases whose score changed, worst first" in made.stdout
    assert "  A rule:   ok:" in made.stdout and "  asked:    " in made.stdout
    as_json = dittobench("compare", a, b, "--json", "--all-cases", "--db", store)
    assert as_json.returncode == 0, as_json.stderr
    out = json.loads(as_json.stdout)
    assert out["cases_listed"] == "all"
    assert len(out["cases"]) == len(jobs["admin"]["report"]["per_case"])
    deltas = [c["delta"] for c in out["cases"]]
    assert deltas[0] == min(deltas) and all(c["question"] for c in out["cases"])
    for category in out["categories"]:
        if category["count"] == 1:
            assert category["ci95_low"] is None and category["std_err"] is None


def test_the_runs_list_says_how_many_times_a_run_was_resumed(served: Any, tmp_path: Path) -> None:
    """A command-line run in the service's store, interrupted and resumed once: "resumed ×1"
    beside its status; a run never resumed says nothing of resumes."""
    service, jobs = served
    with harness("nothing") as url:
        run_id = interrupted_then_resumed(jobs["folder"] / "svc" / "runs.db", tmp_path, url)
    client = PageClient(service.url)
    client.sign_in(ADMIN)
    listed = client.get("/").body
    row = listed.split(f">{run_id}</a>", 1)[1].split("</tr>", 1)[0]
    assert "resumed ×1" in row
    never = listed.split(f">{jobs['alice']['run_id']}</a>", 1)[1].split("</tr>", 1)[0]
    assert "resumed" not in never


def test_a_suite_is_one_row_of_the_runs_list(served: Any, tmp_path: Path) -> None:
    """Last in the module: the suite's runs are ranked runs of another harness."""
    service, _ = served
    with builtin_harness(tmp_path / "harness.db") as url:
        status, accepted = service.json(
            "POST", "/v1/submit", ALICE, {"harness_url": url, "seeds": 2}
        )
        assert status == 202, accepted
        runs = [
            service.wait_for(run_id, lambda j: j["status"] == "done", token=ALICE, timeout=120)
            for run_id in accepted["run_ids"]
        ]
    suite_id = accepted["suite_id"]
    client = PageClient(service.url)
    client.sign_in(ALICE)
    listed = client.get("/").body
    assert listed.count(f'data-suite="{suite_id}"') == 1
    assert all(f">{run['run_id']}</a>" not in listed for run in runs)
    row = listed.split(f'data-suite="{suite_id}"', 1)[1].split("</tr>", 1)[0]
    mean = sum(run["report"]["composite"] for run in runs) / 2
    assert "2 runs, 2 done" in row and f"mean {mean:.4f}" in row and "<td>alice</td>" in row
    alone = client.get(f"/?suite={suite_id}").body
    assert all(f">{run['run_id']}</a>" in alone for run in runs)
    assert "id=suite-note" in alone and "data-suite=" not in alone
