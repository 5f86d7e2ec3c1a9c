"""The run page of a real ``dittobench serve`` process while a real (slow) harness is being
driven: it lists the cases recorded so far with the provisional scores the API gives, and so
does ``/runs/ID/provisional.json`` (its script's source, behind the page's sign-in); once the
run is over the table is gone."""

from __future__ import annotations

import html
import json
import re
import time
from pathlib import Path
from typing import Any

from tests.helpers.harness_process import harness
from tests.helpers.page_client import PageClient
from tests.helpers.service_process import ADMIN, BOB, ServiceProcess, start_service

MARK = "provisional: final scores come when the run is graded"
ROW = re.compile(
    r'<tr data-passed="(?:yes|no)"><td><code>(.*?)</code></td><td>(.*?)</td><td>(.*?)</td>'
    r'<td class=num>(.*?)</td><td class="(?:ok|bad)">(.*?)</td></tr>'
)


def _rows(page: str) -> list[tuple[str, ...]]:
    found = re.search(r'<table id="provisional-table">(.*?)</table>', page)
    assert found, page[:2000]
    return [tuple(html.unescape(cell) for cell in row) for row in ROW.findall(found.group(1))]


def _expected(partial: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    """The rows the page should show for the API's provisional scores."""
    made: list[tuple[str, ...]] = []
    for case in sorted(partial, key=lambda c: str(c["case_id"])):
        outcome = "pass" if case["correct"] else f"fail: {case['reason']}".rstrip(": ")
        made.append(
            (case["case_id"], case["kind"], case["category"], f"{case['score']:.3f}", outcome)
        )
    return made


def _steady(service: ServiceProcess, client: PageClient, run_id: str) -> tuple[str, Any]:
    """The run page, read between two API reads that agree (no case recorded meanwhile)."""
    for _ in range(50):
        before = service.json("GET", f"/v1/runs/{run_id}")[1]
        page = client.get(f"/runs/{run_id}")
        after = service.json("GET", f"/v1/runs/{run_id}")[1]
        assert page.status == 200, page.body[:500]
        if before["partial"] == after["partial"] and after["status"] == "running":
            return page.body, after
        time.sleep(0.1)
    raise AssertionError("the run never stood still between two reads")


def test_the_running_page_lists_the_recorded_cases_with_provisional_scores(
    tmp_path: Path,
) -> None:
    service = start_service(
        tmp_path / "svc", "--allow-private-harness", env={"DITTOBENCH_RUN_CONCURRENCY": "1"}
    )
    try:
        with harness("slow", "--delay-ms", "700") as url:
            accepted = service.json("POST", "/v1/submit", ADMIN, {"harness_url": url})[1]
            run_id = accepted["run_id"]
            service.wait_for(
                run_id, lambda j: j["status"] == "running" and len(j["partial"] or []) >= 3
            )
            client = PageClient(service.url)
            assert client.sign_in(ADMIN).status == 303
            page, job = _steady(service, client, run_id)
            assert MARK in page
            rows = _rows(page)
            assert len(rows) >= 3 and rows == _expected(job["partial"])
            assert len(rows) < job["progress"]["total"]  # only the cases recorded so far
            source = client.get(f"/runs/{run_id}/provisional.json")
            assert source.status == 200 and source.headers["content-type"] == "application/json"
            data = json.loads(source.body)
            assert data["provisional"] is True and data["status"] == "running"
            listed = {c["case_id"]: (c["kind"], c["category"]) for c in data["cases"]}
            assert list(listed) == sorted(listed)  # by case id, as on the page
            assert all(listed[r[0]] == r[1:3] for r in rows)  # and every case the page showed
            others = PageClient(service.url)
            assert others.sign_in(BOB).status == 303
            assert others.get(f"/runs/{run_id}/provisional.json").status == 404  # not bob's
            assert service.json("DELETE", f"/v1/runs/{run_id}", ADMIN)[0] == 202
            service.wait_for(run_id, lambda j: j["status"] == "cancelled")
        over = client.get(f"/runs/{run_id}")
        assert over.status == 200 and MARK not in over.body and "provisional-table" not in over.body
        assert json.loads(client.get(f"/runs/{run_id}/provisional.json").body)["cases"] == []
    finally:
        service.stop()
