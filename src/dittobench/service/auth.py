"""Control-plane auth: bearer tokens, a public allowlist, and scopes.

Every route is protected unless it is on the public allowlist (``PUBLIC``); ``create_app``
refuses to build an app with a route that is in neither ``PUBLIC`` nor ``PROTECTED``, so a new
route cannot land unclassified. Tokens come from ``--token-file`` (one per line: ``TOKEN``, an
admin, or ``TOKEN SCOPE NAME`` with scope ``admin`` or ``submitter``) and from
``DITTOBENCH_CONTROL_TOKEN`` (an admin). A presented token is compared with every known one in
constant time (``hmac.compare_digest`` over SHA-256 digests, never stopping at a match).

Modes: ``enforce`` (the default) answers 401 without a good token and refuses to start with no
token at all; ``shadow`` logs what it would reject and serves the request as an anonymous
admin, for rolling auth out. A submitter reads and cancels only its own runs; an admin, all.
In enforce mode wrong tokens are counted per client address (``auth_failure_limit``): past the
budget that address gets 429 for any token, so tokens cannot be guessed at request speed.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from starlette.types import ASGIApp, Receive, Scope, Send

from dittobench.core.errors import DittobenchError
from dittobench.service.limits import SlidingWindow, address_key, error

Scope_ = Literal["admin", "submitter"]
SCOPES: tuple[str, ...] = ("admin", "submitter")
MIN_TOKEN_CHARS = 16
MIN_DISTINCT_CHARS = 8

log = logging.getLogger("dittobench.service.auth")

PUBLIC: frozenset[tuple[str, str]] = frozenset(
    {
        ("GET", "/health"),
        ("GET", "/v1/capabilities"),
        ("GET", "/v1/keys"),
        ("GET", "/.well-known/dittobench-keys.json"),
    }
)
"""Served without a token, always."""
PUBLIC_READS: frozenset[tuple[str, str]] = frozenset(
    {
        ("GET", "/v1/windows"),
        ("GET", "/v1/windows/{window_id}"),
        ("GET", "/v1/windows/{window_id}/pack.tar.gz"),
        ("GET", "/v1/log"),
        ("GET", "/v1/log/head"),
        ("GET", "/v1/log/entries"),
        ("GET", "/v1/log/proof/inclusion"),
        ("GET", "/v1/log/proof/consistency"),
    }
)
"""The scoring windows and the transparency log: anyone may read them (docs/service.md,
"Scoring windows"); every GET under ``/v1/windows`` and ``/v1/log`` is let through."""
DOCS: frozenset[tuple[str, str]] = frozenset(
    {
        ("GET", "/openapi.json"),
        ("GET", "/docs"),
        ("GET", "/docs/oauth2-redirect"),
        ("GET", "/redoc"),
    }
)
"""Served without a token when the ``public_docs`` setting is on (the default)."""
PROTECTED: frozenset[tuple[str, str]] = frozenset(
    {
        ("GET", "/v1/dataset"),
        ("GET", "/v1/catalog"),
        ("POST", "/v1/submit"),
        ("POST", "/v2/score"),
        ("GET", "/v1/runs"),
        ("GET", "/v1/runs/{run_id}"),
        ("DELETE", "/v1/runs/{run_id}"),
        ("GET", "/v1/runs/{run_id}/transcript"),
        ("GET", "/v1/runs/{run_id}/receipt"),
        ("GET", "/v1/runs/{run_id}/events"),
        ("GET", "/v1/runs/{run_id}/similar"),
        ("GET", "/v1/suites/{suite_id}"),
        ("POST", "/v1/windows"),
        ("POST", "/v1/windows/{window_id}/reveal"),
    }
)
"""Served with any good token (submitter or admin); what a submitter sees is its own."""
PAGES: frozenset[tuple[str, str]] = frozenset(
    {
        ("GET", "/"),
        ("GET", "/runs/{run_id}"),
        ("GET", "/runs/{run_id}/cases/{case_id}"),
        ("GET", "/runs/{run_id}/receipt.json"),
        ("GET", "/runs/{run_id}/events"),
        ("GET", "/compare"),
        ("GET", "/datasets"),
        ("GET", "/leaderboard"),
        ("GET", "/windows"),
        ("GET", "/sign-in"),
        ("POST", "/sign-in"),
        ("POST", "/sign-out"),
        ("GET", "/static/live.js"),
    }
)
"""The web pages (docs/web.md): the middleware lets them through, and each page decides who
may see it (a session cookie, a bearer token, or public pages); ``service/sessions.py``."""
_PAGE_PATHS = frozenset(
    {"/", "/compare", "/datasets", "/leaderboard", "/windows", "/sign-in", "/sign-out"}
)


def is_public_read(method: str, path: str) -> bool:
    """A read of the windows or the log (``PUBLIC_READS``)."""
    return method == "GET" and (
        path in ("/v1/windows", "/v1/log") or path.startswith(("/v1/windows/", "/v1/log/"))
    )


def is_page(path: str) -> bool:
    """A path the web pages serve (they check their viewer themselves)."""
    return path in _PAGE_PATHS or path.startswith(("/runs/", "/static/"))


class AuthError(DittobenchError):
    """Tokens that cannot be used, or enforcement with no token at all."""


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: a token's name and scope, or an anonymous caller in shadow mode."""

    name: str
    scope: Scope_
    authenticated: bool = True

    @property
    def admin(self) -> bool:
        return self.scope == "admin"


@dataclass(frozen=True, slots=True)
class _Entry:
    digest: bytes
    principal: Principal


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class TokenTable:
    """The known tokens (kept as digests only)."""

    def __init__(self, entries: list[tuple[str, Principal]]) -> None:
        self._entries = [_Entry(_digest(token), who) for token, who in entries]

    def __len__(self) -> int:
        return len(self._entries)

    def match(self, presented: str) -> Principal | None:
        """The principal of ``presented``, comparing with every token in constant time."""
        wanted = _digest(presented)
        found: Principal | None = None
        for entry in self._entries:
            if hmac.compare_digest(wanted, entry.digest) and found is None:
                found = entry.principal
        return found

    @classmethod
    def load(cls, token_file: Path | None, env_token: str | None) -> TokenTable:
        """The tokens of ``token_file`` and ``env_token``; ``AuthError`` naming the line of a
        token that is too short or plain, a bad scope, or a token or name given twice."""
        entries: list[tuple[str, Principal]] = []
        if env_token:
            entries.append(
                (_checked(env_token, "DITTOBENCH_CONTROL_TOKEN"), Principal("operator", "admin"))
            )
        if token_file is not None:
            entries += _read_token_file(token_file)
        tokens = [token for token, _ in entries]
        names = [who.name for _, who in entries]
        if len(set(tokens)) != len(tokens):
            raise AuthError("a token is given twice (tokens must differ)")
        if len(set(names)) != len(names):
            repeated = sorted({n for n in names if names.count(n) > 1})[0]
            raise AuthError(f"token name {repeated!r} is given twice")
        return cls(entries)


def _checked(token: str, where: str) -> str:
    if len(token) < MIN_TOKEN_CHARS or len(set(token)) < MIN_DISTINCT_CHARS:
        raise AuthError(
            f"{where}: a token needs at least {MIN_TOKEN_CHARS} characters, "
            f"{MIN_DISTINCT_CHARS} of them different (e.g. `openssl rand -hex 32`)"
        )
    if not token.isascii() or not token.isprintable() or " " in token:
        raise AuthError(f"{where}: a token is printable ASCII without spaces")
    return token


def _read_token_file(path: Path) -> list[tuple[str, Principal]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise AuthError(f"cannot read token file {path}: {exc}") from None
    entries: list[tuple[str, Principal]] = []
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        where = f"{path}:{number}"
        if len(fields) == 1:
            who = Principal(f"admin-{number}", "admin")
        elif len(fields) == 3 and fields[1] in SCOPES:
            scope: Scope_ = "admin" if fields[1] == "admin" else "submitter"
            who = Principal(fields[2], scope)
        else:
            raise AuthError(f"{where}: expected `TOKEN` or `TOKEN admin|submitter NAME`")
        entries.append((_checked(fields[0], where), who))
    return entries


def required_tokens(table: TokenTable, mode: str) -> None:
    """Refuse to enforce with no token: every caller would get 401."""
    if mode == "enforce" and not len(table):
        raise AuthError(
            "--auth-mode enforce needs a token: set DITTOBENCH_CONTROL_TOKEN or pass "
            "--token-file FILE (or use --auth-mode shadow to roll auth out)"
        )


def bearer(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None."""
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            return token.strip() if scheme.lower() == "bearer" and token.strip() else None
    return None


class AuthMiddleware:
    """Puts the caller's ``Principal`` in ``scope["state"]["principal"]`` (None on public
    routes) or answers 401 (enforce) / logs and serves (shadow).

    With ``failures`` (enforce only: shadow serves a wrong token anyway), every wrong token
    counts against its client's address, on any route; an address over that budget gets 429
    for any token it presents, right or wrong, before the token is looked at, so guessing costs
    it the window while a good token from another address is never slowed."""

    def __init__(
        self,
        app: ASGIApp,
        table: TokenTable,
        mode: str,
        public_docs: bool,
        failures: SlidingWindow | None = None,
    ) -> None:
        self.app, self.table, self.mode = app, table, mode
        self.public = PUBLIC | (DOCS if public_docs else frozenset())
        self.public_paths = frozenset(path for _method, path in self.public)
        self.failures = failures if mode == "enforce" else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], scope["path"]
        state: dict[str, Any] = scope.setdefault("state", {})
        token = bearer(scope["headers"])
        principal = None
        if token is not None:
            address = address_key(str((scope.get("client") or ("unknown", 0))[0]))
            wait = self.failures.wait(address) if self.failures is not None else 0
            if wait:
                await error(send, 429, failed_too_often(wait), {"Retry-After": str(wait)})
                return
            principal = self.table.match(token)
            if principal is None and self.failures is not None:
                self.failures.hit(address)
        # A public path asked with a method no route has is the router's to refuse (405).
        unrouted = path in self.public_paths and (method, path) not in PROTECTED
        if (
            (method, path) in self.public
            or unrouted
            or is_page(path)
            or is_public_read(method, path)
        ):
            state["principal"] = principal
            await self.app(scope, receive, send)
            return
        if principal is None:
            client = (scope.get("client") or ("unknown", 0))[0]
            if self.mode == "enforce":
                await _unauthorized(send)
                return
            log.warning(
                "control-plane auth (shadow, would reject): %s %s from %s",
                scope["method"],
                scope["path"],
                client,
            )
            principal = Principal(f"anonymous@{client}", "admin", authenticated=False)
        state["principal"] = principal
        await self.app(scope, receive, send)


def failed_too_often(wait: int) -> str:
    """The one line a throttled address is told (bearer and sign-in alike)."""
    return f"too many failed authentications from this address; try again in {wait} s"


async def _unauthorized(send: Send) -> None:
    body = b'{"error":"a valid bearer token is required (Authorization: Bearer TOKEN)"}'
    await send(
        {
            "type": "http.response.start",
            "status": 401,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"www-authenticate", b"Bearer"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def unclassified(routes: list[tuple[str, str]]) -> list[str]:
    """The routes (method, path) that are neither public, docs nor protected."""
    known = PUBLIC | PUBLIC_READS | DOCS | PROTECTED | PAGES
    return sorted(f"{m} {p}" for m, p in routes if (m, p) not in known and m != "HEAD")


__all__ = [
    "DOCS",
    "PAGES",
    "PROTECTED",
    "PUBLIC",
    "PUBLIC_READS",
    "AuthError",
    "AuthMiddleware",
    "Principal",
    "TokenTable",
    "bearer",
    "failed_too_often",
    "is_page",
    "required_tokens",
    "unclassified",
]
