"""What every route shares: the service's state (settings, store, queue, limiters), the caller,
and the error a route raises itself (``ApiError``: a status and a one-line message). Any other
``DittobenchError`` a route lets through is answered with its class's ``http_status`` by the
app's one handler (``core/errors.py`` has the tree)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from dittobench.core.errors import DittobenchError
from dittobench.service.auth import Principal
from dittobench.service.events import ProgressHub, StreamSlots
from dittobench.service.jobs import JobQueue
from dittobench.service.jobview import FinishedJobs, PartialScores
from dittobench.service.limits import SlidingWindow, address_key
from dittobench.service.settings import ServiceSettings
from dittobench.service.ssrf import Resolver
from dittobench.spec.versions import POLICIES, UnknownVersionError, get_policy
from dittobench.store.jobs import JobRow, ServiceStore


class ApiError(DittobenchError):
    """An answer other than success that the route words itself: ``status`` (kept as
    ``http_status``), ``{"error": message}`` and ``headers`` (``Retry-After``)."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.http_status, self.message, self.headers = status, message, headers or {}


@dataclass
class ServiceState:
    settings: ServiceSettings
    store: ServiceStore
    queue: JobQueue
    hub: ProgressHub
    resolver: Resolver
    capabilities: dict[str, Any]
    key: Ed25519PrivateKey
    """The operator's signing key (receipts, the log's tree heads)."""
    windows_dir: Path
    """Where scoring windows keep their sealed packs (``data_dir/windows``)."""
    partials: PartialScores = field(default_factory=PartialScores)
    finished: FinishedJobs = field(default_factory=FinishedJobs)
    submit_lock: threading.Lock = field(default_factory=threading.Lock)
    submit_limit: SlidingWindow | None = None
    dataset_limit: SlidingWindow | None = None
    streams: StreamSlots | None = None
    auth_failures: SlidingWindow | None = None
    """Wrong tokens per client address (bearer and sign-in alike)."""


def state(request: Request) -> ServiceState:
    found: ServiceState = request.app.state.service
    return found


_bearer = HTTPBearer(
    auto_error=False, description="A token from --token-file or DITTOBENCH_CONTROL_TOKEN."
)


def caller(
    request: Request,
    _credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The authenticated caller (the auth middleware has already refused everyone else)."""
    principal = request.scope.get("state", {}).get("principal")
    if not isinstance(principal, Principal):  # pragma: no cover - the middleware sets it
        raise ApiError(401, "a valid bearer token is required (Authorization: Bearer TOKEN)")
    return principal


def client_key(request: Request, principal: Principal | None) -> str:
    """Who a rate limit counts: the token's name, else the client's address."""
    if principal is not None and principal.authenticated:
        return f"token:{principal.name}"
    host = request.client.host if request.client else "unknown"
    return f"address:{address_key(host)}"


def limited(window: SlidingWindow | None, key: str) -> None:
    """429 with ``Retry-After`` when ``key`` is over ``window``'s budget."""
    if window is None:
        return
    wait = window.hit(key)
    if wait:
        raise ApiError(
            429,
            f"too many requests: at most {window.limit} per {window.window_s:g} s; try again in "
            f"{wait} s",
            {"Retry-After": str(wait)},
        )


def open_stream(service: ServiceState, client: str) -> Callable[[], None]:
    """Take an event-stream slot for ``client`` (429 with ``Retry-After`` when none is free for
    it); what gives it back."""
    slots = service.streams
    if slots is None:
        return lambda: None
    refused = slots.take(client)
    if refused:
        raise ApiError(429, refused, {"Retry-After": "5"})
    return slots.releaser(client)


def bench_version(service: ServiceState, given: str | None) -> str:
    """The version a request names (the default when None): 400 when unknown, or a draft the
    operator does not accept."""
    version = given or service.settings.default_bench_version
    try:
        policy = get_policy(version)
    except UnknownVersionError:
        raise ApiError(
            400, f"unknown bench_version {version!r}; this service runs: {', '.join(POLICIES)}"
        ) from None
    if policy.draft and not service.settings.allow_drafts:
        raise ApiError(
            400, f"bench_version {version} is a draft, and this service does not run drafts"
        )
    return version


def owned_job(service: ServiceState, principal: Principal, run_id: str) -> JobRow:
    """The job, if the caller may see it (its own, or any for an admin); 404 otherwise, so a
    submitter cannot tell another's run from none."""
    job = service.store.get_job(run_id)
    if job is None or not (principal.admin or job.submitter == principal.name):
        raise ApiError(404, f"no run {run_id}")
    return job


__all__ = [
    "ApiError",
    "ServiceState",
    "bench_version",
    "caller",
    "client_key",
    "limited",
    "open_stream",
    "owned_job",
    "state",
]
