"""The layering check sees the whole tree: every folder under src/ is a regular package, every
module a contract names exists, and a forbidden import planted anywhere breaks a contract."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
PACKAGES = sorted(
    p.parent for p in SRC.rglob("*.py") if "__pycache__" not in p.parts and p.parent != SRC
)


def _folders() -> list[Path]:
    return sorted(set(PACKAGES))


def test_every_folder_under_src_is_a_regular_package() -> None:
    missing = [str(f.relative_to(ROOT)) for f in _folders() if not (f / "__init__.py").exists()]
    assert not missing, f"no __init__.py (import-linter cannot see them): {missing}"


def _contract_modules() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    names: set[str] = set()
    for contract in config["tool"]["importlinter"]["contracts"]:
        for key in ("layers", "source_modules", "forbidden_modules"):
            for entry in contract.get(key, []):
                names.update(part.strip() for part in entry.split("|"))
    return {n for n in names if n.startswith("dittobench")}


def test_every_module_a_contract_names_exists() -> None:
    missing = sorted(n for n in _contract_modules() if importlib.util.find_spec(n) is None)
    assert not missing


def _probe_target(package: Path) -> tuple[Path, str]:
    """A module of ``package`` and an import it must not make."""
    module = next(p for p in sorted(package.glob("*.py")) if p.name != "__init__.py")
    dotted = ".".join(package.relative_to(SRC).parts)
    if dotted.startswith("dittobench_baseline"):
        return module, "dittobench.grade.match"
    return module, "dittobench.cli.app"


PROBED = [
    p
    for p in _folders()
    if any(q.name != "__init__.py" for q in p.glob("*.py"))
    and ".".join(p.relative_to(SRC).parts) not in ("dittobench", "dittobench.cli")
]


@pytest.mark.slow
@pytest.mark.parametrize("package", PROBED, ids=lambda p: ".".join(p.relative_to(SRC).parts))
def test_a_forbidden_import_anywhere_breaks_a_contract(package: Path, tmp_path: Path) -> None:
    shutil.copytree(SRC, tmp_path / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    module, forbidden = _probe_target(package)
    planted = tmp_path / "src" / module.relative_to(SRC)
    planted.write_text(planted.read_text(encoding="utf-8") + f"\nimport {forbidden}\n")
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run(
        [str(lint), str(tmp_path / "pyproject.toml"), "--no-cache"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "src")},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0, f"{module.relative_to(SRC)} may import {forbidden} unnoticed"
    assert "BROKEN" in result.stdout


MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60


def test_no_module_or_function_outgrows_one_concept() -> None:
    import ast

    too_long = []
    for path in sorted(SRC.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        if text.count("\n") > MAX_MODULE_LINES:
            too_long.append(f"{where}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_long.append(f"{where}:{node.lineno} {node.name}: {length} lines")
    assert not too_long
