"""Read-only routes: health, capabilities, the trusted keys, a dataset as a harness sees it, the
tool catalog."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel, Field

import dittobench
from dittobench.catalog.shown import shown_by
from dittobench.core.canonical import canonical_bytes
from dittobench.core.hashing import sha256_hex
from dittobench.core.prng import MAX_SEED
from dittobench.generate.assemble import build_dataset
from dittobench.packs import own_pack, public_pack, public_pack_ids
from dittobench.receipts.keys import PRIVATE_KEY_NAME, TrustedKey, TrustedKeys, trusted_entry
from dittobench.sandbox.bubblewrap import usable
from dittobench.service.auth import Principal
from dittobench.service.context import (
    ServiceState,
    bench_version,
    caller,
    client_key,
    limited,
    state,
)
from dittobench.service.fleet import fleet_view
from dittobench.service.models import (
    Capabilities,
    Catalog,
    DatasetView,
    ErrorBody,
    Health,
)
from dittobench.service.settings import ServiceSettings, read_published_keys
from dittobench.spec.dataset import Dataset
from dittobench.spec.sizes import RUN_SIZE_NAMES
from dittobench.spec.versions import CURRENT_VERSION, POLICIES, get_policy
from dittobench.spec.vocab import RunSizeName
from dittobench.spec.wire import to_wire

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

router = APIRouter()


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error responses a route documents, each ``{"error": "..."}``."""
    said = {
        400: "The request is malformed or names something this service does not run.",
        401: "No valid bearer token (enforce mode).",
        403: "Allowed only to admins.",
        404: "No such run, or not one of yours.",
        408: "The request body did not arrive in time.",
        409: "Conflicts with the run's state.",
        413: "The request body is too large.",
        429: "Rate limited, or too many open streams; see Retry-After.",
        503: "This server cannot build and run source archives (no usable bubblewrap).",
    }
    return {code: {"model": ErrorBody, "description": said[code]} for code in codes}


@router.get("/health", response_model=Health, tags=["public"], summary="Liveness")
def health() -> dict[str, str]:
    """Always ``{"status": "ok"}``; reads nothing, for container health checks."""
    return {"status": "ok"}


@router.get(
    "/v1/capabilities", response_model=Capabilities, tags=["public"], summary="What this runs"
)
def capabilities(service: Annotated[ServiceState, Depends(state)]) -> dict[str, Any]:
    """The package version and source revision, the bench versions (drafts marked), run sizes
    and shipped content packs; and, live, where runs are driven (``fleet``: the queue's depth,
    the workers alive and the runs each has finished)."""
    return {**service.capabilities, "fleet": fleet_view(service)}


def describe_capabilities(settings: ServiceSettings) -> dict[str, Any]:
    """The constant answer of ``GET /v1/capabilities``."""
    revision, origin = source_revision(settings)
    sizes = get_policy(CURRENT_VERSION).run_sizes
    return {
        "software_version": dittobench.__version__,
        "source_revision": revision,
        "source_revision_origin": origin,
        "supported_bench_versions": [v for v, p in POLICIES.items() if not p.draft],
        "bench_versions": [
            {
                "version": v,
                "released": not p.draft,
                "current": v == settings.default_bench_version,
                "pack_id": p.pack_id,
            }
            for v, p in POLICIES.items()
        ],
        "current_bench_version": settings.default_bench_version,
        "drafts_accepted": settings.allow_drafts,
        "run_sizes": [
            {
                "name": name,
                "tool_cases": sizes[name].tool_cases,
                "memory_cases": sizes[name].memory_cases + sizes[name].isolation_cases,
                "waves": sizes[name].waves,
            }
            for name in RUN_SIZE_NAMES
        ],
        "packs": [{"id": i, "sha256": public_pack(i).sha256} for i in public_pack_ids()],
        "archive_submissions": usable() == "",
    }


def source_revision(settings: ServiceSettings) -> tuple[str | None, str | None]:
    """The commit of the source tree the package runs from (its git metadata), else the
    operator's ``source_revision`` setting, else unknown."""
    root = Path(dittobench.__file__).resolve().parents[2]
    found = _git_head(root / ".git")
    if found:
        return found, "checkout"
    if settings.source_revision:
        return settings.source_revision, "setting"
    return None, None


def _git_head(git: Path) -> str:
    try:
        if git.is_file():  # a worktree: "gitdir: PATH"
            git = Path(git.read_text(encoding="utf-8").split(":", 1)[1].strip())
        head = (git / "HEAD").read_text(encoding="utf-8").strip()
        if head.startswith("ref: "):
            ref = head[5:]
            loose = git / ref
            if loose.is_file():
                head = loose.read_text(encoding="utf-8").strip()
            else:
                packed = (git / "packed-refs").read_text(encoding="utf-8").splitlines()
                head = next((ln.split()[0] for ln in packed if ln.endswith(" " + ref)), "")
    except (OSError, IndexError, UnicodeDecodeError):
        return ""
    ok = len(head) == 40 and all(c in "0123456789abcdef" for c in head)
    return head if ok else ""


class PublishedKey(BaseModel):
    key_id: str = Field(description="First 16 hex digits of SHA-256 over the raw public key.")
    public_key: str = Field(description="Base64 of the raw 32-byte Ed25519 public key.")
    valid_from: str = Field(description="RFC 3339: receipts created from then on.")
    valid_until: str | None = Field(description="RFC 3339: receipts created before then.")


class PublishedKeys(BaseModel):
    keys: list[PublishedKey]


KEYS_CACHE: Final = "public, max-age=300"


@router.get(
    "/v1/keys",
    response_model=PublishedKeys,
    tags=["public"],
    summary="The keys that sign this service's receipts",
)
@router.get(
    "/.well-known/dittobench-keys.json",
    response_model=PublishedKeys,
    tags=["public"],
    summary="The keys that sign this service's receipts (well-known address)",
)
def published_keys(
    response: Response, service: Annotated[ServiceState, Depends(state)]
) -> dict[str, Any]:
    """A trusted-keys file, exactly as `dittobench verify --trusted-keys` reads it: the signing
    key, valid from when its file was made (no ``valid_until``), and the retired keys the
    operator lists in ``published_keys_file``. `curl .../v1/keys > keys.json && dittobench
    verify receipt.json --trusted-keys keys.json`."""
    response.headers["Cache-Control"] = KEYS_CACHE
    return keys_of(service.settings, service.key, service.windows_dir.parent).to_json()


def keys_of(settings: ServiceSettings, key: Ed25519PrivateKey, data_dir: Path) -> TrustedKeys:
    """The signing key's entry (the operator's own listing of it when there is one) first, then
    every other key ``published_keys_file`` lists."""
    listed = (
        read_published_keys(settings.published_keys_file) if settings.published_keys_file else None
    )
    others = listed.keys if listed is not None else ()
    path = settings.signing_key or data_dir / "keys" / PRIVATE_KEY_NAME
    current: TrustedKey = trusted_entry(key, _made_at(path))
    own = next((k for k in others if k.key_id == current.key_id), current)
    return TrustedKeys((own, *(k for k in others if k.key_id != own.key_id)))


def _made_at(path: Path) -> str:
    """When the key file was last changed (it is written once), to the second, RFC 3339."""
    try:
        seconds = int(path.stat().st_mtime)
    except OSError:
        seconds = 0
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@router.get(
    "/v1/dataset",
    response_model=DatasetView,
    tags=["datasets"],
    summary="A dataset as a harness sees it",
    responses=errors(400, 401, 429),
)
def dataset(
    request: Request,
    service: Annotated[ServiceState, Depends(state)],
    principal: Annotated[Principal, Depends(caller)],
    n: Annotated[
        int | None, Query(ge=1, le=1000, description="At most n cases of each kind.")
    ] = None,
    seed: Annotated[
        int | None, Query(ge=0, le=MAX_SEED, description="Drawn fresh when absent.")
    ] = None,
    run_size: RunSizeName = "small",
    bench_version_: Annotated[str | None, Query(alias="bench_version", max_length=32)] = None,
) -> dict[str, Any]:
    """The waves to seed and the cases to ask, with the system prompt: only what a harness is
    sent, never an answer key, an expected tool or a tool fixture. The ids are the dataset's
    own (a run shows a harness ids keyed by a secret of the run instead)."""
    limited(service.dataset_limit, client_key(request, principal))
    version = bench_version(service, bench_version_)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    pack = own_pack(version)
    made = build_dataset(seed, version, run_size, pack)
    return dataset_view(made, shown_by(pack).system_prompt, pack.pack_id, pack.sha256, n)


def dataset_view(
    made: Dataset, system_prompt: str, pack_id: str, pack_sha256: str, n: int | None
) -> dict[str, Any]:
    tools = [{"case_id": c.id, "user_input": c.prompt} for c in made.tool_cases]
    memory = [  # open questions are asked as memory questions are
        {"case_id": case, "user_id": user, "user_input": question, "run_after_wave": wave}
        for case, _kind, user, question, wave in made.asked()
    ]
    cut = n if n is not None else max(len(tools), len(memory))
    return {
        "benchmark": made.benchmark,
        "bench_version": made.bench_version,
        "seed": str(made.seed),
        "run_size": made.run_size,
        "generated_at": made.generated_at,
        "dataset_sha256": sha256_hex(canonical_bytes(made.to_json())),
        "pack": {"id": pack_id, "sha256": pack_sha256},
        "system_prompt": system_prompt,
        "waves": [to_wire(wave) for wave in made.memory_waves],
        "tool_cases": tools[:cut],
        "memory_cases": memory[:cut],
        "truncated": cut < max(len(tools), len(memory)),
    }


@router.get(
    "/v1/catalog",
    response_model=Catalog,
    tags=["datasets"],
    summary="The tool catalog a harness is sent",
    responses=errors(400, 401),
)
def catalog(
    response: Response,
    service: Annotated[ServiceState, Depends(state)],
    _principal: Annotated[Principal, Depends(caller)],
    bench_version_: Annotated[str | None, Query(alias="bench_version", max_length=32)] = None,
) -> dict[str, Any]:
    """The 34 tools in the words of the version's content pack, as every ``POST /run``
    carries them; ``X-Bench-Version`` repeats the version."""
    version = bench_version(service, bench_version_)
    pack = own_pack(version)
    response.headers["X-Bench-Version"] = version
    return {
        "bench_version": version,
        "pack": {"id": pack.pack_id, "sha256": pack.sha256},
        "tools": [to_wire(tool) for tool in shown_by(pack).tools],
    }


__all__ = [
    "PublishedKeys",
    "dataset_view",
    "describe_capabilities",
    "errors",
    "keys_of",
    "router",
    "source_revision",
]
