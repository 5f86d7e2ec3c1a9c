"""The harnesses dittobench ships, from the command line: `dittobench harness serve` serves the
reference baseline, or with ``--adapter`` any memory system behind an adapter
(``dittobench_adapters``). The `builtin` harness `dittobench run` starts by itself is launched by
``engine.launcher``."""

from __future__ import annotations

import json
import os
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from dittobench.cli.common import command_group, fail

if TYPE_CHECKING:
    from dittobench_baseline.server import AgentFactory

harness_app = command_group(
    "harness",
    "The reference baseline harness (a real memory store, no model needed), or a memory system "
    "behind an adapter.",
)

READER_KEY_VARIABLES = ("DITTOBENCH_READER_API_KEY", "DITTOBENCH_MODEL_API_KEY", "OPENAI_API_KEY")


class HarnessMode(StrEnum):
    offline = "offline"
    llm = "llm"


AdapterOpt = Annotated[
    str | None,
    typer.Option(
        help="Serve a memory system instead: a built-in adapter (lexical, embedding, mcp, mem0) "
        "or module:Class (docs/adapters.md).",
    ),
]
AdapterConfigOpt = Annotated[
    str | None,
    typer.Option(help="The adapter's configuration: a JSON object, or a file holding one."),
]
ReaderUrlOpt = Annotated[
    str | None,
    typer.Option(
        help="With --adapter: the locked model reader at this OpenAI-compatible base URL "
        "(default: the offline extractive reader).",
    ),
]
ReaderModelOpt = Annotated[
    str | None,
    typer.Option(
        help="With --reader-url: the model name to request (default: the locked reader's; any "
        "other is reported as not a locked reader).",
    ),
]


PortOpt = Annotated[int, typer.Option(help="Port to listen on; 0 picks a free one.")]
HostOpt = Annotated[str, typer.Option(help="Address to bind.")]
DbOpt = Annotated[
    Path | None, typer.Option(help="SQLite file for its memory (default: in memory).")
]
ModeOpt = Annotated[
    HarnessMode,
    typer.Option(help="offline: no model; llm: an OpenAI-compatible chat endpoint."),
]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option(help="llm mode: the endpoint's base URL, e.g. http://127.0.0.1:8081/v1."),
]
ModelOpt = Annotated[str | None, typer.Option(help="llm mode: the model name to request.")]
MaxStepsOpt = Annotated[int, typer.Option(min=1, help="llm mode: most model calls per case.")]
TimeoutOpt = Annotated[
    float, typer.Option(min=0.1, help="llm mode, model reader: seconds to wait for a reply.")
]
AllowRemoteToolsOpt = Annotated[
    bool,
    typer.Option(
        "--allow-remote-tools",
        help="Call a tool_endpoint on another host (by default only loopback http ones).",
    ),
]


@harness_app.command("serve")
def harness_serve(
    port: PortOpt = 8080,
    host: HostOpt = "127.0.0.1",
    db: DbOpt = None,
    mode: ModeOpt = HarnessMode.offline,
    base_url: BaseUrlOpt = None,
    model: ModelOpt = None,
    max_steps: MaxStepsOpt = 6,
    timeout: TimeoutOpt = 60.0,
    allow_remote_tools: AllowRemoteToolsOpt = False,
    adapter: AdapterOpt = None,
    adapter_config: AdapterConfigOpt = None,
    reader_url: ReaderUrlOpt = None,
    reader_model: ReaderModelOpt = None,
) -> None:
    """Serve the baseline harness (GET /health, POST /seed, POST /run) until Ctrl-C.

    Offline (the default): requests routed to tools by similarity to their descriptions, memory
    questions answered from the best-supported stored evidence, declines when it is weak.
    LLM (--mode llm --base-url URL --model NAME): a tool loop with any OpenAI-compatible chat
    model, memory tools on its own store; key from $DITTOBENCH_MODEL_API_KEY or $OPENAI_API_KEY.

    Adapter (--adapter NAME [--adapter-config JSON|FILE] [--reader-url URL]): waves go into a
    memory system and a reader answers from what it recalls, offline by default or the locked
    model reader (key from $DITTOBENCH_READER_API_KEY). /health declares adapter, system and
    reader; the report, the receipt and the pages name them.
    """
    if adapter is not None:
        if mode is not HarnessMode.offline or base_url or model or db is not None:
            raise fail("--adapter takes no --mode, --base-url, --model or --db (see --help)")
        serve_adapter(
            host,
            port,
            adapter,
            adapter_config,
            reader_url,
            reader_model,
            timeout,
            allow_remote_tools,
        )
        return
    if adapter_config is not None or reader_url is not None or reader_model is not None:
        raise fail("--adapter-config, --reader-url and --reader-model need --adapter")
    from dittobench_baseline.server import serve

    factory = _llm_factory(base_url, model, max_steps, timeout) if mode is HarnessMode.llm else None
    try:
        serve(host, port, db if db is not None else ":memory:", factory, allow_remote_tools)
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc}") from None
    except KeyboardInterrupt:
        pass


def _llm_factory(
    base_url: str | None, model: str | None, max_steps: int, timeout: float
) -> AgentFactory:
    """The agent each session of ``--mode llm`` gets: a tool loop over the chat endpoint."""
    if not base_url or not model:
        raise fail("--mode llm needs --base-url and --model")
    from dittobench_baseline.model import ModelAgent, api_key_from
    from dittobench_baseline.store import MemoryStore

    api_key = api_key_from(os.environ)
    url, name = base_url, model

    def factory(store: MemoryStore) -> ModelAgent:
        return ModelAgent(store, url, name, api_key, max_steps, timeout)

    return factory


def serve_adapter(
    host: str,
    port: int,
    name: str,
    config_text: str | None,
    reader_url: str | None,
    reader_model: str | None,
    timeout: float,
    allow_remote_tools: bool,
) -> None:
    from dittobench.spec.reading import ReaderConfigError
    from dittobench_adapters.contract import AdapterConfigError, AdapterError
    from dittobench_adapters.harness import ReaderChoice, build
    from dittobench_baseline.server import serve_app

    if reader_model and not reader_url:
        raise fail("--reader-model needs --reader-url")
    config = adapter_config_of(config_text)
    api_key = next((os.environ[v] for v in READER_KEY_VARIABLES if os.environ.get(v)), None)
    reader = ReaderChoice(reader_url or "", reader_model or "", api_key, timeout)
    try:
        harness = build(name, config, reader)
    except (AdapterConfigError, AdapterError, ReaderConfigError) as exc:
        raise fail(f"adapter {name}: {exc}") from None
    try:
        serve_app(host, port, harness.app(allow_remote_tools))
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc}") from None
    except KeyboardInterrupt:
        pass
    finally:
        harness.close()


def adapter_config_of(text: str | None) -> dict[str, Any]:
    """``--adapter-config``: JSON given inline (it starts with ``{`` or ``[``) or in a file."""
    if text is None:
        return {}
    source = "--adapter-config"
    if not text.lstrip().startswith(("{", "[")):
        path = Path(text)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise fail(f"--adapter-config {path}: cannot read it ({exc})") from None
        source = str(path)
    try:
        config = json.loads(text)
    except ValueError as exc:
        raise fail(f"{source}: not JSON ({exc})") from None
    if not isinstance(config, dict):
        raise fail(f"{source}: an adapter's configuration is a JSON object")
    return config
