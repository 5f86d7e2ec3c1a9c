"""``dittobench report RUN_ID --html FILE`` and ``dittobench compare RUN_A RUN_B``: views of
stored runs that need no server (docs/web.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dittobench.cli.common import app, fail
from dittobench.cli.running import DB_HELP, open_store, store_location

if TYPE_CHECKING:
    from dittobench.store import RunStore
    from dittobench.views.model import StoredRun

DbOpt = Annotated[str | None, typer.Option(help=DB_HELP)]


def _stored(store: RunStore, run_id: str) -> StoredRun:
    from dittobench.cli.inputs import check_run_id
    from dittobench.views.model import ViewError, load_run

    check_run_id(run_id)
    try:
        return load_run(store, run_id)
    except ViewError as exc:
        raise fail(str(exc)) from None


@app.command()
def report(
    run_id: Annotated[str, typer.Argument(help="A run id from `dittobench runs`.")],
    html_out: Annotated[
        Path,
        typer.Option("--html", help="Write the standalone HTML report here.", dir_okay=False),
    ],
    db: DbOpt = None,
) -> None:
    """Write one standalone HTML file of a finished run: summary, per-category chart with
    standard errors, weakest categories and every case with the rule that decided it. Inline CSS
    and SVG, no script and no external reference: it opens from disk."""
    from dittobench.cli.inputs import check_out_file
    from dittobench.views.model import ViewError, dataset_of
    from dittobench.views.nuance import open_texts
    from dittobench.views.report import case_texts, standalone_report

    check_out_file(html_out, "--html")
    url, home = store_location(db)
    store = open_store(url, create=False)
    try:
        stored = _stored(store, run_id)
        tier = _tier(store, run_id, home)
        if stored.report is None:
            raise fail(f"run {run_id} has no report yet (it is {stored.row.status})")
        try:
            dataset = dataset_of(stored.row)
        except ViewError as exc:
            typer.echo(f"warning: {exc}; questions and rule details left out", err=True)
            dataset = None
        records = store.recorded_cases(run_id)
    finally:
        store.close()
    texts = case_texts(dataset, records, stored.report)
    opens = open_texts(dataset, records)
    page = standalone_report(stored.row, stored.report, texts, tier, opens)
    try:
        html_out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write {html_out}: {exc.strerror}") from None
    typer.echo(f"wrote {html_out} ({len(stored.report.per_case)} cases)", err=True)


def _tier(store: RunStore, run_id: str, home: Path) -> str:
    """The run's trust tier: a service job's receipt is checked against the key kept beside
    the store (the service's own when it shares the store's folder)."""
    from dittobench.receipts.keys import PUBLIC_KEY_NAME, KeyFileError, load_public_key
    from dittobench.store.listing import job_receipt
    from dittobench.views.trust import stored_tier

    try:
        key = load_public_key(home / "keys" / PUBLIC_KEY_NAME)
    except (KeyFileError, OSError):
        key = None
    return stored_tier(job_receipt(store, run_id), key, run_id)


@app.command()
def compare(
    run_a: Annotated[str, typer.Argument(help="The run compared against (A).")],
    run_b: Annotated[str, typer.Argument(help="The run compared (B).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
    db: DbOpt = None,
) -> None:
    """Compare run B with run A: per-case wins, losses and ties, the composite's delta with its
    95% interval and per-category deltas when both graded the same dataset (paired); the
    delta from the two reports' standard errors when they did not (unpaired, said plainly)."""
    from dittobench.views.comparing import compare_reports, comparison_json

    store = open_store(store_location(db)[0], create=False)
    try:
        a, b = _stored(store, run_a), _stored(store, run_b)
    finally:
        store.close()
    for stored in (a, b):
        if stored.report is None:
            raise fail(f"run {stored.row.run_id} has no report yet (it is {stored.row.status})")
    assert a.report is not None and b.report is not None
    made = compare_reports(run_a, a.report, run_b, b.report)
    if as_json:
        typer.echo(json.dumps(comparison_json(made), indent=2))
        return
    _print(made)


def _print(made: object) -> None:
    from rich.console import Console
    from rich.table import Table

    from dittobench.views.comparing import RunComparison
    from dittobench.views.nuance import nuance_text

    assert isinstance(made, RunComparison)
    r = made.result
    console = Console(highlight=False)
    delta = r.composite
    for name, run_id, report in (("A", made.a_id, made.a), ("B", made.b_id, made.b)):
        console.print(
            f"{name} {run_id}  composite {report.composite:.4f} ± {report.composite_stderr:.4f}",
            markup=False,
        )
        if report.nuance is not None:  # beside the composite, never in it or in the delta
            shown = nuance_text(report.nuance, report.bench_version)
            console.print(f"{' ' * len(run_id)}    nuance    {shown}", markup=False)
    console.print(made.why)
    verdict = (
        "B higher" if delta.low > 0 else "B lower" if delta.high < 0 else "no clear difference"
    )
    console.print(
        f"composite delta (B - A) {delta.value:+.4f} ± {delta.std_err:.4f}, 95% CI "
        f"[{delta.low:+.4f}, {delta.high:+.4f}]: {verdict}"
    )
    if r.paired:
        console.print(f"per case: B wins {r.wins}, loses {r.losses}, ties {r.ties}")
        if r.only_a or r.only_b:
            console.print(f"cases in one run only: A {r.only_a}, B {r.only_b}")
    table = Table(title="Per category (B - A), worst first")
    for name in ("category", "kind", "n", "A", "B", "delta", "95% CI"):
        table.add_column(name, justify="right" if name not in ("category", "kind") else "left")
    for c in r.categories:
        table.add_row(
            c.category, c.kind, str(c.count), f"{c.mean_a:.3f}", f"{c.mean_b:.3f}",
            f"{c.delta.value:+.3f}", f"[{c.delta.low:+.3f}, {c.delta.high:+.3f}]",
        )  # fmt: skip
    console.print(table)
