"""One error root: every error dittobench raises on purpose is a ``DittobenchError`` (with the
exit code the command line uses), and the command line turns one into a one-line message."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import subprocess
import sys

import dittobench
from dittobench.core.errors import DittobenchError


def _modules() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(dittobench.__path__, "dittobench.")]
    return [n for n in names if not n.endswith("__main__")]


def test_every_public_error_class_has_the_root() -> None:
    strays = []
    for name in _modules():
        module = importlib.import_module(name)
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name or cls_name.startswith("_"):
                continue
            if issubclass(cls, BaseException) and not issubclass(cls, DittobenchError):
                strays.append(f"{name}.{cls_name}")
    assert not strays


def test_exit_codes_say_bad_input_or_failed_run() -> None:
    from dittobench.core.prng import SeedError
    from dittobench.engine.client import HarnessError
    from dittobench.engine.runner import RunError
    from dittobench.spec.codec import DecodeError
    from dittobench.store import StoreError

    assert {SeedError.exit_code, DecodeError.exit_code, StoreError.exit_code} == {2}
    assert HarnessError.exit_code == RunError.exit_code == 1
    assert issubclass(DecodeError, ValueError)  # callers catching the old base still work


def test_the_command_line_prints_a_library_error_as_one_line() -> None:
    # A receipt whose manifest names an impossible seed: the library's own error, caught once.
    code = (
        "import sys\n"
        "from dittobench.cli.app import app, main\n"
        "from dittobench.core.prng import parse_seed\n"
        "@app.command('boom')\n"
        "def boom() -> None:\n"
        "    parse_seed('007')\n"
        "sys.argv = ['dittobench', 'boom']\n"
        "main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2
    assert result.stderr.startswith("error: expected a seed as decimal digits")
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
