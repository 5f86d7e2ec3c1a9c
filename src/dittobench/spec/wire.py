"""Harness wire shapes: what crosses HTTP between the engine and a harness.

Field names match the reference engine's protocol so harnesses written for it work unchanged
(see docs/protocol.md). These shapes carry what a harness may see and nothing else: no wire
shape has a field for an expected answer, an expected tool or a fixture.

They are plain frozen dataclasses so the generator can import them without any validation
library; the edges (engine, harness) read incoming JSON into these same classes with
``spec.codec.decode``, which ignores unknown keys, fills missing optional ones with the defaults
below and names the path of the first problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

JSONValue = Any
"""Any JSON value (dict, list, str, int, float, bool or None)."""

DEFAULT_USER_ID = "miner"
"""The dataset's name for the person under test, and the user a harness answers for when
``user_id`` is empty (reference semantics). The engine never sends it: on the wire every user id
is keyed by the run's nonce (``spec.wireids``)."""

ISOLATION_USER_ID = "colleague"
"""The dataset's name for the second user, loaded for isolation cases (keyed on the wire too)."""

MEMORY_TOOLS: frozenset[str] = frozenset(
    {
        "search_memories",
        "fetch_memories",
        "search_subjects",
        "search_memories_in_subjects",
        "save_memory",
        "update_memory",
        "delete_memory",
    }
)
"""Tools a harness serves from its own memory store; the engine's tool endpoint never serves
them (a call there is recorded and answered with an error)."""


@dataclass(frozen=True, slots=True)
class ToolDefinition:
    """One tool of the catalog as sent in ``RunRequest.tools``: a JSON Schema for its arguments."""

    name: str
    description: str
    parameters: dict[str, JSONValue]


@dataclass(frozen=True, slots=True)
class Pair:
    """One stored exchange: the user's turn (``prompt``) and the assistant's (``response``)."""

    pair_id: str
    session_id: str
    timestamp: str
    prompt: str
    response: str


@dataclass(frozen=True, slots=True)
class Subject:
    """A prepared topic index entry; ``links`` tie subjects to pairs."""

    id: str
    subject_text: str
    description_text: str


@dataclass(frozen=True, slots=True)
class Link:
    subject_id: str
    pair_id: str


@dataclass(frozen=True, slots=True)
class SeedRequest:
    """``POST /seed`` body. The engine always sends ``wave`` explicitly (0, 1, 2...)."""

    user_id: str = DEFAULT_USER_ID
    wave: int = 0
    pairs: tuple[Pair, ...] = ()
    subjects: tuple[Subject, ...] = ()
    links: tuple[Link, ...] = ()


@dataclass(frozen=True, slots=True)
class SeedResponse:
    """``POST /seed`` reply: how many of each item the harness loaded."""

    pairs: int = 0
    subjects: int = 0
    links: int = 0


@dataclass(frozen=True, slots=True)
class RunRequest:
    """``POST /run`` body: one case, as the harness sees it."""

    case_id: str
    system_prompt: str
    user_input: str
    tools: tuple[ToolDefinition, ...] = ()
    tool_endpoint: str = ""
    user_id: str = ""


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call as a harness reports it. ``hop`` may be missing on the wire (read as 0)."""

    name: str
    args: JSONValue = None
    hop: int = 0


@dataclass(frozen=True, slots=True)
class RunResponse:
    """``POST /run`` reply. Every field is optional on the wire.

    ``latency_ms`` is ignored (the engine measures latency itself); token counts are telemetry.
    ``answer`` is the optional bare-value slot, ``abstain`` the optional grounded-decline flag.
    ``retrieved`` lists the pair ids (as ``/seed`` showed them) the harness's memory retrieved
    for this answer, best first: a retrieval diagnostic reported beside the score, never in it
    (docs/grading.md, "Retrieval diagnostics"); omitted from the JSON when empty.
    """

    final_text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    prompt_tokens: int = 0
    output_tokens: int = 0
    latency_ms: int = 0
    answer: str | None = None
    abstain: bool | None = None
    confidence: float | None = None
    retrieved: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ToolExecRequest:
    """What a harness POSTs to ``tool_endpoint`` to execute one tool call."""

    case_id: str
    name: str
    args: JSONValue = None
    hop: int = 0
    user_id: str = ""


@dataclass(frozen=True, slots=True)
class ToolExecResponse:
    """The tool endpoint's reply: a result string, or an error string."""

    result: str = ""
    error: str | None = None


OMIT_WHEN_EMPTY: frozenset[str] = frozenset(
    {"tool_endpoint", "user_id", "pairs", "subjects", "links", "retrieved"}
)


def to_wire(shape: Any) -> dict[str, JSONValue]:
    """Turn a wire dataclass into its JSON object, dropping empty optional fields.

    ``wave`` is always kept (some harnesses wipe a user's history when it is missing). Empty
    ``pairs``/``subjects``/``links`` arrays are omitted rather than sent as ``null`` or ``[]``,
    as strict decoders written for the reference expect, and so is an empty ``retrieved``;
    ``None`` optionals are dropped.
    """
    out: dict[str, JSONValue] = {}
    for name in shape.__dataclass_fields__:
        value = getattr(shape, name)
        if value is None or (name in OMIT_WHEN_EMPTY and value in ("", ())):
            continue
        out[name] = _plain(value)
    return out


def _plain(value: Any) -> JSONValue:
    if hasattr(value, "__dataclass_fields__"):
        return to_wire(value)
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


__all__ = [
    "DEFAULT_USER_ID",
    "ISOLATION_USER_ID",
    "MEMORY_TOOLS",
    "JSONValue",
    "Link",
    "Pair",
    "RunRequest",
    "RunResponse",
    "SeedRequest",
    "SeedResponse",
    "Subject",
    "ToolCall",
    "ToolDefinition",
    "ToolExecRequest",
    "ToolExecResponse",
    "to_wire",
]
