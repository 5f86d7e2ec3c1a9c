"""What every page route shares: the pages' state (tokens, sessions, receipt checks, whether
pages are public), the viewer dependency, the page errors and their handlers (an error is a
page; a page that needs a sign-in redirects to the form), and the security headers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from dittobench.core.errors import DittobenchError
from dittobench.service.auth import TokenTable
from dittobench.service.context import ServiceState, state
from dittobench.service.sessions import Sessions, Viewer, viewer_of
from dittobench.views.frame import Chrome, Hashes, error_page
from dittobench.views.model import DatasetMismatch, ViewError
from dittobench.views.trust import ReceiptChecks

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
    """A page's error, shown as a page; ``hashes``: a run whose rebuilt dataset is not the one
    it stored (the page names both hashes)."""

    def __init__(self, status: int, message: str, hashes: Hashes | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.hashes = status, message, hashes


class SignInNeeded(DittobenchError):
    """The page needs a signed-in viewer; the handler redirects to the sign-in form."""

    http_status = 401


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


def handlers(app: Any) -> None:
    """Pages answer errors as pages, a view's error (``views.model.ViewError``) with its own
    status (404 for a run or case that does not exist, 500 otherwise, naming both hashes for a
    run whose dataset this build no longer makes); a page that needs a sign-in redirects to the
    form. Only the page routes let a ``ViewError`` out: the API's routes answer their own."""

    def shown(request: Request, status: int, message: str, hashes: Hashes | None) -> Response:
        pages = pages_state(request)
        who = viewer_of(request, pages.sessions, public=pages.public, shadow=pages.shadow)
        return html(error_page(status, message, chrome(who) if who else Chrome(), hashes), status)

    async def page_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, PageError)
        return shown(request, exc.status, exc.message, exc.hashes)

    async def view_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ViewError)
        hashes = None
        if isinstance(exc, DatasetMismatch):
            hashes = Hashes(exc.run_id, exc.stored, exc.rebuilt)
        return shown(request, exc.http_status, str(exc), hashes)

    async def sign_in_needed(request: Request, exc: Exception) -> Response:
        target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return RedirectResponse(f"/sign-in?next={quote(target, safe='')}", 303)

    app.add_exception_handler(PageError, page_error)
    app.add_exception_handler(ViewError, view_error)
    app.add_exception_handler(SignInNeeded, sign_in_needed)


__all__ = [
    "SECURITY_HEADERS",
    "Looker",
    "PageError",
    "Pages",
    "PagesState",
    "Service",
    "SignInNeeded",
    "chrome",
    "handlers",
    "html",
    "pages_state",
    "viewer",
]
