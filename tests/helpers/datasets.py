"""Cached dataset builders for tests (datasets are pure, so caching changes nothing)."""

from __future__ import annotations

from functools import lru_cache

from dittobench.core.prng import Stream
from dittobench.generate.assemble import build_dataset
from dittobench.generate.texts import Texts, texts_of
from dittobench.generate.tools.build import build_tool_cases
from dittobench.grade.memory import HistoryKeys
from dittobench.grade.run import history_keys
from dittobench.packs import public_pack
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.memory import MemoryCase
from dittobench.spec.versions import CURRENT_VERSION, get_policy

CONTENT_VERSION = get_policy(CURRENT_VERSION).content_version
PACK_ID = get_policy(CURRENT_VERSION).pack_id
TOOL_COUNTS = {name: size.tool_cases for name, size in get_policy().run_sizes.items()}


def texts() -> Texts:
    """The typed texts of the current version's pack (the ones ``build_dataset`` uses)."""
    return texts_of(public_pack(PACK_ID))


@lru_cache(maxsize=64)
def dataset(seed: int, run_size: str = "full") -> Dataset:
    return build_dataset(seed, CURRENT_VERSION, run_size)


@lru_cache(maxsize=4096)
def tool_side(
    seed: int, run_size: str = "full"
) -> tuple[tuple[ToolCase, ...], tuple[ToolFixture, ...]]:
    return build_tool_cases(Stream.root(seed, CONTENT_VERSION), TOOL_COUNTS[run_size], texts())


@lru_cache(maxsize=16)
def graded_dataset(seed: int, version: str) -> tuple[Dataset, dict[str, HistoryKeys]]:
    """A full dataset of ``version`` with what the grader reads of each case's history."""
    made = build_dataset(seed, version, "full")
    return made, history_keys(made)


def cases_of(
    version: str, seeds: tuple[int, ...], question_type: str
) -> list[tuple[MemoryCase, HistoryKeys]]:
    """Every case of ``question_type`` over ``seeds``, with its history keys (at least one)."""
    found = []
    for seed in seeds:
        made, keys = graded_dataset(seed, version)
        found += [(c, keys[c.id]) for c in made.memory_cases if c.question_type == question_type]
    assert found, question_type
    return found


def declines_heard(
    version: str, seeds: tuple[int, ...]
) -> list[tuple[MemoryCase, HistoryKeys, str, str]]:
    """Declines over ``seeds`` with a look-alike the user's history said of their subject:
    (case, keys, the subject, the look-alike)."""
    out = []
    for question_type in ("abstention_unknown", "abstention_near_miss"):
        for case, keys in cases_of(version, seeds, question_type):
            heard = sorted(v for v in keys.heard if v.lower() not in case.question.lower())
            if heard and case.answer_items:
                out.append((case, keys, case.answer_items[-1], heard[0]))
    assert len(out) >= 10
    return out
