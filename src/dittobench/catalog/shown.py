"""What a harness is shown from a content pack besides the prompts: the system prompt, the
catalog in the pack's words, and the words of the mock tools' replies."""

from __future__ import annotations

from dataclasses import dataclass

from dittobench.catalog.tools import CatalogTextError, UnknownCatalogError, catalog_with_text
from dittobench.packs import Pack, PackError, Replies
from dittobench.spec.wire import ToolDefinition


@dataclass(frozen=True, slots=True)
class Shown:
    """What every request of the run carries from the pack."""

    system_prompt: str
    tools: tuple[ToolDefinition, ...]
    replies: Replies
    """What the run's tool endpoint answers in (``mocktools.execute``)."""


def shown_by(pack: Pack, catalog_id: str | None = None) -> Shown:
    """The pack's system prompt, catalog and replies; ``PackError`` naming the file and key at
    fault. The catalog has the shape the pack declares (``Pack.catalog_id``); ``catalog_id``
    (a bench version's ``BenchPolicy.catalog``), when given, must be that shape."""
    prompt = pack.file("system").get("system_prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise PackError(
            f"{pack.path / 'system.json'}: key 'system_prompt' must be a non-empty string"
        )
    shape = pack.catalog_id
    if catalog_id is not None and catalog_id != shape:
        raise PackError(
            f"{pack.path / 'pack.json'}: the pack describes catalog {shape!r}; this bench "
            f"version offers {catalog_id!r} (key 'catalog')"
        )
    try:
        tools = catalog_with_text(pack.file("catalog"), str(pack.path / "catalog.json"), shape)
    except (CatalogTextError, UnknownCatalogError) as exc:
        raise PackError(str(exc)) from None
    return Shown(prompt, tools, pack.replies)
