"""``dittobench worker``: a Celery worker driving runs from a Redis queue (docs/deploy.md).
Celery is imported only when the command runs."""

from __future__ import annotations

import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dittobench.cli.common import app, fail
from dittobench.cli.places import DB_HELP, store_location

if TYPE_CHECKING:
    import httpx
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from dittobench.store.jobs import ServiceStore
    from dittobench.workers.driver import DriveSettings, JobDriver

DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
BrokerOpt = Annotated[
    str,
    typer.Option(
        envvar="DITTOBENCH_BROKER",
        help="The Celery broker: a Redis URL (env DITTOBENCH_BROKER).",
    ),
]


WorkerDbOpt = Annotated[
    str | None,
    typer.Option(envvar="DITTOBENCH_DB", help=DB_HELP + " Workers and the service share it."),
]
WorkersOpt = Annotated[int, typer.Option(help="Runs driven at once.", min=1, max=64)]
RunConcurrencyOpt = Annotated[
    int, typer.Option("--run-concurrency", help="Cases in flight per run.", min=1, max=64)
]
DataDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        envvar="DITTOBENCH_DATA_DIR",
        help="Folder for keys/ and service-runs/ (default: beside a SQLite store, else the "
        "user's data folder).",
        file_okay=False,
    ),
]
KeyOpt = Annotated[
    Path | None,
    typer.Option(
        envvar="DITTOBENCH_SIGNING_KEY",
        help="Ed25519 PEM key that signs receipts (default: data-dir/keys, made once). "
        "Give every worker and the service the same key.",
        dir_okay=False,
        exists=True,
    ),
]
PrivateOpt = Annotated[
    bool,
    typer.Option(
        "--allow-private-harness",
        envvar="DITTOBENCH_ALLOW_PRIVATE_HARNESS",
        help="Dial harnesses on loopback and private addresses (local use only).",
    ),
]
SweepOpt = Annotated[
    float,
    typer.Option(
        "--sweep-every", help="Seconds between looks for runs whose worker is gone.", min=0.5
    ),
]
CaseTimeoutOpt = Annotated[float, typer.Option("--case-timeout", help="Seconds per case.")]
WaitOpt = Annotated[float, typer.Option(help="Seconds to wait for a harness's /health.")]
NameOpt = Annotated[
    str, typer.Option(help="The worker's name in logs and the store [default: host:pid].")
]
WorkerJudgeOpt = Annotated[
    str | None,
    typer.Option(
        "--judge-url",
        envvar="DITTOBENCH_JUDGE_URL",
        help="An OpenAI-compatible endpoint that judges open questions (key from "
        "$DITTOBENCH_JUDGE_KEY); runs are left unjudged without one. Give every worker and the "
        "service the same.",
        show_default=False,
    ),
]


@app.command()
def worker(
    broker: BrokerOpt = DEFAULT_BROKER,
    db: WorkerDbOpt = None,
    concurrency: WorkersOpt = 1,
    run_concurrency: RunConcurrencyOpt = 8,
    data_dir: DataDirOpt = None,
    key: KeyOpt = None,
    allow_private_harness: PrivateOpt = False,
    sweep_every: SweepOpt = 10.0,
    case_timeout: CaseTimeoutOpt = 120.0,
    wait: WaitOpt = 180.0,
    name: NameOpt = "",
    judge_url: WorkerJudgeOpt = None,
) -> None:
    """Drive runs handed out by the broker (`serve --queue celery`, `run --queue celery`).

    Logs one JSON line per event on stderr (run id included). A worker killed mid-run leaves its
    run to another, which resumes it from the store; SIGTERM stops runs at their next report.
    """
    from dittobench.cli.inputs import judge_endpoint
    from dittobench.core.errors import DittobenchError
    from dittobench.workers import logs
    from dittobench.workers.driver import DriveSettings
    from dittobench.workers.process import WorkerConfig, serve_worker, worker_name

    config = WorkerConfig(broker, concurrency, sweep_every, name)
    log = logs.setup(worker_name(config))
    os.umask(0o077)
    store, folder, signing_key = _store_and_key(db, data_dir, key)
    settings = DriveSettings(run_concurrency, case_timeout, wait, judge_endpoint(judge_url))
    driver = _driver(store, settings, signing_key, folder, allow_private_harness)
    try:
        code = serve_worker(config, store, driver, log)
    except DittobenchError as exc:
        raise fail(str(exc)) from None
    finally:
        store.close()
    raise typer.Exit(code)


def _store_and_key(
    db: str | None, data_dir: Path | None, key: Path | None
) -> tuple[ServiceStore, Path, Ed25519PrivateKey]:
    """The service's store, the folder its run files go under (``--data-dir``, else beside a
    SQLite store or the user's data folder) and the key that signs receipts."""
    from dittobench.receipts.keys import KeyFileError
    from dittobench.store import StoreError
    from dittobench.store.jobs import ServiceStore

    url, home = store_location(db)  # home: beside a SQLite store, else the user's data folder
    folder = data_dir or home
    try:
        store = ServiceStore(url)
    except StoreError as exc:
        raise fail(str(exc)) from None
    try:
        from dittobench.cli.places import installation_key

        signing_key = installation_key(key, folder)
    except (KeyFileError, OSError) as exc:
        store.close()
        raise fail(f"signing key: {exc}") from None
    return store, folder, signing_key


def _driver(
    store: ServiceStore,
    settings: DriveSettings,
    signing_key: Ed25519PrivateKey,
    folder: Path,
    allow_private_harness: bool,
) -> JobDriver:
    """The driver of this worker's runs: harness URLs checked by the SSRF guard, and without
    ``--allow-private-harness`` connections only to the address it checked."""
    from dittobench.service.ssrf import check_url, system_resolver
    from dittobench.workers.driver import JobDriver

    def guard(harness_url: str) -> None:
        check_url(harness_url, system_resolver, allow_private=allow_private_harness)

    return JobDriver(
        store,
        settings,
        signing_key,
        folder / "service-runs",
        check_url=guard,
        transport=None if allow_private_harness else _guarded,
    )


def _guarded() -> httpx.AsyncBaseTransport:
    """Connections only to the public address the SSRF guard checked (docs/service.md)."""
    import httpx

    from dittobench.service.ssrf import GuardedTransport, system_resolver

    return GuardedTransport(
        system_resolver,
        socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)],
        limits=httpx.Limits(max_connections=64),
    )
