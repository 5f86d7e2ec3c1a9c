"""The layout a submitted Python harness follows (docs/service.md, "Source archives").

At the archive's root (or inside its single top-level folder):

- ``dittobench-harness.toml`` with ``[harness] command = ["python", "server.py", "--port",
  "{port}"]``: how to start it, run from the archive's folder with the build's ``python`` first
  on ``PATH``; ``{port}`` (and the environment variable ``PORT``) is the loopback port it must
  serve the harness protocol on;
- its dependencies in ``requirements.txt`` or ``pyproject.toml`` (``[project] dependencies``),
  or neither when it needs none.

Requirements are names with version specifiers only (``httpx>=0.27``, ``pydantic[email]==2.*``):
no URLs, paths, ``-r``/``--index-url`` or other options, no environment markers. So the build,
which installs wheels only from the operator's index, runs no code of the submitter's and dials
nothing the submitter picked.

Reading all this costs little whatever the archive holds: ``requirements.txt`` is at most
``MAX_REQUIREMENTS_BYTES``, each requirement at most ``MAX_REQUIREMENT_CHARS`` (checked before
any pattern runs), ``REQUIREMENT`` is linear (possessive repeats only: ``re`` holds the GIL, so
a backtracking pattern on one line could stall the whole service), and the TOML files are read
through ``tomlcheck``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dittobench.sandbox import ArchiveError
from dittobench.sandbox.archive import Archive
from dittobench.sandbox.tomlcheck import load_toml, utf8

MANIFEST = "dittobench-harness.toml"
MAX_REQUIREMENTS = 200
MAX_COMMAND_ITEMS = 64
MAX_ITEM_CHARS = 1024
MAX_REQUIREMENTS_BYTES = 64 * 1024
MAX_REQUIREMENT_CHARS = 256
# Every repeat is possessive and is followed by what it cannot match, so nothing backtracks.
_SPEC = r"(?>==|!=|<=|>=|~=|<|>)\s*+[A-Za-z0-9.*+!_-]++\s*+"
REQUIREMENT = re.compile(
    r"[A-Za-z0-9](?:[A-Za-z0-9._-]*+(?<![._-]))?"  # the name (PEP 508): ends alphanumeric
    r"(?:\[[A-Za-z0-9._-]++(?:\s*+,\s*+[A-Za-z0-9._-]++)*+\])?"  # extras
    rf"\s*+(?:{_SPEC}(?:,\s*+{_SPEC})*+)?"  # version specifiers
)


@dataclass(frozen=True, slots=True)
class Layout:
    """What the archive says: the start command (``{port}`` not yet filled) and the
    requirements to install (checked lines)."""

    command: tuple[str, ...]
    requirements: tuple[str, ...]


def read_layout(archive: Archive) -> Layout:
    """The archive's layout; ``ArchiveError`` naming the file and the line when it is wrong."""
    raw = archive.files.get(MANIFEST)
    if raw is None:
        raise ArchiveError(
            f"the archive has no {MANIFEST} at its root; it names the start command "
            '([harness] command = ["python", "server.py", "--port", "{port}"])'
        )
    command = _command(load_toml(raw, MANIFEST))
    if "requirements.txt" in archive.files:
        requirements = requirements_txt(archive.files["requirements.txt"])
    elif "pyproject.toml" in archive.files:
        requirements = pyproject_dependencies(archive.files["pyproject.toml"])
    else:
        requirements = ()
    return Layout(command, requirements)


def requirements_txt(raw: bytes) -> tuple[str, ...]:
    if len(raw) > MAX_REQUIREMENTS_BYTES:
        raise ArchiveError(
            f"requirements.txt: {len(raw)} bytes; at most {MAX_REQUIREMENTS_BYTES} are accepted"
        )
    lines = []
    for number, line in enumerate(utf8(raw, "requirements.txt").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            lines.append(check_requirement(line, f"requirements.txt line {number}"))
    return _capped(lines, "requirements.txt")


def pyproject_dependencies(raw: bytes) -> tuple[str, ...]:
    project = load_toml(raw, "pyproject.toml").get("project", {})
    deps = project.get("dependencies", []) if isinstance(project, dict) else None
    if not isinstance(deps, list) or not all(isinstance(d, str) for d in deps):
        raise ArchiveError("pyproject.toml: [project] dependencies must be a list of strings")
    checked = [check_requirement(d.strip(), f"pyproject.toml dependency {d[:60]!r}") for d in deps]
    return _capped(checked, "pyproject.toml")


def check_requirement(line: str, where: str) -> str:
    if len(line) > MAX_REQUIREMENT_CHARS:
        raise ArchiveError(
            f"{where}: {len(line)} characters ({line[:40]!r}…); a requirement is at most "
            f"{MAX_REQUIREMENT_CHARS}"
        )
    if not REQUIREMENT.fullmatch(line):
        raise ArchiveError(
            f"{where}: {line[:120]!r} is not a package name with version specifiers (URLs, "
            "paths, options and environment markers are not accepted)"
        )
    return line


def _command(manifest: dict[str, object]) -> tuple[str, ...]:
    harness = manifest.get("harness")
    command = harness.get("command") if isinstance(harness, dict) else None
    if (
        not isinstance(command, list)
        or not command
        or len(command) > MAX_COMMAND_ITEMS
        or not all(isinstance(c, str) and 0 < len(c) <= MAX_ITEM_CHARS for c in command)
    ):
        raise ArchiveError(
            f"{MANIFEST}: [harness] command must be a list of 1 to {MAX_COMMAND_ITEMS} "
            'non-empty strings, e.g. ["python", "server.py", "--port", "{port}"]'
        )
    if any("\x00" in c for c in command):
        raise ArchiveError(f"{MANIFEST}: [harness] command holds a NUL character")
    return tuple(command)


def _capped(lines: list[str], name: str) -> tuple[str, ...]:
    if len(lines) > MAX_REQUIREMENTS:
        raise ArchiveError(f"{name}: more than {MAX_REQUIREMENTS} requirements")
    return tuple(lines)


__all__ = [
    "MANIFEST",
    "Layout",
    "check_requirement",
    "pyproject_dependencies",
    "read_layout",
    "requirements_txt",
]
