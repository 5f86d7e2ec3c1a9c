"""The ``dittobench`` command line: thin commands over the library.

Configuration is read here, at the edge, and passed down; library code reads no environment.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dittobench.cli.common import (
    PACK_HELP,
    RunSizeName,
    app,
    fail,
    open_pack_option,
    warn_if_draft,
)
from dittobench.spec.versions import CURRENT_VERSION

if TYPE_CHECKING:
    from dittobench.grade.run import Graded
    from dittobench.spec.dataset import Dataset
    from dittobench.spec.transcript import Transcript

SeedOpt = Annotated[
    int | None,
    typer.Option(
        help="Dataset seed, 0 to 2**63-1. Omit it to draw a fresh one (printed on stderr).",
        show_default=False,
    ),
]
RunSizeOpt = Annotated[
    RunSizeName, typer.Option("--run-size", help="How many cases: small, medium, full or long.")
]
BenchVersionOpt = Annotated[
    str, typer.Option("--bench-version", help="Bench version whose rules build the dataset.")
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out", help="Write the dataset here instead of stdout.", dir_okay=False, writable=True
    ),
]
ShaOpt = Annotated[
    bool, typer.Option("--sha", help="Print only the dataset's SHA-256 (dataset_sha256).")
]
PackOpt = Annotated[
    Path | None, typer.Option("--pack", help=PACK_HELP, file_okay=False, show_default=False)
]


@app.command()
def generate(
    seed: SeedOpt = None,
    run_size: RunSizeOpt = RunSizeName.small,
    bench_version: BenchVersionOpt = CURRENT_VERSION,
    out: OutOpt = None,
    sha: ShaOpt = False,
    pack: PackOpt = None,
) -> None:
    """Write the canonical dataset JSON for a seed (answer keys included).

    The bytes written are the RFC 8785 canonical form, so `sha256sum` of the file equals the
    dataset_sha256 that reports and receipts record.
    """
    from dittobench.core.canonical import canonical_bytes
    from dittobench.core.hashing import sha256_hex
    from dittobench.core.prng import MAX_SEED, SeedError
    from dittobench.generate.assemble import build_dataset
    from dittobench.packs import PackError
    from dittobench.spec.sizes import UnknownRunSizeError
    from dittobench.spec.versions import UnknownVersionError

    chosen = open_pack_option(pack)
    warn_if_draft(bench_version)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
        typer.echo(f"seed: {seed}", err=True)
    try:
        dataset = build_dataset(seed, bench_version, run_size.value, chosen)
    except SeedError:
        raise fail(f"--seed must be an integer from 0 to {MAX_SEED}, got {seed}") from None
    except (UnknownVersionError, UnknownRunSizeError, PackError) as exc:
        raise fail(str(exc)) from None
    data = canonical_bytes(dataset.to_json())
    if sha:
        typer.echo(sha256_hex(data))
        if out is None:
            return
    if out is not None:
        try:
            out.write_bytes(data)
        except OSError as exc:
            raise fail(f"cannot write {out}: {exc.strerror}") from None
        if not sha:
            typer.echo(f"wrote {out} ({len(data):,} bytes, sha256 {sha256_hex(data)})", err=True)
    else:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()


def _read_inputs(dataset: Path, transcript: Path) -> tuple[Dataset, Transcript]:
    """Load and decode both files, or exit 2 naming the file and the problem."""
    from dittobench.spec.codec import DecodeError, loads
    from dittobench.spec.dataset import dataset_from_json
    from dittobench.spec.transcript import Transcript

    try:
        ds = dataset_from_json(loads(_read(dataset), f"dataset {dataset}"))
    except DecodeError as exc:
        raise fail(f"{dataset}: {exc}") from None
    try:
        tr = Transcript.from_json(loads(_read(transcript), f"transcript {transcript}"))
    except DecodeError as exc:
        raise fail(f"{transcript}: {exc}") from None
    return ds, tr


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise fail(f"cannot read {path}: {exc.strerror}") from None


def _graded(
    dataset: Path, transcript: Path, grading: str | None = None
) -> tuple[Dataset, Transcript, Graded]:
    from dittobench.grade.run import GradeInputError, grade_run
    from dittobench.spec.versions import GRADINGS

    policy = None
    if grading is not None:
        policy = GRADINGS.get(grading) or GRADINGS.get(f"dittobench-{grading}")
        if policy is None:
            raise fail(f"--grading: no policy {grading!r}; shipped: {', '.join(GRADINGS)}")
    ds, tr = _read_inputs(dataset, transcript)
    try:
        return ds, tr, grade_run(ds, tr, policy)
    except GradeInputError as exc:
        raise fail(str(exc)) from None


@app.command()
def grade(
    dataset: Annotated[
        Path, typer.Argument(help="The dataset file (`dittobench generate --out`).")
    ],
    transcript: Annotated[Path, typer.Argument(help="The run's transcript file.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the full score report as JSON.")
    ] = False,
    grading: Annotated[
        str | None,
        typer.Option(
            "--grading",
            help="Regrade under this shipped grading policy (e.g. dittobench-grading-4 or "
            "grading-4) instead of the dataset's own: for studies; a receipt keeps its own.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Re-grade a run offline from its dataset and transcript: fixed rules, no model, no clock.

    The same pair of files gives the same report on every machine. Exits 2 when a file is
    malformed or the transcript belongs to another dataset. The report names the policy it was
    graded under.
    """
    from dittobench.cli.summary import report_lines

    _ds, read, graded = _graded(dataset, transcript, grading)
    if as_json:
        typer.echo(json.dumps(graded.report.to_json(), indent=2, ensure_ascii=False))
        return
    for line in report_lines(graded.report, read.to_json()):
        typer.echo(line)


@app.command()
def audit(
    dataset: Annotated[
        Path, typer.Argument(help="The dataset file, or a run folder holding dataset.json.")
    ],
    transcript: Annotated[
        Path | None,
        typer.Argument(help="The run's transcript file (default: the run folder's)."),
    ] = None,
    fmt: Annotated[str, typer.Option("--format", help="tsv (default) or jsonl.")] = "tsv",
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the sheet here (never over the dataset or transcript)."),
    ] = None,
    judge_url: Annotated[
        str | None,
        typer.Option(
            "--judge-url",
            help="Ask the locked judge about every memory answer with a value too, and list where "
            "judge and rules disagree (key from $DITTOBENCH_JUDGE_KEY). Never changes a score.",
            show_default=False,
        ),
    ] = None,
    judge_model: Annotated[
        str, typer.Option("--judge-model", help="With --judge-url: another judge model.")
    ] = "",
) -> None:
    """The false-negative audit sheet: memory answers that passed every disqualifying scan but
    failed their typed check, one per row, with an empty `label` column for a reviewer. With
    --judge-url, every memory answer a value answers, judged, and where the judge disagrees."""
    from dittobench.cli.inputs import check_out_file, refuse_overwriting
    from dittobench.grade.audit import JUDGE_COLUMNS, audit_rows, to_jsonl, to_tsv

    if fmt not in ("tsv", "jsonl"):
        raise fail(f"--format must be tsv or jsonl, got {fmt!r}")
    if transcript is None:
        if not dataset.is_dir():
            raise fail("give the transcript file too, or a run folder as the only argument")
        dataset, transcript = dataset / "dataset.json", dataset / "transcript.json"
    refuse_overwriting(out, "--out", {"dataset": dataset, "transcript": transcript})
    check_out_file(out, "--out")
    ds, tr, graded = _graded(dataset, transcript)
    if judge_url is None:
        rows = list(audit_rows(ds, tr, graded))
        sheet = to_tsv(iter(rows)) if fmt == "tsv" else to_jsonl(iter(rows))
        what = "to label"
    else:
        rows = _judged_rows(ds, tr, graded, judge_url, judge_model)
        rows = [r for r in rows if r["disagreement"]]
        sheet = to_tsv(iter(rows), JUDGE_COLUMNS) if fmt == "tsv" else to_jsonl(iter(rows))
        what = "where judge and rules disagree"
    if out is None:
        sys.stdout.write(sheet)
    else:
        try:
            out.write_text(sheet, encoding="utf-8")
        except OSError as exc:
            raise fail(f"cannot write {out}: {exc.strerror}") from None
    typer.echo(f"{len(rows)} case(s) {what}", err=True)


def _judged_rows(
    ds: Dataset, tr: Transcript, graded: Graded, url: str, model: str
) -> list[dict[str, str]]:
    """Every memory answer a value answers, judged against its key read as a rubric; prints
    how often judge and rules agree."""
    import asyncio
    import os

    from dittobench.engine.judging import JudgeEndpoint, judge_cases
    from dittobench.grade.audit import audit_rubric, judge_rows
    from dittobench.grade.judging import answer_text, judged_case
    from dittobench.spec.judging import JUDGE_1
    from dittobench.spec.versions import get_policy

    policy = get_policy(ds.bench_version)
    protocol = policy.judge or JUDGE_1
    if model and model != protocol.model:
        protocol = protocol.with_model(model)
    records = {c.case_id: c for c in tr.cases}
    answers = {
        c.id: answer_text(records[c.id].response if c.id in records else None)
        for c in ds.memory_cases
    }
    rubrics = [r for c in ds.memory_cases if (r := audit_rubric(c, protocol)) is not None]
    endpoint = JudgeEndpoint(url, os.environ.get("DITTOBENCH_JUDGE_KEY", ""))

    def shown(done: int, total: int) -> None:
        typer.echo(f"[judging] {done}/{total}", err=True)

    record = asyncio.run(
        judge_cases(endpoint, protocol, [(r, answers[r.id]) for r in rubrics], shown)
    )
    by_case = {j.case_id: j for j in record.judgements}
    judged = {
        r.id: judged_case(r, by_case.get(r.id), bool(answers[r.id]), protocol.panel)
        for r in rubrics
    }
    rows = list(judge_rows(ds, answers, graded, judged, policy.grading.correct_at))
    agree = sum(1 for r in rows if not r["disagreement"])
    errors = sum(1 for r in rows if r["judge_status"] == "judge_error")
    typer.echo(
        f"judge {protocol.model} ({protocol.id}): {len(rows)} answers, agrees with the rules "
        f"on {agree} ({agree / max(1, len(rows) - errors):.1%} of those judged), "
        f"judge errors {errors}",
        err=True,
    )
    return rows


def main() -> None:
    """Console-script entry point. Every error the library raises on purpose is caught here,
    once: its one-line message on stderr and its exit code (2 bad input, 1 a failed run)."""
    from dittobench.core.errors import DittobenchError

    try:
        app()
    except DittobenchError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(exc.exit_code)
