"""The web pages in a real browser: Playwright driving Debian's Chromium (``/usr/bin/chromium``;
never a downloaded browser) against a real ``dittobench serve`` process and real harness
processes. A run is submitted through the API and its progress bar moves without a reload; a
failed case shows its rule; two runs are compared; the leaderboard ranks the run on a seed the
service drew and leaves the practice run (on a seed the submitter chose) off; a verified receipt
is downloaded and verified; ``report --html`` renders from disk with every case and
without a single network request; the run page shows one page of its cases, sorted by a header
link and paged by "next"; the comparison lists the cases that changed, worst first, each linked
to its case page in both runs. Screenshots of each page go to ``tests/artifacts/browser``
(or ``$DITTOBENCH_ARTIFACTS``)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dittobench.receipts.keys import TrustedKeys, load_public_key, trusted_entry
from tests.helpers.cli import dittobench
from tests.helpers.harness_process import harness, script_harness
from tests.helpers.service_process import ADMIN, ServiceProcess, start_service

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = (
    Path(os.environ.get("DITTOBENCH_ARTIFACTS", Path(__file__).resolve().parents[1] / "artifacts"))
    / "browser"
)
ANSWER_KEYS = Path(__file__).resolve().parents[1] / "helpers" / "answer_key_harness.py"

if not CHROMIUM.exists():
    pytest.skip(
        "Debian's chromium is not installed (/usr/bin/chromium): apt-get install chromium",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a dev dependency")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    print(f"screenshots: {ARTIFACTS}")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("browser") / "svc"


@pytest.fixture(scope="module")
def service(folder: Path) -> Iterator[ServiceProcess]:
    slow = {"DITTOBENCH_RUN_CONCURRENCY": "1"}
    started = start_service(folder, "--allow-private-harness", env=slow)
    try:
        yield started
    finally:
        started.stop()


def _signed_in(browser: Any, service: ServiceProcess) -> Any:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page.goto(service.url + "/")
    assert "/sign-in" in page.url
    page.get_by_label("Control token").fill(ADMIN)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(service.url + "/")
    return page


def _submit(service: ServiceProcess, url: str, seed: int | None) -> str:
    """Submit a small run; without ``seed`` the service draws one (a run the board ranks)."""
    body: dict[str, Any] = {"harness_url": url, "run_size": "small"}
    if seed is not None:
        body["seed"] = seed  # practice: never ranked
    status, accepted = service.json("POST", "/v1/submit", ADMIN, body)
    assert status == 202, accepted
    return str(accepted["run_id"])


def test_the_pages_in_chromium(
    browser: Any, service: ServiceProcess, folder: Path, tmp_path: Path
) -> None:
    page = _signed_in(browser, service)
    with harness("slow", "--delay-ms", "250") as url:
        slow_run = _submit(service, url, None)
        page.goto(f"{service.url}/runs/{slow_run}")
        page.evaluate("() => { window.__notReloaded = true; }")
        bar = page.locator("#live-bar")
        assert bar.is_visible()
        # The bar moves while the page stays loaded (SSE, no reload) ...
        page.wait_for_function(
            # a function, not a string: the page's CSP forbids eval
            "() => window.__notReloaded === true && document.getElementById('live-bar').value >= 4",
            timeout=60_000,
        )
        page.screenshot(path=str(ARTIFACTS / "run-live.png"))
        # ... and at the end the page reloads itself into the summary.
        page.wait_for_selector(".cards", timeout=60_000)
    assert page.evaluate("() => window.__notReloaded") is None
    page.screenshot(path=str(ARTIFACTS / "run-page.png"), full_page=False)
    job = service.wait_for(slow_run, lambda j: j["status"] == "done")
    rows = page.locator("#case-table tbody tr")
    assert rows.count() == len(job["report"]["per_case"])

    failed = page.locator('#case-table tbody tr[data-passed="no"] a').first
    case_id = failed.inner_text()
    failed.click()
    page.wait_for_url(f"**/cases/{case_id}")
    reason = next(c["reason"] for c in job["report"]["per_case"] if c["case_id"] == case_id)
    assert page.locator("#why").inner_text().startswith(f"{reason or 'ok'}:")
    page.screenshot(path=str(ARTIFACTS / "case-page.png"), full_page=True)

    # The same dataset, answered from its key: a paired compare in which cases change on any
    # seed the service draws (the built-in harness and one answering "ok" can tie on all twelve).
    with script_harness(ANSWER_KEYS, "--seed", str(job["seed"])) as url:
        second = _submit(service, url, int(job["seed"]))
        service.wait_for(second, lambda j: j["status"] == "done", timeout=120)
    page.goto(service.url + "/compare")
    page.get_by_label("Run A").select_option(slow_run)
    page.get_by_label("Run B").select_option(second)
    page.get_by_role("button", name="Compare").click()
    assert page.locator("#pairing").inner_text().startswith("Paired")
    assert "95% CI" in page.locator("#delta").inner_text()
    page.screenshot(path=str(ARTIFACTS / "compare.png"), full_page=True)

    page.get_by_role("link", name="Leaderboard").click()
    board = page.locator("#leaderboard-small tbody tr")
    assert board.count() == 1  # the slow harness; the answer key's ran on a chosen seed
    assert page.locator("#leaderboard-small").get_by_text("receipt-verified").count() == 1
    assert page.get_by_text("1 practice run (a seed the submitter chose").count() == 1
    page.screenshot(path=str(ARTIFACTS / "leaderboard.png"), full_page=True)

    page.goto(f"{service.url}/runs/{second}")
    with page.expect_download() as waiting:
        page.get_by_role("link", name="download the receipt").click()
    receipt = tmp_path / "receipt.json"
    waiting.value.save_as(str(receipt))
    _verify(folder / "keys" / "dittobench-ed25519.pub.pem", receipt, tmp_path)

    page.goto(f"{service.url}/datasets?seed=31&run_size=small")
    assert page.locator("h2", has_text="Tool cases").count() == 1
    page.screenshot(path=str(ARTIFACTS / "dataset.png"))
    page.get_by_role("link", name="Runs").click()
    page.screenshot(path=str(ARTIFACTS / "runs.png"))
    _keyboard_and_labels(page, service, slow_run)
    page.close()


UNLABELLED = """() => Array.from(document.querySelectorAll('input, select, textarea'))
    .filter(c => c.type !== 'hidden' && c.labels.length === 0).map(c => c.name)"""


def _keyboard_and_labels(page: Any, service: ServiceProcess, run_id: str) -> None:
    """The first Tab reaches the skip link, which moves focus to the content; every form
    control of every page has a label."""
    for path in ("/", f"/runs/{run_id}", "/compare", "/datasets", "/leaderboard"):
        page.goto(service.url + path)
        assert page.evaluate(UNLABELLED) == [], path
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "main"


def _verify(public_key: Path, receipt: Path, tmp: Path) -> None:
    """``dittobench verify`` with the service's own key as the one trusted key."""
    trusted = TrustedKeys((trusted_entry(load_public_key(public_key), "2000-01-01T00:00:00Z"),))
    (tmp / "trusted.json").write_text(json.dumps(trusted.to_json()), encoding="utf-8")
    made = dittobench("verify", str(receipt), "--trusted-keys", str(tmp / "trusted.json"))
    assert made.returncode == 0, made.stdout + made.stderr


def test_report_html_renders_from_disk_with_every_case(
    browser: Any, service: ServiceProcess, folder: Path, tmp_path: Path
) -> None:
    listed = service.json("GET", "/v1/runs?status=done", ADMIN)[1]["runs"]
    assert listed, "the first test leaves finished runs"
    run_id = listed[0]["run_id"]
    report = service.json("GET", f"/v1/runs/{run_id}", ADMIN)[1]["report"]
    store = folder / "runs.db"
    out = tmp_path / "report.html"
    made = dittobench("report", run_id, "--html", str(out), "--db", str(store))
    assert made.returncode == 0, made.stderr
    page = browser.new_page(java_script_enabled=False)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(out.as_uri())
    assert page.locator("#case-table tbody tr").count() == len(report["per_case"])
    assert page.locator("svg.chart g").count() == len(report["per_category"])
    assert requests == [out.as_uri()]  # nothing else was fetched
    page.screenshot(path=str(ARTIFACTS / "report-html.png"))
    page.close()


def _done_pair(service: ServiceProcess) -> tuple[str, str, dict[str, Any]]:
    """Two finished runs of the first test on one dataset (a paired comparison), the first
    the slow harness's (it answers "ok" to everything), and its report."""
    listed = service.json("GET", "/v1/runs?status=done", ADMIN)[1]["runs"]
    by_seed: dict[str, list[str]] = {}
    for run in listed:
        by_seed.setdefault(str(run["seed"]), []).append(run["run_id"])
    pair = next(sorted(ids) for ids in by_seed.values() if len(ids) > 1)
    report = service.json("GET", f"/v1/runs/{pair[0]}", ADMIN)[1]["report"]
    return pair[0], pair[1], report


def test_the_run_page_pages_and_sorts_and_compare_lists_the_cases(
    browser: Any, service: ServiceProcess
) -> None:
    first, second, report = _done_pair(service)
    total = len(report["per_case"])
    page = _signed_in(browser, service)
    page.goto(f"{service.url}/runs/{first}?per=5")
    rows = page.locator("#case-table tbody tr")
    assert rows.count() == 5
    pages = -(-total // 5)
    assert page.locator(".page-of").first.inner_text() == f"page 1 of {pages}"
    page.locator("#case-table thead a", has_text="Score").click()  # ascending
    page.locator("#case-table thead a", has_text="Score").click()  # then descending
    page.wait_for_url("**sort=-score**")
    header = page.locator("#case-table thead th", has_text="Score")
    assert header.get_attribute("aria-sort") == "descending"
    page.get_by_role("link", name="next ›").first.click()
    page.wait_for_url("**page=2**")
    assert "sort=-score" in page.url and "per=5" in page.url
    assert page.locator(".page-of").first.inner_text() == f"page 2 of {pages}"
    scores = [
        float(s) for s in page.locator("#case-table tbody td.num:nth-child(4)").all_inner_texts()
    ]
    assert scores == sorted(scores, reverse=True) and len(scores) == min(5, total - 5)
    height = page.evaluate("() => document.documentElement.scrollHeight")
    page.screenshot(path=str(ARTIFACTS / "run-paged.png"), full_page=True)
    assert height < 6000, height  # one page of cases, not all of them

    page.goto(f"{service.url}/compare?a={first}&b={second}")
    changes = page.locator("#case-changes tbody tr[data-delta]")
    assert changes.count() > 0
    deltas = [float(d or "0") for d in (r.get_attribute("data-delta") for r in changes.all())]
    assert deltas == sorted(deltas)
    page.screenshot(path=str(ARTIFACTS / "compare-cases.png"), full_page=True)
    worst = changes.first
    case_id = worst.locator("code").first.inner_text()
    worst.get_by_role("link", name=f"case {case_id} in run B").click()
    page.wait_for_url(f"**/runs/{second}/cases/{case_id}")
    assert page.locator("h1").inner_text() == f"Case {case_id}"
    page.close()


PROVISIONAL = "provisional: final scores come when the run is graded"
ROWS_AT_LEAST = """(n) => window.__notReloaded === true
    && document.querySelectorAll('#provisional-table tbody tr').length >= n"""


def test_the_live_page_shows_provisional_rows_as_cases_are_recorded(
    browser: Any, service: ServiceProcess
) -> None:
    page = _signed_in(browser, service)
    with harness("slow", "--delay-ms", "300") as url:
        run_id = _submit(service, url, 41)  # practice, and cancelled below: never ranked
        page.goto(f"{service.url}/runs/{run_id}")
        page.evaluate("() => { window.__notReloaded = true; }")
        assert page.get_by_text(PROVISIONAL).is_visible()
        rows = page.locator("#provisional-table tbody tr")
        first = rows.count()
        # Rows appear while the page stays loaded (its live script, no reload) ...
        page.wait_for_function(ROWS_AT_LEAST, arg=first + 3, timeout=60_000)
        shown = rows.count()
        assert page.locator("#provisional-count").inner_text() == str(shown)
        ids = page.locator("#provisional-table tbody td:first-child").all_inner_texts()
        assert ids == sorted(ids) and len(set(ids)) == shown
        scores = page.locator("#provisional-table tbody td.num").all_inner_texts()
        assert all(len(s) == 5 and 0.0 <= float(s) <= 1.0 for s in scores), scores
        page.screenshot(path=str(ARTIFACTS / "live-provisional.png"))
        partial = service.json("GET", f"/v1/runs/{run_id}", ADMIN)[1]["partial"]
        assert set(ids) <= {case["case_id"] for case in partial}
        # ... and once the run is over the page reloads without them.
        assert service.json("DELETE", f"/v1/runs/{run_id}", ADMIN)[0] == 202
        page.wait_for_selector("#provisional-table", state="detached", timeout=60_000)
    assert page.evaluate("() => window.__notReloaded") is None
    page.close()
