"""What every page shares besides its templates: the inline stylesheet and small formatters of
figures (``templating`` makes them template filters)."""

from __future__ import annotations

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


def score(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def plus_minus(value: float | None, err: float | None, digits: int = 3) -> str:
    if value is None:
        return "–"
    return f"{value:.{digits}f} ± {err or 0:.{digits}f}"


def clip(text: str, limit: int = 400) -> str:
    """``text`` cut to ``limit`` characters, the last an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["STYLE", "clip", "plus_minus", "score"]
