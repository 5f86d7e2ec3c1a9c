"""``python -m dittobench_baseline [--port N] [--db PATH] [--mode offline|llm ...]``: serve the
baseline harness.

In ``llm`` mode the model's API key is read here, from ``$DITTOBENCH_MODEL_API_KEY`` or else
``$OPENAI_API_KEY`` (optional: local servers need none), and nowhere else.

``--exit-with-parent PID`` (how ``dittobench run`` starts its built-in harness) ties the harness's
life to that process's: on Linux the kernel sends SIGTERM when it dies (``PR_SET_PDEATHSIG``),
and everywhere a watchdog thread notices the parent changed, so a killed engine leaves no
harness behind.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import logging
import os
import signal
import sys
import threading
import time

from dittobench_baseline.model import DEFAULT_MAX_STEPS, DEFAULT_TIMEOUT_S, ModelAgent, api_key_from
from dittobench_baseline.server import AgentFactory, serve
from dittobench_baseline.store import MemoryStore


def _parser() -> argparse.ArgumentParser:
    """The command line of ``python -m dittobench_baseline``."""
    parser = argparse.ArgumentParser(
        prog="python -m dittobench_baseline",
        description="The dittobench reference baseline harness: offline (no model, the default) "
        "or backed by an OpenAI-compatible chat model (--mode llm).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port; 0 picks a free one")
    parser.add_argument(
        "--db", default=":memory:", help="SQLite file for the memory store (default: in memory)"
    )
    parser.add_argument(
        "--mode",
        choices=("offline", "llm"),
        default="offline",
        help="offline: no model (default); llm: an OpenAI-compatible chat endpoint",
    )
    parser.add_argument("--base-url", help="llm mode: the endpoint's base URL, e.g. .../v1")
    parser.add_argument("--model", help="llm mode: the model name to request")
    parser.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        help=f"llm mode: most model calls per case (default {DEFAULT_MAX_STEPS})",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        help=f"llm mode: seconds to wait for each model reply (default {DEFAULT_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--allow-remote-tools",
        action="store_true",
        help="call a run's tool_endpoint even when it is not a loopback http URL",
    )
    parser.add_argument(
        "--exit-with-parent",
        type=int,
        metavar="PID",
        help="exit when process PID (the one that started this harness) is gone",
    )
    return parser


def _llm_factory(parser: argparse.ArgumentParser, args: argparse.Namespace) -> AgentFactory:
    """The agent of ``--mode llm``: a tool loop over the chat endpoint the arguments name."""
    if not args.base_url or not args.model:
        parser.error("--mode llm needs --base-url and --model")
    if args.max_steps < 1 or args.timeout <= 0:
        parser.error("--max-steps must be at least 1 and --timeout positive")
    base_url: str = args.base_url
    model: str = args.model
    max_steps: int = args.max_steps
    timeout_s: float = args.timeout
    api_key = api_key_from(os.environ)

    def factory(store: MemoryStore) -> ModelAgent:
        return ModelAgent(store, base_url, model, api_key, max_steps, timeout_s)

    return factory


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.exit_with_parent is not None:
        exit_with_parent(args.exit_with_parent)
    factory = _llm_factory(parser, args) if args.mode == "llm" else None
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        serve(args.host, args.port, args.db, factory, args.allow_remote_tools)
    except OSError as exc:
        print(f"cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


PR_SET_PDEATHSIG = 1
PARENT_POLL_S = 0.5
STOP_GRACE_S = 5.0


def exit_with_parent(parent: int) -> None:
    """Stop this process when ``parent`` dies: SIGTERM from the kernel on Linux, and a thread
    that polls the parent's pid elsewhere (and as a fallback). Exits at once if ``parent`` is
    already gone (it died before the signal was asked for)."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os.kill(os.getpid(), signal.SIGTERM)  # a graceful stop first
    time.sleep(STOP_GRACE_S)
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
