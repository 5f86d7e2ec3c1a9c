"""The web pages of ``dittobench serve`` (docs/web.md): runs, one run with live progress, one
case, compare, datasets, the leaderboard, sign-in. Server-rendered by ``dittobench.views``;
every asset ships in the package. Read-only: the only forms that post are sign-in and sign-out.
Out of the OpenAPI document (they are pages, not API)."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field, replace
from importlib.resources import files
from typing import Annotated, Any
from urllib.parse import parse_qs, quote

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse

from dittobench.core.errors import DittobenchError
from dittobench.core.prng import parse_seed
from dittobench.generate.assemble import build_dataset
from dittobench.packs import own_pack
from dittobench.service.auth import TokenTable
from dittobench.service.context import ServiceState, state
from dittobench.service.events import stream
from dittobench.service.jobview import progress
from dittobench.service.sessions import (
    SESSION_COOKIE,
    SESSION_S,
    SIGN_IN_COOKIE,
    Sessions,
    Viewer,
    check_token,
    same,
    same_origin,
    set_cookie,
    viewer_of,
)
from dittobench.spec.versions import POLICIES
from dittobench.store import StoreError
from dittobench.store.jobs import TERMINAL
from dittobench.store.listing import Listed, list_all, reports_of
from dittobench.views.comparing import compare_reports
from dittobench.views.frame import Chrome, error_page, sign_in_page
from dittobench.views.model import ViewError, case_detail, dataset_of, load_run
from dittobench.views.pages import CaseFilter, ListedRow, case_page, run_page, runs_page
from dittobench.views.pages_more import compare_page, dataset_page, leaderboard_page
from dittobench.views.ranking import RunFilter, filtered, leaderboard
from dittobench.views.report import CaseText, case_texts
from dittobench.views.trust import ReceiptCheck, ReceiptChecks, tier

router = APIRouter(include_in_schema=False)
PAGE_SIZE = 50
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; "
    "script-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # "no-referrer" would make form posts say Origin: null
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


@dataclass
class PagesState:
    """What the pages need beyond the API's state."""

    tokens: TokenTable
    checks: ReceiptChecks
    public: bool
    shadow: bool
    sessions: Sessions = field(default_factory=Sessions)


class PageError(DittobenchError):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


class SignInNeeded(DittobenchError):
    """The page needs a signed-in viewer; the handler redirects to the sign-in form."""


def pages_state(request: Request) -> PagesState:
    found: PagesState = request.app.state.pages
    return found


Service = Annotated[ServiceState, Depends(state)]
Pages = Annotated[PagesState, Depends(pages_state)]


def viewer(request: Request, pages: Pages) -> Viewer:
    found = viewer_of(request, pages.sessions, public=pages.public, shadow=pages.shadow)
    if found is None:
        raise SignInNeeded(request.url.path)
    return found


Looker = Annotated[Viewer, Depends(viewer)]


def chrome(who: Viewer) -> Chrome:
    return Chrome(who.name, who.session.csrf if who.session else "")


def html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status, headers=SECURITY_HEADERS)


def _visible(service: ServiceState, who: Viewer, run_id: str | None = None) -> list[Listed]:
    return [
        item
        for item in list_all(service.store, with_jobs=True, run_id=run_id)
        if who.may_see(item.submitter, item.job)
    ]


def _one(service: ServiceState, who: Viewer, run_id: str) -> Listed:
    found = _visible(service, who, run_id)
    if not found:
        raise PageError(404, f"no run {run_id}")
    return found[0]


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
) -> HTMLResponse:
    everything = _visible(service, who)
    chosen = RunFilter(status, bench_version, run_size, harness[:200], sort, order != "asc")
    kept = filtered(everything, chosen)
    shown = kept[:PAGE_SIZE]
    reports = reports_of(service.store, [i.run_id for i in shown])
    rows = [
        ListedRow(
            item,
            tier(item.job, _check(service, pages, item)),
            reports.get(item.run_id, {}).get("tool_mean"),
            reports.get(item.run_id, {}).get("memory_mean"),
        )
        for item in shown
    ]
    choices = {
        "status": sorted({i.status for i in everything}),
        "bench_version": sorted({i.bench_version for i in everything}),
        "run_size": sorted({i.run_size for i in everything}),
    }
    return html(runs_page(rows, chosen, choices, chrome(who), len(kept)))


def _texts(service: ServiceState, stored: Any) -> dict[str, CaseText]:
    if stored.report is None:
        return {}
    try:
        dataset = dataset_of(stored.row)
    except ViewError:
        dataset = None
    try:
        records = service.store.recorded_cases(stored.row.run_id)
    except StoreError:
        records = {}
    return case_texts(dataset, records, stored.report)


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
) -> HTMLResponse:
    item = _one(service, who, run_id)
    stored = None
    try:
        stored = load_run(service.store, run_id)
    except ViewError as exc:
        if not exc.missing:
            raise PageError(500, str(exc)) from None
    check = _check(service, pages, item)
    stage = item.status
    job = service.store.get_job(run_id) if item.job else None
    if job is not None and job.status not in TERMINAL:
        live = progress(job, stored.row if stored else None, service.hub)
        stage = str(live["stage"])
        item = _with_progress(item, int(live["done"]), int(live["total"]))
    note = ""
    if check is not None:
        mark = "verifies" if check.ok else "does not verify"
        note = (
            f'<a href="/runs/{quote(run_id)}/receipt.json" download>download the receipt</a> '
            f"({mark}: {check.summary})"
        )
    texts = _texts(service, stored) if stored is not None else {}
    page = run_page(
        stored.row if stored else None,
        item,
        stored.report if stored else None,
        texts,
        CaseFilter(kind, category, passed, rule, q),
        chrome(who),
        tier=tier(item.job, check),
        receipt_note=note,
        stage=stage,
    )
    return html(page)


def _with_progress(item: Listed, done: int, total: int) -> Listed:
    return replace(item, cases_done=done, cases_total=total)


@router.get("/runs/{run_id}/cases/{case_id}", response_class=HTMLResponse)
def case(run_id: str, case_id: str, service: Service, who: Looker) -> HTMLResponse:
    _one(service, who, run_id)
    try:
        stored = load_run(service.store, run_id)
        detail = case_detail(service.store, stored, case_id)
    except ViewError as exc:
        raise PageError(404 if exc.missing else 500, str(exc)) from None
    return html(case_page(run_id, detail, chrome(who)))


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
def events(run_id: str, service: Service, who: Looker) -> StreamingResponse:
    """The run's progress as Server-Sent Events, for the run page (the API's stream, with the
    page's sign-in)."""
    item = _one(service, who, run_id)
    if not item.job:
        raise PageError(404, f"run {run_id} is not a service job: it has no live progress")
    slots = service.streams
    if slots is not None and not slots.take():
        raise PageError(429, "too many open event streams; try again later")

    def read() -> dict[str, Any] | None:
        job = service.store.get_job(run_id)
        if job is None:
            return None
        try:
            row = service.store.get_run(run_id)
        except StoreError:
            row = None
        return {"status": job.status, "progress": progress(job, row, service.hub)}

    def release() -> None:
        if slots is not None:
            slots.give_back()

    return StreamingResponse(
        stream(read, lambda seen: seen["status"] in TERMINAL, release),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@router.get("/compare", response_class=HTMLResponse)
def compare(service: Service, who: Looker, a: str = "", b: str = "") -> HTMLResponse:
    done = [i for i in _visible(service, who) if i.status == "done"]
    made = None
    if a and b:
        left, right = _one(service, who, a), _one(service, who, b)
        try:
            ra, rb = load_run(service.store, left.run_id), load_run(service.store, right.run_id)
        except ViewError as exc:
            raise PageError(404 if exc.missing else 500, str(exc)) from None
        if ra.report is None or rb.report is None:
            raise PageError(400, "both runs must be finished to be compared")
        made = compare_reports(a, ra.report, b, rb.report)
    return html(compare_page(done, a, b, made, chrome(who)))


@router.get("/datasets", response_class=HTMLResponse)
def datasets(
    service: Service,
    who: Looker,
    seed: Annotated[str, Query(max_length=24)] = "",
    run_size: str = "small",
    bench_version: str = "",
) -> HTMLResponse:
    versions = [v for v, p in POLICIES.items() if not p.draft or service.settings.allow_drafts]
    version = bench_version or service.settings.default_bench_version
    made, problem = None, ""
    if seed:
        try:
            if version not in versions:
                raise PageError(400, f"unknown bench version {version!r}")
            if run_size not in ("small", "medium", "full"):
                raise PageError(400, f"unknown run size {run_size!r}")
            made = build_dataset(parse_seed(seed), version, run_size, own_pack(version))
        except PageError as exc:
            problem = exc.message
        except DittobenchError as exc:
            problem = f"cannot make that dataset: {exc}"
    page = dataset_page(made, seed, run_size, version, versions, chrome(who), problem)
    return html(page, 400 if problem else 200)


@router.get("/leaderboard", response_class=HTMLResponse)
def board(service: Service, pages: Pages, who: Looker, bench_version: str = "") -> HTMLResponse:
    everything = _visible(service, who)
    versions = sorted(
        {i.bench_version for i in everything} | {service.settings.default_bench_version}
    )
    version = bench_version or service.settings.default_bench_version
    ranked = leaderboard(everything, version)
    checks = {r.run.run_id: _check(service, pages, r.run) for r in ranked}
    tiers = {r.run.run_id: tier(r.run.job, checks[r.run.run_id]) for r in ranked}
    return html(leaderboard_page(version, versions, ranked, tiers, checks, chrome(who)))


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_form(request: Request, next: str = "/") -> HTMLResponse:
    token = _fresh_token()
    response = html(sign_in_page(token, _local(next)))
    set_cookie(response, request, SIGN_IN_COOKIE, token, 600)
    return response


def _fresh_token() -> str:
    return secrets.token_urlsafe(24)


def _local(path: str) -> str:
    """Only a path on this site may be a redirect target."""
    return path if path.startswith("/") and not path.startswith("//") and "\\" not in path else "/"


async def _form(request: Request) -> dict[str, str]:
    body = (await request.body()).decode("utf-8", "replace")
    return {k: v[0] for k, v in parse_qs(body, max_num_fields=10).items()}


@router.post("/sign-in", response_class=HTMLResponse)
async def sign_in(request: Request, pages: Pages) -> Response:
    form = await _form(request)
    if not same_origin(request) or not same(
        form.get("csrf", ""), request.cookies.get(SIGN_IN_COOKIE, "")
    ):
        raise PageError(403, "the sign-in form expired or came from another site; load it again")
    principal = await asyncio.to_thread(check_token, pages.tokens, form.get("token", ""))
    if principal is None:
        fresh = _fresh_token()
        refused = html(
            sign_in_page(fresh, _local(form.get("next", "/")), "That token is not valid."), 401
        )
        set_cookie(refused, request, SIGN_IN_COOKIE, fresh, 600)
        return refused
    sid, _session = pages.sessions.create(principal)
    response = RedirectResponse(_local(form.get("next", "/")), 303)
    set_cookie(response, request, SESSION_COOKIE, sid, SESSION_S)
    response.delete_cookie(SIGN_IN_COOKIE, path="/")
    return response


@router.post("/sign-out")
async def sign_out(request: Request, pages: Pages) -> Response:
    form = await _form(request)
    sid = request.cookies.get(SESSION_COOKIE, "")
    session = pages.sessions.get(sid) if sid else None
    if session is None or not same_origin(request) or not same(form.get("csrf", ""), session.csrf):
        raise PageError(403, "sign-out needs the form of a signed-in page")
    pages.sessions.drop(sid)
    response = RedirectResponse("/sign-in", 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


_SCRIPT = files("dittobench.views").joinpath("static/live.js").read_bytes()


@router.get("/static/live.js")
def live_script() -> Response:
    return Response(
        _SCRIPT,
        media_type="text/javascript",
        headers={"Cache-Control": "max-age=3600", "X-Content-Type-Options": "nosniff"},
    )


def handlers(app: Any) -> None:
    """Pages answer errors as pages; a page that needs a sign-in redirects to the form."""

    async def page_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, PageError)
        pages = pages_state(request)
        who = viewer_of(request, pages.sessions, public=pages.public, shadow=pages.shadow)
        return html(
            error_page(exc.status, exc.message, chrome(who) if who else Chrome()), exc.status
        )

    async def sign_in_needed(request: Request, exc: Exception) -> Response:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/sign-in?next={quote(target, safe='')}", 303)

    app.add_exception_handler(PageError, page_error)
    app.add_exception_handler(SignInNeeded, sign_in_needed)


__all__ = ["PagesState", "handlers", "router"]
