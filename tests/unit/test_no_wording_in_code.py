"""No wording lives in the generator's code: every word comes from a content pack.

The rule (docs/packs.md, "No wording in code"), applied to every module under
``src/dittobench/generate``. Outside docstrings and diagnostics (``raise`` statements and the
arguments of calls to ``*Error``, ``*fail`` and ``Problem``), a string literal may not

- hold a phrase (two words of two or more letters separated by a space),
- hold a capitalised word (a name, the start of a sentence),

and no tuple, list, set or dict display may hold four or more string literals unless every one
is a schema name (a key used anywhere in a shipped public pack, an attribute kind, a question
type):
a value pool cannot hide as a list of single words.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from dittobench.generate.persona.attribute import ATTRIBUTE_KINDS
from dittobench.packs import public_pack
from dittobench.spec.memory import QUESTION_TYPES

GENERATE = Path(__file__).resolve().parents[2] / "src" / "dittobench" / "generate"
_PHRASE = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")
_CAPITAL = re.compile(r"\b[A-Z][a-z]+")
_DIAGNOSTIC = re.compile(r"(Error|fail|Problem)$")


def _keys(value: object) -> Iterator[str]:
    if isinstance(value, list):
        for item in value:
            yield from _keys(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)


def _schema_names() -> frozenset[str]:
    from dittobench.packs import PACK_FILES, public_pack_ids

    names = {
        key
        for pack_id in public_pack_ids()
        for name in PACK_FILES
        for key in _keys(public_pack(pack_id).file(name))
    }
    return frozenset(names | set(ATTRIBUTE_KINDS) | set(QUESTION_TYPES))


def _exempt(tree: ast.AST) -> set[int]:
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            exempt.add(id(node.value))  # docstrings
        func = node.func if isinstance(node, ast.Call) else None
        name = getattr(func, "id", getattr(func, "attr", "")) if func is not None else ""
        diagnostic = isinstance(node, ast.Raise) or bool(name and _DIAGNOSTIC.search(name))
        exported = isinstance(node, ast.Assign) and any(
            getattr(target, "id", "") == "__all__" for target in node.targets
        )
        if diagnostic or exported:
            exempt.update(id(sub) for sub in ast.walk(node))
    return exempt


def wording_in(source: str, names: frozenset[str]) -> list[str]:
    """Every breach of the rule in one module's source, as ``line: what``."""
    tree = ast.parse(source)
    exempt = _exempt(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        text = node.value if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and (_PHRASE.search(text) or _CAPITAL.search(text)):
            found.append(f"{node.lineno}: text {node.value!r:.60}")
        items = (
            node.values
            if isinstance(node, ast.Dict)
            else node.elts
            if isinstance(node, ast.Tuple | ast.List | ast.Set)
            else []
        )
        strings = [
            i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)
        ]
        outside = [s for s in strings if s not in names]
        if len(strings) >= 4 and outside:
            found.append(f"{node.lineno}: pool of {len(strings)} strings, e.g. {outside[0]!r}")
    return found


def test_no_module_under_generate_holds_wording() -> None:
    names = _schema_names()
    breaches = {
        str(path.relative_to(GENERATE)): wording_in(path.read_text(encoding="utf-8"), names)
        for path in sorted(GENERATE.rglob("*.py"))
    }
    assert {path: found for path, found in breaches.items() if found} == {}


def test_the_rule_catches_planted_wording() -> None:
    names = _schema_names()
    planted = {
        'GREETING = "Good morning to you"': "text",
        'NAME = "Greta"': "text",
        'HOBBIES = ("pottery", "chess", "archery", "rowing")': "pool",
        'UNITS = {"a": "litres", "b": "tonnes", "c": "crates", "d": "visitors"}': "pool",
    }
    for source, kind in planted.items():
        found = wording_in(source, names)
        assert len(found) == 1 and kind in found[0], (source, found)
    allowed = [
        'raise ValueError("no such attribute here")',
        'KINDS = ("fixed", "changing", "preference", "activity")',
        'LABEL = "memory/person/"',
        '"""A docstring may say anything at all."""',
    ]
    for source in allowed:
        assert wording_in(source, names) == [], source
