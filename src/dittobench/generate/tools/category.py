"""How a tool category is declared: its expected calls, its grammar and its pinned arguments.

A category is data. ``build`` expands ``grammar["origin"]`` with a per-case stream, draws a value
for each ``{slot}`` the expansion carries (from ``slots``, or from the case's fixture for the
reserved names in ``FIXTURE_SLOTS``), fills them in verbatim, and pins an argument only when its
slot really appears in the prompt, except for ``CARRIED_SLOTS`` whose values come from an earlier
call's result (a job id carried into a status call).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from dittobench.core.prng import Stream
from dittobench.generate.grammar import Grammar
from dittobench.spec.vocab import ToolGroup

SlotMaker = Callable[[Stream], str]
"""Draws one value for a slot from the case's stream."""

FIXTURE_SLOTS: frozenset[str] = frozenset({"subject", "link"})
"""Slots the builder fills from the case fixture: ``subject`` is the needle's subject
(e.g. "Velmorix turbine"), which the prompt must name for result-usage cases; ``link`` is the
address whose page carries the needle, for prompts that hand the agent a link to read."""

CARRIED_SLOTS: frozenset[str] = frozenset({"job_id", "link"})
"""Slots whose pins hold even though the prompt cannot carry them: the value is returned by an
earlier call of the same case (``job_id`` from ``execute_agent_job``, ``link`` from
``search_web``). ``job_id`` never appears in a grammar; ``link`` may, when the prompt itself gives
the address."""


@dataclass(frozen=True, slots=True)
class Pin:
    """Argument ``arg`` of the ``tool``-th expected call must match the value of ``slot``."""

    tool: int
    arg: str
    slot: str


@dataclass(frozen=True, slots=True)
class Category:
    """One of the 45 tool categories.

    ``tools`` is the expected call sequence (empty for restraint). ``banned`` words may never
    appear in a prompt of this category (whole-word, case-insensitive); every token of every
    expected tool's name must be in ``banned`` or in ``allowed`` (a deliberate, reviewed choice),
    which tests enforce. ``behavior`` overrides the generated ``expected_behavior`` sentence.
    """

    name: str
    group: ToolGroup
    tools: tuple[str, ...]
    grammar: Grammar
    slots: Mapping[str, SlotMaker] = field(default_factory=dict)
    slot_makers: Mapping[str, str] = field(default_factory=dict)
    """The name of each slot's maker (``values.json`` makers), where the pack names one."""
    pins: tuple[Pin, ...] = ()
    banned: frozenset[str] = frozenset()
    allowed: frozenset[str] = frozenset()
    unordered: bool = False
    allow_extra_tools: bool = False
    carries_job_id: bool = False
    fail_first: bool = False
    uses_result: bool = False
    behavior: str = ""
