"""What a run shows while it runs and once it is done: a live bar on a terminal, plain lines
otherwise (both on stderr), and the summary with the run's files (stdout)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from dittobench.cli.common import fail

if TYPE_CHECKING:
    from dittobench.engine.orchestrate import Progress
    from dittobench.engine.runner import RunOutcome


class BarProgress:
    """A live bar on a terminal: stage, cases done of total, failures."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        self._bar = Progress(
            TextColumn("{task.description:<28}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[failed]}"),
            console=Console(stderr=True),
            transient=False,
        )
        self._task = self._bar.add_task("starting", total=None, failed="")

    def __enter__(self) -> BarProgress:
        self._bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._bar.stop()

    def __call__(self, progress: Progress) -> None:
        label = progress.stage + (f" ({progress.note})" if progress.note else "")
        failed = f"{progress.failed} failed" if progress.failed else ""
        self._bar.update(
            self._task,
            description=label,
            completed=progress.done,
            total=progress.total or None,
            failed=failed,
        )


class PlainProgress:
    """One line per stage change and at most one line a second while cases run."""

    def __init__(self) -> None:
        self._stage = ""
        self._last = 0.0

    def __call__(self, progress: Progress) -> None:
        moment = time.monotonic()
        stage_changed = progress.stage != self._stage or progress.note
        finished = progress.total and progress.done == progress.total
        if not (stage_changed or finished or moment - self._last >= 1.0):
            return
        self._stage, self._last = progress.stage, moment
        counts = f" {progress.done}/{progress.total}" if progress.total else ""
        failed = f" ({progress.failed} failed)" if progress.failed else ""
        note = f": {progress.note}" if progress.note else ""
        typer.echo(f"[{progress.stage}]{counts}{failed}{note}", err=True)

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def display() -> BarProgress | PlainProgress:
    """The bar on a terminal, plain lines when stderr is not one."""
    return BarProgress() if sys.stderr.isatty() else PlainProgress()


def print_outcome(outcome: RunOutcome, json_out: Path | None, trust: Path | None = None) -> None:
    """The summary and the file paths on stdout; the report also to ``--json``. ``trust``: the
    key file ``verify`` needs for the receipt (``places.key_to_trust``), named in its command."""
    from dittobench.cli.summary import report_lines

    try:
        transcript = json.loads(outcome.transcript_path.read_bytes())
    except (OSError, ValueError):
        transcript = None  # the summary is printed all the same
    for line in report_lines(outcome.report, transcript):
        typer.echo(line)
    typer.echo("")
    typer.echo(f"run id      {outcome.run_id}")
    typer.echo(f"report      {outcome.report_path}")
    typer.echo(f"transcript  {outcome.transcript_path}")
    typer.echo(f"dataset     {outcome.dataset_path}")
    if outcome.receipt_path is not None:
        given = f" --trusted-keys {trust}" if trust is not None else ""
        command = f"dittobench verify {outcome.receipt_path}{given}"
        typer.echo(f"receipt     {outcome.receipt_path}   ({command})")
    if json_out is not None:
        try:
            json_out.write_bytes(outcome.report_path.read_bytes())
        except OSError as exc:
            raise fail(f"cannot write {json_out}: {exc.strerror}") from None


__all__ = ["BarProgress", "PlainProgress", "display", "print_outcome"]
