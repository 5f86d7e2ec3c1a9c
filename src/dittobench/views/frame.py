"""What every served page shares: the navigation bar (with the signed-in name and a sign-out
form carrying its CSRF token), the sign-in form and the error page."""

from __future__ import annotations

from dataclasses import dataclass

from dittobench.views.html import document, esc

LINKS = (
    ("/", "Runs"),
    ("/leaderboard", "Leaderboard"),
    ("/compare", "Compare"),
    ("/datasets", "Datasets"),
    ("/windows", "Windows"),
)


@dataclass(frozen=True, slots=True)
class Chrome:
    """Who is looking: ``who`` is the signed-in name (empty for a public visitor or a bearer
    token), ``csrf`` the session's form token for sign-out."""

    who: str = ""
    csrf: str = ""


def header(chrome: Chrome) -> str:
    links = "".join(f'<a href="{href}">{label}</a>' for href, label in LINKS)
    if chrome.who and chrome.csrf:
        account = (
            f'<form method=post action="/sign-out"><span>{esc(chrome.who)}</span> '
            f'<input type=hidden name=csrf value="{esc(chrome.csrf)}">'
            "<button type=submit>Sign out</button></form>"
        )
    elif chrome.who:
        account = f"<span>{esc(chrome.who)}</span>"
    else:
        account = '<a href="/sign-in" style="margin-left:auto">Sign in</a>'
    return (
        "<header class=top><span class=brand>dittobench</span>"
        f'<nav aria-label="Main" style="display:flex;gap:.6rem">{links}</nav>{account}</header>'
    )


def page(title: str, body: str, chrome: Chrome, head_extra: str = "") -> str:
    return document(f"{title} · dittobench", body, header=header(chrome), head_extra=head_extra)


def sign_in_page(csrf: str, next_path: str, problem: str = "") -> str:
    said = f'<p class=bad role="alert">{esc(problem)}</p>' if problem else ""
    body = (
        "<h1>Sign in</h1>"
        "<p>Paste a control token (the operator's, or a submitter's from the token file). It is "
        "exchanged for a session cookie and never stored in the browser.</p>"
        f'{said}<form method=post action="/sign-in" class=filters>'
        f'<input type=hidden name=csrf value="{esc(csrf)}">'
        f'<input type=hidden name=next value="{esc(next_path)}">'
        "<label for=token>Control token<input id=token name=token type=password required "
        "autocomplete=current-password size=48></label>"
        "<button type=submit>Sign in</button></form>"
    )
    return document("Sign in · dittobench", body, header=header(Chrome()))


def error_page(status: int, message: str, chrome: Chrome) -> str:
    titles = {400: "Bad request", 403: "Forbidden", 404: "Not found"}
    title = titles.get(status, "Error")
    body = (
        f'<h1>{status} {title}</h1><p role=alert>{esc(message)}</p><p><a href="/">All runs</a></p>'
    )
    return page(title, body, chrome)


__all__ = ["Chrome", "error_page", "header", "page", "sign_in_page"]
