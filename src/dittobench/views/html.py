"""The HTML frame every view shares: escaping, the page shell with its inline stylesheet, and
small formatters. Escaping is explicit: every value that came from a run, a harness or a
request goes through ``esc`` (attribute-safe), and fragments are plain strings built here."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

STYLE = """
:root{--fg:#1b1f24;--muted:#4d5661;--bg:#fff;--line:#cfd5dc;--accent:#0b5cad;--ok:#1a6b33;
--bad:#a3201a;--warn:#7a5200;--bar:#2f6fb3;--soft:#f3f5f7}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);
background:var(--bg);margin:0}
header.top{background:#0f2740;color:#fff;padding:.5rem 1rem;display:flex;gap:1.2rem;
align-items:center;flex-wrap:wrap}
header.top a{color:#fff;text-decoration:none;padding:.2rem .3rem;border-radius:3px}
header.top a:hover,header.top a:focus{text-decoration:underline}
header.top .brand{font-weight:700;margin-right:1rem}
header.top form{margin-left:auto}
main{padding:1rem 1.25rem;max-width:1200px}
a{color:var(--accent)}
a:focus,button:focus,input:focus,select:focus,summary:focus{outline:3px solid #f0a500;
outline-offset:2px}
h1{font-size:1.45rem;margin:.2rem 0 .8rem}h2{font-size:1.15rem;margin:1.4rem 0 .5rem}
table{border-collapse:collapse;width:100%;margin:.4rem 0 1rem}
th,td{border-bottom:1px solid var(--line);padding:.3rem .45rem;text-align:left;
vertical-align:top}
th{background:var(--soft);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.muted{color:var(--muted)}.ok{color:var(--ok);font-weight:600}.bad{color:var(--bad);
font-weight:600}.warn{color:var(--warn);font-weight:600}
.pill{display:inline-block;border:1px solid var(--line);border-radius:999px;
padding:0 .5rem;font-size:.85em;background:var(--soft)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.3rem 0 1rem}
dl.facts dt{font-weight:600}dl.facts dd{margin:0}
dl.facts.two{grid-template-columns:max-content 1fr max-content 1fr}
dl.facts dd code{word-break:break-all}
.cards{display:flex;gap:1rem;flex-wrap:wrap;margin:.5rem 0 1rem}
.card{border:1px solid var(--line);border-radius:6px;padding:.6rem .9rem;min-width:10rem}
.card .big{font-size:1.5rem;font-weight:700;font-variant-numeric:tabular-nums}
form.filters{display:flex;gap:.6rem;flex-wrap:wrap;align-items:flex-end;margin:.5rem 0}
form.filters label{display:flex;flex-direction:column;font-size:.85em;color:var(--muted)}
input,select,button{font:inherit;padding:.25rem .4rem;border:1px solid #8a949e;
border-radius:4px;background:#fff;color:var(--fg)}
button{background:var(--accent);color:#fff;border-color:var(--accent);cursor:pointer}
progress{width:100%;height:1.2rem}
pre,blockquote{white-space:pre-wrap;word-break:break-word;background:var(--soft);
padding:.5rem .7rem;border-radius:4px;margin:.3rem 0}
blockquote{border-left:4px solid var(--line)}
.chart text{font-size:11px;fill:var(--fg)}
.skip{position:absolute;left:-999px}.skip:focus{left:.5rem;top:.5rem;background:#fff;
padding:.3rem;z-index:9}
.tied{background:#fff8e1}
ul.verdicts{margin:0;padding-left:1.1rem}
#nuance{border-style:dashed}
code{font-size:.92em}
"""


def esc(value: object) -> str:
    """``value`` as text safe inside an element or a quoted attribute."""
    return html.escape(str(value), quote=True)


def score(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def plus_minus(value: float | None, err: float | None, digits: int = 3) -> str:
    if value is None:
        return "–"
    return f"{value:.{digits}f} ± {err or 0:.{digits}f}"


def table(
    headers: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    numeric: frozenset[int] = frozenset(),
    caption: str = "",
    row_attrs: Sequence[str] | None = None,
    table_id: str = "",
) -> str:
    """A table of already-escaped cells; ``numeric`` holds the columns aligned right."""
    head = "".join(
        f'<th scope="col"{" class=num" if i in numeric else ""}>{h}</th>'
        for i, h in enumerate(headers)
    )
    body = []
    for index, row in enumerate(rows):
        attrs = row_attrs[index] if row_attrs is not None else ""
        cells = "".join(
            f"<td{' class=num' if i in numeric else ''}>{cell}</td>" for i, cell in enumerate(row)
        )
        body.append(f"<tr{attrs}>{cells}</tr>")
    cap = f"<caption class=muted>{caption}</caption>" if caption else ""
    ident = f' id="{esc(table_id)}"' if table_id else ""
    return (
        f"<table{ident}>{cap}<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def facts(pairs: Iterable[tuple[str, str]], *, two: bool = False) -> str:
    """A definition list of (label, escaped value); ``two`` lays it out in two columns."""
    css = "facts two" if two else "facts"
    items = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in pairs)
    return f'<dl class="{css}">{items}</dl>'


def document(title: str, body: str, *, header: str = "", head_extra: str = "") -> str:
    """A whole page: inline stylesheet, no external resource."""
    return (
        "<!DOCTYPE html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<title>{esc(title)}</title><style>{STYLE}</style>{head_extra}</head><body>"
        '<a class=skip href="#main">Skip to content</a>'
        f'{header}<main id=main tabindex="-1">{body}</main></body></html>'
    )


__all__ = ["STYLE", "document", "esc", "facts", "plus_minus", "score", "table"]
