"""The scoring service's settings, read once at start-up and passed down.

Sources, strongest first: the values the command line passes (``dittobench serve --port ...``),
environment variables ``DITTOBENCH_<NAME>`` (e.g. ``DITTOBENCH_PORT``,
``DITTOBENCH_CONTROL_TOKEN``), then the settings file (``--settings FILE``: TOML, or JSON when
the name ends in ``.json``), then the defaults below. An unknown key in the file is an error, so
a misspelt setting never passes silently. docs/service.md lists every setting.
"""

from __future__ import annotations

import json
import tomllib
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from dittobench.core.errors import DittobenchError
from dittobench.engine.judging import JudgeEndpoint
from dittobench.receipts.keys import TrustedKeys
from dittobench.spec.versions import CURRENT_VERSION


class SettingsError(DittobenchError, ValueError):
    """A setting that cannot be used; the message names it."""


class ServiceSettings(BaseSettings):
    """Every knob of ``dittobench serve``."""

    model_config = SettingsConfigDict(
        env_prefix="DITTOBENCH_", extra="forbid", frozen=True, validate_default=True
    )

    host: str = Field("127.0.0.1", description="Address to listen on.")
    port: int = Field(8000, ge=0, le=65535, description="Port to listen on; 0 picks a free one.")
    db: str = Field("", description="Run store: a SQLite file or a database URL.")
    data_dir: Path | None = Field(
        None, description="Folder for the signing key (keys/) and run files (service-runs/)."
    )
    signing_key: Path | None = Field(
        None, description="Ed25519 PEM key that signs receipts (default: data_dir/keys)."
    )
    published_keys_file: Path | None = Field(
        None,
        description="A trusted-keys JSON file of keys GET /v1/keys publishes beside the signing "
        "key: retired keys with their valid_until, or the signing key's own entry to set its "
        "window (default: only the signing key, valid from its file's last change).",
    )
    auth_mode: Literal["enforce", "shadow"] = Field(
        "enforce", description="enforce: 401 without a good token; shadow: log and serve."
    )
    control_token: SecretStr | None = Field(
        None, description="An admin bearer token (env DITTOBENCH_CONTROL_TOKEN)."
    )
    token_file: Path | None = Field(
        None, description="File of tokens: one per line, `TOKEN [admin|submitter NAME]`."
    )
    allow_private_harness: bool = Field(
        False, description="Dial harnesses on loopback and private addresses (local use only)."
    )
    allow_drafts: bool = Field(False, description="Accept runs of draft bench versions.")
    judge_url: str = Field(
        "",
        description="An OpenAI-compatible endpoint that judges open questions for the nuance "
        "score (docs/judge.md); runs are left unjudged without one.",
    )
    judge_key: SecretStr | None = Field(
        None, description="The judge endpoint's bearer key (env DITTOBENCH_JUDGE_KEY)."
    )
    max_active_runs: int = Field(1, ge=1, le=64, description="Runs driven at once.")
    run_concurrency: int = Field(8, ge=1, le=64, description="Cases in flight per run.")
    case_timeout_s: float = Field(120.0, gt=0, le=86400, description="Seconds per case.")
    health_wait_s: float = Field(
        180.0, gt=0, le=86400, description="Seconds to wait for a harness's /health."
    )
    submit_limit: int = Field(15, ge=1, description="Submissions per client per window.")
    submit_window_s: float = Field(300.0, gt=0, description="The submit rate window, seconds.")
    dataset_limit: int = Field(60, ge=1, description="Dataset requests per client per window.")
    dataset_window_s: float = Field(60.0, gt=0, description="The dataset rate window, seconds.")
    max_body_bytes: int = Field(64 * 1024, ge=1024, description="Largest request body.")
    max_json_depth: int = Field(32, ge=2, le=256, description="Deepest JSON nesting accepted.")
    body_timeout_s: float = Field(10.0, gt=0, description="Seconds to send a whole request body.")
    keep_alive_s: int = Field(5, ge=1, description="Seconds an idle connection is kept.")
    max_connections: int = Field(
        512, ge=8, description="Connections served at once; beyond, 503 (uvicorn)."
    )
    max_connections_per_address: int = Field(
        32,
        ge=1,
        description="Connections open at once from one client address (an IPv6 /64); one more "
        "is answered 503 and closed at once. Not applied to trusted_proxies. Below "
        "max_connections, so one address cannot take them all.",
    )
    header_timeout_s: float = Field(
        10.0,
        gt=0,
        le=300,
        description="Seconds a connection has to send a whole request head, from connecting or "
        "from its previous response; then it is closed.",
    )
    max_header_bytes: int = Field(
        64 * 1024,
        ge=4096,
        description="Largest request head (request line, header lines, blank line); beyond, 431.",
    )
    max_event_streams: int = Field(64, ge=1, description="Open /events streams at once.")
    max_streams_per_client: int = Field(
        4, ge=1, description="Open /events streams of one client (token name, else address)."
    )
    refusal_limit: int = Field(
        20,
        ge=1,
        description="Refused requests with a body (400, 408, 413, 429) per client per window; "
        "beyond, its requests with a body are answered 429 unread.",
    )
    refusal_window_s: float = Field(60.0, gt=0, description="The refusal window, seconds.")
    auth_failure_limit: int = Field(
        10,
        ge=1,
        description="Wrong tokens (bearer or sign-in) per client address per window; beyond, "
        "that address gets 429 for any token until the window lets it try again.",
    )
    auth_failure_window_s: float = Field(
        60.0, gt=0, description="The failed-authentication window, seconds."
    )
    trusted_proxies: list[str] = Field(
        default_factory=list,
        description="Proxy addresses whose X-Forwarded-For is believed (empty: none).",
    )
    public_docs: bool = Field(True, description="Serve /docs and /openapi.json without a token.")
    public_pages: bool = Field(
        False, description="Serve the read-only web pages (runs, leaderboard) without sign-in."
    )
    source_revision: str = Field(
        "", description="The source revision to report when the package cannot tell."
    )
    default_bench_version: str = Field(CURRENT_VERSION, description="Used when none is given.")
    queue: Literal["local", "celery"] = Field(
        "local",
        description="local: runs are driven in this process; celery: they are handed to "
        "workers (dittobench worker) through the broker.",
    )
    broker: str = Field(
        "", description="The Celery broker's URL (redis://host:6379/0), for queue = celery."
    )
    max_archive_bytes: int = Field(
        4 * 1024 * 1024, ge=1024, le=64 * 1024 * 1024, description="Largest source archive."
    )
    sandbox_cpu_s: int = Field(900, ge=1, description="CPU seconds per sandboxed process.")
    sandbox_memory_mb: int = Field(2048, ge=64, description="Address space per process, MiB.")
    sandbox_processes: int = Field(128, ge=4, description="Processes in a sandbox at once.")
    sandbox_file_mb: int = Field(256, ge=1, description="Largest file a sandbox writes, MiB.")
    sandbox_total_memory_mb: int = Field(
        2048,
        ge=64,
        description="Memory of a sandbox's whole process tree together, MiB (a cgroup v2 where "
        "delegated, else a watchdog summing resident memory).",
    )
    sandbox_disk_mb: int = Field(
        256,
        ge=64,
        description="Disk quota of a sandboxed harness's work folder, MiB: a tmpfs, so it is "
        "memory too; keep it well below free memory.",
    )
    sandbox_build_s: float = Field(600.0, gt=0, description="Wall-clock limit of a build.")
    sandbox_run_s: float = Field(
        3600.0, gt=0, description="Wall-clock limit of a sandboxed harness's whole life."
    )
    sandbox_index_url: str = Field(
        "https://pypi.org/simple", description="The index requirements are installed from."
    )
    sandbox_build_network: bool = Field(
        True, description="Let a build with requirements reach the network (the index)."
    )

    @model_validator(mode="after")
    def _one_address_cannot_fill_the_server(self) -> ServiceSettings:
        if self.max_connections_per_address >= self.max_connections:
            raise ValueError(
                f"max_connections_per_address ({self.max_connections_per_address}) must be "
                f"below max_connections ({self.max_connections})"
            )
        return self

    @field_validator("published_keys_file")
    @classmethod
    def _published(cls, value: Path | None) -> Path | None:
        if value is not None:
            read_published_keys(value)
        return value

    @field_validator("source_revision")
    @classmethod
    def _revision(cls, value: str) -> str:
        if value and (len(value) != 40 or any(c not in "0123456789abcdef" for c in value)):
            raise ValueError("must be a 40-digit lowercase hex commit id")
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Given values, then the environment, then the settings file (no .env, no secrets
        folder: configuration comes from where docs/service.md says)."""
        return init_settings, env_settings, _FileSource(settings_cls, _FILE_VALUES.get())


_FILE_VALUES: ContextVar[dict[str, Any]] = ContextVar("settings_file", default={})  # noqa: B039


class _FileSource(PydanticBaseSettingsSource):
    """The values read from ``--settings FILE``."""

    def __init__(self, settings_cls: type[BaseSettings], values: dict[str, Any]) -> None:
        super().__init__(settings_cls)
        self._values = values

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return self._values.get(field_name), field_name, False

    def __call__(self) -> dict[str, Any]:
        return dict(self._values)


def load_settings(file: Path | None = None, **given: Any) -> ServiceSettings:
    """The settings from ``given`` (command-line values; ``None`` means not given), the
    environment (``DITTOBENCH_<NAME>``; a list as JSON) and ``file``. ``SettingsError`` names
    the first bad setting."""
    chosen = {key: value for key, value in given.items() if value is not None}
    token = _FILE_VALUES.set(_read_file(file) if file is not None else {})
    try:
        return ServiceSettings(**chosen)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        if not where:  # a rule over several settings names them itself
            raise SettingsError(f"settings: {first['msg'].removeprefix('Value error, ')}") from None
        raise SettingsError(f"setting {where}: {first['msg']}") from None
    except SettingsError:
        raise
    except ValueError as exc:  # an environment value pydantic-settings cannot parse
        raise SettingsError(f"settings: {exc}") from None
    finally:
        _FILE_VALUES.reset(token)


def _read_file(file: Path) -> dict[str, Any]:
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"cannot read settings file {file}: {exc}") from None
    try:
        data = json.loads(text) if file.suffix == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise SettingsError(f"settings file {file} is not valid: {exc}") from None
    if not isinstance(data, dict):
        raise SettingsError(f"settings file {file} must hold one object of settings")
    unknown = sorted(set(data) - set(ServiceSettings.model_fields))
    if unknown:
        raise SettingsError(f"settings file {file}: unknown setting {unknown[0]!r}")
    return data


__all__ = ["ServiceSettings", "SettingsError", "load_settings", "read_published_keys"]


def read_published_keys(path: Path) -> TrustedKeys:
    """The keys ``published_keys_file`` lists; ``ValueError`` saying what is wrong."""
    try:
        return TrustedKeys.from_json(json.loads(path.read_bytes()))
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    except (ValueError, RecursionError) as exc:  # KeyFileError and JSONDecodeError too
        raise ValueError(f"{path}: not a trusted-keys file ({exc})") from None


def judge_of(settings: ServiceSettings) -> JudgeEndpoint | None:
    """The judge runs are judged by (``judge_url``, ``judge_key``), or None."""
    if not settings.judge_url:
        return None
    if not settings.judge_url.startswith(("http://", "https://")):
        raise SettingsError(f"judge_url must be an http(s) URL, got {settings.judge_url!r}")
    key = settings.judge_key.get_secret_value() if settings.judge_key else ""
    return JudgeEndpoint(settings.judge_url, key)
