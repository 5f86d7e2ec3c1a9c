"""A browser-like HTTP client for the service's web pages: keeps cookies, does not follow
redirects (tests look at them), posts forms, and signs in through the form like a person."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    set_cookies: list[str]
    body: str


class PageClient:
    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self._opener = urllib.request.build_opener(
            urllib.request.ProxyHandler({}),
            urllib.request.HTTPCookieProcessor(self.jar),
            _NoRedirect(),
        )

    def _open(self, request: urllib.request.Request) -> Reply:
        try:
            with self._opener.open(request, timeout=30) as reply:
                return self._reply(reply.status, reply.headers, reply.read())
        except urllib.error.HTTPError as error:
            return self._reply(error.code, error.headers, error.read())

    @staticmethod
    def _reply(status: int, headers: object, data: bytes) -> Reply:
        items = headers.items()  # type: ignore[attr-defined]
        cookies = headers.get_all("set-cookie") or []  # type: ignore[attr-defined]
        plain = {k.lower(): v for k, v in items}
        return Reply(status, plain, cookies, data.decode("utf-8", "replace"))

    def get(self, path: str, headers: dict[str, str] | None = None) -> Reply:
        return self._open(urllib.request.Request(self.base + path, headers=headers or {}))

    def post(self, path: str, fields: dict[str, str], origin: str | None = None) -> Reply:
        data = urllib.parse.urlencode(fields).encode()
        request = urllib.request.Request(self.base + path, data=data, method="POST")
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
        request.add_header("Origin", origin if origin is not None else self.base)
        return self._open(request)

    def form_token(self, body: str) -> str:
        found = re.search(r'name=csrf value="([^"]+)"', body)
        assert found, body[:500]
        return found.group(1)

    def sign_in(self, token: str) -> Reply:
        form = self.get("/sign-in")
        assert form.status == 200, form.body
        return self.post(
            "/sign-in", {"csrf": self.form_token(form.body), "token": token, "next": "/"}
        )


__all__ = ["PageClient", "Reply"]
