"""``dittobench runs`` and ``dittobench show``: what the run store holds, listed and reported."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from dittobench.cli.common import app, fail
from dittobench.cli.places import DB_HELP, open_store, store_location

if TYPE_CHECKING:
    from dittobench.spec.transcript import Transcript
    from dittobench.store import RunStore


@app.command()
def runs(
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
    limit: Annotated[int, typer.Option(help="How many, newest first.", min=1)] = 20,
) -> None:
    """List stored runs, newest first. A run whose stored row cannot be read is listed as
    `unreadable`, the column named on stderr, and the command exits 2 after the list."""
    from dittobench.store import NoStoreError, RunStore, StoreError, UnreadableRun
    from dittobench.store.runs import is_run_id

    url = store_location(db)[0]
    try:
        store = RunStore(url, create=False)
    except NoStoreError:
        typer.echo("no runs yet")
        return
    except StoreError as exc:
        raise fail(str(exc)) from None
    try:
        rows = store.list_runs(limit)
    except StoreError as exc:
        raise fail(str(exc)) from None
    finally:
        store.close()
    if not rows:
        typer.echo("no runs yet")
        return
    unreadable = [r for r in rows if isinstance(r, UnreadableRun)]
    for r in rows:
        if isinstance(r, UnreadableRun):
            typer.echo(f"{r.run_id if is_run_id(r.run_id) else repr(r.run_id)}  unreadable")
            continue
        score = f"{r.composite:.4f}" if r.composite is not None else "   -  "
        resumed = f"  resumed ×{r.resumes}" if r.resumes > 0 else ""
        typer.echo(
            f"{r.run_id}  {r.status:<11} {r.run_size:<6} {score}  "
            f"{r.cases_done}/{r.cases_total}  {r.created_at}  {r.harness}{resumed}"
        )
    for bad in unreadable:
        typer.echo(f"error: {bad.problem}", err=True)
    if unreadable:
        raise typer.Exit(2)


def _stored_transcript(store: RunStore, run_id: str) -> tuple[dict[str, Any], Transcript | None]:
    """The run's stored transcript as JSON and decoded through ``spec.transcript.Transcript``;
    empty and None when there is none or it cannot be read (the report is shown all the same).
    A transcript holding what the spec does not allow (an unknown outcome, a wrong shape) exits
    2 naming the run, the field and the value."""
    from dittobench.spec.codec import DecodeError
    from dittobench.spec.transcript import Transcript
    from dittobench.store import StoreError

    try:
        raw = store.transcript(run_id)
    except StoreError:
        return {}, None
    if raw is None:
        return {}, None
    try:
        return raw, Transcript.from_json(raw)
    except DecodeError as exc:
        raise fail(f"run {run_id}: its stored transcript: {exc}") from None


def stored_records(store: RunStore, run_id: str) -> dict[str, dict[str, object]]:
    """case id -> its record (as JSON, decoded through ``CaseRecord`` first) in the run's
    stored transcript; empty when it cannot be read."""
    _raw, transcript = _stored_transcript(store, run_id)
    cases = transcript.cases if transcript is not None else ()
    return {record.case_id: record.to_json() for record in cases}


def _reported_memory_tools(transcript: Transcript | None) -> dict[str, tuple[str, ...]]:
    """case id -> the memory tools its reply reported calling, in order, from the stored
    transcript."""
    from dittobench.spec.wire import MEMORY_TOOLS

    found: dict[str, tuple[str, ...]] = {}
    for record in transcript.cases if transcript is not None else ():
        calls = record.response.tool_calls if record.response is not None else ()
        memory = tuple(c.name for c in calls if c.name in MEMORY_TOOLS)
        if memory:
            found[record.case_id] = memory
    return found


@app.command()
def show(
    run_id: Annotated[str, typer.Argument(help="A run id from `dittobench runs`.")],
    db: Annotated[str | None, typer.Option(help=DB_HELP)] = None,
    case_id: Annotated[
        str | None,
        typer.Option(
            "--case",
            help="One case instead: its question, the answer, the key, the score and the rule "
            "that decided it.",
        ),
    ] = None,
) -> None:
    """One run: its summary and a line per case (score, reason, what was called); with
    --case ID, that case in full."""
    from dittobench.cli.inputs import check_run_id, stored_report
    from dittobench.cli.summary import report_lines

    check_run_id(run_id)
    if case_id is not None:
        for line in _case_lines(run_id, case_id, db):
            typer.echo(line)
        return
    store = open_store(store_location(db)[0], create=False)
    try:
        row, parsed = stored_report(store, run_id)
        transcript, decoded = _stored_transcript(store, run_id) if parsed else ({}, None)
    finally:
        store.close()
    typer.echo(
        f"{row.run_id}  {row.status}  stage {row.stage}  "
        f"{row.cases_done}/{row.cases_total} cases  {row.harness}"
    )
    if row.status in ("failed", "interrupted"):
        said = f": {row.error}" if row.error else ""
        typer.echo(f"{row.status} while {row.stage}{said}")
    if parsed is None:
        typer.echo("no report yet")
        return
    for line in report_lines(parsed, transcript):
        typer.echo(line)
    typer.echo("")
    reported = _reported_memory_tools(decoded)
    for case in parsed.per_case:
        # A memory case lists the memory tools the harness said it used (its own store's tools,
        # self-reported: the engine cannot observe them).
        called = ",".join(case.called or reported.get(case.case_id, ())) or "-"
        typer.echo(
            f"{case.case_id}  {case.kind:<6} {case.score:.3f}  {case.category:<26} "
            f"{case.reason or 'ok':<18} {called}"
        )


def _case_lines(run_id: str, case_id: str, db: str | None) -> list[str]:
    """The case as its page shows it (``views.model.case_detail``, the rule in words by
    ``views.explain``): what was asked, the answer, the key, the score and the rule."""
    from dittobench.views.model import ViewError, case_detail, load_run

    store = open_store(store_location(db)[0], create=False)
    try:
        detail = case_detail(store, load_run(store, run_id), case_id)
    except ViewError as exc:
        raise fail(str(exc)) from None
    finally:
        store.close()
    s, m = detail.score, detail.memory
    answered = "\n".join(t for t in (detail.answer, detail.prose) if t) or "(no answer)"
    if m is not None:
        key = m.expected_answer or "(a decline: nothing to recall)"
        key += f"  (also accepted: {', '.join(m.accepted)})" if m.accepted else ""
    else:
        key = ", ".join(detail.expected) or "(no tool call: restraint)"
    lines = [
        f"case       {s.case_id}  {s.kind}  {s.category}",
        f"{'question' if m is not None else 'prompt':<10} {detail.text}",
        f"answer     {_indented(answered)}",
        f"expected   {key}",
    ]
    if s.kind == "tool":
        lines.append(f"called     {', '.join(detail.observed or detail.reported) or '-'}")
    lines.append(f"score      {s.score:.3f} ({'pass' if s.correct else 'fail'})")
    if detail.why.parts is not None:
        lines.append(f"tool score {s.tool_score:.3f} ({detail.why.parts.text()})")
    lines.append(f"rule       {detail.why.line()}")
    return lines


def _indented(text: str) -> str:
    return text.replace("\n", "\n" + " " * 11)
