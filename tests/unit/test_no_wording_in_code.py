"""No wording lives in the generator's or the mock tools' code: every word comes from a pack.

The rule (docs/packs.md, "No wording in code"), applied to every module under
``src/dittobench/generate`` and ``src/dittobench/mocktools``. Outside docstrings and diagnostics
(``raise`` statements, the arguments of calls to ``*Error``, ``*_error``, ``*fail`` and
``Problem``, and constants named ``*_ERROR``: the error texts a tool call gets), a string literal
may not

- hold a phrase (two words of two or more letters separated by a space),
- hold a capitalised word (a name, the start of a sentence),

and no tuple, list, set or dict display may hold four or more string literals unless every one
is a schema name (a key used anywhere in a shipped public pack or its replies, an attribute
kind, a question type):
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

SOURCE = Path(__file__).resolve().parents[2] / "src" / "dittobench"
GENERATE = SOURCE / "generate"
MOCKTOOLS = SOURCE / "mocktools"
_PHRASE = re.compile(r"[A-Za-z]{2,} [A-Za-z]{2,}")
_CAPITAL = re.compile(r"\b[A-Z][a-z]+")
_DIAGNOSTIC = re.compile(r"(Error|_error|fail|Problem)$")
_DIAGNOSTIC_CONSTANT = re.compile(r"_ERROR$")


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
    for pack_id in public_pack_ids():
        words = public_pack(pack_id).replies
        names |= {*words.confirm, *words.lists, *words.lines}
    return frozenset(names | set(ATTRIBUTE_KINDS) | set(QUESTION_TYPES))


def _exempt(tree: ast.AST) -> set[int]:
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            exempt.add(id(node.value))  # docstrings
        func = node.func if isinstance(node, ast.Call) else None
        name = getattr(func, "id", getattr(func, "attr", "")) if func is not None else ""
        diagnostic = isinstance(node, ast.Raise) or bool(name and _DIAGNOSTIC.search(name))
        targets = (
            node.targets
            if isinstance(node, ast.Assign)
            else [node.target]
            if isinstance(node, ast.AnnAssign)
            else []
        )
        exported = any(
            getattr(target, "id", "") == "__all__"
            or _DIAGNOSTIC_CONSTANT.search(getattr(target, "id", ""))
            for target in targets
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
        line = getattr(node, "lineno", 0)
        text = node.value if isinstance(node, ast.Constant) else None
        if isinstance(text, str) and (_PHRASE.search(text) or _CAPITAL.search(text)):
            found.append(f"{line}: text {text!r:.60}")
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
            found.append(f"{line}: pool of {len(strings)} strings, e.g. {outside[0]!r}")
    return found


def test_no_module_under_generate_holds_wording() -> None:
    names = _schema_names()
    breaches = {
        str(path.relative_to(GENERATE)): wording_in(path.read_text(encoding="utf-8"), names)
        for path in sorted(GENERATE.rglob("*.py"))
    }
    assert {path: found for path, found in breaches.items() if found} == {}


def test_no_module_under_mocktools_holds_wording() -> None:
    names = _schema_names()
    breaches = {
        str(path.relative_to(MOCKTOOLS)): wording_in(path.read_text(encoding="utf-8"), names)
        for path in sorted(MOCKTOOLS.rglob("*.py"))
    }
    assert {path: found for path, found in breaches.items() if found} == {}


def test_the_rule_catches_planted_wording() -> None:
    names = _schema_names()
    planted = {
        'GREETING = "Good morning to you"': "text",
        'NAME = "Greta"': "text",
        'HOBBIES = ("pottery", "chess", "archery", "rowing")': "pool",
        'UNITS = {"a": "litres", "b": "tonnes", "c": "crates", "d": "visitors"}': "pool",
        'return ToolExecResponse(result="Theme set to dark.")': "text",
        'text = f"Job {job}: finished."': "text",
        'TLDS = ("com", "org", "net", "io")': "pool",
    }
    for source, kind in planted.items():
        found = wording_in(source, names)
        assert len(found) == 1 and kind in found[0], (source, found)
    allowed = [
        'raise ValueError("no such attribute here")',
        'KINDS = ("fixed", "changing", "preference", "activity")',
        'LABEL = "memory/person/"',
        'TRANSIENT_ERROR: Final = "transient upstream error (503); retry"',
        'return _error(f"no job with id {job_id}")',
        'template = replies.lines["page_leads"]',
        '"""A docstring may say anything at all."""',
    ]
    for source in allowed:
        assert wording_in(source, names) == [], source
