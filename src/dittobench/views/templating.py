"""Pages from templates: one Jinja2 environment, built once, over the templates shipped in the
package (``views/templates``). Autoescape is on and every value a template prints is escaped
as ``html.escape`` escapes it (quotes included) unless a template or a macro made it; an
undefined name is an error, never an empty string. A template's line breaks and the
indentation after them are layout only: they are dropped before it is compiled, so a page is
the same bytes however its template is laid out (a space that matters is written on its line).
"""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, urlencode

from jinja2 import Environment, PackageLoader, StrictUndefined
from jinja2.ext import Extension
from markupsafe import Markup

from dittobench.spec.seeds import OPERATOR, seed_shown
from dittobench.views.html import STYLE, clip, plus_minus, score
from dittobench.views.identity import DECLARED
from dittobench.views.nuance import NOT_IN_COMPOSITE, said, verdict_lines, why_unofficial

_LAYOUT = re.compile(r"\n[ \t]*")


class _Layout(Extension):
    """Drops a template's line breaks and the indentation after them."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return _LAYOUT.sub("", source)


def _escaped(value: object) -> object:
    """What a template prints: markup a template made as it is, anything else escaped."""
    if hasattr(value, "__html__"):
        return value
    return Markup(html.escape(str(value), quote=True))  # noqa: S704 (escaped just now)


def _path(value: object) -> str:
    return quote(str(value))


def _query(pairs: dict[str, object]) -> str:
    return urlencode(pairs)


def _join(items: Iterable[object], separator: str = "") -> str:
    """Plain text (escaped when printed, as every value is)."""
    return separator.join(str(item) for item in items)


_environment: Environment | None = None
_lock = threading.Lock()


def environment() -> Environment:
    """The one environment of every page (made on first use)."""
    global _environment
    with _lock:
        if _environment is None:
            made = Environment(
                loader=PackageLoader("dittobench.views", "templates"),
                autoescape=True,
                undefined=StrictUndefined,
                finalize=_escaped,
                extensions=[_Layout],
            )
            made.filters.update(
                score=score, plus_minus=plus_minus, clip=clip, path=_path, query=_query, join=_join
            )
            made.globals.update(
                said=said,
                verdict_lines=verdict_lines,
                why_unofficial=why_unofficial,
                seed_shown=seed_shown,
                OPERATOR=OPERATOR,
                DECLARED=DECLARED,
                NOT_IN_COMPOSITE=NOT_IN_COMPOSITE,
            )
            made.globals["STYLE"] = Markup(STYLE)  # noqa: S704 (our own stylesheet)
            _environment = made
        return _environment


def render(name: str, **context: Any) -> str:
    """The template ``name`` rendered with ``context``."""
    return environment().get_template(name).render(**context)


def macro(template: str, name: str) -> Any:
    """The macro ``name`` of ``template``, callable from Python (it returns markup)."""
    return getattr(environment().get_template(template).module, name)


__all__ = ["environment", "macro", "render"]
