"""What every served page shares: the navigation bar (with the signed-in name and a sign-out
form carrying its CSRF token), the sign-in form and the error page (``templates/page.html``,
``macros.html``, ``sign_in.html``, ``error.html``)."""

from __future__ import annotations

from dataclasses import dataclass

from dittobench.views.templating import render


@dataclass(frozen=True, slots=True)
class Chrome:
    """Who is looking: ``who`` is the signed-in name (empty for a public visitor or a bearer
    token), ``csrf`` the session's form token for sign-out."""

    who: str = ""
    csrf: str = ""


@dataclass(frozen=True, slots=True)
class Hashes:
    """A run whose rebuilt dataset is not the one it stored: both hashes."""

    run_id: str
    stored: str
    rebuilt: str


@dataclass(frozen=True, slots=True)
class ErrorPage:
    status: int
    title: str
    message: str
    hashes: Hashes | None = None


TITLES = {400: "Bad request", 403: "Forbidden", 404: "Not found"}


def sign_in_page(csrf: str, next_path: str, problem: str = "") -> str:
    return render("sign_in.html", chrome=Chrome(), csrf=csrf, next_path=next_path, problem=problem)


def error_page(status: int, message: str, chrome: Chrome, hashes: Hashes | None = None) -> str:
    """The page of an error; ``hashes``: a run's dataset that is not the one it stored."""
    made = ErrorPage(status, TITLES.get(status, "Error"), message, hashes)
    return render("error.html", page=made, chrome=chrome)


__all__ = ["TITLES", "Chrome", "ErrorPage", "Hashes", "error_page", "sign_in_page"]
