"""The web pages of ``dittobench serve`` (docs/web.md): runs, one run with live progress and
its cases' provisional scores, one case, compare, datasets, the leaderboard, sign-in.
Server-rendered by ``dittobench.views``; every asset ships in the package. Read-only: the only
forms that post are sign-in and sign-out. Out of the OpenAPI document (they are pages, not
API)."""

from __future__ import annotations

import json
from dataclasses import replace
from importlib.resources import files
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse

from dittobench.core.errors import DittobenchError
from dittobench.core.prng import parse_seed
from dittobench.generate.assemble import build_dataset
from dittobench.packs import own_pack
from dittobench.service import routes_signin
from dittobench.service.context import ApiError, ServiceState, open_stream
from dittobench.service.jobview import progress, progress_events
from dittobench.service.limits import address_key
from dittobench.service.pagekit import (
    SECURITY_HEADERS,
    Looker,
    PageError,
    Pages,
    PagesState,
    Service,
    chrome,
    handlers,
    html,
)
from dittobench.service.sessions import Viewer
from dittobench.service.windows import sealed_until, window_view
from dittobench.spec.identity import identity_of
from dittobench.spec.judging import NuanceScore
from dittobench.spec.versions import POLICIES, UnknownVersionError, get_policy
from dittobench.spec.vocab import RUN_SIZES
from dittobench.store import RunRow, StoreError
from dittobench.store.jobs import TERMINAL, JobRow
from dittobench.store.listing import Listed, identity_of_runs, list_all, nuance_of, reports_of
from dittobench.views.access import reach_run
from dittobench.views.board import Board, board_row, leaderboard_page
from dittobench.views.comparing import RunComparison, compare_reports, with_cases
from dittobench.views.model import DatasetMismatch, ViewError, case_detail, dataset_of, load_run
from dittobench.views.nuance import OpenText, open_texts, read_nuance
from dittobench.views.pages import (
    CaseFilter,
    CaseView,
    ListedRow,
    ProvisionalRow,
    case_link,
    case_page,
    provisional_data,
    provisional_rows,
    run_page,
    runs_page,
)
from dittobench.views.pages_more import compare_page, dataset_page
from dittobench.views.paging import MAX_PER, PER, parse_sort
from dittobench.views.ranking import (
    Ranked,
    RunFilter,
    board_sizes,
    filtered,
    leaderboard,
    practice_count,
)
from dittobench.views.report import CaseText, case_texts
from dittobench.views.runs_list import SuiteLine, fold_suites
from dittobench.views.trust import ReceiptCheck, tier
from dittobench.views.windows import windows_page

router = APIRouter(include_in_schema=False)
PAGE_SIZE = 50


def _visible(service: ServiceState, who: Viewer) -> list[Listed]:
    return [
        item
        for item in list_all(service.store, with_jobs=True)
        if who.may_see(item.submitter, item.job)
    ]


def _one(service: ServiceState, who: Viewer, run_id: str) -> Listed:
    """The run as listed, reached the way the API reaches it (``views.access``)."""
    reach_run(service.store, run_id, who.may_see)
    found = list_all(service.store, with_jobs=True, run_id=run_id)
    if not found:
        raise PageError(404, f"no run {run_id}")
    return found[0]


def _sealed(service: ServiceState, who: Viewer, item: Listed) -> str:
    """Why ``item``'s cases are hidden from ``who`` (a window run before its reveal), or ""."""
    owner = bool(who.submitter) and who.submitter == item.submitter
    return sealed_until(service.store, item.window_id, owner)


def _check(service: ServiceState, pages: PagesState, item: Listed) -> ReceiptCheck | None:
    if not (item.job and item.has_receipt):
        return None
    job = service.store.get_job(item.run_id)
    return pages.checks.check(item.run_id, job.receipt_json) if job else None


@router.get("/", response_class=HTMLResponse)
def runs(
    service: Service,
    pages: Pages,
    who: Looker,
    status: str = "",
    bench_version: str = "",
    run_size: str = "",
    harness: str = "",
    sort: str = "created",
    order: str = "desc",
    suite: Annotated[str, Query(max_length=40)] = "",
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> HTMLResponse:
    everything = _visible(service, who)
    chosen = RunFilter(
        status, bench_version, run_size, harness[:200], sort, order != "asc", suite=suite
    )
    places = service.store.job_places()
    kept = fold_suites(filtered(everything, chosen), places, suite)
    shown = kept[offset : offset + PAGE_SIZE]
    alone = [entry for entry in shown if isinstance(entry, Listed)]
    reports = reports_of(service.store, [i.run_id for i in alone])
    rows = [
        entry
        if isinstance(entry, SuiteLine)
        else ListedRow(
            entry,
            tier(entry.job, _check(service, pages, entry)),
            reports.get(entry.run_id, {}).get("tool_mean"),
            reports.get(entry.run_id, {}).get("memory_mean"),
            read_nuance(reports.get(entry.run_id, {}).get("nuance")),
            places.get(entry.run_id, ("", ""))[0],
        )
        for entry in shown
    ]
    choices = {
        "status": sorted({i.status for i in everything}),
        "bench_version": sorted({i.bench_version for i in everything}),
        "run_size": sorted({i.run_size for i in everything}),
    }
    page = runs_page(rows, chosen, choices, chrome(who), len(kept), offset, PAGE_SIZE)
    return html(page)


def _texts(service: ServiceState, stored: Any) -> tuple[dict[str, CaseText], dict[str, OpenText]]:
    """The words of the run's cases and of its open questions (from its rebuilt dataset)."""
    if stored.report is None:
        return {}, {}
    try:
        dataset = dataset_of(stored.row)
    except DatasetMismatch:
        raise
    except ViewError:
        dataset = None
    try:
        records = service.store.recorded_cases(stored.row.run_id)
    except StoreError:
        records = {}
    return case_texts(dataset, records, stored.report), open_texts(dataset, records)


@router.get("/runs/{run_id}", response_class=HTMLResponse)
def run(
    run_id: str,
    service: Service,
    pages: Pages,
    who: Looker,
    kind: str = "",
    category: str = "",
    passed: str = "",
    rule: str = "",
    q: Annotated[str, Query(max_length=200)] = "",
    sort: Annotated[str, Query(max_length=20)] = "",
    page: Annotated[int, Query(ge=1, le=1_000_000)] = 1,
    per: Annotated[int, Query(ge=1, le=MAX_PER)] = PER,
) -> HTMLResponse:
    item = _one(service, who, run_id)
    stored = None
    try:
        stored = load_run(service.store, run_id)
    except ViewError as exc:
        if not exc.missing:
            raise
    check = _check(service, pages, item)
    stage = item.status
    cases: tuple[ProvisionalRow, ...] = ()
    job = service.store.get_job(run_id) if item.job else None
    if job is not None and job.status not in TERMINAL:
        live = progress(job, stored.row if stored else None, service.hub)
        stage = str(live["stage"])
        item = _with_progress(item, int(live["done"]), int(live["total"]))
        cases = _provisional(service, job, stored.row if stored else None)
    note = href = ""
    if check is not None:
        note = f"{'verifies' if check.ok else 'does not verify'}: {check.summary}"
        href = f"/runs/{quote(run_id)}/receipt.json"
    sealed = _sealed(service, who, item)
    texts, opens = _texts(service, stored) if stored is not None and not sealed else ({}, {})
    made = run_page(
        stored.row if stored else None,
        item,
        stored.report if stored else None,
        texts,
        CaseView(CaseFilter(kind, category, passed, rule, q), parse_sort(sort), page, per),
        chrome(who),
        tier=tier(item.job, check),
        receipt_note=note,
        stage=stage,
        sealed=sealed,
        opens=opens,
        receipt_href=href,
        provisional=cases,
    )
    return html(made)


def _with_progress(item: Listed, done: int, total: int) -> Listed:
    return replace(item, cases_done=done, cases_total=total)


def _provisional(
    service: ServiceState, job: JobRow, row: RunRow | None
) -> tuple[ProvisionalRow, ...]:
    """The cases the running ``job`` has recorded so far, with their provisional scores (those
    of ``GET /v1/runs/{id}``, kept per recorded case by ``service.partials``)."""
    if row is None or job.status in TERMINAL:
        return ()
    return provisional_rows(service.partials.of(service.store, job, row))


@router.get("/runs/{run_id}/provisional.json")
def provisional(run_id: str, service: Service, who: Looker) -> Response:
    """The run page's provisional table as JSON, which its script reads to refresh the table
    as cases are recorded (no case once the run is over: the page then shows its report)."""
    item = _one(service, who, run_id)
    job = service.store.get_job(run_id) if item.job else None
    if job is None:
        raise PageError(404, f"run {run_id} is not a service job: it has no live progress")
    try:
        row = service.store.get_run(run_id)
    except StoreError:
        row = None
    data = provisional_data(job.status, _provisional(service, job, row))
    return Response(
        json.dumps(data, ensure_ascii=False).encode(),
        media_type="application/json",
        headers=SECURITY_HEADERS,
    )


@router.get("/runs/{run_id}/cases/{case_id}", response_class=HTMLResponse)
def case(
    run_id: str,
    case_id: str,
    service: Service,
    who: Looker,
    back: Annotated[str, Query(max_length=2000)] = "",
) -> HTMLResponse:
    sealed = _sealed(service, who, _one(service, who, run_id))
    if sealed:
        raise PageError(403, f"case {case_id} of run {run_id}: {sealed}")
    stored = load_run(service.store, run_id)
    detail = case_detail(service.store, stored, case_id)
    return html(case_page(run_id, detail, chrome(who), back))


@router.get("/runs/{run_id}/receipt.json")
def receipt(run_id: str, service: Service, who: Looker) -> Response:
    item = _one(service, who, run_id)
    job = service.store.get_job(run_id) if item.job else None
    if job is None or not job.receipt_json:
        raise PageError(404, f"run {run_id} has no receipt (it is {item.status})")
    disposition = f'attachment; filename="{run_id}-receipt.json"'
    return Response(
        job.receipt_json.encode(),
        media_type="application/json",
        headers={**SECURITY_HEADERS, "Content-Disposition": disposition},
    )


@router.get("/runs/{run_id}/events")
def events(request: Request, run_id: str, service: Service, who: Looker) -> StreamingResponse:
    """The run's progress as Server-Sent Events, for the run page (the API's stream, with the
    page's sign-in, and the same per-client share of the slots)."""
    item = _one(service, who, run_id)
    if not item.job:
        raise PageError(404, f"run {run_id} is not a service job: it has no live progress")
    host = request.client.host if request.client else "unknown"
    client = f"token:{who.submitter}" if who.submitter else f"address:{address_key(host)}"
    try:
        release = open_stream(service, client)
    except ApiError as refused:
        raise PageError(429, refused.message) from None
    return progress_events(service.store, service.hub, run_id, release)


@router.get("/compare", response_class=HTMLResponse)
def compare(
    service: Service,
    who: Looker,
    a: str = "",
    b: str = "",
    cases: Annotated[str, Query(pattern="^(changed|all)?$")] = "",
) -> HTMLResponse:
    done = [i for i in _visible(service, who) if i.status == "done"]
    made = None
    if a and b:
        left, right = _one(service, who, a), _one(service, who, b)
        ra, rb = load_run(service.store, left.run_id), load_run(service.store, right.run_id)
        if ra.report is None or rb.report is None:
            raise PageError(400, "both runs must be finished to be compared")
        made = compare_reports(a, ra.report, b, rb.report)
        hidden = _sealed(service, who, left) or _sealed(service, who, right)
        made = _compared_cases(service, made, ra.row, cases == "all", hidden)
    return html(compare_page(done, a, b, made, chrome(who)))


def _compared_cases(
    service: ServiceState, made: RunComparison, row: RunRow, all_cases: bool, sealed: str
) -> RunComparison:
    """``made`` with its case list (the words left out, said why, when a run's cases are
    sealed or the dataset cannot be rebuilt)."""
    if sealed:
        return with_cases(made, None, {}, {}, all_cases=all_cases, note=sealed)
    dataset, note = None, ""
    if made.result.paired:
        try:
            dataset = dataset_of(row)
        except ViewError as exc:
            note = str(exc)
    try:
        records_a = service.store.recorded_cases(made.a_id)
        records_b = service.store.recorded_cases(made.b_id)
    except StoreError:
        records_a, records_b = {}, {}
    return with_cases(
        made, dataset, records_a, records_b, all_cases=all_cases, link=case_link, note=note
    )


@router.get("/datasets", response_class=HTMLResponse)
def datasets(
    service: Service,
    who: Looker,
    seed: Annotated[str, Query(max_length=24)] = "",
    run_size: str = "small",
    bench_version: str = "",
    section: Annotated[str, Query(pattern="^(tool|memory|history)?$")] = "tool",
    page: Annotated[int, Query(ge=1, le=1_000_000)] = 1,
    per: Annotated[int, Query(ge=1, le=MAX_PER)] = PER,
) -> HTMLResponse:
    versions = [v for v, p in POLICIES.items() if not p.draft or service.settings.allow_drafts]
    version = bench_version or service.settings.default_bench_version
    made, problem = None, ""
    if seed:
        try:
            if version not in versions:
                raise PageError(400, f"unknown bench version {version!r}")
            if run_size not in RUN_SIZES:
                raise PageError(400, f"unknown run size {run_size!r}")
            made = build_dataset(parse_seed(seed), version, run_size, own_pack(version))
        except PageError as exc:
            problem = exc.message
        except DittobenchError as exc:
            problem = f"cannot make that dataset: {exc}"
    shown = dataset_page(
        made, seed, run_size, version, versions, chrome(who), problem,
        section=section or "tool", page=page, per=per,
    )  # fmt: skip
    return html(shown, 400 if problem else 200)


@router.get("/leaderboard", response_class=HTMLResponse)
def board(service: Service, pages: Pages, who: Looker, bench_version: str = "") -> HTMLResponse:
    everything = _visible(service, who)
    versions = sorted(
        {i.bench_version for i in everything} | {service.settings.default_bench_version}
    )
    version = bench_version or service.settings.default_bench_version

    def check_of(item: Listed) -> ReceiptCheck | None:
        return _check(service, pages, item)

    windows = service.store.list_windows()
    judged = _has_judge(version)
    boards = []
    for size in board_sizes(everything, version):
        standings = leaderboard(everything, version, size, windows)
        nuances = _nuances(service, standings) if judged else {}
        newest = [ranked.standing.runs[0].run_id for ranked in standings if ranked.standing.runs]
        identities = {
            run_id: identity_of({"identity": data})
            for run_id, data in identity_of_runs(service.store, newest).items()
        }
        rows = tuple(
            board_row(
                ranked,
                lambda item: tier(item.job, check_of(item)),
                check_of,
                nuances,
                identities,
            )
            for ranked in standings
        )
        practice = practice_count(everything, version, size, windows)
        boards.append(Board(size, rows, practice, judged))
    return html(leaderboard_page(version, versions, boards, chrome(who)))


def _has_judge(version: str) -> bool:
    """The version has open questions, judged for a nuance score (bench 8.0)."""
    try:
        return get_policy(version).judge is not None
    except UnknownVersionError:
        return False


def _nuances(service: ServiceState, standings: list[Ranked]) -> dict[str, NuanceScore]:
    """run id -> the nuance score of each ranked run that has one (read out of the reports by
    the database, never the whole reports)."""
    ids = [run.run_id for ranked in standings for run in ranked.standing.runs]
    found = {run_id: read_nuance(data) for run_id, data in nuance_of(service.store, ids).items()}
    return {run_id: nuance for run_id, nuance in found.items() if nuance is not None}


@router.get("/windows", response_class=HTMLResponse)
def windows(service: Service, who: Looker) -> HTMLResponse:
    views = [window_view(w, service.windows_dir) for w in service.store.list_windows()]
    return html(windows_page(views, service.store.log_size(), chrome(who)))


_SCRIPT = files("dittobench.views").joinpath("static/live.js").read_bytes()


@router.get("/static/live.js")
def live_script() -> Response:
    return Response(
        _SCRIPT,
        media_type="text/javascript",
        headers={"Cache-Control": "max-age=3600", "X-Content-Type-Options": "nosniff"},
    )


router.include_router(routes_signin.router)

__all__ = ["PagesState", "handlers", "router"]
