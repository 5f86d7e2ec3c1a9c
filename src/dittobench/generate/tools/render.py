"""Turn a category and a per-case stream into one prompt and its pinned arguments."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from dittobench.core.prng import Stream
from dittobench.core.text import words
from dittobench.generate.grammar import GrammarError, expand, fill, slots_in, strip_slots, tidy
from dittobench.generate.tools.category import CARRIED_SLOTS, FIXTURE_SLOTS, Category
from dittobench.spec.dataset import ExpectedTool


@dataclass(frozen=True, slots=True)
class Rendered:
    """One expanded prompt and the calls it expects, pinned arguments filled in."""

    prompt: str
    expected_tools: tuple[ExpectedTool, ...]


def render(category: Category, stream: Stream, fixture_values: Mapping[str, str]) -> Rendered:
    """Expand the grammar, fill its slots, pin what the prompt carries, and check the bans.

    ``fixture_values`` supplies the reserved slots (``subject``, ``job_id``). A prompt that
    contains a banned word raises ``GrammarError`` naming the word: grammars must make that
    impossible, and tests sweep seeds to prove it.
    """
    template = expand(category.grammar, stream)
    names = slots_in(template)
    values: dict[str, str] = {}
    for name in names:
        if name in FIXTURE_SLOTS or name in fixture_values:
            values[name] = fixture_values[name]
        elif name in category.slots:
            values[name] = category.slots[name](stream)
        else:
            raise GrammarError(f"{category.name}: slot {{{name}}} has no maker")
    prompt = fill(tidy(template), values)
    values.update({k: v for k, v in fixture_values.items() if k in CARRIED_SLOTS})
    _check_bans(category, template, prompt)
    return Rendered(prompt, _expected(category, values))


def _expected(category: Category, values: Mapping[str, str]) -> tuple[ExpectedTool, ...]:
    pinned: list[dict[str, str]] = [{} for _ in category.tools]
    for pin in category.pins:
        if pin.slot in values:
            pinned[pin.tool][pin.arg] = values[pin.slot]
    return tuple(
        ExpectedTool(name, tuple(sorted(args.items())))
        for name, args in zip(category.tools, pinned, strict=True)
    )


def _check_bans(category: Category, template: str, prompt: str) -> None:
    # Bans apply to the grammar's own words; slot values (names, codes) are checked separately
    # by tests, since a coined value could in principle spell anything.
    hit = sorted(_grammar_words(template) & category.banned)
    if hit:
        raise GrammarError(f"{category.name}: banned word(s) {hit} in prompt {prompt!r}")


@lru_cache(maxsize=8192)
def _grammar_words(template: str) -> frozenset[str]:
    """The words of an expansion outside its slots. Memoised: expansions recur across a run."""
    return frozenset(words(strip_slots(template)))
