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

from dataclasses import dataclass, field
from datetime import UTC, datetime
from json.encoder import encode_basestring
from typing import Any

from dittobench.core.canonical import canonical_bytes

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


SEED_BYTES_LIMIT = 1024 * 1024
"""The largest ``POST /seed`` body the engine sends (1 MiB): a wave whose body would be larger
is sent as several requests, its parts (docs/protocol.md, "Seeding in parts")."""

SEED_BYTES_FLOOR = 64 * 1024
"""The smallest part a harness may ask for with ``max_seed_bytes`` in ``GET /health``: a smaller
value is read as this one, so a harness cannot make the engine send a wave a pair at a time."""


@dataclass(frozen=True, slots=True)
class SeedPart:
    """One ``POST /seed`` of a wave: ``request`` carries the part's pairs, their links and the
    subjects first named by those links; it is part ``part`` (0-based) of ``parts``. A wave sent
    whole is its own one part, and its body is the wave's (``seed_part_wire``)."""

    request: SeedRequest
    part: int = 0
    parts: int = 1


def seed_part_wire(part: SeedPart) -> dict[str, JSONValue]:
    """The JSON object of one part: the request's, plus ``part`` and ``parts`` only when the wave
    has more than one part, so a wave sent whole crosses the wire byte for byte as before."""
    body = to_wire(part.request)
    if part.parts > 1:
        body["part"] = part.part
        body["parts"] = part.parts
    return body


def seed_bytes_limit(declared: int) -> int:
    """The part size the engine uses for a harness that declared ``max_seed_bytes`` (0: nothing
    declared): the declared value when it is below ``SEED_BYTES_LIMIT``, else the limit (a
    harness may ask for smaller parts, never larger ones). The floor is applied where the
    declaration is read."""
    return min(declared, SEED_BYTES_LIMIT) if declared > 0 else SEED_BYTES_LIMIT


@dataclass(slots=True)
class _Group:
    """What one pair brings to a part: itself, its links, the subjects they name first; and the
    canonical sizes of those items, per array (bytes, count)."""

    pairs: list[Pair] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    subjects: list[Subject] = field(default_factory=list)
    sizes: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0, 0])

    def measure(self) -> None:
        arrays: tuple[list[Any], ...] = (self.links, self.pairs, self.subjects)
        for index, items in enumerate(arrays):
            self.sizes[2 * index] = sum(_item_size(item) for item in items)
            self.sizes[2 * index + 1] = len(items)


def _item_size(item: Pair | Link | Subject) -> int:
    """The length of ``canonical_bytes(to_wire(item))``, summed field by field: braces and
    commas, each ``"name":``, and each value as canonical JSON escapes it (a string as the
    standard encoder writes it, which is RFC 8785's form; anything else through
    ``canonical_bytes``). A third of the time of encoding the item whole, on a long wave."""
    names = item.__dataclass_fields__
    size = len(names) + 1
    for name in names:
        value = getattr(item, name)
        if isinstance(value, str):
            shown = len(encode_basestring(value).encode("utf-8", "surrogatepass"))
        else:
            shown = len(canonical_bytes(value))
        size += len(name) + 3 + shown
    return size


_ARRAY_KEYS = ("links", "pairs", "subjects")


def _body_size(head: int, sizes: list[int]) -> int:
    """The canonical body's length: the head object (at least one member) plus each non-empty
    array as ``,"key":[item,item]``."""
    total = head
    for index, key in enumerate(_ARRAY_KEYS):
        size, count = sizes[2 * index], sizes[2 * index + 1]
        if count:
            total += len(key) + 6 + size + count - 1  # ,"key":[ ... ]
    return total


def _moment(stamp: str) -> tuple[int, float]:
    """A pair's place in time, for ordering: readable timestamps first, by time (one without an
    offset read as UTC), then any unreadable ones."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return (1, 0.0)
    return (0, (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp())


def _groups(request: SeedRequest) -> list[_Group]:
    """One group per pair in chronological order (stable), each with its links and the subjects
    first named by them; links to no pair of the wave and subjects no link names go with the
    last pair, so every item of the wave is in exactly one group."""
    ordered = sorted(request.pairs, key=lambda pair: _moment(pair.timestamp))
    groups = [_Group(pairs=[pair]) for pair in ordered]
    at: dict[str, _Group] = {}
    for group in groups:
        at.setdefault(group.pairs[0].pair_id, group)
    last = groups[-1]
    for link in request.links:
        at.get(link.pair_id, last).links.append(link)
    named: dict[str, list[Subject]] = {}
    for subject in request.subjects:
        named.setdefault(subject.id, []).append(subject)
    for group in groups:
        for link in group.links:
            group.subjects.extend(named.pop(link.subject_id, ()))
    for rest in named.values():
        last.subjects.extend(rest)
    for group in groups:
        group.measure()
    return groups


def seed_parts(request: SeedRequest, limit: int = SEED_BYTES_LIMIT) -> tuple[SeedPart, ...]:
    """A wave as the ``POST /seed`` requests that carry it, in order. A wave whose canonical
    body is at most ``limit`` bytes (or that holds fewer than two pairs) is one part, the
    request itself. A larger one is cut between pairs taken in chronological order: each part
    carries its pairs, the links of those pairs and the subjects those links name that no
    earlier part carried, and its body (``part``/``parts`` included) is at most ``limit`` bytes
    unless it holds a single pair that is larger on its own. Deterministic: the same wave and
    limit give the same parts."""
    if len(request.pairs) < 2:
        return (SeedPart(request),)
    groups = _groups(request)
    whole = [sum(group.sizes[i] for group in groups) for i in range(6)]
    bare = len(canonical_bytes(to_wire(SeedRequest(request.user_id, request.wave))))
    if _body_size(bare, whole) <= limit:
        return (SeedPart(request),)
    most = len(request.pairs)
    head = bare + len(f',"part":{most},"parts":{most}')
    cuts: list[list[_Group]] = [[]]
    held = [0] * 6
    for group in groups:
        trial = [a + b for a, b in zip(held, group.sizes, strict=True)]
        if cuts[-1] and _body_size(head, trial) > limit:
            cuts.append([])
            trial = list(group.sizes)
        cuts[-1].append(group)
        held = trial
    if len(cuts) == 1:
        return (SeedPart(request),)
    return tuple(
        SeedPart(_joined(request, cut), index, len(cuts)) for index, cut in enumerate(cuts)
    )


def _joined(request: SeedRequest, groups: list[_Group]) -> SeedRequest:
    return SeedRequest(
        request.user_id,
        request.wave,
        tuple(pair for group in groups for pair in group.pairs),
        tuple(subject for group in groups for subject in group.subjects),
        tuple(link for group in groups for link in group.links),
    )


__all__ = [
    "DEFAULT_USER_ID",
    "ISOLATION_USER_ID",
    "MEMORY_TOOLS",
    "SEED_BYTES_FLOOR",
    "SEED_BYTES_LIMIT",
    "JSONValue",
    "Link",
    "Pair",
    "RunRequest",
    "RunResponse",
    "SeedPart",
    "SeedRequest",
    "SeedResponse",
    "Subject",
    "ToolCall",
    "ToolDefinition",
    "ToolExecRequest",
    "ToolExecResponse",
    "seed_bytes_limit",
    "seed_part_wire",
    "seed_parts",
    "to_wire",
]
