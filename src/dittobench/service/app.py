"""``create_app(settings)``: the scoring service as an ASGI app (FastAPI).

It opens the run store (jobs included), loads the tokens and the operator's signing key, and
builds the routes, the middleware (outermost first: closing the connection on an answer given
before the body is in, HEAD as GET, auth, the body guard) and the error handlers: every error
is ``{"error": "..."}`` with its status, never a traceback; one handler answers any
``DittobenchError`` with its class's ``http_status`` (``core/errors.py``). The job queue starts
and stops with the app (its lifespan). ``serve(settings)`` runs it under uvicorn with the
slow-client limits of the settings.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

import dittobench
from dittobench.core.errors import DittobenchError
from dittobench.receipts.keys import (
    PRIVATE_KEY_NAME,
    KeyFileError,
    generate_private_key,
    load_private_key,
    save_keypair,
)
from dittobench.service import (
    archives,
    routes_info,
    routes_pages,
    routes_runs,
    routes_suites,
    routes_windows,
)
from dittobench.service.auth import AuthMiddleware, TokenTable, required_tokens, unclassified
from dittobench.service.context import ApiError, ServiceState
from dittobench.service.events import ProgressHub, StreamSlots
from dittobench.service.head import HeadAsGet
from dittobench.service.jobs import JobQueue
from dittobench.service.limits import BodyGuard, CloseUnread, SlidingWindow
from dittobench.service.sandbox_settings import archive_body_bytes
from dittobench.service.settings import ServiceSettings, SettingsError
from dittobench.service.ssrf import Resolver, system_resolver
from dittobench.spec.versions import POLICIES
from dittobench.store.jobs import ServiceStore
from dittobench.views.trust import ReceiptChecks
from dittobench.workers.broker import Broker, BrokerError

log = logging.getLogger("dittobench.service")

DESCRIPTION = (
    "The dittobench scoring service: datasets as a harness sees them, the tool catalog, and "
    "runs (submit, poll, cancel, transcript, signed receipt, live events). Every error is "
    '`{"error": "..."}`. Routes other than /health, /v1/capabilities and the API docs need '
    "`Authorization: Bearer TOKEN`. docs/service.md."
)


def create_app(settings: ServiceSettings, *, resolver: Resolver = system_resolver) -> FastAPI:
    """The app for ``settings``: raises ``SettingsError``, ``AuthError``, ``StoreError`` or
    ``KeyFileError`` (all ``DittobenchError``) when it cannot be built."""
    token = settings.control_token.get_secret_value() if settings.control_token else None
    tokens = TokenTable.load(settings.token_file, token)
    required_tokens(tokens, settings.auth_mode)
    if not settings.db:
        raise SettingsError("setting db: the run store's URL or SQLite file is required")
    data_dir = _data_dir(settings)
    store = ServiceStore(
        settings.db if "://" in settings.db else ServiceStore.sqlite_url(Path(settings.db))
    )
    try:
        key = operator_key(settings.signing_key, data_dir)
    except (KeyFileError, OSError) as exc:
        store.close()
        raise SettingsError(f"signing key: {exc}") from None
    broker = _broker(settings, store)
    service = _service_state(settings, store, key, data_dir, resolver, broker)
    app = FastAPI(
        title="dittobench scoring service",
        version=dittobench.__version__,
        description=DESCRIPTION,
        lifespan=_lifespan(service, broker),
    )
    app.state.service = service
    app.state.pages = routes_pages.PagesState(
        tokens,
        ReceiptChecks(key.public_key()),
        public=settings.public_pages,
        shadow=settings.auth_mode == "shadow",
    )
    for module in (routes_info, routes_runs, archives, routes_suites, routes_windows, routes_pages):
        app.include_router(module.router)
    _handlers(app)
    routes_pages.handlers(app)
    _middleware(app, settings, tokens, service.auth_failures)
    stray = unclassified(route_keys(app))
    if stray:
        raise SettingsError(f"routes neither public nor protected (service/auth.py): {stray}")
    _document_errors(app)
    return app


def _service_state(
    settings: ServiceSettings,
    store: ServiceStore,
    key: Ed25519PrivateKey,
    data_dir: Path,
    resolver: Resolver,
    broker: Broker | None,
) -> ServiceState:
    """What every route shares, with the job queue (not started: the lifespan starts it)."""
    hub = ProgressHub()
    send = None if broker is None else broker.send
    queue = JobQueue(store, settings, key, data_dir / "service-runs", hub, resolver, send)
    return ServiceState(
        settings=settings,
        store=store,
        queue=queue,
        hub=hub,
        resolver=resolver,
        capabilities=routes_info.describe_capabilities(settings),
        key=key,
        windows_dir=data_dir / "windows",
        submit_limit=SlidingWindow(settings.submit_limit, settings.submit_window_s),
        dataset_limit=SlidingWindow(settings.dataset_limit, settings.dataset_window_s),
        streams=StreamSlots(settings.max_event_streams, settings.max_streams_per_client),
        auth_failures=SlidingWindow(settings.auth_failure_limit, settings.auth_failure_window_s),
    )


def _lifespan(
    service: ServiceState, broker: Broker | None
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The job queue runs while the app does; the store and the broker close after it."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        service.queue.start()
        try:
            yield
        finally:
            service.queue.stop()
            service.store.close()
            if broker is not None:
                broker.close()

    return lifespan


def _middleware(
    app: FastAPI,
    settings: ServiceSettings,
    tokens: TokenTable,
    auth_failures: SlidingWindow | None,
) -> None:
    """The middleware, added innermost first."""
    app.add_middleware(
        BodyGuard,
        max_bytes=settings.max_body_bytes,
        larger={"/v1/submit": archive_body_bytes(settings)},
        timeout_s=settings.body_timeout_s,
        max_depth=settings.max_json_depth,
        refusals=SlidingWindow(settings.refusal_limit, settings.refusal_window_s),
    )
    app.add_middleware(
        AuthMiddleware,
        table=tokens,
        mode=settings.auth_mode,
        public_docs=settings.public_docs,
        failures=auth_failures,
    )
    app.add_middleware(HeadAsGet)  # HEAD is checked and served as GET
    app.add_middleware(CloseUnread)  # outermost: any answer given before the body ends closes


def route_keys(app: FastAPI) -> list[tuple[str, str]]:
    """Every (method, path) the app serves."""
    keys = []
    for route in app.routes:
        for method in sorted(getattr(route, "methods", None) or ()):
            keys.append((method, str(getattr(route, "path", ""))))
    return keys


def _data_dir(settings: ServiceSettings) -> Path:
    if settings.data_dir is not None:
        return settings.data_dir
    if "://" not in settings.db:
        return Path(settings.db).expanduser().resolve().parent
    raise SettingsError("setting data_dir: needed when the run store is a database URL")


def _broker(settings: ServiceSettings, store: ServiceStore) -> Broker | None:
    """With ``queue = "celery"``, the broker runs are handed to, checked reachable."""
    if settings.queue != "celery":
        return None
    if not settings.broker:
        store.close()
        raise SettingsError("setting broker: needed with queue = celery (redis://host:6379/0)")
    try:
        broker = Broker(settings.broker)
        broker.check()
    except BrokerError as exc:
        store.close()
        raise SettingsError(f"setting broker: {exc}") from None
    return broker


def operator_key(given: Path | None, data_dir: Path) -> Ed25519PrivateKey:
    """The key that signs receipts: ``given``, else this service's own in ``data_dir/keys``,
    created once (owner-only) and kept."""
    if given is not None:
        return load_private_key(given)
    path = data_dir / "keys" / PRIVATE_KEY_NAME
    if not path.exists():
        save_keypair(generate_private_key(), path.parent)
        log.info("created the service's signing key: %s", path)
    return load_private_key(path)


def _handlers(app: FastAPI) -> None:
    """Every error as ``{"error": "..."}``: a ``DittobenchError`` with its ``http_status`` (500
    keeps its message for the log), FastAPI's own errors, and a crash as 500."""

    async def failed(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, DittobenchError)
        if exc.http_status == 500:  # the server's own fault: the message is for the operator
            return await crashed(request, exc)
        headers = exc.headers if isinstance(exc, ApiError) else None
        return JSONResponse({"error": str(exc)}, exc.http_status, headers=headers)

    async def http_error(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        return JSONResponse({"error": str(exc.detail)}, exc.status_code, headers=exc.headers)

    async def invalid(_request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or "request"
        return JSONResponse({"error": f"{where}: {first.get('msg', 'invalid')}"}, 400)

    async def crashed(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse({"error": "internal error; the operator's log has the details"}, 500)

    app.add_exception_handler(DittobenchError, failed)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(Exception, crashed)


def _document_errors(app: FastAPI) -> None:
    """Make the OpenAPI document say what the app does: validation errors are 400 (not
    FastAPI's 422), every error body is ``ErrorBody``, and any route may answer 429 (a token
    from an address past its failed-authentication budget, a body from a client past its
    refusal budget), 500 or 503 (the connection limits)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        schema = build()
        error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
        for path_item in schema.get("paths", {}).values():
            for operation in path_item.values():
                responses = operation.setdefault("responses", {})
                responses.pop("422", None)
                for code, said in _ANY_ROUTE:
                    responses.setdefault(code, {"description": said, "content": error})
        accepted = [
            v for v, p in POLICIES.items() if not p.draft or app.state.service.settings.allow_drafts
        ]
        for path_item in schema.get("paths", {}).values():
            for operation in path_item.values():
                for parameter in operation.get("parameters", []):
                    if parameter.get("name") == "bench_version":
                        _enum(parameter.get("schema", {}), accepted)
        schemas = schema.setdefault("components", {}).setdefault("schemas", {})
        for name in ("SubmitRequest", "ScoreRequest"):
            field = schemas.get(name, {}).get("properties", {}).get("bench_version", {})
            _enum(field, accepted)
        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)
        schemas.setdefault(
            "ErrorBody",
            {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
        )
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


_ANY_ROUTE = (
    ("429", "Too many requests, refused requests or failed authentications; see Retry-After."),
    ("500", "Internal error."),
    ("503", "Overloaded: too many connections from this address, or in all."),
)


def _enum(field: dict[str, Any], values: list[str]) -> None:
    """Name the accepted values on a string schema (or the string branch of an ``anyOf``)."""
    for branch in [field, *field.get("anyOf", [])]:
        if branch.get("type") == "string":
            branch["enum"] = values


def serve(settings: ServiceSettings, app: FastAPI) -> None:
    """Run ``app`` under uvicorn until SIGINT or SIGTERM, with the settings' limits on slow and
    numerous clients (``service/connections.py``)."""
    import uvicorn

    from dittobench.service.connections import service_protocol

    trusted = settings.trusted_proxies
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted or None,
        timeout_keep_alive=settings.keep_alive_s,
        limit_concurrency=settings.max_connections,
        # h11 (never httptools), with the per-address cap, the head's deadline and its size
        # (max_header_bytes, counted exactly there).
        http=service_protocol(settings),
        # No WebSocket routes: an upgrade would hand the connection to a protocol that never
        # gives back its per-address count.
        ws="none",
        timeout_graceful_shutdown=10,
        server_header=False,
        log_level="info",
    )


__all__ = ["create_app", "operator_key", "route_keys", "serve"]
