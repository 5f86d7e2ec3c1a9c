"""``dittobench pack``: make, check and commit to content packs (docs/packs.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dittobench.cli.common import command_group, fail, open_pack_option, open_pack_or_id
from dittobench.spec.versions import CURRENT_VERSION, BenchPolicy, UnknownVersionError, get_policy

CURRENT_PACK = get_policy().pack_id

if TYPE_CHECKING:
    from dittobench.packs import Pack

pack_app = command_group(
    "pack",
    "Content packs: every word a dataset is made of, as data.\n\n"
    "The flow for a sealed scoring window: `pack new DIR` copies the public pack to edit; "
    "`pack lint DIR` checks it; `pack hash DIR` prints the commitment to publish before the "
    "window; `run --pack DIR` scores with it; after the window, publish DIR and anyone "
    "regenerates every dataset (`generate --pack DIR`) and checks every receipt "
    "(`verify RECEIPT --regrade --pack DIR`).",
)

FolderArg = Annotated[Path, typer.Argument(help="The pack's folder.", show_default=False)]


@pack_app.command("new")
def pack_new(
    folder: FolderArg,
    source: Annotated[
        str,
        typer.Option(
            "--from", help="Shipped pack to copy (see `pack list`); default: the current version's."
        ),
    ] = CURRENT_PACK,
    pack_id: Annotated[
        str | None,
        typer.Option(
            "--id", help="The new pack's id; default: the folder's name.", show_default=False
        ),
    ] = None,
) -> None:
    """Copy a shipped pack into FOLDER (which must not exist or be empty), under a new id."""
    from dittobench.packs import PackError, public_pack

    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise fail(f"{folder} exists and is not an empty folder; choose a new one")
    try:
        origin = public_pack(source)
    except PackError as exc:
        raise fail(str(exc)) from None
    new_id = pack_id or folder.resolve().name.lower()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name in origin.files:
            data = origin.file(name)
            if name == "pack":
                data = {**data, "pack_id": new_id, "title": f"{new_id} (from {origin.pack_id})"}
            text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
            (folder / f"{name}.json").write_text(text, encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write {folder}: {exc.strerror}") from None
    _open(folder)  # the id must be one a pack may carry
    typer.echo(
        f"wrote pack {new_id!r} to {folder} (from {origin.pack_id}); edit it, then "
        f"`dittobench pack lint {folder}`",
        err=True,
    )


@pack_app.command("lint")
def pack_lint(
    folder: FolderArg,
    bench_version: Annotated[
        str,
        typer.Option(
            "--bench-version",
            help="The version the pack is for: its content rules apply (from 6.1.0, look-alikes "
            "that hold a statement's words or frames no fact is said in are refused).",
        ),
    ] = CURRENT_VERSION,
) -> None:
    """Check a pack: schema, symbols, trigger words, value classes, answers inside questions,
    question/statement word overlap and (from bench 6.1.0) look-alikes that must be read. Prints
    each problem with its file and key; exit 1 if any."""
    from dittobench.generate.lint import lint_pack

    pack = _open(folder)
    problems = lint_pack(pack, _policy(bench_version).content)
    for problem in problems:
        typer.echo(f"{folder}/{problem}")
    if problems:
        typer.echo(f"{len(problems)} problem(s) in pack {pack.pack_id!r}", err=True)
        raise typer.Exit(code=1)
    typer.echo(f"ok: pack {pack.pack_id!r} passes every check (sha256 {pack.sha256})", err=True)


@pack_app.command("hash")
def pack_hash(folder: FolderArg) -> None:
    """Print the pack's SHA-256 and id: the commitment to publish before a scoring window. It
    is the SHA-256 of the RFC 8785 bytes of the parsed files, so reformatting changes nothing."""
    pack = _open(folder)
    typer.echo(f"{pack.sha256}  {pack.pack_id}")


@pack_app.command("list")
def pack_list() -> None:
    """The packs shipped in this build, with their SHA-256."""
    from dittobench.packs import public_pack, public_pack_ids

    for pack_id in public_pack_ids():
        typer.echo(f"{public_pack(pack_id).sha256}  {pack_id}")


def _policy(version: str) -> BenchPolicy:
    try:
        return get_policy(version)
    except UnknownVersionError as exc:
        raise fail(str(exc)) from None


def _open(folder: Path) -> Pack:
    pack = open_pack_option(folder)
    if pack is None:  # pragma: no cover (a folder was given)
        raise fail("no pack folder given")
    return pack


@pack_app.command("distance")
def pack_distance_command(
    a: Annotated[
        str,
        typer.Argument(
            help="The pack compared against: a folder or a shipped pack id.", metavar="A"
        ),
    ],
    b: Annotated[
        str,
        typer.Argument(
            help="The pack whose wording is looked for in A: a folder or an id.", metavar="B"
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """How much of B's wording occurs in A (docs/packs.md, "Distance").

    Per grammar family (statements, lookalikes, questions, tools, chatter): the share of B's
    frames (alternatives with #symbols# and {slots} abstracted) found verbatim in A, and of B's
    word 3-grams and 5-grams; then the share of B's value-pool values and coined-value
    vocabulary in A; and a summary, the mean of the family figures (1.0: everything of B is in
    A; near 0: nothing is). Not symmetric: swap A and B for the other direction."""
    from dittobench.packs import PackError
    from dittobench.packs.distance import NGRAMS, pack_distance

    first, second = open_pack_or_id(a), open_pack_or_id(b)
    try:
        result = pack_distance(first, second)
    except PackError as exc:
        raise fail(str(exc)) from None
    if as_json:
        typer.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
        return
    typer.echo(f"share of B's wording found in A\n  A: {result.a}\n  B: {result.b}\n")
    grams = "".join(f"{f'{n}-grams':>10}" for n in NGRAMS)
    typer.echo(f"{'family':<12}{'frames':>10}{grams}{'figure':>10}")
    for family in result.families:
        shares = "".join(f"{g.share:>10.3f}" for g in family.grams)
        typer.echo(f"{family.family:<12}{family.frames.share:>10.3f}{shares}{family.figure:>10.3f}")
    typer.echo(
        f"\n{'pools':<12}{result.pools.share:>10.3f}  ({result.pools.found}/"
        f"{result.pools.total} values)"
    )
    typer.echo(
        f"{'coin':<12}{result.coin.share:>10.3f}  ({result.coin.found}/{result.coin.total} items)"
    )
    typer.echo(f"{'summary':<12}{result.summary:>10.3f}")
