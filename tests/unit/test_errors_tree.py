"""The drawn error tree (``core/errors.py``'s docstring) is the tree of error classes: every
``DittobenchError`` subclass in the package has its line, under its parent, with its HTTP status
and exit code, and nothing else is drawn."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from dataclasses import dataclass

import pytest

import dittobench
from dittobench.core import errors
from dittobench.core.errors import DittobenchError

LINE = re.compile(
    r"^    (?P<rails>(?:[│ ]   )*)(?:[├└]── )?(?P<name>\w+) +(?P<http>\d{3}|\*) +(?P<exit>\d)"
    r" +(?P<module>[\w.]+)$"
)


@dataclass(frozen=True, slots=True)
class Drawn:
    name: str
    module: str
    parent: str
    http: str
    exit: int


def _import_everything() -> None:
    for found in pkgutil.walk_packages(dittobench.__path__, "dittobench."):
        if not found.name.endswith("__main__"):
            importlib.import_module(found.name)


def _key(cls: type) -> str:
    return f"{cls.__module__.removeprefix('dittobench.')}.{cls.__qualname__}"


def parse(doc: str) -> dict[str, Drawn]:
    """The drawn classes by ``module.Name``: from the root's line to the first blank line."""
    lines = doc.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("    DittobenchError "))
    drawn: dict[str, Drawn] = {}
    stack: list[str] = []
    for line in lines[start:]:
        if not line.strip():
            break
        match = LINE.match(line)
        assert match, f"not a line of the tree: {line!r}"
        depth = len(match["rails"]) // 4 + (0 if line.startswith("    DittobenchError") else 1)
        assert depth <= len(stack), f"{match['name']}: indented past its parent"
        del stack[depth:]
        key = f"{match['module']}.{match['name']}"
        assert key not in drawn, f"{key} is drawn twice"
        parent = stack[-1] if stack else ""
        http, exit_code = match["http"], int(match["exit"])
        drawn[key] = Drawn(match["name"], match["module"], parent, http, exit_code)
        stack.append(key)
    return drawn


def actual() -> dict[str, type[DittobenchError]]:
    """Every class under the root, after importing every module of the package."""
    _import_everything()
    found: dict[str, type[DittobenchError]] = {_key(DittobenchError): DittobenchError}
    todo = [DittobenchError]
    while todo:
        for sub in todo.pop().__subclasses__():
            if _key(sub) not in found:
                found[_key(sub)] = sub
                todo.append(sub)
    return found


def _parent(cls: type[DittobenchError]) -> str:
    """The nearest base that is a ``DittobenchError`` (the one the tree hangs it under)."""
    if cls is DittobenchError:
        return ""
    base = next(b for b in cls.__bases__ if issubclass(b, DittobenchError))
    return _key(base)


def test_the_drawing_lists_exactly_the_error_classes() -> None:
    drawn = parse(errors.__doc__ or "")
    found = actual()
    assert sorted(set(found) - set(drawn)) == [], "error classes missing from core/errors.py"
    assert sorted(set(drawn) - set(found)) == [], "drawn classes that do not exist"


def test_each_class_hangs_under_its_parent_with_its_status_and_exit_code() -> None:
    drawn = parse(errors.__doc__ or "")
    for key, cls in actual().items():
        line = drawn[key]
        assert line.parent == _parent(cls), key
        assert line.exit == cls.exit_code, key
        if line.http == "*":  # the status is an argument of every raise
            assert "status" in inspect.signature(cls.__init__).parameters, key
        else:
            assert int(line.http) == cls.http_status, key


def test_statuses_are_error_statuses() -> None:
    for key, cls in actual().items():
        assert 400 <= cls.http_status <= 599, key
        assert cls.exit_code in (1, 2), key


def test_a_class_left_out_of_the_drawing_is_found() -> None:
    doc = errors.__doc__ or ""
    without = "\n".join(line for line in doc.splitlines() if " SeedError " not in line)
    assert set(actual()) - set(parse(without)) == {"core.prng.SeedError"}


@pytest.mark.parametrize(
    ("drawing", "said"),
    [
        ("    DittobenchError  500  2  core.errors\n    ├── Stray 400 2\n", "not a line"),
        (
            "    DittobenchError  500  2  core.errors\n    │   └── Orphan  400  2  x.y\n",
            "indented past its parent",
        ),
        (
            "    DittobenchError  500  2  core.errors\n"
            "    ├── A  400  2  x\n"
            "    └── A  400  2  x\n",
            "drawn twice",
        ),
    ],
)
def test_a_malformed_drawing_is_refused(drawing: str, said: str) -> None:
    with pytest.raises(AssertionError, match=said):
        parse("the tree::\n\n" + drawing + "\nafter\n")
