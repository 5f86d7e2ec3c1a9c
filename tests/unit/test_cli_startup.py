"""A command loads its own modules and what its work needs, nothing else: resolving `run`,
`serve` or `worker` imports that command's module, not the other commands', the service, the
pages (Jinja2), the study or receipt verification; a run stopped where its work starts has loaded
none of those either; httpx comes without its command-line client. Checked by which modules are
in ``sys.modules`` in a fresh interpreter (``benchmarks/cli_startup.py`` prints the costs)."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer

import dittobench.cli
from dittobench.cli.common import COMMANDS, LazyCommands, app
from dittobench.store import RunStore

NEVER_FOR_A_RUN = (
    "jinja2",
    "fastapi",
    "pydantic",
    "celery",
    "rich",
    "pygments",
    "dittobench.service",
    "dittobench.views.templating",
    "dittobench.study",
    "dittobench.receipts.verify",
)
"""Loaded by no command line of `run` (rich only on a terminal, for the bar)."""


LOADED = "sorted(name for name, module in sys.modules.items() if module is not None)"
"""The modules loaded (``None`` marks one declined, such as ``httpx._main``)."""


def _modules_after(code: str) -> list[str]:
    """The modules loaded once ``code`` ran in a fresh interpreter."""
    found = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport json, sys\nprint(json.dumps({LOADED}))"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    loaded: list[str] = json.loads(found.stdout.splitlines()[-1])
    return loaded


def _resolved(name: str) -> list[str]:
    return _modules_after(
        "import typer\n"
        "from dittobench.cli.app import app\n"
        "root = typer.main.get_command(app)\n"
        "with root.make_context('dittobench', [name := " + repr(name) + ", '--help'],"
        " resilient_parsing=True) as ctx:\n"
        "    assert root.get_command(ctx, name).name == name\n"
    )


def _within(loaded: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [m for m in loaded if any(m == p or m.startswith(p + ".") for p in prefixes)]


@pytest.mark.parametrize("name", ["run", "serve", "worker"])
def test_resolving_a_command_loads_its_own_module_only(name: str) -> None:
    loaded = _resolved(name)
    commands = {m for m in loaded if m.startswith("dittobench.cli.")}
    own = set(COMMANDS[name])
    assert own <= commands
    others = {m for modules in COMMANDS.values() for m in modules} - own - {"dittobench.cli.app"}
    assert not commands & others, f"`{name}` loaded other commands' modules"
    assert not _within(loaded, (*NEVER_FOR_A_RUN, "sqlalchemy", "httpx", "dittobench.engine"))


def test_a_run_loads_none_of_the_service_pages_or_study_before_its_work(tmp_path: Path) -> None:
    # `run` to the call of drive.runs.drive_run: options checked, store open, key read. The
    # store exists already (a new one is migrated by alembic, which brings mako and pygments).
    RunStore(RunStore.sqlite_url(tmp_path / "runs.db")).close()
    stop = (
        "import importlib.abc, importlib.util, os, sys\n"
        "class Stop(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name != 'dittobench.drive.runs':\n"
        "            return None\n"
        "        sys.meta_path.remove(self)\n"
        "        spec = importlib.util.find_spec(name)\n"
        "        load = spec.loader.exec_module\n"
        "        def exec_module(module):\n"
        "            load(module)\n"
        "            def drive_run(*args, **kwargs):\n"
        f"                print(json.dumps({LOADED}))\n"
        "                sys.stdout.flush()\n"
        "                os._exit(0)\n"
        "            module.drive_run = drive_run\n"
        "        spec.loader.exec_module = exec_module\n"
        "        return spec\n"
        "import json\n"
        "sys.meta_path.insert(0, Stop())\n"
        f"sys.argv = ['dittobench', 'run', '--harness', 'http://127.0.0.1:9', '--seed', '1',"
        f" '--db', {str(tmp_path / 'runs.db')!r}, '--out-dir', {str(tmp_path / 'runs')!r},"
        f" '--key', {str(_key(tmp_path))!r}]\n"
        "from dittobench.cli.app import main\n"
        "main()\n"
    )
    found = subprocess.run(
        [sys.executable, "-c", stop], capture_output=True, text=True, timeout=120, check=True
    )
    loaded: list[str] = json.loads(found.stdout.splitlines()[-1])
    assert "dittobench.engine.runner" in loaded and "sqlalchemy" in loaded  # the run was reached
    assert not _within(loaded, NEVER_FOR_A_RUN)
    assert not _within(loaded, ("dittobench.sandbox",))  # only a run from a source archive
    own = ("app", "common", "inputs", "places", "progress", "running")
    assert [m for m in loaded if m.startswith("dittobench.cli.")] == [
        f"dittobench.cli.{m}" for m in own
    ]


def _key(folder: Path) -> Path:
    from dittobench.receipts.keys import PRIVATE_KEY_NAME, generate_private_key, save_keypair

    save_keypair(generate_private_key(), folder / "keys")
    return folder / "keys" / PRIVATE_KEY_NAME


def test_httpx_comes_without_its_command_line_client() -> None:
    loaded = _modules_after("import dittobench.cli.app, httpx")
    assert "httpx" in loaded
    assert not _within(loaded, ("httpx._main", "rich", "pygments", "click"))


def test_the_command_table_names_every_command_in_help_order() -> None:
    for module in pkgutil.iter_modules(dittobench.cli.__path__, "dittobench.cli."):
        __import__(module.name)
    registered = [
        info.name or typer.main.get_command_name(info.callback.__name__)
        for info in app.registered_commands
        if info.callback is not None
    ] + [str(group.name) for group in app.registered_groups]
    assert sorted(registered) == sorted(COMMANDS)  # a command missing from the table fails here
    root = typer.main.get_command(app)
    assert isinstance(root, typer.core.TyperGroup)
    with root.make_context("dittobench", ["--help"], resilient_parsing=True) as ctx:
        assert root.list_commands(ctx) == list(COMMANDS)
        built = {name: root.get_command(ctx, name) for name in COMMANDS}
    assert all(command is not None and command.name == n for n, command in built.items())
    modules = {m for names in COMMANDS.values() for m in names}
    assert modules <= set(sys.modules)


def test_lazy_commands_build_on_lookup_and_keep_any_registered_elsewhere() -> None:
    extra = typer.main.get_command_from_info(
        typer.models.CommandInfo(name="extra", callback=lambda: None),
        pretty_exceptions_short=True,
        rich_markup_mode=None,
    )
    commands = LazyCommands({"extra": extra})
    assert list(commands) == [*COMMANDS, "extra"] and len(commands) == len(COMMANDS) + 1
    assert commands["extra"] is extra and "run" in commands
    assert commands.get("no-such-command") is None
    assert commands["generate"].name == "generate"
    del commands["extra"]
    assert "extra" not in commands and list(commands) == list(COMMANDS)
