"""``pack lint`` for bench 6.1 (``generate/lint_lookalikes.py``): look-alikes a reader has to
read. The public 6.1 pack passes; public-3.0, whose look-alikes wrap the statement, fails under
6.1's rules and passes under 6.0's; each class of wrapper is caught on a copy of public-6.1 that
brings it back: a look-alike reaching a statement symbol, one holding a statement's words, a
frame no fact is said in, and look-alikes never framed.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dittobench.generate.lint import lint_pack
from dittobench.packs import load_pack, public_pack
from dittobench.spec.versions import get_policy
from tests.helpers.cli import dittobench

NEW = get_policy("6.1.0").content
OLD = get_policy("6.0.0").content


def test_the_public_61_pack_passes_and_public_30_fails_only_under_61() -> None:
    assert lint_pack(public_pack("public-6.1"), NEW) == []
    assert lint_pack(public_pack("public-3.0"), OLD) == []
    problems = [str(p) for p in lint_pack(public_pack("public-3.0"), NEW)]
    wrapped = [p for p in problems if "must not wrap a statement: reaches #twin_claim#" in p]
    # every attribute with look-alikes wraps its claim there
    assert len(wrapped) >= 130
    assert any("is said only by look-alikes, never by a fact" in p for p in problems)


def _attribute(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(a for a in data["attributes"] if a["name"] == name)


def _wrap_claim(data: dict[str, Any]) -> None:
    _attribute(data, "home_city")["grammar"]["twin"].append("People think #twin_claim#.")


def _hold_wording(data: dict[str, Any]) -> None:
    _attribute(data, "home_city")["grammar"]["twin_not"].append("Nobody believes I live in {value}")


def _hold_wording_across_symbols(data: dict[str, Any]) -> None:
    grammar = _attribute(data, "home_city")["grammar"]
    grammar["twin_not"].append("#me# live in {value}")
    grammar["me"] = ["they think I"]


def _own_frame(data: dict[str, Any]) -> None:
    data["shared"]["said_not"].append("In my dreams, #twin_not#.")


def _never_framed(data: dict[str, Any]) -> None:
    _attribute(data, "home_city")["grammar"]["twin"] = ["#twin_not#.", "#twin_would#."]


def _aside_wraps(data: dict[str, Any]) -> None:
    _attribute(data, "suggested_novel")["grammar"]["suggest_aside"].append("Not #recommend#")


@pytest.mark.parametrize(
    ("change", "attribute", "message"),
    [
        (_wrap_claim, "home_city", "must not wrap a statement: reaches #twin_claim#"),
        (_hold_wording, "home_city", "holds the statement's wording 'i live in {value}'"),
        (_hold_wording_across_symbols, "home_city", "'i live in {value}'"),
        (_own_frame, "home_city", "frame 'In my dreams, #.' is said only by look-alikes"),
        (_never_framed, "home_city", "no look-alike is said in a frame"),
        (_aside_wraps, "suggested_novel", "reaches #recommend#"),
    ],
)
def test_each_kind_of_wrapper_is_refused(
    tmp_path: Path, change: Callable[[dict[str, Any]], None], attribute: str, message: str
) -> None:
    folder = tmp_path / "pack"
    shutil.copytree(public_pack("public-6.1").path, folder)
    path = folder / "attributes.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    problems = [str(p) for p in lint_pack(load_pack(folder), NEW)]
    assert any(f"attributes.{attribute}.grammar" in p and message in p for p in problems), problems
    assert lint_pack(load_pack(folder), OLD) == []


def test_pack_lint_takes_the_version_from_the_command_line() -> None:
    folder = str(public_pack("public-3.0").path)
    refused = dittobench("pack", "lint", folder, "--bench-version", "6.1.0")
    assert refused.returncode == 1
    assert "must not wrap a statement" in refused.stdout
    assert dittobench("pack", "lint", folder, "--bench-version", "6.0.0").returncode == 0
    unknown = dittobench("pack", "lint", folder, "--bench-version", "9.9.9")
    assert unknown.returncode != 0 and "unknown bench version '9.9.9'" in unknown.stderr
