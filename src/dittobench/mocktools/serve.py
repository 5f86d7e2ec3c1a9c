"""The mock tool endpoint's answer to one call, as a pure function of its inputs.

``execute`` checks the call (known tool, not a memory tool, arguments an object carrying every
required argument) and then serves either content (``content``) or a confirmation (``confirm``).
Wording is the pack's (``replies``: ``Pack.replies``; when none is given, the content version's
own public pack's), drawn from the stream
``mocktools/<case id>/<tool>/<args digest>``, so the same
(seed, content version, case, tool, arguments) always gets the same bytes, and a different
argument object may get different wording. Errors use ``ToolExecResponse.error`` with an empty
result; they are never exceptions, except for a fixture that belongs to another case.

A missing ``args`` (JSON ``null``, the wire default) is read as an empty object, so tools without
required arguments can be called bare; any other non-object is an error.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Final

from dittobench.catalog.content import CONTENT_TOOLS
from dittobench.catalog.tools import MEMORY_TOOLS, is_known_tool, required_args
from dittobench.core.canonical import CanonicalJSONError, canonical_bytes
from dittobench.core.prng import Stream
from dittobench.mocktools.confirm import calendar_event, confirmation
from dittobench.mocktools.content import serve_content
from dittobench.packs import Replies, public_pack
from dittobench.spec.dataset import ToolCase, ToolFixture
from dittobench.spec.versions import catalog_of, content_of, pack_id_of
from dittobench.spec.wire import ToolExecResponse

TRANSIENT_ERROR: Final = "transient upstream error (503); retry"
"""What the first call of each content tool gets in a recovery case (``fail_first``)."""

DIGEST_HEX = 16
"""Hex characters of the arguments' SHA-256 kept in the stream purpose."""


def execute(
    seed: int,
    content_version: str,
    case: ToolCase,
    fixture: ToolFixture,
    name: str,
    args: object,
    earlier: Sequence[str],
    replies: Replies | None = None,
) -> ToolExecResponse:
    """Serve one tool call of ``case``, in the words of ``replies`` (the run's pack's).

    ``earlier`` holds the names of this case's calls already made, in arrival order (the caller
    keeps that state, so this function stays pure). Raises ``ValueError`` only when ``fixture``
    is not the fixture of ``case``.
    """
    if fixture.case_id != case.id:
        raise ValueError(f"fixture for case {fixture.case_id!r} used for case {case.id!r}")
    catalog = catalog_of(content_version)
    if not is_known_tool(name, catalog):
        return _error(f"unknown tool: {name}")
    if name in MEMORY_TOOLS:
        return _error(f"tool not available via this endpoint: {name}")
    if args is None:
        args = {}
    if not isinstance(args, dict):
        kind = _json_kind(args)
        article = "an" if kind[:1] in "aeiou" else "a"
        return _error(f"arguments for {name} must be a JSON object, got {article} {kind}")
    try:
        digest = args_digest(args)
    except CanonicalJSONError as exc:
        return _error(f"arguments for {name} have no canonical JSON form: {exc}")
    for arg in required_args(name, catalog):
        if _is_empty(args.get(arg)):
            return _error(f"missing required argument '{arg}' for {name}")

    stream = Stream(seed, content_version, f"mocktools/{case.id}/{name}/{digest}")
    words = replies or public_pack(pack_id_of(content_version)).replies
    about = content_of(content_version).fixtures_about_request
    if name in CONTENT_TOOLS:
        if fixture.fail_first and name not in earlier:
            return _error(TRANSIENT_ERROR)
        return serve_content(stream, fixture, name, args, words, about)
    if about and name == "calendar_search_events":
        asked = _pinned(case, name, "query")
        if asked:
            return ToolExecResponse(result=calendar_event(stream, asked, args, words))
    return ToolExecResponse(result=confirmation(stream, fixture, name, args, digest, words))


def _pinned(case: ToolCase, name: str, arg: str) -> str:
    """The value the case pins for argument ``arg`` of its call of ``name`` ("" when none)."""
    for tool in case.expected_tools:
        if tool.name == name:
            return dict(tool.required_args).get(arg, "")
    return ""


def args_digest(args: Mapping[str, object]) -> str:
    """The first ``DIGEST_HEX`` hex characters of SHA-256 over the arguments' canonical bytes."""
    return hashlib.sha256(canonical_bytes(args)).hexdigest()[:DIGEST_HEX]


def _error(message: str) -> ToolExecResponse:
    return ToolExecResponse(result="", error=message)


def _is_empty(value: object) -> bool:
    if value is None:
        return True
    if isinstance(value, str):
        return not value.strip()
    if isinstance(value, (list, dict)):
        return not value
    return False


def _json_kind(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    return type(value).__name__
