"""``dittobench serve``: the scoring service (docs/service.md). FastAPI is imported only when the
command runs, so ``dittobench --help`` stays fast."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from dittobench.cli.common import app, fail
from dittobench.cli.places import DB_HELP, default_db

HostOpt = Annotated[
    str | None,
    typer.Option(help="Address to listen on [default: 127.0.0.1].", show_default=False),
]
PortOpt = Annotated[
    int | None,
    typer.Option(help="Port to listen on; 0 picks a free one [default: 8000].", show_default=False),
]
DbOpt = Annotated[str | None, typer.Option(help=DB_HELP + " Jobs are kept there too.")]
SettingsOpt = Annotated[
    Path | None,
    typer.Option(
        "--settings",
        help="A TOML (or .json) file of settings (docs/service.md lists them); the command "
        "line and DITTOBENCH_<NAME> environment variables win over it.",
        exists=True,
        dir_okay=False,
        show_default=False,
    ),
]
TokenFileOpt = Annotated[
    Path | None,
    typer.Option(
        "--token-file",
        help="Bearer tokens, one per line: `TOKEN` (an admin) or `TOKEN admin|submitter "
        "NAME`. DITTOBENCH_CONTROL_TOKEN adds an admin token.",
        exists=True,
        dir_okay=False,
        show_default=False,
    ),
]
AuthModeOpt = Annotated[
    str | None,
    typer.Option(
        "--auth-mode",
        help="enforce (the default): 401 without a good token, and no start without a "
        "token; shadow: log what would be refused and serve it.",
        show_default=False,
    ),
]
PrivateOpt = Annotated[
    bool | None,
    typer.Option(
        "--allow-private-harness/--no-allow-private-harness",
        help="Dial harnesses on loopback and private addresses too (local use only; off "
        "by default: the SSRF guard refuses them).",
        show_default=False,
    ),
]

PublicPagesOpt = Annotated[
    bool | None,
    typer.Option(
        "--public-pages/--no-public-pages",
        help="Serve the read-only web pages (runs, cases, leaderboard, receipts) to anyone; "
        "without it the pages ask for a sign-in with a control token.",
        show_default=False,
    ),
]

QueueOpt = Annotated[
    str | None,
    typer.Option(
        "--queue",
        help="local (the default): runs are driven in this process; celery: they are handed to "
        "`dittobench worker` processes through --broker.",
        show_default=False,
    ),
]
BrokerOpt = Annotated[
    str | None,
    typer.Option(help="The Celery broker's URL (redis://host:6379/0), with --queue celery."),
]


@app.command()
def serve(
    host: HostOpt = None,
    port: PortOpt = None,
    db: DbOpt = None,
    settings_file: SettingsOpt = None,
    token_file: TokenFileOpt = None,
    auth_mode: AuthModeOpt = None,
    allow_private_harness: PrivateOpt = None,
    queue: QueueOpt = None,
    broker: BrokerOpt = None,
    public_pages: PublicPagesOpt = None,
) -> None:
    """Run the scoring service: an HTTP API to score harnesses, with durable jobs.

    Routes: GET /health, /v1/capabilities, /v1/dataset, /v1/catalog; POST /v1/submit,
    /v2/score; GET /v1/runs, /v1/runs/ID (and /transcript, /receipt, /events); DELETE
    /v1/runs/ID. Web pages at / (runs, leaderboard, compare, datasets; docs/web.md). The API
    document is at /openapi.json (and /docs). Jobs live in the run store
    and survive a restart. Receipts are signed with the service's key (keys/ beside the store,
    made once), trust tier verified. Every other setting (rate limits, body cap, runs at once,
    trusted proxies) comes from --settings FILE or DITTOBENCH_<NAME>: see docs/service.md.
    """
    if auth_mode is not None and auth_mode not in ("enforce", "shadow"):
        raise fail(f"--auth-mode must be enforce or shadow, got {auth_mode!r}")
    if queue is not None and queue not in ("local", "celery"):
        raise fail(f"--queue must be local or celery, got {queue!r}")
    from dittobench.core.errors import DittobenchError
    from dittobench.service.settings import load_settings

    try:
        settings = load_settings(
            settings_file,
            host=host,
            port=port,
            db=db,
            token_file=token_file,
            auth_mode=auth_mode,
            allow_private_harness=allow_private_harness,
            queue=queue,
            broker=broker,
            public_pages=public_pages,
        )
    except DittobenchError as exc:
        raise fail(str(exc)) from None
    if not settings.db:  # the run store `dittobench run` uses
        settings = settings.model_copy(update={"db": str(default_db())})
    if settings.data_dir is None and "://" in settings.db:
        settings = settings.model_copy(update={"data_dir": default_db().parent})
    _run(settings)


def _run(settings: object) -> None:
    from dittobench.core.errors import DittobenchError
    from dittobench.service.app import create_app
    from dittobench.service.app import serve as run_server
    from dittobench.service.settings import ServiceSettings

    assert isinstance(settings, ServiceSettings)
    os.umask(0o077)  # the store, keys and run files are owner-only
    try:
        application = create_app(settings)
    except DittobenchError as exc:
        raise fail(str(exc)) from None
    if settings.allow_private_harness:
        typer.echo("warning: --allow-private-harness: the SSRF guard is off", err=True)
    if settings.auth_mode == "shadow":
        typer.echo(
            "warning: --auth-mode shadow: requests without a good token are served", err=True
        )
    run_server(settings, application)
