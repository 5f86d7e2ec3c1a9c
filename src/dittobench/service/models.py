"""The API's request and response shapes, as pydantic models: they validate what comes in and
what goes out, and they are the OpenAPI document's schemas."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dittobench.core.prng import MAX_SEED
from dittobench.spec.vocab import JobMode, JobStatus, RunSizeName, SeedSource

Sha256 = Field(pattern=r"^[0-9a-f]{64}$", description="64 lowercase hex digits.")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorBody(BaseModel):
    error: str = Field(description="What went wrong, in one line.")


class Health(BaseModel):
    status: Literal["ok"]


class BenchVersionInfo(BaseModel):
    version: str
    released: bool = Field(description="False for a draft, whose datasets may still change.")
    current: bool = Field(description="The version used when a request names none.")
    pack_id: str = Field(description="The shipped content pack its datasets are made from.")


class RunSizeInfo(BaseModel):
    name: RunSizeName
    tool_cases: int
    memory_cases: int = Field(description="Memory questions, isolation cases included.")
    waves: int


class PackInfo(BaseModel):
    id: str
    sha256: str


class Capabilities(BaseModel):
    software_version: str = Field(description="The installed dittobench package's version.")
    source_revision: str | None = Field(description="The source commit, when it is known.")
    source_revision_origin: Literal["checkout", "setting"] | None = Field(
        description="checkout: read from the installed source tree's git metadata; setting: "
        "stated by the operator (DITTOBENCH_SOURCE_REVISION)."
    )
    supported_bench_versions: list[str] = Field(description="Released versions, oldest first.")
    bench_versions: list[BenchVersionInfo] = Field(description="Every version, drafts marked.")
    current_bench_version: str
    drafts_accepted: bool = Field(description="Whether runs of draft versions are accepted.")
    run_sizes: list[RunSizeInfo]
    packs: list[PackInfo] = Field(description="The content packs shipped, with their sha256.")
    archive_submissions: bool = Field(
        description="Whether source archives can be submitted (bubblewrap works here)."
    )
    fleet: FleetView | None = Field(None, description="Where runs are driven, live.")


class Wave(BaseModel):
    """A ``POST /seed`` body as the harness is sent it."""

    user_id: str
    wave: int
    pairs: list[dict[str, str]] = Field(default_factory=list)
    subjects: list[dict[str, str]] = Field(default_factory=list)
    links: list[dict[str, str]] = Field(default_factory=list)


class ToolPrompt(BaseModel):
    case_id: str
    user_input: str = Field(description="The prompt, as RunRequest.user_input.")


class MemoryPrompt(BaseModel):
    case_id: str
    user_id: str = Field(description="The user the question is asked for.")
    user_input: str = Field(description="The question, as RunRequest.user_input.")
    run_after_wave: int = Field(description="Asked once this wave of its user is seeded.")


class DatasetView(BaseModel):
    """What a harness is shown of a dataset: no answer key, expected tool or fixture."""

    benchmark: str
    bench_version: str
    seed: str = Field(description="Decimal digits (63-bit seeds do not fit a double).")
    run_size: RunSizeName
    generated_at: str
    dataset_sha256: str = Field(description="What POST /v2/score must name for this dataset.")
    pack: PackInfo
    system_prompt: str
    waves: list[Wave]
    tool_cases: list[ToolPrompt]
    memory_cases: list[MemoryPrompt]
    truncated: bool = Field(description="True when n cut the case lists short.")


class CatalogTool(BaseModel):
    name: str
    description: str
    parameters: dict[str, Any] = Field(description="JSON Schema of the tool's arguments.")


class Catalog(BaseModel):
    bench_version: str
    pack: PackInfo
    tools: list[CatalogTool]


class SubmitRequest(_Strict):
    harness_url: str | None = Field(
        None, max_length=2048, description="The harness's base URL (http or https)."
    )
    archive_base64: str | None = Field(
        None,
        max_length=90 * 1024 * 1024,
        description="Instead of harness_url: a source archive (tar.gz or zip, layout in "
        "docs/service.md), base64. Built and run in a sandbox; over max_archive_bytes is 413.",
    )
    archive_sha256: str | None = Field(
        None,
        pattern=r"^[0-9a-f]{64}$",
        description="With archive_base64, optional: the archive's SHA-256; a mismatch is 400.",
    )
    run_size: RunSizeName = "small"
    seed: int | None = Field(
        None,
        ge=0,
        le=MAX_SEED,
        description="Drawn fresh when absent. A seed given makes the run practice: listed, never "
        "ranked (whoever knows the seed can build the answer key first).",
    )
    bench_version: str | None = Field(None, max_length=32, description="Default: current.")
    window_id: str | None = Field(
        None,
        pattern=r"^w-[0-9a-z-]{1,60}$",
        description="An open scoring window: the run uses its sealed pack, bench version and "
        "run size, on a seed the service draws (not with seed, seeds or archive_base64).",
    )
    seeds: int | None = Field(
        None,
        ge=1,
        le=100,
        description="A suite: this many runs on fresh seeds (not with seed); 202 with the "
        "suite's id and its runs, poll GET /v1/suites/{id}.",
    )


class ScoreRequest(_Strict):
    harness_url: str = Field(max_length=2048, description="The harness's base URL.")
    bench_version: str = Field(max_length=32)
    run_size: RunSizeName
    seed: int = Field(ge=0, le=MAX_SEED)
    dataset_sha256: str = Sha256


_SEED_SOURCE = (
    "Who chose the seed: operator (drawn fresh by the service; ranked) or submitter (named in "
    "the request: practice, never ranked)."
)


_WINDOW_ID = (
    "The scoring window the run is in (its sealed pack; GET /v1/windows), or empty outside one."
)


class Accepted(BaseModel):
    run_id: str
    status: JobStatus
    poll: str = Field(description="Where to read the job: GET this path.")
    bench_version: str
    run_size: RunSizeName
    seed: str
    seed_source: SeedSource = Field(description=_SEED_SOURCE)
    window_id: str = Field("", description=_WINDOW_ID)


class SuiteAccepted(BaseModel):
    suite_id: str
    run_ids: list[str]
    status: JobStatus
    poll: str = Field(description="Where to read the suite: GET this path.")
    bench_version: str
    run_size: RunSizeName
    seeds: list[str]


class SuiteRunView(BaseModel):
    run_id: str
    status: JobStatus
    seed: str
    composite: float | None
    composite_stderr: float | None
    poll: str


class SuiteSummaryView(BaseModel):
    runs: int = Field(description="Runs done, which the summary is over.")
    mean_composite: float
    between_seed_sd: float
    ci95: list[float] = Field(description="95% interval: t with runs - 1 df on the spread.")


class SuiteObject(BaseModel):
    suite_id: str
    status: Literal["queued", "running", "done", "failed"] = Field(
        description="done: every run done; failed: every run over, one not done."
    )
    submitter: str
    harness_url: str
    run_size: RunSizeName
    bench_version: str
    created_at: str
    runs: list[SuiteRunView]
    summary: SuiteSummaryView | None = Field(description="Over the runs done so far.")
    receipt: dict[str, Any] | None = Field(
        description="Once every run is done: Ed25519 over a Merkle root of the runs' receipts."
    )


class WorkerView(BaseModel):
    name: str
    seen_at: str
    concurrency: int
    active_runs: int
    runs_done: int


class FleetView(BaseModel):
    queue: Literal["local", "celery"]
    queue_depth: int = Field(description="Runs waiting for a place (jobs queued).")
    in_process_runs: int = Field(description="Runs this process drives now (queue local).")
    workers_alive: int
    workers: list[WorkerView] = Field(description="Workers heard from in the last 30 s.")
    runs_per_worker: dict[str, int] = Field(description="Runs each worker has finished.")


class JobSummary(BaseModel):
    run_id: str
    status: JobStatus
    mode: JobMode
    submitter: str
    harness_url: str
    run_size: RunSizeName
    bench_version: str
    seed: str
    seed_source: SeedSource = Field(description=_SEED_SOURCE)
    window_id: str = Field("", description=_WINDOW_ID)
    created_at: str
    updated_at: str
    poll: str


class SimilarRun(BaseModel):
    run_id: str
    submitter: str
    archive_sha256: str
    similarity: float = Field(description="Estimated Jaccard similarity of the shingle sets.")


class SimilarList(BaseModel):
    run_id: str
    archive_sha256: str
    threshold: float
    shingles: int = Field(description="Distinct shingles of this run's sources.")
    python_files: int
    similar: list[SimilarRun] = Field(
        description="Earlier submissions at or above the threshold, most similar first. "
        "Advisory: never part of a score."
    )


class JobList(BaseModel):
    runs: list[JobSummary]
    total: int = Field(description="How many runs match the filter in all.")
    limit: int
    offset: int
    next_offset: int | None = Field(description="The offset of the next page, if any.")


class ProgressView(BaseModel):
    stage: str = Field(
        description="queued, building (a source archive), generating, starting (waiting for "
        "the harness's /health), "
        "seeding, running, scoring, or the final status."
    )
    done: int
    total: int


class FailureView(BaseModel):
    kind: str = Field(description="unsafe_url, sandbox, harness, dataset, run, store or internal.")
    retryable: bool = Field(description="Whether submitting again may succeed.")
    message: str


class JobObject(JobSummary):
    dataset_sha256: str | None
    progress: ProgressView
    failure: FailureView | None
    cancelled_by: str | None
    partial: list[dict[str, Any]] | None = Field(
        description="Provisional per-case scores of the cases recorded so far, while running."
    )
    report: dict[str, Any] | None = Field(description="The score report, once done.")
    transcript_sha256: str | None
    receipt: str | None = Field(description="Where the signed receipt is, once done.")


__all__ = [
    "Accepted",
    "BenchVersionInfo",
    "Capabilities",
    "Catalog",
    "CatalogTool",
    "DatasetView",
    "ErrorBody",
    "FailureView",
    "Health",
    "JobList",
    "JobObject",
    "JobStatus",
    "JobSummary",
    "MemoryPrompt",
    "PackInfo",
    "ProgressView",
    "RunSizeInfo",
    "ScoreRequest",
    "SubmitRequest",
    "ToolPrompt",
    "Wave",
]


Capabilities.model_rebuild()  # it names FleetView, defined below it
