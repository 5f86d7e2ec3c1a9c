"""The dataset artifact: every case of one run with its answer key, as the generator emits it.

The artifact is the auditor's view (answer keys included). What a harness sees of a case is only
its id and prompt (``RunRequest`` in ``spec.wire``); ``SeedRequest`` waves are the memory material.
``to_json`` gives the JSON object whose RFC 8785 bytes are hashed into ``dataset_sha256``. The seed
is a decimal string because 63-bit integers do not survive JSON readers that use doubles.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dittobench.core.prng import SeedError, parse_seed, seed_text
from dittobench.spec import vocab
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.memory import MemoryCase
from dittobench.spec.open import MUST_NOT_REASONS, OPEN_KINDS, OpenCase
from dittobench.spec.vocab import RunCaseKind, RunSizeName, ToolGroup
from dittobench.spec.wire import SeedRequest, to_wire

TOOL_GROUPS = vocab.TOOL_GROUPS
"""The five groups of tool categories, in the order runs are stratified over them."""


@dataclass(frozen=True, slots=True)
class ExpectedTool:
    """One call a tool case expects. ``required_args`` maps argument name to the wanted value
    (always a string; the grader matches it against the observed value, arrays included)."""

    name: str
    required_args: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "required_args": dict(self.required_args)}


@dataclass(frozen=True, slots=True)
class ToolCase:
    """A tool-calling case and its answer key. ``max_tool_calls`` is the call budget (the number
    of expected calls; 0 for restraint cases, where any call scores zero)."""

    id: str
    category: str
    group: ToolGroup
    prompt: str
    expected_tools: tuple[ExpectedTool, ...]
    max_tool_calls: int
    allow_extra_tools: bool
    unordered: bool
    expected_behavior: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "category": self.category,
            "group": self.group,
            "prompt": self.prompt,
            "expected_tools": [tool.to_json() for tool in self.expected_tools],
            "max_tool_calls": self.max_tool_calls,
            "allow_extra_tools": self.allow_extra_tools,
            "unordered": self.unordered,
            "expected_behavior": self.expected_behavior,
        }


@dataclass(frozen=True, slots=True)
class ToolFixture:
    """What the mock tool endpoint serves for one case, fixed at generation time.

    Every case has a ``subject`` (an invented thing, e.g. "Velmorix turbine"), a ``unit`` and a
    ``decoy_figure``. When the case expects a content tool, ``bearer`` names the one tool that
    serves ``needle`` (the sentence "the <subject> reached <needle_figure> <unit>"); every other
    content tool serves the decoy figure instead. ``job_id`` is the id ``execute_agent_job``
    returns and a status call must carry; ``link`` is the address ``search_web`` points to and a
    following ``read_links`` must carry; ``fail_first`` makes the first call of each content tool
    fail with a transient error (recovery cases). Figures are strings with thousands separators.

    From bench 3.0 (``findings_from_pack``) ``needle`` and ``decoy`` are the whole sentences the
    mock tools serve, drawn from the pack's ``results`` grammar: the same phrase families, each
    dated, the decoy earlier. ``decoy`` is empty (and left out of the JSON) before 3.0, when the
    mock tools frame the figures in their own words.
    """

    case_id: str
    subject: str
    unit: str
    decoy_figure: str
    job_id: str
    link: str
    bearer: str = ""
    needle: str = ""
    needle_figure: str = ""
    fail_first: bool = False
    decoy: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "case_id": self.case_id,
            "subject": self.subject,
            "unit": self.unit,
            "decoy_figure": self.decoy_figure,
            "job_id": self.job_id,
            "link": self.link,
            "bearer": self.bearer,
            "needle": self.needle,
            "needle_figure": self.needle_figure,
            "fail_first": self.fail_first,
            **({"decoy": self.decoy} if self.decoy else {}),
        }


@dataclass(frozen=True, slots=True)
class PackRef:
    """The content pack a dataset was generated from (``docs/packs.md``)."""

    id: str
    sha256: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "sha256": self.sha256}


@dataclass(frozen=True, slots=True)
class Dataset:
    """One generated run: a pure function of (seed, bench_version, run_size, pack)."""

    benchmark: str
    bench_version: str
    seed: int
    run_size: RunSizeName
    generated_at: str
    tool_cases: tuple[ToolCase, ...]
    memory_waves: tuple[SeedRequest, ...]
    memory_cases: tuple[MemoryCase, ...]
    tool_fixtures: tuple[ToolFixture, ...]
    telemetry: tuple[tuple[str, int], ...] = ()
    """Generator measurements (word overlap, realised raw-pairs share); integers only."""
    pack: PackRef | None = None
    """Named unless it is the version's own public pack, so those datasets keep their bytes."""
    open_cases: tuple[OpenCase, ...] = ()
    """Open questions (bench 8.0, ``spec.open``), judged for the nuance score; absent from the
    JSON when there are none, so earlier datasets keep their bytes."""

    def to_json(self) -> dict[str, Any]:
        return {
            "benchmark": self.benchmark,
            "bench_version": self.bench_version,
            "seed": seed_text(self.seed),
            "run_size": self.run_size,
            "generated_at": self.generated_at,
            "tool_cases": [case.to_json() for case in self.tool_cases],
            "memory_waves": [to_wire(wave) for wave in self.memory_waves],
            "memory_cases": [case.to_json() for case in self.memory_cases],
            "tool_fixtures": [f.to_json() for f in sorted(self.tool_fixtures, key=_case_key)],
            # Present only when measured, so versions without a memory side keep their bytes.
            **({"telemetry": dict(self.telemetry)} if self.telemetry else {}),
            **({"pack": self.pack.to_json()} if self.pack else {}),
            **({"open_cases": [c.to_json() for c in self.open_cases]} if self.open_cases else {}),
        }

    def asked(self) -> list[tuple[str, RunCaseKind, str, str, int]]:
        """Every question asked after a wave, as (case id, transcript kind, user id, question,
        wave): the memory cases, then the open ones."""
        out: list[tuple[str, RunCaseKind, str, str, int]] = [
            (c.id, "memory", c.user_id, c.question, c.run_after_wave) for c in self.memory_cases
        ]
        out += [(c.id, "open", c.user_id, c.question, c.run_after_wave) for c in self.open_cases]
        return out


def _case_key(fixture: ToolFixture) -> str:
    return fixture.case_id


@dataclass(frozen=True, slots=True)
class _ExpectedToolShape:
    name: str
    required_args: dict[str, str]


@dataclass(frozen=True, slots=True)
class _ToolCaseShape:
    id: str
    category: str
    group: ToolGroup
    prompt: str
    expected_tools: tuple[_ExpectedToolShape, ...]
    max_tool_calls: int
    allow_extra_tools: bool
    unordered: bool
    expected_behavior: str


@dataclass(frozen=True, slots=True)
class _DatasetShape:
    benchmark: str
    bench_version: str
    run_size: RunSizeName
    generated_at: str
    tool_cases: tuple[_ToolCaseShape, ...]
    memory_waves: tuple[SeedRequest, ...]
    memory_cases: tuple[MemoryCase, ...]
    tool_fixtures: tuple[ToolFixture, ...]
    telemetry: dict[str, int] = field(default_factory=dict)
    pack: PackRef | None = None
    open_cases: tuple[OpenCase, ...] = ()


def dataset_from_json(data: Any) -> Dataset:
    """Read a dataset file's parsed JSON; ``DecodeError`` names the first problem and where."""
    if not isinstance(data, dict):
        raise DecodeError("$: a dataset is a JSON object")
    try:
        seed = parse_seed(data.get("seed"))
    except SeedError as exc:
        raise DecodeError(f"$.seed: {exc}") from None
    # Every vocabulary field (question type, answer kind, write op, group, run size) is
    # checked by ``decode``: an unknown one is an error, never graded as another.
    shape = decode(_DatasetShape, data)
    for index, open_case in enumerate(shape.open_cases):
        _check_open(open_case, f"$.open_cases[{index}]")
    tool_cases = tuple(
        ToolCase(
            id=c.id,
            category=c.category,
            group=c.group,
            prompt=c.prompt,
            expected_tools=tuple(
                ExpectedTool(t.name, tuple(sorted(t.required_args.items())))
                for t in c.expected_tools
            ),
            max_tool_calls=c.max_tool_calls,
            allow_extra_tools=c.allow_extra_tools,
            unordered=c.unordered,
            expected_behavior=c.expected_behavior,
        )
        for c in shape.tool_cases
    )
    return Dataset(
        benchmark=shape.benchmark,
        bench_version=shape.bench_version,
        seed=seed,
        run_size=shape.run_size,
        generated_at=shape.generated_at,
        tool_cases=tool_cases,
        memory_waves=shape.memory_waves,
        memory_cases=shape.memory_cases,
        tool_fixtures=shape.tool_fixtures,
        telemetry=tuple(sorted(shape.telemetry.items())),
        pack=shape.pack,
        open_cases=shape.open_cases,
    )


def _check_open(case: OpenCase, where: str) -> None:
    """An open case's kind and its rubric's item ids and reasons are ones this build reads."""
    if case.open_kind not in OPEN_KINDS:
        raise DecodeError(f"{where}.open_kind: unknown kind {case.open_kind!r}")
    if not case.must_state:
        raise DecodeError(f"{where}.must_state: a rubric needs at least one fact to state")
    for key, items, prefix in (
        ("must_state", case.must_state, "S"),
        ("must_not", case.must_not, "N"),
    ):
        for index, item in enumerate(items):
            if item.id != f"{prefix}{index + 1}":
                raise DecodeError(f"{where}.{key}[{index}].id: expected {prefix}{index + 1}")
            if key == "must_not" and item.note not in MUST_NOT_REASONS:
                raise DecodeError(f"{where}.{key}[{index}].note: unknown reason {item.note!r}")
