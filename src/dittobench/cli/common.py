"""What every command shares: the typer app, run-size choices and the exit-2 error.

The app's commands are listed in ``COMMANDS`` with the modules that define them; a module is
imported the first time its command is looked up, so ``dittobench run`` loads the ``run`` module
and none of the other commands' (``--help`` still loads them all, to print every summary).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator, Mapping, MutableMapping
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer
from typer.core import TyperGroup

if TYPE_CHECKING:
    from typer._click import Command, Context

    from dittobench.packs import Pack

COMMANDS: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType(
    {
        "generate": ("dittobench.cli.app",),
        "grade": ("dittobench.cli.app",),
        "audit": ("dittobench.cli.app",),
        "blind": ("dittobench.cli.blinding",),
        "replay": ("dittobench.cli.blinding",),
        "run": ("dittobench.cli.running",),
        "export": ("dittobench.cli.exporting",),
        "verify": ("dittobench.cli.receipting",),
        "serve": ("dittobench.cli.serving",),
        "runs": ("dittobench.cli.stored",),
        "show": ("dittobench.cli.stored",),
        "study": ("dittobench.cli.studying",),
        "verify-suite": ("dittobench.cli.suites",),
        "report": ("dittobench.cli.viewing",),
        "compare": ("dittobench.cli.viewing",),
        "worker": ("dittobench.cli.working",),
        "harness": ("dittobench.cli.baseline", "dittobench.cli.checking"),
        "db": ("dittobench.cli.database",),
        "external": ("dittobench.cli.external",),
        "pack": ("dittobench.cli.packing",),
        "keys": ("dittobench.cli.receipting",),
        "receipt": ("dittobench.cli.receipting",),
    }
)
"""Every command and group of commands, in the order ``--help`` lists them, and the modules that
register it on ``app`` (a group's subcommands may come from several). A new command is a module
that registers it and its line here."""


class LazyCommands(MutableMapping[str, "Command"]):
    """The app's commands by name, in ``COMMANDS`` order (then any registered elsewhere, such as
    a test's). A command is built the first time it is looked up, after importing its modules:
    running one command loads only its own. Listing the values (``--help``) builds them all."""

    def __init__(self, built: Mapping[str, Command]) -> None:
        self._built = dict(built)
        self._names = [*COMMANDS, *(name for name in built if name not in COMMANDS)]

    def __getitem__(self, name: str) -> Command:
        if name not in self._built:
            if name not in self._names:
                raise KeyError(name)
            self._built[name] = _build(name)
        return self._built[name]

    def __setitem__(self, name: str, command: Command) -> None:
        if name not in self._names:
            self._names.append(name)
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        self._names.remove(name)
        self._built.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def __len__(self) -> int:
        return len(self._names)

    def __contains__(self, name: object) -> bool:
        return name in self._names


def _build(name: str) -> Command:
    """Command ``name`` of ``app`` as typer builds it, once its modules have registered it."""
    for module in COMMANDS[name]:
        importlib.import_module(module)
    short, markup = app.pretty_exceptions_short, app.rich_markup_mode
    for info in app.registered_commands:
        callback = info.callback
        own = info.name or (typer.main.get_command_name(callback.__name__) if callback else "")
        if own == name:
            return typer.main.get_command_from_info(
                info, pretty_exceptions_short=short, rich_markup_mode=markup
            )
    for group in app.registered_groups:
        if group.name == name:
            return typer.main.get_group_from_info(
                group,
                pretty_exceptions_short=short,
                rich_markup_mode=markup,
                suggest_commands=app.suggest_commands,
            )
    raise LookupError(f"command {name!r}: not registered by {', '.join(COMMANDS[name])}")


class LazyGroup(TyperGroup):
    """The root command group, its commands a ``LazyCommands``."""

    def __init__(self, *, commands: Mapping[str, Command] | None = None, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = LazyCommands(commands or {})

    def list_commands(self, ctx: Context) -> list[str]:
        """The names alone, none of them built."""
        return list(self.commands)


app = typer.Typer(
    cls=LazyGroup,
    name="dittobench",
    help=(
        "An open, reproducible, judge-free benchmark for memory assistants.\n\n"
        "Every dataset is a pure function of (seed, bench version, run size): anyone can rebuild "
        "the exact cases a score was graded against."
    ),
    no_args_is_help=True,
    add_completion=False,
    # Boxes and colours on a terminal; plain lines when piped or in CI.
    rich_markup_mode="rich" if sys.stderr.isatty() else None,
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """An open, reproducible, judge-free benchmark for memory assistants."""


def command_group(name: str, help: str) -> typer.Typer:
    """A group of subcommands (``dittobench NAME ...``) that looks and behaves like the app."""
    group = typer.Typer(
        name=name,
        help=help,
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=app.rich_markup_mode,
        pretty_exceptions_enable=False,
    )
    app.add_typer(group, name=name)
    return group


class RunSizeName(StrEnum):
    small = "small"
    medium = "medium"
    full = "full"
    long = "long"


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr and build the exit-2 error to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code=2)


PACK_HELP = (
    "Content pack folder to take every word from (see `dittobench pack --help`); "
    "default: the bench version's own public pack."
)


def open_pack_option(folder: Path | None) -> Pack | None:
    """The pack a ``--pack`` option names (``None`` when not given); exit 2 naming the file and
    key at fault when it cannot be read."""
    if folder is None:
        return None
    from dittobench.packs import PackError, load_pack

    try:
        pack = load_pack(folder)
        pack.sha256  # noqa: B018 (reads and hashes every file now, so errors surface here)
    except PackError as exc:
        raise fail(str(exc)) from None
    return pack


def open_pack_or_id(name: str) -> Pack:
    """A pack folder, or a shipped pack's id when no such folder exists; exit 2 naming what is
    wrong otherwise."""
    from dittobench.packs import PackError, public_pack, public_pack_ids

    folder = Path(name)
    if folder.exists():
        pack = open_pack_option(folder)
        assert pack is not None
        return pack
    if name not in public_pack_ids():
        raise fail(
            f"{name}: no such pack folder, and no shipped pack of that id "
            f"(shipped: {', '.join(public_pack_ids())})"
        )
    try:
        return public_pack(name)
    except PackError as exc:  # pragma: no cover (the id was listed)
        raise fail(str(exc)) from None


def warn_if_draft(bench_version: str) -> None:
    """Say on stderr when a draft bench version is used: its datasets may still change."""
    from dittobench.spec.versions import POLICIES

    policy = POLICIES.get(bench_version)
    if policy is not None and policy.draft:
        typer.echo(
            f"warning: bench {bench_version} is a draft: its datasets may change before it is "
            "released; do not publish its scores",
            err=True,
        )


JudgeUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--judge-url",
        help="An OpenAI-compatible endpoint (ending before /chat/completions) that judges the "
        "open questions for the nuance score; its key, if any, from $DITTOBENCH_JUDGE_KEY. "
        "Without it the nuance score is left unjudged (docs/judge.md).",
        show_default=False,
    ),
]
TrustedKeysOpt = Annotated[
    Path | None,
    typer.Option(
        "--trusted-keys",
        help="Trusted-keys JSON (a service's GET /v1/keys, or `dittobench keys show`, its last "
        "line or its whole --json output): the signer must be listed, valid at created_at. Or "
        "a key's PEM file (e.g. keys/dittobench-ed25519.pub.pem beside a --db store), trusted "
        "for every receipt it signed. This installation's own key is always trusted.",
        dir_okay=False,
    ),
]
"""``verify``'s trusted keys, the same for a run's receipt, an external run's and a suite's."""
KeysUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--keys-url",
        metavar="URL",
        help="Trust the keys a service serves: its GET /v1/keys (or a base URL, which gets "
        "/v1/keys), fetched with a timeout and a size cap.",
        show_default=False,
    ),
]
AnyKeyOpt = Annotated[
    bool,
    typer.Option(
        "--any-key",
        help="Check integrity only, with the key the receipt carries: whoever signed it is NOT "
        "checked, and the verdict says so.",
    ),
]

JudgeModelOpt = Annotated[
    str,
    typer.Option(
        "--judge-model",
        help="Judge with this model instead of the version's locked one: the nuance score is "
        "then marked unofficial in the report, the receipt and the pages.",
    ),
]
