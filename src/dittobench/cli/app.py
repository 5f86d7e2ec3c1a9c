"""The ``dittobench`` command line: thin commands over the library.

Configuration is read here, at the edge, and passed down; library code reads no environment.
"""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from dittobench.spec.versions import CURRENT_VERSION

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


class RunSizeName(StrEnum):
    small = "small"
    medium = "medium"
    full = "full"


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code=2)


@app.command()
def generate(
    seed: Annotated[
        int | None,
        typer.Option(
            help="Dataset seed, 0 to 2**63-1. Omit it to draw a fresh one (printed on stderr).",
            show_default=False,
        ),
    ] = None,
    run_size: Annotated[
        RunSizeName, typer.Option("--run-size", help="How many cases: small, medium or full.")
    ] = RunSizeName.small,
    bench_version: Annotated[
        str, typer.Option("--bench-version", help="Bench version whose rules build the dataset.")
    ] = CURRENT_VERSION,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Write the dataset here instead of stdout.", dir_okay=False, writable=True
        ),
    ] = None,
    sha: Annotated[
        bool, typer.Option("--sha", help="Print only the dataset's SHA-256 (dataset_sha256).")
    ] = False,
) -> None:
    """Write the canonical dataset JSON for a seed (answer keys included).

    The bytes written are the RFC 8785 canonical form, so `sha256sum` of the file equals the
    dataset_sha256 that reports and receipts record.
    """
    from dittobench.core.canonical import canonical_bytes
    from dittobench.core.hashing import sha256_hex
    from dittobench.core.prng import MAX_SEED, SeedError
    from dittobench.generate.assemble import build_dataset
    from dittobench.spec.versions import UnknownRunSizeError, UnknownVersionError

    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
        typer.echo(f"seed: {seed}", err=True)
    try:
        dataset = build_dataset(seed, bench_version, run_size.value)
    except SeedError:
        raise _fail(f"--seed must be an integer from 0 to {MAX_SEED}, got {seed}") from None
    except (UnknownVersionError, UnknownRunSizeError) as exc:
        raise _fail(str(exc)) from None
    data = canonical_bytes(dataset.to_json())
    if sha:
        typer.echo(sha256_hex(data))
        if out is None:
            return
    if out is not None:
        try:
            out.write_bytes(data)
        except OSError as exc:
            raise _fail(f"cannot write {out}: {exc.strerror}") from None
        if not sha:
            typer.echo(f"wrote {out} ({len(data):,} bytes, sha256 {sha256_hex(data)})", err=True)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


def main() -> None:
    """Console-script entry point."""
    app()
