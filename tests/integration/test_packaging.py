"""The distributions install cleanly: an sdist is built from the tree, a wheel from that sdist
(so the sdist holds everything a build needs), and the wheel is installed in a fresh virtual
environment, where the installed command makes the same dataset bytes, drives a small run against
the built-in harness (its packs and its harness ship in the wheel) and renders the run's page."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNREACHABLE = ("Could not find a version", "No matching distribution", "Network is unreachable")


def _run(*args: str | Path, cwd: Path | None = None, timeout: float = 600) -> str:
    done = subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0 and any(sign in done.stderr for sign in UNREACHABLE):
        pytest.skip(f"the package registry cannot be reached: {done.stderr.strip()[-300:]}")
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    _run(sys.executable, "-m", "build", "--outdir", out, ROOT)  # sdist, then a wheel from it
    return out


def test_the_sdist_and_the_wheel_hold_what_a_run_needs(dist: Path) -> None:
    (sdist,) = dist.glob("dittobench-*.tar.gz")
    (wheel,) = dist.glob("dittobench-*-py3-none-any.whl")
    with tarfile.open(sdist) as archive:
        in_sdist = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"pyproject.toml", "README.md", "src/dittobench/__init__.py"} <= in_sdist
    with zipfile.ZipFile(wheel) as archive:
        in_wheel = set(archive.namelist())
    for package in ("dittobench", "dittobench_baseline", "dittobench_adapters"):
        assert f"{package}/__init__.py" in in_wheel
    assert "dittobench/py.typed" in in_wheel
    packed = {name for name in in_wheel if name.startswith("dittobench/packs/")}
    assert any(name.endswith(".json") for name in packed), "the content packs' data files"
    assert not any(name.startswith(("tests/", "benchmarks/")) for name in in_wheel)


def test_the_wheel_installs_and_runs_in_a_fresh_environment(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("dittobench-*.whl")
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv)
    _run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel)
    command = venv / "bin" / "dittobench"
    assert "generate" in _run(command, "--help")
    installed = _run(command, "generate", "--seed", "42", "--run-size", "medium", "--sha")
    here = _run(sys.executable, "-m", "dittobench", "generate", "--seed", "42", "--run-size",
                "medium", "--sha")  # fmt: skip
    assert installed == here
    work = tmp_path / "work"
    work.mkdir()
    environment = {**os.environ, "HOME": str(work), "XDG_DATA_HOME": str(work / "data")}
    ran = subprocess.run(
        [str(command), "run", "--run-size", "small", "--seed", "42", "--db", "runs.db"],
        cwd=work, env=environment, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr[-3000:]
    run_id = next(line.split()[-1] for line in ran.stdout.splitlines() if line.startswith("run id"))
    page = work / "run.html"
    _run(command, "report", run_id, "--db", work / "runs.db", "--html", page, cwd=work)
    assert run_id in page.read_text(encoding="utf-8")
