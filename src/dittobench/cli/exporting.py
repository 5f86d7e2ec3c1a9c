"""``dittobench export RUN_ID``: a stored run's cases as rows for a spreadsheet or a notebook.

One row per case: the run id, the report's rows (``ScoreReport.to_rows``) and the answer the
harness gave, from the stored transcript. CSV (a header row, stdlib ``csv``) is safe to open in a
spreadsheet: a text cell that a spreadsheet would read as a formula (starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return) is written with a leading ``'``. JSON lines carry the
values as they are.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dittobench.cli.common import app, fail
from dittobench.cli.places import DB_HELP, open_store, store_location

if TYPE_CHECKING:
    from dittobench.spec.report import ScoreReport

FORMATS = ("csv", "jsonl")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula: such a text cell is written with a ``'``
before it."""


def safe_cell(value: Any) -> Any:
    """``value`` for a CSV cell: a text starting like a formula gets a leading ``'``; anything
    else is left as it is (numbers and booleans are never formulas)."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def to_csv(rows: Iterable[dict[str, Any]], columns: list[str]) -> str:
    """The rows as CSV text with a header row, every text cell formula-safe."""
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: safe_cell(v) for k, v in row.items()})
    return buffer.getvalue()


def to_jsonl(rows: Iterable[dict[str, Any]]) -> str:
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def export_rows(
    run_id: str, report: ScoreReport, records: dict[str, dict[str, object]]
) -> list[dict[str, Any]]:
    """The run's rows: ``run_id``, the report's row of each case and its ``answer`` (the
    answer slot and the prose, as the case table shows them; "" without a reply)."""
    from dittobench.views.report import case_texts

    texts = case_texts(None, records, report)
    return [
        {"run_id": run_id, **row, "answer": texts[row["case_id"]].answered}
        for row in report.to_rows()
    ]


def _columns(report: ScoreReport) -> list[str]:
    first = report.to_rows()[:1]
    keys = list(first[0]) if first else ["case_id"]
    return ["run_id", *keys, "answer"]


@app.command(name="export")
def export(
    run_id: Annotated[str, typer.Argument(help="A run id from `dittobench runs`.")],
    fmt: Annotated[str, typer.Option("--format", help="csv (default) or jsonl.")] = "csv",
    out: Annotated[Path | None, typer.Option("--out", help="Write here instead of stdout.")] = None,
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
) -> None:
    """A stored run's cases, one row each (run-level fields, the case's score, reason, calls and
    the harness's answer), as CSV with a header row (formula-safe for a spreadsheet) or JSON
    lines. In Python: `pandas.DataFrame(report.to_rows())`."""
    from dittobench.cli.inputs import check_out_file, check_run_id, stored_report
    from dittobench.cli.stored import stored_records

    if fmt not in FORMATS:
        raise fail(f"--format must be csv or jsonl, got {fmt!r}")
    check_run_id(run_id)
    check_out_file(out, "--out")
    store = open_store(store_location(db)[0], create=False)
    try:
        _row, report = stored_report(store, run_id)
        if report is None:
            raise fail(f"run {run_id} has no report yet")
        rows = export_rows(run_id, report, stored_records(store, run_id))
    finally:
        store.close()
    text = to_csv(rows, _columns(report)) if fmt == "csv" else to_jsonl(rows)
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8", newline="")
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc.strerror}") from None
    typer.echo(f"{len(rows)} case(s) written to {out}", err=True)


__all__ = ["FORMULA_STARTS", "export", "export_rows", "safe_cell", "to_csv", "to_jsonl"]
