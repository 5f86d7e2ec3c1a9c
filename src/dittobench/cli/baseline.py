"""The reference baseline harness from the command line: `dittobench harness serve`, and the
`builtin` harness `dittobench run` starts by itself."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path
from typing import IO, Annotated

import typer

from dittobench.cli.common import app, fail

BUILTIN = "builtin"
START_TIMEOUT_S = 60.0

harness_app = typer.Typer(
    name="harness",
    help="The reference baseline harness: a real memory store, no model needed.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=app.rich_markup_mode,
    pretty_exceptions_enable=False,
)
app.add_typer(harness_app, name="harness")


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
        serve(host, port, db if db is not None else ":memory:", factory)
    except OSError as exc:
        raise fail(f"cannot listen on {host}:{port}: {exc}") from None
    except KeyboardInterrupt:
        pass


@contextlib.contextmanager
def builtin_harness(db_path: Path) -> Iterator[str]:
    """Start the baseline harness on a free loopback port with its memory in ``db_path`` (kept,
    so a resumed run finds what was seeded), yield its URL, and stop it afterwards.

    It dies with this process even when this process is killed outright (``--exit-with-parent``).
    Both its output streams are read to the end by threads of their own, so however much it
    logs (a neighbour can make it log a line per malformed request) it never blocks on a full
    pipe; the last lines of its stderr are kept for error messages."""
    db_path.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "dittobench_baseline", "--port", "0", "--db", str(db_path)]
    command += ["--exit-with-parent", str(os.getpid())]
    process = subprocess.Popen(  # noqa: S603 - our own interpreter and module, fixed arguments
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    assert process.stderr is not None
    errors = _Tail(process.stderr)
    try:
        yield _wait_for_url(process, errors)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()


STDERR_TAIL_LINES = 40
STDERR_LINE_BYTES = 2000


class _Tail:
    """The last lines a stream wrote (each cut to ``STDERR_LINE_BYTES``), read to its end."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._lines: deque[bytes] = deque(maxlen=STDERR_TAIL_LINES)
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self._reader.start()

    def _drain(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):  # closed when the harness stops
            for line in iter(lambda: stream.readline(STDERR_LINE_BYTES), b""):
                with self._lock:
                    self._lines.append(line)

    def text(self, wait_s: float = 0.0) -> str:
        """What was kept, after waiting up to ``wait_s`` for the stream to end."""
        self._reader.join(wait_s)
        with self._lock:
            return b"".join(self._lines).decode("utf-8", "replace").strip()


def _wait_for_url(process: subprocess.Popen[bytes], errors: _Tail) -> str:
    lines: queue.Queue[bytes] = queue.Queue()
    assert process.stdout is not None
    threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True).start()
    try:
        line = lines.get(timeout=START_TIMEOUT_S).decode().strip()
    except queue.Empty:
        raise RuntimeError(
            f"the built-in harness did not start within {START_TIMEOUT_S:.0f} s"
        ) from None
    if not line.startswith("listening on "):
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)  # its last words are on stderr
        said = line or errors.text(wait_s=1.0)
        raise RuntimeError(f"the built-in harness failed to start: {said}")
    return line.removeprefix("listening on ")


def _pump(stream: IO[bytes], lines: queue.Queue[bytes]) -> None:
    """Hand the first line over, then read the rest away unkept."""
    with contextlib.suppress(OSError, ValueError):
        lines.put(stream.readline())
        while stream.read(65536):
            pass
    lines.put(b"")
