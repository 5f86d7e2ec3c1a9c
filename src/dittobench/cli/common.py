"""What every command shares: the typer app, run-size choices and the exit-2 error."""

from __future__ import annotations

import sys
from enum import StrEnum

import typer

app = typer.Typer(
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


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr and build the exit-2 error to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code=2)
