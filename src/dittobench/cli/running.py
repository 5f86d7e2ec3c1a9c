"""The `run` command: one run driven here through ``drive.runs``, or a suite (``--seeds``) or
runs handed to workers (``--queue celery``, both in ``cli.suites``). It parses options, prints,
and maps failures to exit codes; the driving is ``drive.runs.drive_run``'s."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dittobench.cli.common import (
    PACK_HELP,
    JudgeModelOpt,
    JudgeUrlOpt,
    app,
    fail,
    open_pack_option,
    warn_if_draft,
)
from dittobench.cli.inputs import BUILTIN, judge_endpoint
from dittobench.cli.places import (
    DB_HELP,
    default_db,
    installation_key,
    key_to_trust,
    open_store,
    sqlite_file,
    store_location,
)
from dittobench.cli.progress import BarProgress, PlainProgress, display, print_outcome
from dittobench.drive.clock import new_run_id, now
from dittobench.spec.versions import CURRENT_VERSION

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from dittobench.drive.runs import RunRequest
    from dittobench.engine.runner import RunOutcome
    from dittobench.packs import Pack
    from dittobench.sandbox.archive import Archive
    from dittobench.spec.vocab import RunSizeName, SeedSource
    from dittobench.store import RunStore


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
RunSizeOpt = Annotated[
    str,
    typer.Option("--run-size", help="small, medium, full, or long (8.0.0: a history of months)."),
]
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
    args = RunArgs(
        harness, run_size, seed, concurrency, Flags(strict_order, overlap, no_reseed), resume,
        bench_version, db, out_dir, json_out, run_deadline, wait, key, pack, queue, broker, seeds,
        parallel, harness_archive, judge_url, judge_model,
    )  # fmt: skip
    _check_run(args)
    chosen_pack = open_pack_option(pack)
    warn_if_draft(bench_version)
    archive = None
    if harness_archive is not None:
        archive = _archive_option(harness_archive, harness, resume, queue, seeds)
    if queue != "local" or seeds != 1:
        _many(args)
        return
    _one(args, chosen_pack, archive)


@dataclass(frozen=True, slots=True)
class Flags:
    """The schedule options: ``--strict-order``, ``--overlap``, ``--no-reseed``."""

    strict_order: bool
    overlap: bool
    no_reseed: bool

    def any(self) -> bool:
        return self.strict_order or self.overlap or self.no_reseed


@dataclass(frozen=True, slots=True)
class RunArgs:
    """The `run` command's options, as given."""

    harness: str | None
    run_size: str
    seed: int | None
    concurrency: int
    flags: Flags
    resume: str | None
    bench_version: str
    db: str | None
    out_dir: Path
    json_out: Path | None
    run_deadline: float
    wait: float
    key: Path | None
    pack: Path | None
    queue: str
    broker: str
    seeds: int
    parallel: int
    harness_archive: Path | None
    judge_url: str | None
    judge_model: str


def _many(args: RunArgs) -> None:
    """A suite (``--seeds``) or runs on the workers (``--queue celery``): ``cli.suites``."""
    from dittobench.cli.suites import Plan, many_runs

    _refuse_on_workers(args)
    os.umask(0o077)
    many_runs(Plan(args.harness or BUILTIN, args.seed, args.seeds, _size(args),
                   args.bench_version, args.db, args.broker, args.queue, args.parallel,
                   args.concurrency, args.run_deadline, args.wait, args.key, args.out_dir,
                   args.json_out))  # fmt: skip


def _one(args: RunArgs, pack: Pack | None, archive: Archive | None) -> None:
    """One run driven here, started or resumed; its summary printed."""
    from dittobench.cli.inputs import refuse_overwriting
    from dittobench.spec.seeds import seed_source_of

    seed_source = seed_source_of(args.seed)  # a --seed makes the run practice: never ranked
    seed = args.seed
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    url, home = store_location(args.db)
    store_file = sqlite_file(args.db)
    if store_file is not None:
        refuse_overwriting(args.json_out, "--json", {"run store": store_file})
    # Whatever umask the caller has, everything this run creates (store, run folder, keys, the
    # built-in harness's memory) is owner-only: it holds the seed and the tool endpoint.
    os.umask(0o077)
    store = open_store(url, create=args.resume is None)
    stored_harness, signing_key = _prepare(store, args.resume, args.harness, args.key, home)
    name = args.harness or stored_harness or BUILTIN
    if archive is not None:
        name = f"archive:sha256:{archive.sha256}"
    request = _request(args, (seed, seed_source), name, home, signing_key)
    request = replace(request, pack=pack, archive=archive)
    run_id = args.resume or new_run_id()
    typer.echo(f"run {run_id} · seed {seed if not args.resume else '(stored)'}", err=True)
    outcome = drive_here(store, run_id, request, resumed=args.resume is not None)
    print_outcome(outcome, args.json_out, key_to_trust(args.key, home))


def _size(args: RunArgs) -> RunSizeName:
    """``--run-size`` as a member of ``spec.vocab.RUN_SIZES`` (checked by ``_check_run`` first,
    which names the bench version's sizes)."""
    from dittobench.spec.vocab import RUN_SIZES, member

    return member(RUN_SIZES, args.run_size, "--run-size")


def _request(
    args: RunArgs, seed: tuple[int, SeedSource], name: str, home: Path, key: Ed25519PrivateKey
) -> RunRequest:
    """What the driver is asked to run: ``seed`` is the seed and who chose it."""
    from dittobench.drive.runs import RunRequest, Schedule
    from dittobench.engine.client import ClientLimits

    flags = args.flags
    return RunRequest(
        harness=name,
        seed=seed[0],
        run_size=_size(args),
        bench_version=args.bench_version,
        out_dir=args.out_dir,
        concurrency=args.concurrency,
        limits=ClientLimits(run_deadline_s=args.run_deadline, health_wait_s=args.wait),
        schedule=Schedule(flags.strict_order, flags.overlap, reseed=not flags.no_reseed),
        signing_key=key,
        judge=judge_endpoint(args.judge_url, args.bench_version),
        judge_model=args.judge_model,
        seed_source=seed[1],
        local_dir=home,
    )


def _check_run(args: RunArgs) -> None:
    """Every option checked before anything starts."""
    from dittobench.cli.inputs import check_run_options

    if args.flags.strict_order and args.flags.overlap:
        raise fail("--strict-order and --overlap contradict each other: choose one")
    if args.flags.no_reseed and args.resume is None:
        raise fail(
            "--no-reseed applies only with --resume RUN_ID (a new run seeds every wave); "
            "drop --no-reseed or add --resume"
        )
    check_run_options(
        seed=args.seed,
        run_size=args.run_size,
        bench_version=args.bench_version,
        case_timeout=args.run_deadline,
        wait=args.wait,
        harness=args.harness,
        resume=args.resume,
        out_dir=args.out_dir,
        json_out=args.json_out,
        key=args.key,
    )


def _refuse_on_workers(args: RunArgs) -> None:
    """What a suite (``--seeds``) or ``--queue celery`` cannot honour."""
    if args.queue not in ("local", "celery"):
        raise fail(f"--queue must be local or celery, got {args.queue!r}")
    if args.resume is not None:
        raise fail("--resume finishes one run here; not with --seeds or --queue celery")
    if args.seeds != 1 and args.seed is not None:
        raise fail("--seeds draws a fresh seed for every run: drop --seed")
    if args.flags.any() or args.pack is not None:
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


class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be: the engine's interrupt path keeps every recorded
    case, and ``drive_here`` then marks the run failed, saying how to resume it."""


def drive_here(store: RunStore, run_id: str, request: RunRequest, *, resumed: bool) -> RunOutcome:
    """Start (or resume) the run through ``drive.runs.drive_run``, showing progress; exit 1
    when it fails (a resume another process holds too), 130 on Ctrl-C (the run left
    ``interrupted``), 143 on SIGTERM (the run marked ``failed``, saying so); all resumable.
    Closes the store."""
    import contextlib
    import signal
    import threading

    from dittobench.drive.runs import drive_run
    from dittobench.engine.client import HarnessError
    from dittobench.engine.runner import RunError
    from dittobench.store import StoreError

    def terminated(_signum: int, _frame: object) -> None:
        raise _Terminated

    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, terminated) if main else None
    try:
        with display() as shown:
            return drive_run(store, run_id, request, shown, resume=resumed)
    except KeyboardInterrupt as stop:
        sigterm = isinstance(stop, _Terminated)
        if resumed or _stored(store, run_id):
            said = f"finish it with: dittobench run --resume {run_id}"
            if sigterm:
                said = f"stopped by SIGTERM; resume with dittobench run --resume {run_id}"
                with contextlib.suppress(StoreError):  # the message says it all the same
                    store.update_run(run_id, updated_at=now(), status="failed", error=said)
            typer.echo(f"\n{'' if sigterm else 'interrupted; '}{said}", err=True)
        else:  # stopped before the run was stored (e.g. while its dataset was made)
            typer.echo(
                f"\ninterrupted before run {run_id} was stored: nothing was stored, there is "
                "nothing to resume; run the command again",
                err=True,
            )
        raise typer.Exit(143 if sigterm else 130) from None
    except (HarnessError, RunError, StoreError, RuntimeError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    finally:
        if main:
            signal.signal(signal.SIGTERM, before if before is not None else signal.SIG_DFL)
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


__all__ = [
    "BUILTIN",
    "DB_HELP",
    "BarProgress",
    "PlainProgress",
    "default_db",
    "drive_here",
    "installation_key",
    "judge_endpoint",
    "key_to_trust",
    "open_store",
    "print_outcome",
    "run",
    "sqlite_file",
    "store_location",
]
