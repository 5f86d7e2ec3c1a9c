"""The tables each bench version names: its grading's lexicon, its catalog shape, its quotas.

Every table a policy names exists; what an older version names never changes when a version is
added (each version's tables are pinned by digest here, so editing a shared table in place fails);
and the lexicons grow: a later grading's lists hold every phrase of an earlier one's.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import json
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from dittobench.catalog import SHAPE_TABLES, UnknownCatalogError, shape_of, tool_names
from dittobench.catalog.shown import shown_by
from dittobench.core.hashing import canonical_sha256
from dittobench.grade.lexicon import LEXICONS, UnknownLexiconError, lexicon
from dittobench.mocktools import execute
from dittobench.packs import PackError, load_pack, own_pack
from dittobench.spec.dataset import ToolCase, ToolFixture
from dittobench.spec.sizes import SIZES_1, HistoryScale, UnknownRunSizeError, extended_sizes
from dittobench.spec.versions import (
    GRADINGS,
    POLICIES,
    BenchPolicy,
    catalog_of,
    content_of,
    pack_id_of,
)

LEXICON_OF: dict[str, str] = {
    "dittobench-grading-1": "lex-1",
    "dittobench-grading-2": "lex-1",
    "dittobench-grading-3": "lex-3",
    "dittobench-grading-4": "lex-4",
    "dittobench-grading-5": "lex-4",
    "dittobench-grading-6": "lex-4",
    "dittobench-grading-7": "lex-4",
}
"""The lexicon each shipped grading read before policies named it (grading-3's further phrases
came with ``more_phrasings``, grading-4's with ``phrasings_4``)."""

SHAPE_DIGESTS: dict[str, str] = {
    "catalog-1": "e0ba7c45d6672eb1e4946044179f92fc463233ef763ecf7c861c8d54dbcb5593",
}
"""Each catalog shape's digest (names, arguments, schemas, required flags), taken before
versions named their shape."""

QUOTA_DIGESTS: dict[str, str] = {
    "1.0.0": "e3bb7e628c3d1de4565a4416833dc9bc19e2e2bd39fdf526e2dbf90f11bf19fd",
    "1.1.0": "e522441efd97abf7287792c012444270ba559cfeb38311e55f998de4fae73b04",
    "2.0.0": "e522441efd97abf7287792c012444270ba559cfeb38311e55f998de4fae73b04",
    "3.0.0": "e522441efd97abf7287792c012444270ba559cfeb38311e55f998de4fae73b04",
    "4.0.0": "e522441efd97abf7287792c012444270ba559cfeb38311e55f998de4fae73b04",
    "5.0.0": "e522441efd97abf7287792c012444270ba559cfeb38311e55f998de4fae73b04",
    "6.0.0": "e522441efd97abf7287792c012444270ba559cfeb38311e55f998de4fae73b04",
    "6.1.0": "e522441efd97abf7287792c012444270ba559cfeb38311e55f998de4fae73b04",
    "7.0.0": "e522441efd97abf7287792c012444270ba559cfeb38311e55f998de4fae73b04",
    "7.1.0": "e522441efd97abf7287792c012444270ba559cfeb38311e55f998de4fae73b04",
    "8.0.0": "43edcd7c0c4e3f5707e3d6c4192e0459aa06c5b5107d37842240dd27e2e4bd36",
    "8.1.0": "26fcbf1e945d15fc9c22af7dbcf849f588c56c3e28a0abb83208860950334985",
    "9.0.0": "26fcbf1e945d15fc9c22af7dbcf849f588c56c3e28a0abb83208860950334985",
}
"""Each version's run sizes (every quota, and a long size's history scale), taken before versions
named their tables; 8.0.0's again when it gained the long size (a history field added later is
left out while unset, so the tables before it keep their digests)."""


def quotas(policy: BenchPolicy) -> dict[str, object]:
    """A version's run sizes as plain data."""
    return {
        name: {
            "tool_cases": size.tool_cases,
            "waves": size.waves,
            "raw_pairs_permille": size.raw_pairs_permille,
            "isolation_cases": size.isolation_cases,
            "memory_quota": dict(size.memory_quota),
            "open_quota": dict(size.open_quota),
            **({"history": _history(size.history)} if size.history else {}),
        }
        for name, size in policy.run_sizes.items()
    }


def _history(history: HistoryScale) -> dict[str, object]:
    """A history scale's fields, those left unset (None) out: a field added later keeps the
    digests of the versions before it."""
    return {k: v for k, v in dataclasses.asdict(history).items() if v is not None}


def test_every_grading_names_a_lexicon_that_exists() -> None:
    missing = {g.id: g.lexicon for g in GRADINGS.values() if g.lexicon not in LEXICONS}
    assert missing == {}
    for policy in POLICIES.values():
        assert lexicon(policy.grading.lexicon).id == policy.grading.lexicon


def test_shipped_gradings_keep_their_lexicons() -> None:
    assert {g.id: g.lexicon for g in GRADINGS.values()} == LEXICON_OF


def versioned_lexicon_names(source: str) -> list[str]:
    """Names ending in a version number (``DECLINE_3``) a module takes from ``grade.lexicon``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "dittobench.grade.lexicon":
            found += [a.name for a in node.names if re.search(r"_[0-9]+$", a.name)]
        if isinstance(node, ast.Attribute) and getattr(node.value, "id", "") == "lexicon":
            found += [node.attr] if re.search(r"_[0-9]+$", node.attr) else []
    return found


def test_no_module_picks_a_lexicon_by_a_versioned_name() -> None:
    """Code reads ``lexicon(policy.lexicon)``; the lists named by version are rows' data."""
    source = Path(__file__).resolve().parents[2] / "src" / "dittobench"
    picked = {
        str(path.relative_to(source)): versioned_lexicon_names(path.read_text(encoding="utf-8"))
        for path in sorted(source.rglob("*.py"))
        if path.name != "lexicon.py"
    }
    assert {path: names for path, names in picked.items() if names} == {}
    planted = "from dittobench.grade.lexicon import DECLINE, DECLINE_4\nx = lexicon.CESSATION_3"
    assert versioned_lexicon_names(planted) == ["DECLINE_4", "CESSATION_3"]


def test_an_unknown_lexicon_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(UnknownLexiconError, match="lex-1"):
        lexicon("lex-0")


def test_a_later_lexicon_keeps_every_phrase_of_an_earlier_one() -> None:
    order = sorted(LEXICONS, key=lambda i: int(i.rsplit("-", 1)[1]))
    for earlier, later in itertools.pairwise(order):
        a, b = LEXICONS[earlier], LEXICONS[later]
        for field in ("decline", "cessation", "persistence", "strong_persistence"):
            lost = set(getattr(a, field)) - set(getattr(b, field))
            assert not lost, (earlier, later, field, sorted(lost)[:3])


def plain(table: Mapping[Any, int]) -> dict[str, int]:
    return {str(key): count for key, count in table.items()}


def shape_digest(catalog_id: str) -> str:
    return canonical_sha256(
        [
            [name, [[a, schema, req] for a, schema, req in args]]
            for name, args in shape_of(catalog_id)
        ]
    )


def test_every_version_names_a_catalog_shape_that_exists() -> None:
    assert {p.catalog for p in POLICIES.values()} <= set(SHAPE_TABLES)
    with pytest.raises(UnknownCatalogError, match="catalog-1"):
        shape_of("catalog-0")


def test_catalog_shapes_are_pinned() -> None:
    """A pinned shape never changes (a new shape is a new id; pin it here once released)."""
    assert set(SHAPE_DIGESTS) <= set(SHAPE_TABLES)
    assert {c: shape_digest(c) for c in SHAPE_DIGESTS} == SHAPE_DIGESTS


def test_every_version_s_own_pack_describes_its_catalog() -> None:
    for version, policy in POLICIES.items():
        assert own_pack(version).catalog_id == policy.catalog, version
        shown = shown_by(own_pack(version), policy.catalog)
        assert tuple(t.name for t in shown.tools) == tool_names(policy.catalog), version


def test_a_pack_is_shown_only_with_the_catalog_it_declares(tmp_path: Path) -> None:
    pack = own_pack("8.0.0")
    with pytest.raises(PackError, match="describes catalog 'catalog-1'"):
        shown_by(pack, "catalog-2")
    folder = tmp_path / "p"
    shutil.copytree(pack.path, folder)
    head = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    (folder / "pack.json").write_text(json.dumps({**head, "catalog": "catalog-0"}), "utf-8")
    declared = load_pack(folder)
    assert declared.catalog_id == "catalog-0"
    with pytest.raises(PackError, match="unknown catalog 'catalog-0'"):
        shown_by(declared)


def test_the_mock_tools_serve_the_version_s_catalog() -> None:
    """A tool outside the version's catalog is unknown to the endpoint; every tool in it gets
    past the name check."""
    case = ToolCase("tool-0001", "c", "result_usage", "p", (), 2, False, False, "b")
    fixture = ToolFixture(
        case_id=case.id, subject="s", unit="u", decoy_figure="1", job_id="j", link="l"
    )
    for version, policy in POLICIES.items():
        content_version = policy.content_version
        assert catalog_of(content_version) == policy.catalog
        known = set(tool_names(policy.catalog))
        for name in (*sorted(known), "no_such_tool"):
            reply = execute(1, content_version, case, fixture, name, {}, [])
            unknown = reply.error == f"unknown tool: {name}"
            assert unknown == (name not in known), (version, name)


def test_quotas_are_pinned_per_version() -> None:
    """A pinned version's quotas never change (a new version's come from a new table)."""
    assert set(QUOTA_DIGESTS) <= set(POLICIES)
    pinned = {v: canonical_sha256(quotas(POLICIES[v])) for v in QUOTA_DIGESTS}
    assert pinned == QUOTA_DIGESTS


def test_a_new_question_type_is_a_new_table() -> None:
    """``extended_sizes`` gives a new version its quotas without touching the table it extends,
    nor any version naming it."""
    before = {v: canonical_sha256(quotas(p)) for v, p in POLICIES.items()}
    grown = extended_sizes(
        SIZES_1, memory={"full": {"new_type": 6}}, open_kinds={"small": {"x": 1}}
    )
    assert plain(grown["full"].memory_quota)["new_type"] == 6
    assert grown["full"].memory_cases == SIZES_1["full"].memory_cases + 6
    assert plain(grown["small"].open_quota)["x"] == 1
    assert "new_type" not in plain(SIZES_1["full"].memory_quota)
    assert dict(grown["medium"].memory_quota) == dict(SIZES_1["medium"].memory_quota)
    assert {v: canonical_sha256(quotas(p)) for v, p in POLICIES.items()} == before
    with pytest.raises(UnknownRunSizeError, match="huge"):
        extended_sizes(SIZES_1, memory={"huge": {"new_type": 1}})


def test_a_content_version_knows_its_policy_s_tables() -> None:
    """What the mock tools look up by content version is its bench version's."""
    for policy in POLICIES.values():
        content_version = policy.content_version
        assert pack_id_of(content_version) == policy.pack_id
        assert catalog_of(content_version) == policy.catalog
        assert content_of(content_version) == policy.content
    assert pack_id_of("0.9") == POLICIES["1.0.0"].pack_id
