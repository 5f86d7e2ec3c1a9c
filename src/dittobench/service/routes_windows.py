"""Routes for scoring windows (opening and revealing: admins) and the transparency log (public
reads: windows, the signed tree head, entries, inclusion and consistency proofs)."""

from __future__ import annotations

import json
from pathlib import Path as FilePath
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Response

from dittobench.packs import PackError
from dittobench.service.auth import Principal
from dittobench.service.context import ApiError, ServiceState, bench_version, caller, state
from dittobench.service.routes_info import errors
from dittobench.service.window_models import (
    ConsistencyProofView,
    InclusionProofView,
    LogEntries,
    LogExport,
    OpenWindowRequest,
    TreeHeadView,
    WindowList,
    WindowView,
)
from dittobench.service.windows import (
    ARCHIVE_NAME,
    WindowError,
    consistency,
    inclusion,
    open_window,
    reveal_window,
    tree_head,
    window_view,
)
from dittobench.store.windows import REVEALED, WindowRow

router = APIRouter()

WindowId = Annotated[
    str, Path(pattern=r"^w-[0-9a-z-]{1,60}$", description="A window id as opening returns it.")
]
Service = Annotated[ServiceState, Depends(state)]
Caller = Annotated[Principal, Depends(caller)]
MAX_ENTRIES = 1000
"""The most entries one ``GET /v1/log/entries`` returns."""


def _admin(principal: Principal) -> None:
    if not principal.admin:
        raise ApiError(403, "opening and revealing scoring windows is for admins")


def _window(service: ServiceState, window_id: str) -> WindowRow:
    found = service.store.get_window(window_id)
    if found is None:
        raise ApiError(404, f"no window {window_id}")
    return found


@router.post(
    "/v1/windows",
    status_code=201,
    response_model=WindowView,
    tags=["windows"],
    summary="Open a scoring window on a sealed pack",
    responses=errors(400, 401, 403),
)
def open_(body: OpenWindowRequest, service: Service, principal: Caller) -> dict[str, Any]:
    """Admins: check the sealed pack in ``pack_path`` (a folder on this server), keep a copy
    and log its SHA-256 (the commitment) at once. Submissions naming the window run on it."""
    _admin(principal)
    version = bench_version(service, body.bench_version)
    row = open_window(  # WindowError: 400
        service.store,
        service.windows_dir,
        FilePath(body.pack_path),
        version,
        body.run_size,
        principal.name,
    )
    return window_view(row, service.windows_dir)


@router.post(
    "/v1/windows/{window_id}/reveal",
    response_model=WindowView,
    tags=["windows"],
    summary="Close a window and publish its pack",
    responses=errors(401, 403, 404, 409),
)
def reveal(window_id: WindowId, service: Service, principal: Caller) -> dict[str, Any]:
    """Admins: close the window (no run of it may be queued or running: 409), publish its pack
    (``pack_url``) and log the reveal. Anyone can then regenerate and regrade its runs."""
    _admin(principal)
    window = _window(service, window_id)
    try:  # WindowStateError (a run of it still going) is 409 as it is
        row = reveal_window(service.store, window, service.windows_dir)
    except (WindowError, PackError) as exc:  # the kept pack changed: a conflict here, not 400
        raise ApiError(409, str(exc)) from None
    return window_view(row, service.windows_dir)


@router.get("/v1/windows", response_model=WindowList, tags=["windows"], summary="List windows")
def list_windows(service: Service) -> dict[str, Any]:
    """Public: every window, oldest first: its state and commitment."""
    rows = service.store.list_windows()
    return {"windows": [window_view(row, service.windows_dir) for row in rows]}


@router.get(
    "/v1/windows/{window_id}",
    response_model=WindowView,
    tags=["windows"],
    summary="One window",
    responses=errors(400, 404),
)
def get_window(window_id: WindowId, service: Service) -> dict[str, Any]:
    """Public: the window's state and commitment (and, once revealed, where its pack is)."""
    return window_view(_window(service, window_id), service.windows_dir)


@router.get(
    "/v1/windows/{window_id}/" + ARCHIVE_NAME,
    response_class=Response,
    tags=["windows"],
    summary="A revealed window's pack",
    responses={
        200: {"content": {"application/gzip": {}}, "description": "The pack's files, tar.gz."},
        **errors(400, 404),
    },
)
def pack_archive(window_id: WindowId, service: Service) -> Response:
    """Public once revealed (404 before): the pack's nine files as a tar.gz. Unpacked into a
    folder, they load to the window's commitment (``dittobench pack hash DIR``)."""
    window = _window(service, window_id)
    archive = service.windows_dir / window_id / ARCHIVE_NAME
    if window.state != REVEALED or not archive.is_file():
        raise ApiError(404, f"window {window_id} is not revealed")
    return Response(archive.read_bytes(), media_type="application/gzip")


@router.get("/v1/log/head", response_model=TreeHeadView, tags=["log"], summary="Signed tree head")
def head(service: Service) -> dict[str, Any]:
    """Public: the log's size and root now, signed with the operator's key. Keep it: a later
    head must be consistent with it (``GET /v1/log/proof/consistency``)."""
    return tree_head(service.store, service.key)


@router.get("/v1/log", response_model=LogExport, tags=["log"], summary="The whole log")
def export(service: Service) -> dict[str, Any]:
    """Public: a signed tree head and every entry it covers: the file ``dittobench verify
    --log FILE`` reads."""
    signed = tree_head(service.store, service.key)
    entries = service.store.log_entries(0, signed["tree_size"])
    return {"tree_head": signed, "entries": [json.loads(data) for data in entries]}


@router.get(
    "/v1/log/entries",
    response_model=LogEntries,
    tags=["log"],
    summary="Log entries",
    responses=errors(400),
)
def entries(
    service: Service,
    start: Annotated[int, Query(ge=0, le=2**53)] = 0,
    end: Annotated[
        int | None, Query(ge=0, le=2**53, description="Default: the log's size.")
    ] = None,
) -> dict[str, Any]:
    """Public: entries ``start`` to ``end - 1`` (at most 1,000), in order."""
    size = service.store.log_size()
    stop = size if end is None else end
    if not start <= stop <= size or stop - start > MAX_ENTRIES:
        raise ApiError(
            400, f"ask for 0 <= start <= end <= {size} (the log's size), at most {MAX_ENTRIES}"
        )
    found = service.store.log_entries(start, stop)
    return {"start": start, "end": stop, "entries": [json.loads(data) for data in found]}


@router.get(
    "/v1/log/proof/inclusion",
    response_model=InclusionProofView,
    tags=["log"],
    summary="Inclusion proof",
    responses=errors(400),
)
def inclusion_route(
    service: Service,
    index: Annotated[int, Query(ge=0, le=2**53)],
    tree_size: Annotated[int, Query(ge=1, le=2**53)],
) -> dict[str, Any]:
    """Public: the audit path of entry ``index`` in the tree of the first ``tree_size``."""
    return inclusion(service.store, index, tree_size)  # WindowError: 400


@router.get(
    "/v1/log/proof/consistency",
    response_model=ConsistencyProofView,
    tags=["log"],
    summary="Consistency proof",
    responses=errors(400),
)
def consistency_route(
    service: Service,
    first: Annotated[int, Query(ge=0, le=2**53)],
    second: Annotated[int, Query(ge=0, le=2**53)],
) -> dict[str, Any]:
    """Public: the proof that the log of ``first`` entries is a prefix of the log of
    ``second``."""
    return consistency(service.store, first, second)  # WindowError: 400


__all__ = ["router"]
