"""Everything a user can name is documented: every CLI command and subcommand in README.md or
docs/*.md, every service setting in docs/service.md or docs/deploy.md, every bench version in
docs/bench-versions.md, every memory question type in docs/memory.md or docs/grading.md, and
every answer kind and grade reason code in docs/grading.md."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import typer
from typer.core import TyperGroup

import dittobench.cli.app  # noqa: F401 - importing it registers every command on the app
from dittobench.cli.common import app
from dittobench.grade.memory import REASONS as MEMORY_REASONS
from dittobench.service.settings import ServiceSettings
from dittobench.spec.memory import ANSWER_KINDS, QUESTION_TYPES
from dittobench.spec.versions import POLICIES

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TOOL_GRADER = ROOT / "src" / "dittobench" / "grade" / "tools.py"


def _text(*names: str) -> str:
    return "\n".join((DOCS / name).read_text(encoding="utf-8") for name in names)


def _all_docs() -> str:
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    return "\n".join(page.read_text(encoding="utf-8") for page in pages)


def _quoted(text: str) -> set[str]:
    """Every name written as code (between backticks) in ``text``."""
    return set(re.findall(r"`([^`\n]+)`", text))


def _commands(group: TyperGroup, prefix: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The path of every command and subcommand under ``group``, hidden ones left out."""
    for name, command in sorted(group.commands.items()):
        if command.hidden:
            continue
        path = (*prefix, name)
        yield path
        if isinstance(command, TyperGroup):
            yield from _commands(command, path)


def _tool_reasons() -> set[str]:
    """The reasons the tool grader emits: the strings it assigns to ``reason``, returns beside
    a score, or passes to ``ToolVerdict``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(TOOL_GRADER.read_text(encoding="utf-8"))):
        value: ast.AST | None = None
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "reason" for t in targets):
                value = node.value
        elif isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple):
            value = node.value
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ToolVerdict":
            value = node
        if value is not None:
            found |= {
                n.value
                for n in ast.walk(value)
                if isinstance(n, ast.Constant) and isinstance(n.value, str)
            }
    return found - {""}


def test_every_command_and_subcommand_is_named_in_the_docs() -> None:
    root = typer.main.get_command(app)
    assert isinstance(root, TyperGroup)
    paths = list(_commands(root))
    assert ("run",) in paths and ("harness", "serve") in paths  # the walk sees subcommands
    text = re.sub(r"\s+", " ", _all_docs())
    missing = [" ".join(p) for p in paths if f"dittobench {' '.join(p)}" not in text]
    assert not missing, f"README.md and docs/*.md never name `dittobench <command>`: {missing}"


def test_every_service_setting_is_documented() -> None:
    quoted = _quoted(_text("service.md", "deploy.md"))
    names = sorted(ServiceSettings.model_fields)
    assert "judge_url" in names  # the settings are read
    missing = [n for n in names if n not in quoted and f"DITTOBENCH_{n.upper()}" not in quoted]
    assert not missing, f"docs/service.md and docs/deploy.md never name the settings {missing}"


def test_every_bench_version_is_documented() -> None:
    text = _text("bench-versions.md")
    missing = [v for v in POLICIES if not re.search(rf"(?<![\d.]){re.escape(v)}(?![\d])", text)]
    assert not missing, f"docs/bench-versions.md never names the versions {missing}"


def test_every_question_type_and_answer_kind_is_documented() -> None:
    types = [t for t in QUESTION_TYPES if t not in _quoted(_text("memory.md", "grading.md"))]
    assert not types, f"docs/memory.md and docs/grading.md never name the question types {types}"
    grading = _text("grading.md")
    kinds = [k for k in ANSWER_KINDS if not re.search(rf"(`|\| ){k}(`| \|)", grading)]
    assert not kinds, f"docs/grading.md never names the answer kinds {kinds}"


def test_every_reason_code_the_grader_emits_is_documented() -> None:
    tools = _tool_reasons()
    assert {"no_call", "wrong_tools", "arguments", "decoy_figure"} <= tools  # the scan works
    quoted = _quoted(_text("grading.md"))
    missing = sorted(r for r in tools | set(MEMORY_REASONS) if r not in quoted)
    assert not missing, f"docs/grading.md never names the reason codes {missing}"
