"""Bench 4.0 lists every scanned value's other forms beside it (``alias_scans``): a distractor
or a forbidden value that the run's library knows by a short form ("Petrem" for "Galaxy
Petrem") is followed by that form, so an answer naming wrong values by their short forms is
caught as surely as one naming them in full. 3.0.0 lists none (its bytes are pinned)."""

from __future__ import annotations

import pytest

from tests.helpers.history import memory_side

SEEDS = range(1, 5)


def other_forms(version: str, seed: int) -> tuple[dict[str, tuple[str, ...]], list[tuple]]:  # type: ignore[type-arg]
    _dataset, side, _texts = memory_side(seed, version, "medium")
    assert side.library is not None
    forms: dict[str, list[str]] = {}
    for attribute in side.library.attributes:
        for choice in attribute.values:
            forms.setdefault(choice.text, []).extend(choice.aliases)
    scanned = [(c.distractors, c.forbidden) for c in side.cases]
    return {k: tuple(v) for k, v in forms.items()}, scanned


@pytest.mark.parametrize("seed", SEEDS)
def test_every_scanned_value_is_followed_by_its_other_forms(seed: int) -> None:
    forms, scanned = other_forms("4.0.0", seed)
    widened = 0
    for values in (v for pair in scanned for v in pair):
        for value in values:
            missing = [f for f in forms.get(value, ()) if f not in values]
            assert not missing, (value, missing)
            widened += bool(forms.get(value))
    assert widened > 20  # the rule is exercised, not vacuous
    assert all(len(set(v)) == len(v) for pair in scanned for v in pair)  # each form once


def test_bench_3_0_lists_no_other_forms() -> None:
    forms, scanned = other_forms("3.0.0", 1)
    lacking = [
        value
        for values in (v for pair in scanned for v in pair)
        for value in values
        if any(f not in values for f in forms.get(value, ()))
    ]
    assert lacking  # 3.0.0's distractors name values without their short forms
