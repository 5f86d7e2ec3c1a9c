"""Pinned mock-tool replies: the exact bytes a harness is served for a fixed set of calls.

For every shipped bench version and three seeds, every tool case of a small dataset calls every
tool the endpoint serves: with the arguments the case expects where it expects that tool, with
arguments built from the catalog's schema otherwise (the fixture's link and job id where a
content tool reads them), a second time as a repeat (recovery cases fail only the first call),
plus an unknown tool, a memory tool and a call missing its required arguments. The replies'
canonical bytes are hashed per version. A change to any reply wording, to where it is read from,
or to the way a reply is drawn fails here; if the change is meant, it needs a new content version
(docs/bench-versions.md).
"""

from __future__ import annotations

from typing import Any

import pytest

from dittobench.catalog import MEMORY_TOOLS, shape_of, tool_names
from dittobench.core.hashing import canonical_sha256
from dittobench.generate.assemble import build_dataset
from dittobench.mocktools import execute
from dittobench.packs import own_pack
from dittobench.spec.dataset import Dataset, ToolCase, ToolFixture
from dittobench.spec.versions import POLICIES, get_policy

SEEDS = (1, 2, 3)
GOLDEN: dict[str, str] = {
    "1.0.0": "df1e0e5dd8f7d4f0ba4888cca263df1b341b7044074366e48c80d5acc0159989",
    "1.1.0": "c5a000abcfc3640fff4f505684bfd1ec87b6150df03abc4036baf0d802ff9cf7",
    "2.0.0": "5e6b050b6c73a459c7fc6b47460cf3694815a5714a43ff31ef370708bd877a93",
    "3.0.0": "e1ed994415d2d922dedcb1165236b6c4a2ba932c0760383bc5b06651051fb6e9",
    "4.0.0": "5f61be5f543aafc4b5ac34d73055c97c43986b6b8fbaf0c8f01953c9b61b8e69",
    "5.0.0": "86f5fe9f06bc89fb4ae51930d46f8bfc74826a38dd26cbb7b41a1738f69ba7b7",
    "6.0.0": "9f705f6c8364d2883cfc203ccd21e4fae21387b2800f9b0f36fa82eb694c8d1d",
    "6.1.0": "a6a831f7713bfdce855c2c58044286bbdba059f6704de0cde5c234aed7c64f74",
    "7.0.0": "1bd322ef9b9a29472ee7bd34a5307091aa15178abee6de87f8ed1c7cd11a9607",
    "7.1.0": "47d2bbf2b97aa21e3b9cfcc87a197f8adf257aa88d1f50e80a9eb9093f8e7848",
    "8.0.0": "6c85501d229ed58fbfc6d636ba9697523c92f53b3e5d481252674255dde687f9",
    "8.1.0": "28365ef18bccf8fdc4a05e61b13da26bda684d805de44dacd7edc6ea1787847e",
    "9.0.0": "5e2378192d1b74ea7c5ac3b4adc4559604b3e07085564fbee5047efc73b67e63",
}
"""Computed from the replies' wording as it stood in ``mocktools/confirm.py`` and
``mocktools/content.py`` before it moved into the packs."""


def schema_args(catalog: str, name: str, fixture: ToolFixture) -> dict[str, Any]:
    """Valid arguments for ``name`` built from its schema in ``catalog``; the fixture's link and
    job id where a content tool reads them, so those tools serve their findings."""
    properties = {
        arg: schema for tool, args in shape_of(catalog) if tool == name for arg, schema, _ in args
    }
    out: dict[str, Any] = {}
    for arg, schema in properties.items():
        if arg == "urls":
            out[arg] = [fixture.link or "https://example.test/page"]
        elif arg == "job_id":
            out[arg] = fixture.job_id or "job-none"
        elif "enum" in schema:
            out[arg] = schema["enum"][-1]
        elif schema["type"] == "array":
            out[arg] = [f"golden {arg}"]
        elif schema["type"] == "integer":
            out[arg] = 3
        elif schema["type"] == "boolean":
            out[arg] = False
        else:
            out[arg] = f"golden {arg} of {fixture.subject or 'nothing'}"
    return out


def calls_of(catalog: str, case: ToolCase, fixture: ToolFixture) -> list[tuple[str, Any]]:
    """The fixed calls made for one case, in order: every tool of the version's catalog."""
    expected = {tool.name: dict(tool.required_args) for tool in case.expected_tools}
    calls: list[tuple[str, Any]] = []
    for name in tool_names(catalog):
        if name in MEMORY_TOOLS:
            continue
        args = schema_args(catalog, name, fixture)
        args.update(expected.get(name, {}))
        calls.append((name, args))
    calls.append(("no_such_tool", {}))
    calls.append((sorted(MEMORY_TOOLS)[0], {"queries": ["golden"]}))
    calls.append(("calendar_create_event", {}))
    calls.append(("set_theme", ["not", "an", "object"]))
    return calls


def served(version: str, dataset: Dataset) -> list[list[Any]]:
    """Every reply of the fixed calls over ``dataset``: [case, tool, repeat, result, error]."""
    policy = get_policy(version)
    content_version = policy.content_version
    replies = own_pack(version).replies  # read through the version's own pack, as a run does
    fixtures = {f.case_id: f for f in dataset.tool_fixtures}
    rows: list[list[Any]] = []
    for case in dataset.tool_cases:
        fixture = fixtures[case.id]
        for name, args in calls_of(policy.catalog, case, fixture):
            for earlier in ((), (name,)):
                reply = execute(
                    dataset.seed, content_version, case, fixture, name, args, list(earlier), replies
                )
                rows.append([case.id, name, len(earlier), reply.result, reply.error])
    return rows


def replies_digest(version: str) -> str:
    rows = [served(version, build_dataset(seed, version, "small")) for seed in SEEDS]
    return canonical_sha256(rows)


@pytest.mark.parametrize("version", sorted(POLICIES))
def test_replies_are_pinned(version: str) -> None:
    assert replies_digest(version) == GOLDEN[version]


def test_every_version_is_pinned() -> None:
    assert set(GOLDEN) == set(POLICIES)


def test_the_calls_reach_every_served_tool_and_its_findings() -> None:
    """The fixed calls are worth pinning: every served tool answers without an error at least
    once, and some reply carries a fixture's needle."""
    version = max(POLICIES, key=lambda v: tuple(int(p) for p in v.split(".")))
    dataset = build_dataset(SEEDS[0], version, "small")
    rows = served(version, dataset)
    answered = {row[1] for row in rows if row[4] is None and row[3]}
    catalog = get_policy(version).catalog
    assert answered == {name for name in tool_names(catalog) if name not in MEMORY_TOOLS}
    needles = [f.needle for f in dataset.tool_fixtures if f.needle]
    assert any(needle in row[3] for row in rows for needle in needles)
