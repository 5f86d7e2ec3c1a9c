"""`dittobench harness check URL`: probe a harness for conformance before a real run."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from dittobench.cli.baseline import harness_app
from dittobench.cli.common import fail
from dittobench.cli.inputs import BUILTIN
from dittobench.spec.versions import CURRENT_VERSION


@harness_app.command("check")
def harness_check(
    url: Annotated[
        str,
        typer.Argument(
            help="The harness base URL, e.g. http://127.0.0.1:8080, or `builtin` for the "
            "reference baseline started for the check."
        ),
    ],
    seed: Annotated[
        int | None, typer.Option(help="The probe dataset's seed; drawn fresh when omitted.")
    ] = None,
    bench_version: Annotated[str, typer.Option("--bench-version")] = CURRENT_VERSION,
    wait: Annotated[
        float, typer.Option(help="Seconds to wait for /health to answer 2xx.", min=0.1)
    ] = 30.0,
    case_timeout: Annotated[
        float, typer.Option("--case-timeout", help="Seconds per /run.", min=0.1)
    ] = 60.0,
    no_tools: Annotated[
        bool,
        typer.Option("--no-tools", help="A memory-only harness: skip the tool steps."),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="The steps as JSON on stdout.")] = False,
) -> None:
    """Check that a harness speaks the protocol (docs/protocol.md) before a real run.

    Steps, in order, stopping at the first failure: health (GET /health answers 2xx; what it
    declares), seed (POST /seed of a dataset's first wave), memory (one question answered),
    tool (tool cases answered) and tool endpoint (the harness called the tool endpoint it was
    given; never calling it is a warning: such a harness scores 0 on tool cases). Nothing is
    stored or scored. Exit 0 when no step fails, 1 naming the first failing step.
    """
    import asyncio

    from dittobench.cli.inputs import check_harness_option, check_seed
    from dittobench.engine.client import ClientLimits
    from dittobench.engine.conformance import CheckOptions, check_harness
    from dittobench.spec.versions import UnknownVersionError, get_policy

    check_harness_option(url, "URL")
    check_seed(seed)
    try:
        get_policy(bench_version)
    except UnknownVersionError as exc:
        raise fail(str(exc)) from None
    chosen = seed if seed is not None else int.from_bytes(os.urandom(8), "little") >> 1
    limits = ClientLimits(run_deadline_s=case_timeout, health_wait_s=wait)
    options = CheckOptions(chosen, bench_version, limits, tools=not no_tools)
    typer.echo(f"checking {url} (seed {chosen}, bench version {bench_version})", err=True)
    with _reached(url) as base:
        steps = asyncio.run(check_harness(base.rstrip("/"), options))
    if as_json:
        typer.echo(json.dumps([step.to_json() for step in steps], indent=2))
    else:
        for step in steps:
            typer.echo(f"{step.status.upper():<8} {step.name:<14} {step.detail}")
    first = next((step for step in steps if step.status == "fail"), None)
    if first is not None:
        typer.echo(f"error: the harness fails the {first.name} step", err=True)
        raise typer.Exit(1)


@contextlib.contextmanager
def _reached(url: str) -> Iterator[str]:
    """The URL to probe: the given one, or a built-in baseline started on a scratch memory,
    as the run driver reaches it (``drive.runs.harness_url``)."""
    if url != BUILTIN:
        yield url
        return
    import tempfile

    from dittobench.drive.runs import harness_url

    with (
        tempfile.TemporaryDirectory(prefix="dittobench-check-") as folder,
        harness_url(BUILTIN, Path(folder), "memory") as started,
    ):
        yield started


__all__ = ["harness_check"]
