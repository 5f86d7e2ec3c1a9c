"""The scoring windows page: each window, its sealed pack's commitment and its state, and the
transparency log's size (docs/web.md, "Scoring windows")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dittobench.views.frame import Chrome, page
from dittobench.views.html import esc, table


def _state(view: Mapping[str, Any]) -> str:
    if view["state"] == "open":
        return "<span class=warn>open</span> (pack sealed)"
    link = f'<a href="{esc(view["pack_url"])}">pack.tar.gz</a>' if view["pack_url"] else ""
    return f"<span class=ok>revealed</span> {esc(view['revealed_at'])} {link}"


def windows_page(views: Sequence[Mapping[str, Any]], log_size: int, chrome: Chrome) -> str:
    """``views`` as ``service.windows.window_view`` makes them, oldest first."""
    rows = [
        [
            f'<span id="{esc(v["window_id"])}">{esc(v["window_id"])}</span>',
            esc(v["bench_version"]),
            esc(v["run_size"]),
            f"<code>{esc(v['pack_sha256'])}</code>",
            esc(v["opened_at"]),
            _state(v),
        ]
        for v in views
    ]
    made = table(
        ["Window", "Bench version", "Run size", "Commitment (pack sha256)", "Opened", "State"],
        rows,
        table_id="windows",
    )
    if not views:
        made = "<p>No scoring window has been opened.</p>"
    body = (
        "<h1>Scoring windows</h1>"
        "<p>Official scores come from <strong>sealed packs</strong>: content nobody outside has "
        "seen. When a window opens, the SHA-256 of its pack (the commitment) is published here "
        "and in the transparency log; every run of the window uses that pack on a seed this "
        "service draws, and each signed receipt is logged. When the window closes the pack is "
        "revealed: anyone can check that it hashes to the commitment and regenerate and regrade "
        "every run (<code>dittobench verify RECEIPT --log URL --pack DIR --regrade</code>). "
        "While a window is open, runs on the public pack of its version and size are practice."
        f"</p>{made}"
        f"<p>The log holds {log_size} entr{'y' if log_size == 1 else 'ies'}: "
        '<a href="/v1/log/head">signed tree head</a>, <a href="/v1/log">every entry</a>.</p>'
    )
    return page("Scoring windows", body, chrome)


__all__ = ["windows_page"]
