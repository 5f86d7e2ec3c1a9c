"""The API shapes of scoring windows and the transparency log (docs/service.md, "Scoring
windows")."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from dittobench.spec.vocab import RunSizeName


class OpenWindowRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    pack_path: str = Field(
        min_length=1,
        max_length=4096,
        description="The sealed pack's folder on this server (made with `dittobench pack new`).",
    )
    run_size: RunSizeName
    bench_version: str | None = Field(None, max_length=32, description="Default: current.")


class WindowView(BaseModel):
    window_id: str
    state: Literal["open", "revealed"]
    bench_version: str
    run_size: RunSizeName
    pack_id: str
    pack_sha256: str = Field(description="The commitment: the sealed pack's SHA-256.")
    opened_at: str
    revealed_at: str = Field(description="Empty while open.")
    pack_url: str = Field(description="Where the revealed pack is published (empty while open).")
    pack_archive_sha256: str = Field(description="SHA-256 of the tarball (empty while open).")


class WindowList(BaseModel):
    windows: list[WindowView]


class TreeHeadView(BaseModel):
    format: str
    tree_size: int
    root_hash: str
    timestamp: str
    key_id: str
    public_key: str
    signature: str = Field(description="Ed25519 over the head's RFC 8785 bytes (receipts.md).")


class LogEntries(BaseModel):
    start: int
    end: int
    entries: list[dict[str, str]] = Field(description="Entries start to end - 1, in order.")


class LogExport(BaseModel):
    tree_head: TreeHeadView
    entries: list[dict[str, str]]


class InclusionProofView(BaseModel):
    index: int
    tree_size: int
    leaf_hash: str
    proof: list[str]


class ConsistencyProofView(BaseModel):
    first: int
    second: int
    proof: list[str]


__all__ = [
    "ConsistencyProofView",
    "InclusionProofView",
    "LogEntries",
    "LogExport",
    "OpenWindowRequest",
    "TreeHeadView",
    "WindowList",
    "WindowView",
]
