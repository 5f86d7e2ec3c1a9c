"""Who is looking at a page: a session cookie made by signing in with a control token, a bearer
token, shadow mode, or nobody (public pages).

Signing in posts a control token through a form; the service checks it like a bearer token and
answers with a session cookie (random 32 bytes, ``HttpOnly``, ``SameSite=Strict``, ``Secure``
over HTTPS, 12 hours), kept only in this process's memory. Forms are CSRF-safe: the sign-in form
carries a token that must equal a cookie set with the form (double submit), sign-out carries the
session's own token, a form post whose ``Origin`` names another host is refused, and
``SameSite=Strict`` keeps the cookie off cross-site requests anyway. Pages only read, so every
other page is a GET."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import Response

from dittobench.service.auth import Principal, TokenTable

SESSION_COOKIE = "dittobench_session"
SIGN_IN_COOKIE = "dittobench_sign_in"
SESSION_S = 12 * 3600
MAX_SESSIONS = 10_000


@dataclass(frozen=True, slots=True)
class Session:
    principal: Principal
    csrf: str
    expires: float


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who sees a page: ``all_runs`` for an admin or on public pages, else only the runs the
    principal submitted. ``session`` is set when the viewer signed in through the form."""

    name: str
    all_runs: bool
    submitter: str = ""
    session: Session | None = None

    def may_see(self, submitter: str, job: bool) -> bool:
        return self.all_runs or (job and submitter == self.submitter)


class Sessions:
    """Signed-in sessions, in memory (a restart signs everyone out)."""

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def create(self, principal: Principal) -> tuple[str, Session]:
        sid = secrets.token_urlsafe(32)
        made = Session(principal, secrets.token_urlsafe(24), time.monotonic() + SESSION_S)
        with self._lock:
            if len(self._sessions) >= MAX_SESSIONS:  # the oldest go first
                for old in sorted(self._sessions, key=lambda k: self._sessions[k].expires)[:100]:
                    del self._sessions[old]
            self._sessions[sid] = made
        return sid, made

    def get(self, sid: str) -> Session | None:
        with self._lock:
            found = self._sessions.get(sid)
            if found is not None and found.expires < time.monotonic():
                del self._sessions[sid]
                return None
            return found

    def drop(self, sid: str) -> None:
        with self._lock:
            self._sessions.pop(sid, None)


def same(a: str, b: str) -> bool:
    return bool(a) and bool(b) and hmac.compare_digest(a.encode(), b.encode())


def same_origin(request: Request) -> bool:
    """A form post is from this site: no ``Origin`` (older browsers), or one naming our host."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == request.headers.get("host", "")


def set_cookie(response: Response, request: Request, name: str, value: str, max_age: int) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def check_token(table: TokenTable, token: str) -> Principal | None:
    return table.match(token.strip()) if token.strip() else None


def viewer_of(request: Request, sessions: Sessions, *, public: bool, shadow: bool) -> Viewer | None:
    """The viewer of ``request``, or None when it must sign in first."""
    principal = request.scope.get("state", {}).get("principal")
    session = None
    if not isinstance(principal, Principal):
        sid = request.cookies.get(SESSION_COOKIE, "")
        session = sessions.get(sid) if sid else None
        principal = session.principal if session is not None else None
    if principal is not None:
        return Viewer(principal.name, principal.admin or public, principal.name, session)
    if shadow:
        return Viewer("anonymous (shadow mode)", True)
    if public:
        return Viewer("", True)
    return None


__all__ = [
    "SESSION_COOKIE",
    "SESSION_S",
    "SIGN_IN_COOKIE",
    "Session",
    "Sessions",
    "Viewer",
    "check_token",
    "same",
    "same_origin",
    "set_cookie",
    "viewer_of",
]
