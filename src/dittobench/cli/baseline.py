"""The reference baseline harness from the command line: `dittobench harness serve`. The
`builtin` harness `dittobench run` starts by itself is launched by ``engine.launcher``."""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from dittobench.cli.common import command_group, fail

BUILTIN = "builtin"

harness_app = command_group(
    "harness", "The reference baseline harness: a real memory store, no model needed."
)


class HarnessMode(StrEnum):
    offline = "offline"
    llm = "llm"


@harness_app.command("serve")
def harness_serve(
    port: Annotated[int, typer.Option(help="Port to listen on; 0 picks a free one.")] = 8080,
    host: Annotated[str, typer.Option(help="Address to bind.")] = "127.0.0.1",
    db: Annotated[
        Path | None, typer.Option(help="SQLite file for its memory (default: in memory).")
    ] = None,
    mode: Annotated[
        HarnessMode,
        typer.Option(help="offline: no model; llm: an OpenAI-compatible chat endpoint."),
    ] = HarnessMode.offline,
    base_url: Annotated[
        str | None,
        typer.Option(help="llm mode: the endpoint's base URL, e.g. http://127.0.0.1:8081/v1."),
    ] = None,
    model: Annotated[str | None, typer.Option(help="llm mode: the model name to request.")] = None,
    max_steps: Annotated[int, typer.Option(min=1, help="llm mode: most model calls per case.")] = 6,
    timeout: Annotated[
        float, typer.Option(min=0.1, help="llm mode: seconds to wait for each model reply.")
    ] = 60.0,
    allow_remote_tools: Annotated[
        bool,
        typer.Option(
            "--allow-remote-tools",
            help="Call a tool_endpoint on another host (by default only loopback http ones).",
        ),
    ] = False,
) -> None:
    """Serve the baseline harness (GET /health, POST /seed, POST /run) until Ctrl-C.

    Offline (the default): it routes requests to tools by similarity to their descriptions,
    answers memory questions from the best-supported stored evidence, and declines when the
    evidence is weak.

    LLM (--mode llm --base-url URL --model NAME): a tool-calling loop with any OpenAI-compatible
    chat model, the memory tools served from its own store. The API key, if the endpoint needs
    one, comes from $DITTOBENCH_MODEL_API_KEY or else $OPENAI_API_KEY.
    """
    from dittobench_baseline.server import AgentFactory, serve

    factory: AgentFactory | None = None
    if mode is HarnessMode.llm:
        if not base_url or not model:
            raise fail("--mode llm needs --base-url and --model")
        from dittobench_baseline.model import ModelAgent, api_key_from
        from dittobench_baseline.store import MemoryStore

        api_key = api_key_from(os.environ)
        url, name = base_url, model

        def factory(store: MemoryStore) -> ModelAgent:
            return ModelAgent(store, url, name, api_key, max_steps, timeout)

    try:
        serve(host, port, db if db is not None else ":memory:", factory, allow_remote_tools)
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc}") from None
    except KeyboardInterrupt:
        pass
