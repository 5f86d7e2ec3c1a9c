"""What every command shares: the typer app, run-size choices and the exit-2 error."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from dittobench.packs import Pack

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
        help="Trusted-keys JSON (a service's GET /v1/keys, or `dittobench keys show`): the "
        "signer must be listed, valid at created_at. This installation's own key is always "
        "trusted.",
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
