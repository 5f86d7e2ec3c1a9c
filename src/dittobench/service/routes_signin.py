"""Signing in and out of the web pages: a control token posted through a form becomes a
session cookie (``service/sessions.py`` says how the cookie and the forms are kept safe)."""

from __future__ import annotations

import asyncio
import secrets
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from dittobench.service.auth import failed_too_often
from dittobench.service.limits import address_key
from dittobench.service.pagekit import PageError, Pages, Service, html
from dittobench.service.sessions import (
    SESSION_COOKIE,
    SESSION_S,
    SIGN_IN_COOKIE,
    check_token,
    same,
    same_origin,
    set_cookie,
)
from dittobench.views.frame import sign_in_page

router = APIRouter(include_in_schema=False)


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
    try:
        fields = parse_qs(body, max_num_fields=10)
    except ValueError:  # more fields than any sign-in form has
        raise PageError(400, "the form has more fields than it should; load it again") from None
    return {k: v[0] for k, v in fields.items()}


@router.post("/sign-in", response_class=HTMLResponse)
async def sign_in(request: Request, pages: Pages, service: Service) -> Response:
    form = await _form(request)
    if not same_origin(request) or not same(
        form.get("csrf", ""), request.cookies.get(SIGN_IN_COOKIE, "")
    ):
        raise PageError(403, "the sign-in form expired or came from another site; load it again")
    # Wrong tokens count against the address, as wrong bearer tokens do (auth.py): past the
    # budget the form is refused before the token is looked at.
    failures = service.auth_failures
    address = address_key(request.client.host if request.client else "unknown")
    wait = failures.wait(address) if failures is not None else 0
    if wait:
        return _form_again(request, form, failed_too_often(wait), 429, {"Retry-After": str(wait)})
    principal = await asyncio.to_thread(check_token, pages.tokens, form.get("token", ""))
    if principal is None:
        if failures is not None:
            failures.hit(address)
        return _form_again(request, form, "That token is not valid.", 401)
    sid, _session = pages.sessions.create(principal)
    response = RedirectResponse(_local(form.get("next", "/")), 303)
    set_cookie(response, request, SESSION_COOKIE, sid, SESSION_S)
    response.delete_cookie(SIGN_IN_COOKIE, path="/")
    return response


def _form_again(
    request: Request,
    form: dict[str, str],
    message: str,
    status: int,
    headers: dict[str, str] | None = None,
) -> Response:
    """The form once more, with ``message`` and a fresh CSRF token."""
    fresh = _fresh_token()
    refused = html(sign_in_page(fresh, _local(form.get("next", "/")), message), status)
    refused.headers.update(headers or {})
    set_cookie(refused, request, SIGN_IN_COOKIE, fresh, 600)
    return refused


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


__all__ = ["router"]
