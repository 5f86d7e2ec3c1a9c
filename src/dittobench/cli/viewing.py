"""``dittobench report RUN_ID --html FILE`` and ``dittobench compare RUN_A RUN_B``: views of
stored runs that need no server (docs/web.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dittobench.cli.common import app, fail
from dittobench.cli.places import DB_HELP, open_store, store_location

if TYPE_CHECKING:
    from dittobench.store import RunRow, RunStore
    from dittobench.views.compare import Delta
    from dittobench.views.comparing import RunComparison
    from dittobench.views.model import StoredRun

DbOpt = Annotated[str | None, typer.Option(help=DB_HELP)]


def decoded_records(store: RunStore, run_id: str) -> dict[str, dict[str, Any]]:
    """The run's case records as JSON, each decoded through the spec's ``CaseRecord`` first
    (``RunStore.case_records``): a record holding what the spec does not allow (an unknown
    outcome) is ``BadContentError`` naming the run, the case, the field and the value (exit 2)."""
    return {case_id: record.to_json() for case_id, record in store.case_records(run_id).items()}


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
        records = decoded_records(store, run_id)
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
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print the comparison as JSON, its case list included."),
    ] = False,
    cases: Annotated[
        bool,
        typer.Option(
            "--cases",
            help="List the cases whose score changed, worst first: the question, both answers, "
            "both rules in words with the answer key's values that decided them.",
        ),
    ] = False,
    changed_only: Annotated[
        bool,
        typer.Option(
            "--changed-only/--all-cases",
            help="List only the cases whose score changed (the default), or every case both "
            "runs graded.",
        ),
    ] = True,
    db: DbOpt = None,
) -> None:
    """Compare run B with run A: per-case wins, losses and ties, the composite's delta with its
    95% interval and per-category deltas when both graded the same dataset (paired); the
    delta from the two reports' standard errors when they did not (unpaired, said plainly).
    A category of one case shows its delta without an interval. With --cases (and always in
    --json), the cases whose score changed, largest drop first, then the gains."""
    from dittobench.views.comparing import compare_reports, comparison_json

    store = open_store(store_location(db)[0], create=False)
    try:
        a, b = _stored(store, run_a), _stored(store, run_b)
        for stored in (a, b):
            if stored.report is None:
                raise fail(f"run {stored.row.run_id} has no report yet (it is {stored.row.status})")
        assert a.report is not None and b.report is not None
        made = compare_reports(run_a, a.report, run_b, b.report)
        if cases or as_json:
            made = _with_cases(store, made, a.row, all_cases=not changed_only)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps(comparison_json(made), indent=2))
        return
    _print(made)
    if cases:
        _print_cases(made)


def _with_cases(
    store: RunStore, made: RunComparison, row: RunRow, *, all_cases: bool
) -> RunComparison:
    """``made`` with its case list; the words come from the runs' rebuilt dataset (checked
    against the stored hash), left out with a warning when it cannot be rebuilt."""
    from dittobench.views.comparing import with_cases
    from dittobench.views.model import ViewError, dataset_of

    if not made.result.paired:
        return with_cases(made, None, {}, {}, all_cases=all_cases)
    try:
        dataset = dataset_of(row)
        note = ""
    except ViewError as exc:
        typer.echo(f"warning: {exc}; questions and answer keys left out", err=True)
        dataset, note = None, str(exc)
    records_a = decoded_records(store, made.a_id)
    records_b = decoded_records(store, made.b_id)
    return with_cases(made, dataset, records_a, records_b, all_cases=all_cases, note=note)


def _interval(delta: Delta, digits: int = 3) -> str:
    """``[low, high]``, or ``–`` where there is no interval (a category of one case)."""
    if not delta.interval:
        return "–"
    return f"[{delta.low:+.{digits}f}, {delta.high:+.{digits}f}]"


def _print(made: RunComparison) -> None:
    from rich.console import Console
    from rich.table import Table

    from dittobench.views.nuance import nuance_text

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
    console.print(made.why, markup=False)
    verdict = (
        "B higher" if delta.low > 0 else "B lower" if delta.high < 0 else "no clear difference"
    )
    console.print(
        f"composite delta (B - A) {delta.value:+.4f} ± {delta.std_err:.4f}, 95% CI "
        f"{_interval(delta, 4)}: {verdict}",
        markup=False,
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
            f"{c.delta.value:+.3f}", _interval(c.delta),
        )  # fmt: skip
    console.print(table)


def _print_cases(made: RunComparison) -> None:
    """The case list, one block per case, worst first."""
    if not made.result.paired:
        typer.echo("no case list: the runs graded different datasets")
        return
    which = "every case both runs graded" if made.all_cases else "cases whose score changed"
    typer.echo(f"\n{which}, worst first ({len(made.cases)}):")
    for change in made.cases:
        f = change.flip
        typer.echo(
            f"\n{f.case_id}  {f.kind} {f.category}  A {f.score_a:.3f} -> B {f.score_b:.3f} "
            f"({f.delta:+.3f})"
        )
        if change.asked:
            typer.echo(f"  asked:    {_one_line(change.asked)}")
        expected = change.why_a.expected or change.why_b.expected
        if expected:
            typer.echo(f"  expected: {_one_line(expected)}")
        typer.echo(f"  A answer: {_one_line(change.answer_a) or '(none)'}")
        typer.echo(f"  A rule:   {change.why_a.line()}")
        typer.echo(f"  B answer: {_one_line(change.answer_b) or '(none)'}")
        typer.echo(f"  B rule:   {change.why_b.line()}")


def _one_line(text: str, limit: int = 200) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
