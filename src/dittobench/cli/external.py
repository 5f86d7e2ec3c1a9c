"""``dittobench external run`` and ``dittobench external verify``: LongMemEval and LoCoMo driven
through the same engine as a separate suite, signed, and never reported as a dittobench score
(docs/external.md)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dittobench.cli.common import (
    AnyKeyOpt,
    JudgeModelOpt,
    JudgeUrlOpt,
    KeysUrlOpt,
    TrustedKeysOpt,
    command_group,
    fail,
)
from dittobench.cli.inputs import BUILTIN

if TYPE_CHECKING:
    from dittobench.spec.external import ExternalSuite
    from dittobench.spec.external_report import ExternalReport, Part
    from dittobench.spec.external_transcript import ExternalTranscript

external_app = command_group(
    "external",
    "LongMemEval and LoCoMo through the same engine: a separate suite, never a dittobench score.",
)

OUTPUTS = ("report.json", "transcript.json", "receipt.json", "report.html")
NAMES = {"longmemeval": "LongMemEval", "locomo": "LoCoMo"}


class FormatName(StrEnum):
    longmemeval = "longmemeval"
    locomo = "locomo"


FileArg = Annotated[
    Path,
    typer.Argument(
        help="The published JSON file you already have (longmemeval_s.json, locomo10.json…).",
        dir_okay=False,
        show_default=False,
    ),
]
FormatOpt = Annotated[
    FormatName, typer.Option("--format", help="The file's format.", show_default=False)
]
AllowUnknownOpt = Annotated[
    bool,
    typer.Option(
        "--allow-unknown-file",
        help="Run a file whose SHA-256 is no known release (the report and receipt say so).",
    ),
]
HarnessOpt = Annotated[
    str,
    typer.Option(
        help="The harness base URL, or `builtin` to start the reference baseline harness."
    ),
]
LimitOpt = Annotated[
    int, typer.Option(help="Ask only the first N questions, in file order (0: all).", min=0)
]
TypesOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--type",
        help="Only this question type or category (repeat for more), e.g. "
        "temporal-reasoning, multi-hop.",
        show_default=False,
    ),
]
OutOpt = Annotated[
    Path | None,
    typer.Option(
        "--out",
        help="Folder for report.json, transcript.json, receipt.json and report.html "
        "(default: dittobench-external/<format>-<time>).",
        file_okay=False,
        show_default=False,
    ),
]
ConcurrencyOpt = Annotated[int, typer.Option(help="Questions in flight at once.", min=1, max=64)]
CaseTimeoutOpt = Annotated[float, typer.Option("--case-timeout", help="Seconds per question.")]
WaitOpt = Annotated[float, typer.Option(help="Seconds to wait for the harness's /health.")]
KeyOpt = Annotated[
    Path | None,
    typer.Option(help="Ed25519 PEM key that signs the receipt (default: this installation's)."),
]


@external_app.command("run")
def external_run(
    file: FileArg,
    format: FormatOpt,
    harness: HarnessOpt = BUILTIN,
    allow_unknown_file: AllowUnknownOpt = False,
    limit: LimitOpt = 0,
    types: TypesOpt = None,
    judge_url: JudgeUrlOpt = None,
    judge_model: JudgeModelOpt = "",
    out: OutOpt = None,
    concurrency: ConcurrencyOpt = 4,
    case_timeout: CaseTimeoutOpt = 120.0,
    wait: WaitOpt = 180.0,
    key: KeyOpt = None,
) -> None:
    """Run a LongMemEval or LoCoMo file against a harness: seed each user's sessions as waves,
    ask every question, grade short answers and abstentions by fixed rules and open answers by
    the locked judge (with --judge-url; otherwise they are recorded unjudged), and sign a
    receipt.

    Nothing is downloaded: the file must be one of the known releases (by SHA-256) unless
    --allow-unknown-file. The summary is the external suite's own, never a dittobench score.
    """
    from dittobench.cli.inputs import check_harness_option, check_seconds, judge_endpoint
    from dittobench.drive.clock import new_run_id

    check_harness_option(harness, "--harness")
    check_seconds(case_timeout, "--case-timeout")
    check_seconds(wait, "--wait")
    endpoint = judge_endpoint(judge_url)
    suite = _load(file, format.value, allow_unknown_file, limit, tuple(types or ()))
    run_id = new_run_id()
    folder = out if out is not None else Path("dittobench-external") / f"{format.value}-{run_id}"
    _check_folder(folder)
    os.umask(0o077)
    _warn_unknown(suite, file)
    transcript = _drive(suite, harness, run_id, endpoint, judge_model, concurrency,
                        case_timeout, wait)  # fmt: skip
    report = _grade(suite, transcript)
    receipt = _sign(report, transcript, key)
    paths = _write(folder, report, transcript, receipt)
    _summary(report, paths)


def _load(
    file: Path, format: str, allow_unknown: bool, limit: int, types: tuple[str, ...]
) -> ExternalSuite:
    from dittobench.generate.external import (
        ExternalFileError,
        UnknownReleaseError,
        load_external,
    )

    typer.echo(f"reading {file} ({format})", err=True)
    try:
        return load_external(file, format, allow_unknown, limit=limit, types=types)
    except (ExternalFileError, UnknownReleaseError) as exc:
        raise fail(str(exc)) from None


def _check_folder(folder: Path) -> None:
    """Exit 2 before anything runs when the outputs cannot be written without overwriting."""
    if folder.exists() and not folder.is_dir():
        raise fail(f"--out {folder} is a file, not a folder")
    taken = [name for name in OUTPUTS if (folder / name).exists()]
    if taken:
        raise fail(f"--out {folder} already holds {', '.join(taken)}: choose another folder")


def _warn_unknown(suite: ExternalSuite, file: Path) -> None:
    if not suite.source.release:
        typer.echo(
            f"warning: {file} (SHA-256 {suite.source.sha256}) is no known release; run anyway "
            "because of --allow-unknown-file, and the report and receipt say so",
            err=True,
        )


@contextlib.contextmanager
def _harness(harness: str, run_id: str) -> Iterator[str]:
    """The URL to drive: the given one, or the built-in baseline started for this run (its
    memory in ``baseline/external-<run id>.db`` under this installation's folder), as the run
    driver reaches it (``drive.runs.harness_url``)."""
    from dittobench.cli.places import store_location
    from dittobench.drive.runs import harness_url

    _url, home = store_location(None) if harness == BUILTIN else ("", Path())
    with harness_url(harness, home, f"external-{run_id}") as url:
        yield url


def _drive(
    suite: ExternalSuite,
    harness: str,
    run_id: str,
    endpoint: Any,
    judge_model: str,
    concurrency: int,
    case_timeout: float,
    wait: float,
) -> ExternalTranscript:
    from dittobench.cli.running import BarProgress, PlainProgress
    from dittobench.core.ids import WIRE_NONCE_BYTES
    from dittobench.engine.client import ClientLimits, HarnessError
    from dittobench.engine.external import ExternalOptions, run_external

    limits = ClientLimits(run_deadline_s=case_timeout, health_wait_s=wait)
    nonce = os.urandom(WIRE_NONCE_BYTES).hex()
    questions, users = len(suite.questions), len(suite.users)
    typer.echo(f"external run {run_id} · {questions} questions for {users} users", err=True)
    display = BarProgress() if sys.stderr.isatty() else PlainProgress()
    try:
        with _harness(harness, run_id) as url, display:
            options = ExternalOptions(url, harness, concurrency, limits, nonce,
                                      judge=endpoint, judge_model=judge_model)  # fmt: skip
            return run_external(suite, options, display)
    except KeyboardInterrupt:
        typer.echo("\ninterrupted: an external run is not resumable; run it again", err=True)
        raise typer.Exit(130) from None
    except (HarnessError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None


def _grade(suite: ExternalSuite, transcript: ExternalTranscript) -> ExternalReport:
    from dittobench.generate.external import TYPES
    from dittobench.grade.external import grade_external

    return grade_external(suite, transcript, TYPES[suite.source.format])


def _sign(report: ExternalReport, transcript: ExternalTranscript, key: Path | None) -> Any:
    from dittobench.cli.places import installation_key, store_location
    from dittobench.drive.clock import now
    from dittobench.receipts.external import build_external_receipt
    from dittobench.receipts.keys import KeyFileError

    _url, home = store_location(None)
    try:
        signing_key = installation_key(key, home)
    except (KeyFileError, OSError) as exc:
        raise fail(f"signing key: {exc}") from None
    return build_external_receipt(report, transcript, signing_key, now())


def _write(
    folder: Path, report: ExternalReport, transcript: ExternalTranscript, receipt: Any
) -> dict[str, Path]:
    """The files, as canonical JSON (so ``sha256sum`` of the report and the transcript gives
    the hashes the receipt signs) and the page; exit 1 when one cannot be written."""
    from dittobench.core.canonical import canonical_bytes
    from dittobench.views.external import external_page

    contents = {
        "report.json": canonical_bytes(report.to_json()),
        "transcript.json": canonical_bytes(transcript.to_json()),
        "receipt.json": canonical_bytes(receipt),
        "report.html": external_page(report).encode("utf-8"),
    }
    paths = {}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in contents.items():
            path = folder / name
            with path.open("xb") as handle:
                handle.write(data)
            paths[name] = path
    except OSError as exc:
        typer.echo(f"error: cannot write into {folder}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    return paths


def _figure(part: Part) -> str:
    if part.n == 0:
        return "none"
    if part.scored == 0 or part.mean is None:
        return f"unjudged ({part.n})"
    return f"{part.mean:.3f} ± {part.stderr:.3f} ({part.scored} of {part.n})"


def summary_lines(report: ExternalReport) -> list[str]:
    """The summary printed after a run: labelled as the external suite on every part."""
    from dittobench.spec.external_report import LABEL

    name = NAMES.get(report.format, report.format)
    source = report.release or f"unknown file {report.source_sha256[:12]}… (allowed)"
    judge = report.nuance
    judged = "no judge: open questions recorded, unjudged"
    if judge.judge_id:
        official = "official" if judge.official else "unofficial"
        judged = f"{judge.judge_id} ({judge.judge_model}, {official}), {judge.judge_errors} errors"
    lines = [
        f"EXTERNAL SUITE · {name} · {LABEL}",
        f"source      {source}",
        f"harness     {report.harness}",
        f"questions   {len(report.per_question)}",
        f"rules       {_figure(report.rules)}   value and abstention questions, fixed rules",
        f"judged      {_figure(report.judged)}   open questions · {judged}",
        "per type (rules | judged):",
    ]
    width = max((len(t.source_type) for t in report.per_type), default=0)
    for t in report.per_type:
        lines.append(
            f"  {t.source_type:<{width}}  n={t.n:<5} {_figure(t.rules)} | {_figure(t.judged)}"
        )
    return lines


def _summary(report: ExternalReport, paths: dict[str, Path]) -> None:
    for line in summary_lines(report):
        typer.echo(line)
    typer.echo("")
    typer.echo(f"report      {paths['report.json']}")
    typer.echo(f"page        {paths['report.html']}")
    typer.echo(f"transcript  {paths['transcript.json']}")
    receipt = paths["receipt.json"]
    typer.echo(f"receipt     {receipt}   (dittobench external verify {receipt})")


@external_app.command("verify")
def external_verify(
    receipt: Annotated[Path, typer.Argument(help="The receipt.json of an external run.")],
    trusted_keys: TrustedKeysOpt = None,
    keys_url: KeysUrlOpt = None,
    any_key: AnyKeyOpt = False,
    transcript: Annotated[
        Path | None,
        typer.Option("--transcript", help="The run's transcript.json: its hash must be signed."),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report", help="The run's report.json: its hash and figures must be signed."
        ),
    ] = None,
    source: Annotated[
        Path | None,
        typer.Option(
            "--source",
            help="With --transcript: the source file; the suite is rebuilt from it and the "
            "transcript regraded, and both must give the signed hashes.",
            dir_okay=False,
        ),
    ] = None,
) -> None:
    """Check an external run's receipt: its signature over the manifest, the signer (trusted
    as `verify` trusts one: --trusted-keys, --keys-url or this installation's own key; not at
    all with --any-key), the transcript's and report's hashes, and (with --source and
    --transcript) that the source file and the transcript regrade to exactly the signed report.

    Exits 0 only when every check holds, 1 when one fails, 2 when a file cannot be read or the
    signer is not trusted.
    """
    from dittobench.cli.inputs import read_json
    from dittobench.cli.signers import ANY_KEY_WORDS, require_trusted, trusted_signers
    from dittobench.receipts.external import verify_external_receipt

    if source is not None and transcript is None:
        raise fail("--source regrades the run's transcript: add --transcript")
    receipt_data = read_json(receipt, "receipt")
    trusted = trusted_signers(trusted_keys, keys_url, any_key)
    require_trusted(receipt_data.get("key_id") if isinstance(receipt_data, dict) else None, trusted)
    transcript_data = read_json(transcript, "transcript") if transcript is not None else None
    report_data = read_json(report, "report") if report is not None else None
    result = verify_external_receipt(receipt_data, trusted, transcript_data, report_data)
    regraded: list[tuple[str, bool, str]] = []
    if source is not None and result.manifest:
        regraded = _regrade(source, result.manifest, transcript_data)
    width = max(len(c.name) for c in (*result.checks,)) if result.checks else 8
    for check in result.checks:
        typer.echo(f"{'ok  ' if check.ok else 'FAIL'}  {check.name:<{width}}  {check.detail}")
    for name, ok, detail in regraded:
        typer.echo(f"{'ok  ' if ok else 'FAIL'}  {name:<{width}}  {detail}")
    typer.echo(f"key used: {result.key_used}")
    failed = [c.name for c in result.checks if not c.ok] + [n for n, ok, _d in regraded if not ok]
    if failed:
        typer.echo(f"verdict: NOT VERIFIED (failed: {', '.join(failed)})")
        raise typer.Exit(1)
    pinned = "" if trusted is not None else f" ({ANY_KEY_WORDS})"
    typer.echo(f"verdict: VERIFIED · an external suite's receipt, not a dittobench score{pinned}")


def _regrade(
    source: Path, manifest: dict[str, Any], transcript: Any
) -> list[tuple[str, bool, str]]:
    """Rebuild the suite from ``source`` as the manifest says it was chosen, and regrade the
    transcript: (check, ok, detail) for the suite's hash and the report's."""
    from dittobench.generate.external import ExternalFileError, UnknownReleaseError, load_external
    from dittobench.spec.codec import DecodeError
    from dittobench.spec.external_transcript import ExternalTranscript

    selection = manifest.get("selection")
    chosen: dict[str, Any] = selection if isinstance(selection, dict) else {}
    try:
        suite = load_external(
            source,
            str(manifest.get("suite_format")),
            bool(manifest.get("allow_unknown")),
            limit=int(chosen.get("limit", 0)),
            types=tuple(chosen.get("types", ())),
        )
    except (ExternalFileError, UnknownReleaseError) as exc:
        return [("suite", False, str(exc))]
    out = [_same("suite", suite.sha256, manifest.get("suite_sha256"))]
    try:
        parsed = ExternalTranscript.from_json(transcript)
    except DecodeError as exc:
        return [*out, ("regrade", False, f"transcript: {exc}")]
    if parsed.suite_sha256 != suite.sha256:
        return [*out, ("regrade", False, "the transcript ran another suite")]
    report = _grade(suite, parsed)
    return [*out, _same("regrade", report.sha256, manifest.get("report_sha256"))]


def _same(name: str, found: str, signed: Any) -> tuple[str, bool, str]:
    if found == signed:
        return name, True, f"recomputed SHA-256 {found} is the signed one"
    return name, False, f"recomputed SHA-256 {found}, but the receipt signs {signed!r:.70}"


__all__ = ["external_app", "summary_lines"]
