"""The scoring windows page (``templates/windows.html``): each window, its sealed pack's
commitment and its state, and the transparency log's size (docs/web.md, "Scoring windows")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dittobench.views.frame import Chrome
from dittobench.views.templating import render


@dataclass(frozen=True, slots=True)
class WindowsPage:
    windows: tuple[Mapping[str, Any], ...]
    """As ``service.windows.window_view`` makes them, oldest first."""
    log_size: int


def windows_page(views: Sequence[Mapping[str, Any]], log_size: int, chrome: Chrome) -> str:
    """``views`` as ``service.windows.window_view`` makes them, oldest first."""
    return render("windows.html", page=WindowsPage(tuple(views), log_size), chrome=chrome)


__all__ = ["WindowsPage", "windows_page"]
