"""What a harness is shown from a content pack besides the prompts: the system prompt and the
catalog in the pack's words."""

from __future__ import annotations

from dataclasses import dataclass

from dittobench.catalog.tools import CatalogTextError, catalog_with_text
from dittobench.packs import Pack, PackError
from dittobench.spec.wire import ToolDefinition


@dataclass(frozen=True, slots=True)
class Shown:
    """What every request of the run carries from the pack."""

    system_prompt: str
    tools: tuple[ToolDefinition, ...]


def shown_by(pack: Pack) -> Shown:
    """The pack's system prompt and catalog; ``PackError`` naming the file and key at fault."""
    prompt = pack.file("system").get("system_prompt")
    if not isinstance(prompt, str) or not prompt.strip():
        raise PackError(
            f"{pack.path / 'system.json'}: key 'system_prompt' must be a non-empty string"
        )
    try:
        tools = catalog_with_text(pack.file("catalog"), str(pack.path / "catalog.json"))
    except CatalogTextError as exc:
        raise PackError(str(exc)) from None
    return Shown(prompt, tools)
