"""The `run`, `runs` and `show` commands: drive a harness, list stored runs, show one run."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dittobench.cli.baseline import BUILTIN
from dittobench.cli.common import (
    PACK_HELP,
    JudgeModelOpt,
    JudgeUrlOpt,
    app,
    fail,
    open_pack_option,
    warn_if_draft,
)
from dittobench.spec.versions import CURRENT_VERSION

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from dittobench.engine.judging import JudgeEndpoint
    from dittobench.engine.orchestrate import Progress
    from dittobench.engine.runner import RunOptions, RunOutcome
    from dittobench.sandbox.archive import Archive
    from dittobench.store import RunStore


def default_db() -> Path:
    """The run database under the user's data directory (``$XDG_DATA_HOME`` or
    ``~/.local/share``), read here at the edge. A relative ``XDG_DATA_HOME`` is ignored, as the
    XDG spec says; a home folder that cannot be found or is relative exits 2."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "dittobench" / "runs.db"
    given = os.environ.get("HOME")
    if given is not None and not Path(given).is_absolute():  # "" would mean the root folder
        raise fail(f"HOME is {given!r}, not an absolute path: set it, or pass --db")
    try:
        home = Path.home()
    except RuntimeError:
        raise fail("cannot find the home folder: set HOME or XDG_DATA_HOME, or pass --db") from None
    return home / ".local" / "share" / "dittobench" / "runs.db"


def sqlite_file(db: str | None) -> Path | None:
    """The SQLite file ``--db`` names (the default one without it); None for a database URL."""
    if db is not None and "://" in db:
        return None
    return Path(db).expanduser() if db is not None else default_db()


DB_HELP = (
    "Run database: a SQLite file, or a database URL such as "
    "postgresql+psycopg://user@host/dittobench (needs the `postgres` extra)."
)


def store_location(db: str | None) -> tuple[str, Path]:
    """The run store's URL and the folder for this installation's local files (its signing
    key, the built-in harness's memory): beside a SQLite file, else the user's data folder."""
    from dittobench.store import RunStore

    path = sqlite_file(db)
    if path is None:
        return db or "", default_db().parent
    return RunStore.sqlite_url(path), path.parent


def installation_key(key_file: Path | None, home: Path) -> Ed25519PrivateKey:
    """The key that signs receipts: ``--key`` when given, else this installation's own key,
    created once in ``keys/`` under ``home`` and kept (never a throw-away key)."""
    from dittobench.receipts.keys import (
        PRIVATE_KEY_NAME,
        generate_private_key,
        load_private_key,
        save_keypair,
    )

    if key_file is not None:
        return load_private_key(key_file)
    folder = home / "keys"
    path = folder / PRIVATE_KEY_NAME
    if not path.exists():
        save_keypair(generate_private_key(), folder)
        typer.echo(f"created this installation's signing key: {path}", err=True)
    return load_private_key(path)


@contextlib.contextmanager
def _harness_url(harness: str, home: Path, run_id: str) -> Iterator[str]:
    """The URL to drive: the given one, or a built-in baseline harness started for this run,
    its memory kept in ``baseline/<run id>.db`` under ``home`` so a resume finds it."""
    from dittobench.engine.launcher import builtin_harness

    if harness != BUILTIN:
        yield harness
        return
    with builtin_harness(home / "baseline" / f"{run_id}.db") as url:
        yield url


@contextlib.contextmanager
def _harness_options(
    options: RunOptions, name: str, home: Path, run_id: str, archive: Archive | None
) -> Iterator[RunOptions]:
    """The run's options with its harness: at a URL, the built-in one, or a source archive
    built and run in a sandbox (reached over its bridges) for as long as the run lasts."""
    if archive is None:
        with _harness_url(options.harness_url or name, home, run_id) as url:
            yield replace(options, harness_url=url, harness_name=name)
        return
    from dittobench.sandbox.harness import SandboxConfig, sandboxed_harness

    folder = options.out_dir / run_id / "sandbox"
    with sandboxed_harness(archive, SandboxConfig(), folder) as box:
        yield replace(
            options,
            harness_url=box.url,
            harness_name=name,
            transport=box.transport,
            tool_route=box.tool_route,
        )


def _archive_option(
    path: Path, harness: str | None, resume: str | None, queue: str, seeds: int
) -> Archive:
    """The checked archive of ``--harness-archive``; exit 2 saying why it cannot be used."""
    from dittobench.sandbox import ArchiveError
    from dittobench.sandbox.archive import read_archive
    from dittobench.sandbox.bubblewrap import usable
    from dittobench.sandbox.layout import read_layout

    if harness is not None or resume is not None or queue != "local" or seeds != 1:
        raise fail(
            "--harness-archive makes one local run: drop --harness, --resume, --queue, --seeds"
        )
    problem = usable()
    if problem:
        raise fail(f"--harness-archive needs a working bubblewrap sandbox: {problem}")
    try:
        archive = read_archive(path.read_bytes())
        read_layout(archive)
    except OSError as exc:
        raise fail(f"--harness-archive {path}: {exc.strerror or exc}") from None
    except ArchiveError as exc:
        raise fail(f"--harness-archive {path}: {exc}") from None
    return archive


def open_store(url: str, *, create: bool = True) -> RunStore:
    """The run store at ``url``, or exit 2 saying why it cannot be opened (without ``create``,
    a SQLite file that does not exist is such a reason, and nothing is created)."""
    from dittobench.store import RunStore, StoreError

    try:
        return RunStore(url, create=create)
    except StoreError as exc:
        raise fail(str(exc)) from None


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_run_id() -> str:
    return "r-" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + "-" + os.urandom(3).hex()


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


HarnessOpt = Annotated[
    str | None,
    typer.Option(
        help="The harness base URL (e.g. http://127.0.0.1:8080), or `builtin` to start the "
        "reference baseline harness on a free loopback port for this run."
    ),
]
ArchiveOpt = Annotated[
    Path | None,
    typer.Option(
        "--harness-archive",
        help="Instead of --harness: a harness's source archive (tar.gz or zip, docs/service.md "
        '"Source archives"), built and run in a bubblewrap sandbox for this run.',
        dir_okay=False,
        show_default=False,
    ),
]
RunSizeOpt = Annotated[str, typer.Option("--run-size", help="small, medium or full.")]
SeedOpt = Annotated[int | None, typer.Option(help="Dataset seed; drawn fresh when omitted.")]
ConcurrencyOpt = Annotated[int, typer.Option(help="Cases in flight at once.", min=1, max=64)]
StrictOrderOpt = Annotated[
    bool,
    typer.Option(
        "--strict-order",
        help="Never send /seed while a case is in flight, even to a harness whose /health "
        "declares the seed_while_running capability (without one, this is the default).",
    ),
]
OverlapOpt = Annotated[
    bool,
    typer.Option(
        "--overlap",
        help="Let tool cases run while /seed is sent, as for a harness that declares the "
        "seed_while_running capability: faster, for a harness that takes it.",
    ),
]
NoReseedOpt = Annotated[
    bool,
    typer.Option(
        "--no-reseed",
        help="With --resume: do not send again the waves already seeded (only when the "
        "harness has kept them; a restarted harness usually has not).",
    ),
]
ResumeOpt = Annotated[str | None, typer.Option(help="Finish an interrupted run by id.")]
BenchVersionOpt = Annotated[str, typer.Option("--bench-version")]
PackOpt = Annotated[
    Path | None, typer.Option("--pack", help=PACK_HELP, file_okay=False, show_default=False)
]
DbOpt = Annotated[str | None, typer.Option(help=DB_HELP)]
OutDirOpt = Annotated[Path, typer.Option("--out-dir", help="Where run folders go.")]
JsonOpt = Annotated[Path | None, typer.Option("--json", help="Also write the report here.")]
CaseTimeoutOpt = Annotated[float, typer.Option("--case-timeout", help="Seconds per case.")]
WaitOpt = Annotated[float, typer.Option(help="Seconds to wait for the harness's /health.")]
KeyOpt = Annotated[
    Path | None,
    typer.Option(help="Ed25519 PEM key that signs the receipt (default: this installation's)."),
]
QueueOpt = Annotated[
    str,
    typer.Option(
        "--queue",
        help="local: drive the run here; celery: hand it to `dittobench worker` processes "
        "through --broker (with a --db they share), wait, and print the same summary.",
    ),
]
BrokerOpt = Annotated[
    str,
    typer.Option(envvar="DITTOBENCH_BROKER", help="The Celery broker (Redis URL), --queue celery."),
]
SeedsOpt = Annotated[
    int,
    typer.Option(
        help="A suite: this many runs on fresh seeds, reported with the mean composite and its "
        "95% confidence interval from the spread between seeds.",
        min=1,
        max=1000,
    ),
]
ParallelOpt = Annotated[
    int, typer.Option(help="With --seeds and no --queue celery: runs at once here.", min=1, max=16)
]


@app.command()
def run(
    harness: HarnessOpt = None,
    run_size: RunSizeOpt = "small",
    seed: SeedOpt = None,
    concurrency: ConcurrencyOpt = 8,
    strict_order: StrictOrderOpt = False,
    overlap: OverlapOpt = False,
    no_reseed: NoReseedOpt = False,
    resume: ResumeOpt = None,
    bench_version: BenchVersionOpt = CURRENT_VERSION,
    db: DbOpt = None,
    out_dir: OutDirOpt = Path("dittobench-runs"),
    json_out: JsonOpt = None,
    run_deadline: CaseTimeoutOpt = 120.0,
    wait: WaitOpt = 180.0,
    key: KeyOpt = None,
    pack: PackOpt = None,
    queue: QueueOpt = "local",
    broker: BrokerOpt = "redis://127.0.0.1:6379/0",
    seeds: SeedsOpt = 1,
    parallel: ParallelOpt = 2,
    harness_archive: ArchiveOpt = None,
    judge_url: JudgeUrlOpt = None,
    judge_model: JudgeModelOpt = "",
) -> None:
    """Run the benchmark against a harness: generate, seed, run every case, grade, store.

    Progress goes to stderr; the summary, the run id and the file paths to stdout. Ctrl-C
    leaves a run that `--resume RUN_ID` finishes without redoing finished cases.
    """
    from dittobench.cli.inputs import refuse_overwriting
    from dittobench.engine.client import ClientLimits
    from dittobench.engine.runner import RunOptions
    from dittobench.spec.seeds import seed_source_of

    paths = (harness, resume, out_dir, json_out, key)
    _check_run((strict_order, overlap, no_reseed), seed, run_size, bench_version, run_deadline,
               wait, paths)  # fmt: skip
    chosen_pack = open_pack_option(pack)
    warn_if_draft(bench_version)
    archive = None
    if harness_archive is not None:
        archive = _archive_option(harness_archive, harness, resume, queue, seeds)
        harness = f"archive:sha256:{archive.sha256}"
    if queue != "local" or seeds != 1:
        _refuse_on_workers(queue, seeds, seed, resume, strict_order or overlap or no_reseed, pack)
        os.umask(0o077)
        from dittobench.cli.suites import Plan, many_runs

        many_runs(Plan(harness or BUILTIN, seed, seeds, run_size, bench_version, db, broker,
                       queue, parallel, concurrency, run_deadline, wait, key, out_dir,
                       json_out))  # fmt: skip
        return
    seed_source = seed_source_of(seed)  # a --seed makes the run practice: never ranked
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    url, home = store_location(db)
    store_file = sqlite_file(db)
    if store_file is not None:
        refuse_overwriting(json_out, "--json", {"run store": store_file})
    # Whatever umask the caller has, everything this run creates (store, run folder, keys, the
    # built-in harness's memory) is owner-only: it holds the seed and the tool endpoint.
    os.umask(0o077)
    store = open_store(url, create=resume is None)
    stored_harness, signing_key = _prepare(store, resume, harness, key, home)
    limits = ClientLimits(run_deadline_s=run_deadline, health_wait_s=wait)
    options = RunOptions(harness or "", seed, run_size, bench_version, concurrency, out_dir,
                         limits, signing_key, strict_order=strict_order, overlap=overlap,
                         reseed=not no_reseed, pack=chosen_pack, seed_source=seed_source,
                         judge=judge_endpoint(judge_url, bench_version),
                         judge_model=judge_model)  # fmt: skip
    run_id = resume or new_run_id()
    typer.echo(f"run {run_id} · seed {seed if not resume else '(stored)'}", err=True)
    name = harness or stored_harness or BUILTIN
    outcome = _drive(
        store, run_id, options, name, home, resumed=resume is not None, archive=archive
    )
    _print_outcome(outcome, json_out)


def judge_endpoint(url: str | None, bench_version: str = "") -> JudgeEndpoint | None:
    """``--judge-url`` as an endpoint (its key from $DITTOBENCH_JUDGE_KEY), after checking the
    version (when given) has a judge; None without the option."""
    from dittobench.engine.judging import JudgeEndpoint
    from dittobench.spec.versions import get_policy

    if url is None:
        return None
    if bench_version and get_policy(bench_version).judge is None:
        raise fail(f"--judge-url: bench version {bench_version} has no open questions to judge")
    if not url.startswith(("http://", "https://")):
        raise fail(f"--judge-url must be an http(s) URL, got {url!r}")
    return JudgeEndpoint(url, os.environ.get("DITTOBENCH_JUDGE_KEY", ""))


def _check_run(
    flags: tuple[bool, bool, bool],
    seed: int | None,
    run_size: str,
    bench_version: str,
    case_timeout: float,
    wait: float,
    paths: tuple[str | None, str | None, Path, Path | None, Path | None],
) -> None:
    """Every option checked before anything starts; ``flags`` is (strict_order, overlap,
    no_reseed), ``paths`` (harness, resume, out_dir, json_out, key)."""
    from dittobench.cli.inputs import check_run_options

    strict_order, overlap, no_reseed = flags
    if strict_order and overlap:
        raise fail("--strict-order and --overlap contradict each other: choose one")
    harness, resume, out_dir, json_out, key = paths
    if no_reseed and resume is None:
        raise fail(
            "--no-reseed applies only with --resume RUN_ID (a new run seeds every wave); "
            "drop --no-reseed or add --resume"
        )
    check_run_options(
        seed=seed,
        run_size=run_size,
        bench_version=bench_version,
        case_timeout=case_timeout,
        wait=wait,
        harness=harness,
        resume=resume,
        out_dir=out_dir,
        json_out=json_out,
        key=key,
    )


def _refuse_on_workers(
    queue: str, seeds: int, seed: int | None, resume: str | None, schedule: bool, pack: Path | None
) -> None:
    """What a suite (``--seeds``) or ``--queue celery`` cannot honour."""
    if queue not in ("local", "celery"):
        raise fail(f"--queue must be local or celery, got {queue!r}")
    if resume is not None:
        raise fail("--resume finishes one run here; not with --seeds or --queue celery")
    if seeds != 1 and seed is not None:
        raise fail("--seeds draws a fresh seed for every run: drop --seed")
    if schedule or pack is not None:
        raise fail(
            "--strict-order, --overlap, --no-reseed and --pack apply to a single local run; "
            "not with --seeds or --queue celery (docs/deploy.md)"
        )


def _prepare(
    store: RunStore, resume: str | None, harness: str | None, key: Path | None, home: Path
) -> tuple[str, Ed25519PrivateKey]:
    """The stored harness of a run to resume ("" for a new run; checked as --harness is) and
    the signing key. Closes the store before any exit."""
    from dittobench.cli.inputs import check_harness_option, resumable_run
    from dittobench.receipts.keys import KeyFileError

    stored_harness = ""
    try:
        if resume is not None:
            stored_harness = resumable_run(store, resume).harness
            if harness is None:  # the stored one is used: check it as --harness is checked
                where = f"run {resume!r} in {store.where}: column harness"
                check_harness_option(stored_harness, where)
        return stored_harness, installation_key(key, home)
    except (KeyFileError, OSError) as exc:
        store.close()
        raise fail(f"signing key: {exc}") from None
    except typer.Exit:
        store.close()
        raise


def _drive(
    store: RunStore,
    run_id: str,
    options: RunOptions,
    name: str,
    home: Path,
    *,
    resumed: bool,
    archive: Archive | None = None,
) -> RunOutcome:
    """Start (or resume) the run against harness ``name``, showing progress; exit 1 when it
    fails, 130 on Ctrl-C (both resumable). Closes the store."""
    from dittobench.engine.client import HarnessError
    from dittobench.engine.runner import RunError, held_by_another, resume_run, start_run
    from dittobench.store import StoreError

    if resumed:
        busy = held_by_another(store, run_id, now)  # before a built-in harness is started
        if busy:
            store.close()
            typer.echo(f"error: {busy}", err=True)
            raise typer.Exit(1)
    display = BarProgress() if sys.stderr.isatty() else PlainProgress()
    try:
        with _harness_options(options, name, home, run_id, archive) as chosen, display:
            drive = resume_run if resumed else start_run
            return drive(store, run_id, chosen, now, display)
    except KeyboardInterrupt:
        if resumed or _stored(store, run_id):
            typer.echo(f"\ninterrupted; finish it with: dittobench run --resume {run_id}", err=True)
        else:  # stopped before the run was stored (e.g. while its dataset was made)
            typer.echo(
                f"\ninterrupted before run {run_id} was stored: nothing was stored, there is "
                "nothing to resume; run the command again",
                err=True,
            )
        raise typer.Exit(130) from None
    except (HarnessError, RunError, StoreError, RuntimeError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    finally:
        store.close()


def _stored(store: RunStore, run_id: str) -> bool:
    """Whether the store holds run ``run_id`` (a row it cannot read counts: it is there)."""
    from dittobench.store import StoreError
    from dittobench.store.errors import BadContentError

    try:
        store.get_run(run_id)
    except BadContentError:
        return True
    except StoreError:
        return False
    return True


def _print_outcome(outcome: RunOutcome, json_out: Path | None) -> None:
    """The summary and the file paths on stdout; the report also to ``--json``."""
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
        typer.echo(
            f"receipt     {outcome.receipt_path}   (dittobench verify {outcome.receipt_path})"
        )
    if json_out is not None:
        try:
            json_out.write_bytes(outcome.report_path.read_bytes())
        except OSError as exc:
            raise fail(f"cannot write {json_out}: {exc.strerror}") from None
